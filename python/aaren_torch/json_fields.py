"""Fields of config.json read with the checks and messages of core/io/json_fields.cpp, for the task
sections that name each problem as the C++ reader does ("SOURCE: field 'pooling' must be a string,
got 3")."""
import math

from .json_text import compact
from .number_format import format_double


class RunFolderError(ValueError):
    """A run folder that cannot be used: "SOURCE: PROBLEM", as the C++ loader says it."""


def fail(source, problem):
    raise RunFolderError(f"{source}: {problem}")


def describe_value(value):
    """The value as nlohmann's dump() writes it, cut to 40 characters."""
    text = compact(value)
    return text[:40] + "..." if len(text) > 40 else text


def _present(section, name, source):
    if name not in section:
        fail(source, f"field '{name}' is missing")
    return section[name]


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _fail_field(source, name, requirement, value):
    fail(source, f"field '{name}' must be {requirement}, got {describe_value(value)}")


def string_field(section, name, source):
    value = _present(section, name, source)
    if not isinstance(value, str):
        _fail_field(source, name, "a string", value)
    return value


def bool_field(section, name, source):
    value = _present(section, name, source)
    if not isinstance(value, bool):
        _fail_field(source, name, "true or false", value)
    return value


def number_field(section, name, source, low, high):
    value = _present(section, name, source)
    requirement = f"a number between {format_double(low)} and {format_double(high)}"
    if not _is_number(value) or not low <= value <= high:
        _fail_field(source, name, requirement, value)
    return float(value)


def string_list_field(section, name, source):
    value = _present(section, name, source)
    if not isinstance(value, list):
        _fail_field(source, name, "a list of strings", value)
    for i, item in enumerate(value):
        if not isinstance(item, str):
            fail(source, f"field '{name}' must be a list of strings, but item {i + 1} is {describe_value(item)}")
    return value


def number_list_field(section, name, source, count):
    value = section.get(name)
    if not isinstance(value, list) or len(value) != count:
        fail(source, f"field '{name}' must be a list of {count} numbers")
    if not all(_is_number(x) for x in value):
        fail(source, f"field '{name}' must hold numbers only")
    return [float(x) for x in value]


def int_field(section, name, source, low, high):
    """json_int: 64 and 64.0 alike, within [low, high]."""
    if name not in section:
        fail(source, f"field '{name}' is missing")
    value = section[name]
    if (not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value)
            or value != math.floor(value) or not low <= value <= high):
        fail(source, f"field '{name}' must be a whole number between {low} and {high}, got {describe_value(value)}")
    return int(value)
