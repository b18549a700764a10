"""Numbers as the C++ side writes them (core/io/matrix_csv.cpp: format_number, std::to_chars): the
shortest digits that read back to the same value, in fixed or scientific notation, whichever is
shorter (fixed on a tie), the exponent with a sign and at least two digits."""
import numpy as np


def _shortest(value, dtype):
    v = dtype(value)
    if not np.isfinite(v):
        return "nan" if np.isnan(v) else ("inf" if v > 0 else "-inf")
    fixed = np.format_float_positional(v, unique=True, trim="-")
    if "." not in fixed and abs(v) >= 1:
        fixed = str(int(v))  # a whole number is written exactly, not as its shortest digits padded with zeros
    scientific = np.format_float_scientific(v, unique=True, trim="-", exp_digits=2)
    return fixed if len(fixed) <= len(scientific) else scientific


def format_double(value) -> str:
    return _shortest(value, np.float64)


def format_float(value) -> str:
    return _shortest(value, np.float32)
