"""A run's data as the C++ prepares it (core/data/forecast_data.cpp, core/forecast/forecast_run.cpp):
the chronological split, the scaler fitted on the training rows, and windows of look-back T and
horizon H. Training and validation windows start in their own part; test windows take their
look-back from the rows before the part (core/planning/window_plan.cpp: window_segment)."""
import math

import numpy as np

from .number_format import format_double


# The ETT split (core/data/split.cpp: split_ett_months): 12, 4 and 4 months of 30 days, counted in
# rows from the dates' spacing (24 a day for ETTh, 96 for ETTm); rows after the 20 months are unused.
ETT_MONTHS = (12, 4, 4)
ETT_DAYS_PER_MONTH = 30


def is_ett(split):
    return split.strip().lower() == "ett"


def split_fractions(split):
    """The three fractions of "0.7/0.1/0.2", "0.7,0.1,0.2" or "70/10/20" (core/data/split.cpp)."""
    parts = [float(p) for p in split.replace(",", "/").split("/")]
    if len(parts) != 3:
        raise ValueError(f"split '{split}' has {len(parts)} parts; use three fractions such as 0.7/0.1/0.2")
    if abs(sum(parts) - 100) < 1e-6:
        parts = [p / 100 for p in parts]
    if min(parts) <= 0 or abs(sum(parts) - 1) > 1e-9:
        raise ValueError(f"the split fractions must be positive and add up to 1, not {split}")
    return parts


def split_text(split):
    """The split as config.json records it (to_string(SplitSpec)): "ett" or "0.7/0.1/0.2"."""
    return "ett" if is_ett(split) else "/".join(format_double(p) for p in split_fractions(split))


def rows_per_day(seconds):
    """Rows a day from the median spacing of the dates (infer_rows_per_day), which must divide a day."""
    if len(seconds) < 2:
        raise ValueError("at least two dates are needed to tell how often rows are taken")
    spacing = float(np.median(np.diff(np.asarray(seconds, dtype=np.float64))))
    if not spacing > 0:
        raise ValueError("the dates do not increase from row to row, so the rows per day are unknown")
    per_day = 86400.0 / spacing
    whole = round(per_day)
    if whole < 1 or abs(per_day - whole) > 0.01 * per_day:
        raise ValueError(f"the rows are {spacing:g} seconds apart, which does not divide a day into whole rows")
    return int(whole)


def ett_rows(rows, seconds):
    """(train, validation, test) row ranges of the ETT split, from the dates as seconds."""
    if not len(seconds):
        raise ValueError("the ETT split counts months from the dates, but the data has no date column; "
                         "split by fractions such as 0.7/0.1/0.2 instead")
    try:
        per_day = rows_per_day(seconds)
    except ValueError as error:
        raise ValueError(f"the ETT split needs daily or finer dates: {error}; split by fractions such as "
                         "0.7/0.1/0.2 instead") from None
    month = ETT_DAYS_PER_MONTH * per_day
    train, validation, test = (m * month for m in ETT_MONTHS)
    needed = train + validation + test
    if rows < needed:
        raise ValueError(f"the ETT split needs 20 months of 30 days, {needed} rows at {per_day} a day, but the data "
                         f"has {rows}; split by fractions such as 0.7/0.1/0.2 instead")
    return (0, train), (train, train + validation), (train + validation, needed)


def split_rows(split, rows, seconds=()):
    """(train, validation, test) row ranges; split is config.json's "ett" (which counts months from
    `seconds`, the rows' dates) or "0.7/0.1/0.2"."""
    if is_ett(split):
        return ett_rows(rows, seconds)
    parts = split_fractions(split)
    train = int(math.floor(rows * parts[0]))
    test = int(math.floor(rows * parts[2]))
    validation = rows - train - test
    if min(train, validation, test) < 1:
        raise ValueError(f"{rows} rows are too few to split {split} into three non-empty parts")
    return (0, train), (train, train + validation), (train + validation, rows)


def fit_scaler(values, train):
    """Mean and (biased) standard deviation of each channel over the training rows."""
    part = values[train[0]:train[1]]
    mean = part.mean(axis=0)
    std = np.sqrt(((part - mean) ** 2).mean(axis=0))
    return mean, np.where(std <= 1e-12 * np.maximum(1.0, np.abs(mean)), 1.0, std)


def window_starts(part, seq_len, horizon, is_training):
    """Input rows of every window of a part (WindowIndex::input_row)."""
    begin, end = part if is_training else (part[0] - seq_len, part[1])
    count = end - begin - seq_len - horizon + 1
    return np.arange(begin, begin + max(count, 0))


def scale(values, mean, std):
    """The scaled series as the C++ keeps it: float32 of (x - mean) / std computed in double."""
    return ((values - mean) / std).astype(np.float32)
