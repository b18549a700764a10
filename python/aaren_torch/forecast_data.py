"""A run's data as the C++ prepares it (core/data/forecast_data.cpp, core/forecast/forecast_run.cpp):
the chronological split, the scaler fitted on the training rows, and windows of look-back T and
horizon H. Training and validation windows start in their own part; test windows take their
look-back from the rows before the part (core/planning/window_plan.cpp: window_segment)."""
import math

import numpy as np

from .number_format import format_double


def split_fractions(split):
    """The three fractions of "0.7/0.1/0.2", "0.7,0.1,0.2" or "70/10/20" (core/data/split.cpp)."""
    if split.strip().lower() == "ett":
        raise ValueError("the ETT month split is not supported here; split by fractions such as 0.7/0.1/0.2")
    parts = [float(p) for p in split.replace(",", "/").split("/")]
    if len(parts) != 3:
        raise ValueError(f"split '{split}' has {len(parts)} parts; use three fractions such as 0.7/0.1/0.2")
    if abs(sum(parts) - 100) < 1e-6:
        parts = [p / 100 for p in parts]
    if min(parts) <= 0 or abs(sum(parts) - 1) > 1e-9:
        raise ValueError(f"the split fractions must be positive and add up to 1, not {split}")
    return parts


def split_text(split):
    """The split as config.json records it (to_string(SplitSpec)): "0.7/0.1/0.2"."""
    return "/".join(format_double(p) for p in split_fractions(split))


def split_rows(split, rows):
    """(train, validation, test) row ranges; split is config.json's "0.7/0.1/0.2" (fractions only)."""
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
