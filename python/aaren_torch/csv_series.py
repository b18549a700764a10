"""A small reader of the time-series CSV files the app reads (docs/DESIGN.md section 5).

It follows what a run's config.json records about the file (channels, date column, decimal mark,
gap filling) instead of detecting it again, so a run reads its file the same way here as in the app:
the delimiter (',', ';' or tab) is the header's most frequent candidate, a decimal comma turns
'1.234,5' into 1234.5, quoted cells are unquoted. Errors name the file, line and column.
"""
import csv
import io
import math
import statistics
from datetime import datetime, timedelta

import numpy as np

MISSING = {"", "NA", "NaN", "nan"}  # core/data/csv_cells.cpp: is_missing_cell


def _text(path):
    with open(path, "rb") as f:
        raw = f.read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")  # a few bytes that are not UTF-8: accents in a single-byte encoding
    return text[1:] if text.startswith("\ufeff") else text


def _delimiter(header_line):
    counts = {d: header_line.count(d) for d in (",", ";", "\t")}
    best = max(counts.values())
    return next(d for d in (",", ";", "\t") if counts[d] == best)


def _number(cell, decimal_mark):
    cell = cell.strip().replace(" ", "")
    if decimal_mark == ",":
        cell = cell.replace(".", "").replace(",", ".")
    else:
        cell = cell.replace(",", "")
    return float(cell)


def read_series(path, channels, date_column="", decimal_mark=".", interpolate=False):
    """(dates as written or [], values (rows, channels) float64) of the named columns."""
    text = _text(path)
    lines = text.splitlines()
    if not lines:
        raise ValueError(f"{path}: the file is empty")
    rows = list(csv.reader(io.StringIO(text), delimiter=_delimiter(lines[0])))
    header = [name.strip() for name in rows[0]]
    wanted = [date_column] if date_column else []
    for name in wanted + list(channels):
        if name not in header:
            raise ValueError(f"{path}: the file has no column '{name}' (it has {', '.join(header)})")
    columns = [header.index(name) for name in channels]
    dates, values = [], []
    for line_number, row in enumerate(rows[1:], start=2):
        if not row or all(not cell.strip() for cell in row):
            continue
        if date_column:
            dates.append(row[header.index(date_column)].strip())
        record = []
        for name, column in zip(channels, columns):
            cell = row[column] if column < len(row) else ""
            if cell.strip() in MISSING:
                if not interpolate:
                    raise ValueError(f"{path}, line {line_number}, column '{name}': the value is missing "
                                     "(use interpolation to fill gaps)")
                record.append(math.nan)
                continue
            try:
                record.append(_number(cell, decimal_mark))
            except ValueError:
                raise ValueError(f"{path}, line {line_number}, column '{name}': '{cell}' is not a number") from None
        values.append(record)
    values = np.asarray(values, dtype=np.float64).reshape(len(values), len(channels))
    if interpolate:
        for c in range(values.shape[1]):
            known = ~np.isnan(values[:, c])
            values[:, c] = np.interp(np.arange(len(values)), np.flatnonzero(known), values[known, c])
    return dates, values


# Dates past the end of the file, in the file's own form (core/data/date_continuation.hpp) -----

_FORMATS = ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d", "%Y%m%d", "%d.%m.%Y",
            "%Y/%m/%d")


def date_seconds(dates):
    """The dates as seconds since 1970, for the ETT split's rows per day; [] when the column is not
    one of the date-time forms read here (the split then says it needs dates)."""
    for form in _FORMATS:
        try:
            return [(datetime.strptime(d, form) - datetime(1970, 1, 1)).total_seconds() for d in dates]
        except ValueError:
            continue
    return []


def _add_months(year, month, count):
    index = year * 12 + month - 1 + count
    return index // 12, index % 12 + 1


def continue_dates(dates, count):
    """The `count` dates after the last one, for the common cadences (monthly 1960-11, yearly 1999,
    daily and hourly forms, decimal years); [] when the form is not one of them."""
    if len(dates) < 2:
        return []
    last = dates[-1]
    try:
        if len(last) == 7 and last[4] == "-":  # YYYY-MM
            months = [int(d[:4]) * 12 + int(d[5:7]) for d in dates]
            step = int(statistics.median(b - a for a, b in zip(months, months[1:])))
            return ["%04d-%02d" % _add_months(int(last[:4]), int(last[5:7]), step * k) for k in range(1, count + 1)]
        if len(last) == 4 and last.isdigit():  # yearly
            step = int(statistics.median(int(b) - int(a) for a, b in zip(dates, dates[1:])))
            return [str(int(last) + step * k) for k in range(1, count + 1)]
        if "." in last and last.replace(".", "", 1).isdigit() and last.index(".") == 4:  # decimal years
            numbers = [float(d) for d in dates]
            step = statistics.median(b - a for a, b in zip(numbers, numbers[1:]))
            decimals = len(last) - last.index(".") - 1
            return [f"{numbers[-1] + step * k:.{decimals}f}" for k in range(1, count + 1)]
    except ValueError:
        return []
    for form in _FORMATS:
        try:
            parsed = [datetime.strptime(d, form) for d in dates]
        except ValueError:
            continue
        if form in ("%Y-%m-%d", "%Y%m%d", "%d.%m.%Y", "%Y/%m/%d") and len({p.day for p in parsed}) == 1:
            return [datetime(*_add_months(parsed[-1].year, parsed[-1].month, k), parsed[-1].day).strftime(form)
                    for k in range(1, count + 1)]
        step = statistics.median((b - a).total_seconds() for a, b in zip(parsed, parsed[1:]))
        if step <= 0:
            return []
        return [(parsed[-1] + timedelta(seconds=step * k)).strftime(form) for k in range(1, count + 1)]
    return []
