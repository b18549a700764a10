"""Labelled series for the classifier, read from a UEA/UCR .ts file as the app reads it (core/classify/
ts_reader.hpp, docs/DESIGN.md section 10): '#' comments, header tags (case-insensitive), @classLabel
true with the class names in their order (or false), then @data with one case per line,
dimension 1 values,...:dimension 2 values,...[:label]. '?', NaN, nan and NA are missing values (NaN).
Cases are numbered from 1 in file order. A small reader: it checks what the model needs (one length
per case across its dimensions, the same dimensions in every case, known labels) and names the file,
line and column of what it refuses; the app's reader checks every promise of the header too."""
import math
import os
from dataclasses import dataclass, field
from typing import List

import numpy as np

MISSING = {"?", "NaN", "nan", "NA"}


@dataclass
class LabelledSeries:
    case_id: str
    values: np.ndarray   # (length, dims) float64, NaN where missing
    label: int = -1      # index into class_names; -1 when the file gives none


@dataclass
class LabelledSeriesSet:
    source: str
    problem_name: str
    dims: int
    class_names: List[str] = field(default_factory=list)
    series: List[LabelledSeries] = field(default_factory=list)


def _refuse(name, line, column, reason):
    raise ValueError(f"{name}:{line}:{column}: {reason}")


def _number(text, name, line, column):
    if text in MISSING:
        return math.nan
    try:
        value = float(text)
    except ValueError:
        value = None
    if value is None or not math.isfinite(value) or text.lower() in ("inf", "+inf", "-inf", "infinity"):
        _refuse(name, line, column, f"'{text}' is not a number")
    return value


def parse_ts(text, name):
    """The cases of a .ts file's text; `name` names it in messages and gives the problem name by default."""
    if text.startswith("\ufeff"):
        text = text[1:]
    problem_name = os.path.splitext(os.path.basename(name))[0]
    class_names, labelled, in_data, dims = [], False, False, None
    out = LabelledSeriesSet(name, problem_name, 0)
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if not in_data:
            if not line.startswith("@"):
                _refuse(name, number, 1, "a header line must start with '@' (or the data with @data)")
            words = line.split()
            tag = words[0].lower()
            if tag == "@problemname" and len(words) > 1:
                out.problem_name = line[len(words[0]):].strip()
            elif tag == "@timestamps" and len(words) > 1 and words[1].lower() == "true":
                _refuse(name, number, 1, "timestamped data (@timeStamps true) is not read")
            elif tag == "@classlabel":
                labelled = len(words) > 1 and words[1].lower() == "true"
                class_names = words[2:] if labelled else []
                if labelled and not class_names:
                    _refuse(name, number, len(raw) + 1, "@classLabel true needs the class labels after it")
            elif tag == "@data":
                in_data = True
            continue
        pieces = line.split(":")
        label = -1
        if labelled:
            if len(pieces) < 2:
                _refuse(name, number, len(line) + 1,
                        "no class label: with @classLabel true a case ends with ':' and its label")
            text_label = pieces.pop().strip()
            if text_label not in class_names:
                _refuse(name, number, len(line) - len(text_label) + 1,
                        f"class label '{text_label}' is not one of @classLabel's ({', '.join(class_names)})")
            label = class_names.index(text_label)
        columns, column = [], 1
        for piece in pieces:
            cells = piece.split(",")
            values = []
            for cell in cells:
                values.append(_number(cell.strip(), name, number, column))
                column += len(cell) + 1
            columns.append(values)
        if len({len(c) for c in columns}) != 1:
            _refuse(name, number, 1, "the dimensions of a case must have the same length")
        if dims is None:
            dims = len(columns)
        elif len(columns) != dims:
            _refuse(name, number, 1, f"{len(columns)} dimensions where the cases before have {dims}")
        out.series.append(LabelledSeries(str(len(out.series) + 1), np.asarray(columns, dtype=np.float64).T, label))
    if not out.series:
        raise ValueError(f"{name}: no cases (is @data missing?)")
    out.dims, out.class_names = dims, class_names
    return out


def read_labelled_series(path):
    """A .ts file's cases (by its extension, or a first line that is a tag); other formats are refused."""
    with open(path, "rb") as f:
        raw = f.read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not a text file (not UTF-8)") from None
    first = next((line.strip() for line in text.lstrip("\ufeff").splitlines()
                  if line.strip() and not line.strip().startswith("#")), "")
    if not (path.lower().endswith(".ts") or first.startswith("@")):
        raise ValueError(f"{path}: the twin reads labelled series from .ts files only "
                         "(the app also reads classification CSV files)")
    return parse_ts(text, path)
