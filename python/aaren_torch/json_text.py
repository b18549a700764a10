"""JSON text as the C++ side writes it (nlohmann::json's dump(2) of a std::map-ordered object): keys
sorted, two-space indents, and each double in the digits of nlohmann's to_chars: Grisu2 (Loitsch,
"Printing floating-point numbers quickly and accurately with integers", 2010) with 64-bit integers.
Its digits are Python's repr's in most cases but not all (for 0.98554229736328125, exactly between
0.9855422973632812 and ...813, it writes ...813), so the twin computes them the same way, for a run
folder written here to be the app's byte for byte. Exponent notation outside 1e-4 <= |v| < 1e15."""
import json
import math
import struct
from fractions import Fraction

_M64 = (1 << 64) - 1
_ALPHA = -60
_MIN_DECIMAL_EXPONENT, _DECIMAL_STEP = -300, 8


def _cached_power(k):
    """(f, e): 10^k ~ f 2^e with 2^63 <= f < 2^64, f rounded to nearest (Grisu's cached powers)."""
    value = Fraction(10) ** k
    e = value.numerator.bit_length() - value.denominator.bit_length() - 64
    while value / Fraction(2) ** e >= 1 << 64:
        e += 1
    while value / Fraction(2) ** e < 1 << 63:
        e -= 1
    scaled = value / Fraction(2) ** e
    f = math.floor(scaled + Fraction(1, 2))
    return f, e


_CACHED_POWERS = [(*_cached_power(k), k) for k in range(_MIN_DECIMAL_EXPONENT, 325, _DECIMAL_STEP)]


def _mul(x, y):
    """The upper 64 bits of the 128-bit product, rounded as diyfp::mul does (half up, from bit 63)."""
    (xf, xe), (yf, ye) = x, y
    p0 = (xf & 0xFFFFFFFF) * (yf & 0xFFFFFFFF)
    p1 = (xf & 0xFFFFFFFF) * (yf >> 32)
    p2 = (xf >> 32) * (yf & 0xFFFFFFFF)
    p3 = (xf >> 32) * (yf >> 32)
    q = (p0 >> 32) + (p1 & 0xFFFFFFFF) + (p2 & 0xFFFFFFFF) + (1 << 31)
    return (p3 + (p2 >> 32) + (p1 >> 32) + (q >> 32)) & _M64, xe + ye + 64


def _normalize(x):
    f, e = x
    shift = 64 - f.bit_length()
    return f << shift, e - shift


def _grisu2(value):
    """(digits, decimal exponent) with value ~ int(digits) 10^exponent, for a positive finite double."""
    bits = struct.unpack("<Q", struct.pack("<d", value))[0]
    biased, fraction = bits >> 52, bits & ((1 << 52) - 1)
    v = (fraction, 1 - 1075) if biased == 0 else (fraction + (1 << 52), biased - 1075)
    m_plus = _normalize((2 * v[0] + 1, v[1] - 1))
    m_minus = (4 * v[0] - 1, v[1] - 2) if fraction == 0 and biased > 1 else (2 * v[0] - 1, v[1] - 1)
    m_minus = (m_minus[0] << (m_minus[1] - m_plus[1]), m_plus[1])
    v = _normalize(v)

    f = _ALPHA - m_plus[1] - 1
    k = int(f * 78913 / (1 << 18)) + (1 if f > 0 else 0)  # C's division, truncating toward zero
    cf, ce, ck = _CACHED_POWERS[(-_MIN_DECIMAL_EXPONENT + k + _DECIMAL_STEP - 1) // _DECIMAL_STEP]
    w, w_minus, w_plus = (_mul(x, (cf, ce)) for x in (v, m_minus, m_plus))
    lower, upper, e = w_minus[0] + 1, w_plus[0] - 1, w_plus[1]

    delta, dist = upper - lower, upper - w[0]
    one = 1 << -e
    p1, p2 = upper >> -e, upper & (one - 1)
    digits, exponent = [], -ck

    def round_last(rest, ten_k):
        while rest < dist and delta - rest >= ten_k and (rest + ten_k < dist or dist - rest > rest + ten_k - dist):
            digits[-1] -= 1
            rest += ten_k

    n = len(str(p1))
    pow10 = 10 ** (n - 1)
    while n > 0:
        digits.append(p1 // pow10)
        p1 %= pow10
        n -= 1
        rest = (p1 << -e) + p2
        if rest <= delta:
            round_last(rest, pow10 << -e)
            return "".join(map(str, digits)), exponent + n
        pow10 //= 10
    m = 0
    while True:
        p2 *= 10
        digits.append(p2 >> -e)
        p2 &= one - 1
        m += 1
        delta, dist = (delta * 10) & _M64, (dist * 10) & _M64
        if p2 <= delta:
            break
    round_last(p2, one)
    return "".join(map(str, digits)), exponent - m


def number_text(value):
    """A double as nlohmann::json writes it: shortest digits, '.0' on whole numbers, e+XX beyond."""
    if not math.isfinite(value):
        return "null"
    if value == 0:
        return "-0.0" if math.copysign(1, value) < 0 else "0.0"
    digits, exponent = _grisu2(abs(value))
    sign = "-" if value < 0 else ""
    k = len(digits)
    n = k + exponent
    if k <= n <= 15:
        return sign + digits + "0" * (n - k) + ".0"
    if 0 < n <= 15:
        return sign + digits[:n] + "." + digits[n:]
    if -4 < n <= 0:
        return sign + "0." + "0" * (-n) + digits
    e = n - 1
    mantissa = digits[0] + ("." + digits[1:] if k > 1 else "")
    return f"{sign}{mantissa}e{'-' if e < 0 else '+'}{abs(e):02d}"


def dumps(value, indent=2, level=0):
    """The text of nlohmann's dump(indent) for a JSON value of dicts, lists, strings, numbers, bools, None."""
    pad, inner = " " * (indent * level), " " * (indent * (level + 1))
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f"{inner}{json.dumps(str(k), ensure_ascii=False)}: {dumps(value[k], indent, level + 1)}"
                 for k in sorted(value)]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, (list, tuple)):
        if not value:
            return "[]"
        return "[\n" + ",\n".join(inner + dumps(v, indent, level + 1) for v in value) + "\n" + pad + "]"
    if isinstance(value, float):
        return number_text(value)
    return json.dumps(value, ensure_ascii=False)


def compact(value):
    """The text of nlohmann's dump() without indent: no spaces, keys sorted."""
    if isinstance(value, dict):
        items = (f"{json.dumps(str(k), ensure_ascii=False)}:{compact(value[k])}" for k in sorted(value))
        return "{" + ",".join(items) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(compact(v) for v in value) + "]"
    if isinstance(value, float):
        return number_text(value)
    return json.dumps(value, ensure_ascii=False)
