"""What each kind of run is, for the run folder code that every task shares (core/train/
run_folder_format.hpp: RunTask, and each task's config.json and checkpoint check).

A task names its model class and config, the fields of config.json's "model" section beyond the
backbone's, how a message describes its model, and which fields of how the data was prepared the
checkpoint's copy of config.json must agree on. Adding a task is one Task here and its nn.Module
in models.py.
"""
from dataclasses import dataclass, field
from typing import Callable, Optional, Tuple

from .json_fields import (bool_field, describe_value, fail, int_field, number_field, number_list_field, string_field,
                          string_list_field)
from .models import (FEATURES, MOST_MEMBERS, ClassifierConfig, EventConfig, EventModel, ForecastConfig, ForecastModel,
                     classifier_model)


def count(n, noun):
    return f"{n} {noun}{'' if n == 1 else 'es' if noun.endswith('s') else 's'}"


def _backbone_text(c):
    return f"d_model {c.d_model}, {count(c.heads, 'head')}, {count(c.layers, 'layer')}, d_ff {c.d_ff}"


def _describe_forecaster(c):
    kind = "an Aaren model" if c.kind == "aaren" else "a Transformer"
    alone = "" if c.target_channel < 0 else f", forecasting channel {c.target_channel} alone"
    return (f"{kind} with {_backbone_text(c)}, look-back {c.seq_len}, horizon {c.horizon} and "
            f"{count(c.channels, 'channel')}{alone}")


def _read_forecast_data(data, source, config):
    """read_forecast_features (core/forecast/forecast_run_folder.cpp): "features" M where absent (runs written
    before it), checked against the channels and the target; MS sets the model's target channel."""
    text = data.get("features", "M")
    if not isinstance(text, str):
        fail(source, f"field 'features' must be a string, got {describe_value(text)}")
    if text not in FEATURES:
        fail(source, f"field 'features' must be M, S or MS, got '{text}' (written by a newer Aaren Studio?)")
    if text == "M":
        return
    channels, target = data.get("channels", []), data.get("target", "")
    if not target or target not in channels:
        fail(source, f"features {text} forecast the target, but the target '{target}' is not one of the channels")
    if text == "S" and len(channels) != 1:
        fail(source, f"features S read the target alone, but {len(channels)} channels are listed")
    if text == "MS":
        config.target_channel = channels.index(target)


def _describe_event_model(c):
    kind = "an Aaren event model" if c.kind == "aaren" else "a Transformer event model"
    return (f"{kind} with {_backbone_text(c)}, window {c.window}, {count(c.marks, 'mark type')}, "
            f"{count(c.mixture_components, 'mixture component')}, {count(c.time_frequencies, 'time frequency')}"
            f"{' and a feature' if c.feature else ' and no feature'}")


def _describe_classifier(c):
    # count(classes, "class") as the C++ count_of writes it (core/classify/classify_run_folder.cpp).
    kind = "an Aaren classifier" if c.kind == "aaren" else "a Transformer classifier"
    return (f"{kind} with {_backbone_text(c)}, seq_len {c.seq_len}, {count(c.channels, 'channel')}, "
            f"{count(c.classes, 'class')}, {c.pooling} pooling{' and instance norm' if c.instance_norm else ''}"
            f"{f', an ensemble of {c.members}' if c.members > 1 else ''}")


def _pooling_field(section, name, source):
    pooling = string_field(section, name, source)
    if pooling not in ("mean", "last"):
        fail(source, f"field 'pooling' must be 'mean' or 'last', got '{pooling}'")
    return pooling


def _label_smoothing_field(section, name, source):
    return number_field(section, name, source, 0.0, 0.999999)


def _members_field(section, name, source):
    """json_int_or: runs written before ensembles have one member."""
    if name not in section:
        return 1
    return int_field(section, name, source, 1, MOST_MEMBERS)


_members_field.optional = True


def _augmentation_field(section, name, source):
    """classify_augmentation_from_string's checks; runs written before augmentation have none."""
    if name not in section:
        return "none"
    text = string_field(section, name, source)
    if text == "none":
        return text
    seen = set()
    for part in text.split(","):
        if part not in ("slice", "scale", "jitter"):
            fail(source, f"field 'augmentation': augmentation '{part}' is not one of slice, scale and jitter "
                         "(or none alone)")
        if part in seen:
            fail(source, f"field 'augmentation': augmentation '{part}' is named twice")
        seen.add(part)
    return text


_augmentation_field.optional = True


def _read_classify_data(data, source, config):
    """The checks of read_classify_data: the files' names, one class name per class, a mean and a
    positive standard deviation per channel, and the validation fraction."""
    for name in ("file", "test_file", "problem_name"):
        string_field(data, name, source)
    names = string_list_field(data, "class_names", source)
    if len(names) != config.classes:
        fail(source, f"{len(names)} class names for a model of {count(config.classes, 'class')}")
    number_list_field(data, "channel_mean", source, config.channels)
    for s in number_list_field(data, "channel_std", source, config.channels):
        if not (0 < s < float("inf")):
            fail(source, "field 'channel_std' must hold positive numbers")
    number_field(data, "val_fraction", source, 0.0, 0.9)


@dataclass(frozen=True)
class IntField:
    """A whole number of the "model" section: its name, attribute, bounds and name in messages."""
    name: str
    low: int
    high: int
    label: str


@dataclass(frozen=True)
class Task:
    name: str                    # config.json's "task"; "forecast" is never written
    description: str             # "a forecasting run"
    plural: str                  # "forecasting runs"
    oldest_version: int          # the oldest run format version its runs can have
    config_class: type
    model_class: type
    describe: Callable
    int_fields: Tuple[IntField, ...]
    other_fields: Tuple[Tuple[str, type, str], ...] = ()   # (name, type, label): bools and numbers
    preparation: Tuple[Tuple[Tuple[str, ...], str], ...] = field(default=())  # data keys -> label
    model_preparation: Tuple[Tuple[str, str], ...] = ()    # model keys the data decided -> label
    writes_task: bool = True
    checks_model_metadata: bool = False  # the checkpoint's "model" must name config.json's kind
    read_data: Optional[Callable] = None  # (data section, source, model config): the task's checks


FORECAST = Task(
    "forecast", "a forecasting run", "forecasting runs", 1, ForecastConfig, ForecastModel, _describe_forecaster,
    (IntField("seq_len", 1, 1 << 20, "look-back"), IntField("horizon", 1, 1 << 16, "horizon"),
     IntField("channels", 1, 4096, "channels")),
    preparation=((("channels",), "channel list"), (("target",), "target"), (("features",), "features"),
                 (("date_column",), "date column"), (("interpolate_missing",), "gap filling"),
                 (("decimal_mark",), "decimal mark"), (("split",), "split"), (("scaler_mean", "scaler_std"), "scaler")),
    writes_task=False, checks_model_metadata=True, read_data=_read_forecast_data)

EVENTS = Task(
    "events", "an event-model run", "event-model runs", 2, EventConfig, EventModel, _describe_event_model,
    (IntField("window", 2, 1 << 20, "window"), IntField("marks", 0, 1 << 16, "marks"),
     IntField("mixture_components", 1, 256, "mixture components"),
     IntField("time_frequencies", 0, 30, "time frequencies")),
    other_fields=(("feature", bool, "feature"), ("time_scale", float, "")),
    preparation=((("time_column", "time_is_date", "date_unit"), "time column"), (("decimal_mark",), "decimal mark"),
                 (("sequence_column",), "sequence column"), (("mark_column", "mark_use"), "mark column"),
                 (("mark_names",), "mark names"), (("feature_mean", "feature_std"), "feature scaling"),
                 (("split",), "split")),
    model_preparation=(("time_scale", "time scale"),))

# core/classify/classify_run_folder.cpp; label smoothing is a training setting, free to differ.
CLASSIFY = Task(
    "classify", "a classification run", "classification runs", 2, ClassifierConfig, classifier_model,
    _describe_classifier,
    (IntField("seq_len", 1, 1 << 20, "seq_len"), IntField("channels", 1, 1 << 16, "channels"),
     IntField("classes", 2, 1 << 16, "classes")),
    other_fields=(("pooling", _pooling_field, "pooling"), ("instance_norm", bool_field, "instance norm"),
                  ("label_smoothing", _label_smoothing_field, ""), ("augmentation", _augmentation_field, ""),
                  ("members", _members_field, "ensemble members")),
    preparation=((("class_names",), "class names"), (("channel_mean", "channel_std"), "channel scaling"),
                 (("val_fraction",), "validation fraction")),
    read_data=_read_classify_data)

TASKS = {task.name: task for task in (FORECAST, EVENTS, CLASSIFY)}


def task_of_model(model):
    return TASKS[model.task]
