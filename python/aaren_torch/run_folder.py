"""Run folders (docs/DESIGN.md section 9), read and written as the C++ side does.

load_run checks a folder in the order core/train/run_folder_format.cpp does and refuses it with
the same messages: the folder, config.json (format, task, version), model.safetensors (structure,
format, checksum, version, task, its copy of config.json against config.json, then every name and
shape). save_run writes config.json, then model.safetensors with the metadata the C++ reader checks,
then metrics.json and loss.csv, each whole through a temporary file.
"""
import json
import os
import re
from dataclasses import dataclass, fields

import numpy as np
import torch

from . import __version__, json_text, safetensors_io
from .atomic import write_bytes_atomically, write_text_atomically
from .json_fields import RunFolderError, describe_value, fail as _fail, int_field
from .number_format import format_double
from .models import KINDS
from .tasks import TASKS

RUN_FORMAT = "aaren-studio-run"
RUN_FORMAT_VERSION = 2
WRITTEN_BY = f"Aaren Studio {__version__} (aaren_torch)"
FILES = ("config.json", "model.safetensors", "metrics.json", "loss.csv")


def _describe_task(name):
    return TASKS[name].description if name in TASKS else f"a run of task '{name}'"


def _differ(names):
    return ", ".join(names) + (" differs" if len(names) == 1 else " differ")


# config.json --------------------------------------------------------------------------------

def parse_config(text, source, task_name):
    """config.json's text -> (dict, model config), with the checks of parse_run_config_document."""
    try:
        root = json.loads(text)
    except ValueError as error:
        _fail(source, f"not valid JSON ({error})")
    if not isinstance(root, dict):
        _fail(source, "not a JSON object")
    if root.get("format", "") != RUN_FORMAT:
        _fail(source, f"not an Aaren Studio run configuration (field 'format' should be '{RUN_FORMAT}')")
    task = TASKS[task_name]
    written = root.get("task", "forecast")
    if written != task.name:
        suffix = "" if "task" in root else f" (its config.json has no 'task': '{task.name}')"
        _fail(source, f"{_describe_task(written)}, not {task.description}{suffix}")
    version = int_field(root, "version", source, 0, 1 << 20)
    if version < task.oldest_version or version > RUN_FORMAT_VERSION:
        _fail(source, f"written by run format version {version}; this Aaren Studio reads {task.plural} of "
                      f"versions {task.oldest_version} to {RUN_FORMAT_VERSION}")
    for section in ("model", "data", "training"):
        if not isinstance(root.get(section), dict):
            _fail(source, f"field '{section}' must be an object")
    config = model_config_from(root["model"], task_name, source + " (model)")
    if task.read_data is not None:
        task.read_data(root["data"], source + " (data)", config)
    return root, version, config


def model_config_from(section, task_name, source):
    """The model config of config.json's "model" section (parse_backbone, then the task's fields)."""
    task = TASKS[task_name]
    kind = section.get("kind")
    if kind not in KINDS:
        _fail(source, f"field 'kind' must be 'aaren', 'transformer' or 'linear', got '{kind}'")
    values = dict(kind=kind, d_model=int_field(section, "d_model", source, 1, 8192),
                  heads=int_field(section, "heads", source, 1, 1024),
                  layers=int_field(section, "layers", source, 1, 256),
                  d_ff=int_field(section, "d_ff", source, 1, 65536))
    for f in task.int_fields:
        values[f.name] = int_field(section, f.name, source, f.low, f.high)
    for name, kind_of_value, _ in task.other_fields:
        if name not in section and not getattr(kind_of_value, "optional", False):
            _fail(source, f"field '{name}' is missing")
        if kind_of_value in (bool, float, str):
            values[name] = kind_of_value(section[name])
        else:  # a reader with the C++ checks and messages: (section, name, source) -> value
            values[name] = kind_of_value(section, name, source)
    config = task.config_class(**values)
    try:
        config.validate()
    except ValueError as error:
        _fail(source, str(error))
    return config


def model_section(config):
    """config.json's "model" section of a model config."""
    return {f.name: getattr(config, f.name) for f in fields(config)}


def config_text(task_name, config, data, training):
    """The whole config.json (run_config_text): keys sorted and indented as nlohmann's dump(2)."""
    root = {"format": RUN_FORMAT, "version": RUN_FORMAT_VERSION, "model": model_section(config),
            "data": data, "training": training}
    if TASKS[task_name].writes_task:
        root["task"] = task_name
    return json_text.dumps(root) + "\n"


# The checkpoint's copy of config.json against config.json ----------------------------------

def _model_differences(task, a, b):
    names = [n for n in ("kind", "d_model", "heads", "layers", "d_ff") if getattr(a, n) != getattr(b, n)]
    names += [f.label for f in task.int_fields if getattr(a, f.name) != getattr(b, f.name)]
    if getattr(a, "target_channel", -1) != getattr(b, "target_channel", -1):  # a forecaster's, MS
        names.append("forecast channel")
    return names + [label for name, _, label in task.other_fields if label and getattr(a, name) != getattr(b, name)]


def _preparation_differences(task, written, current):
    a, b = written["data"], current["data"]
    names = [label for keys, label in task.preparation if any(a.get(k) != b.get(k) for k in keys)]
    return names + [label for key, label in task.model_preparation
                    if written["model"].get(key) != current["model"].get(key)]


def _required(metadata, key, source):
    if key not in metadata:
        _fail(source, f"the header's metadata has no '{key}' (a damaged header, or not a checkpoint of a run)")
    return metadata[key]


def parse_checkpoint(data, source, task_name, root, version, config, layout):
    """The tensors by name, once the checkpoint passed every check of parse_run_parameters."""
    try:
        metadata, tensors, body = safetensors_io.parse(data, source)
    except ValueError as error:
        raise RunFolderError(str(error)) from None
    task = TASKS[task_name]
    if not metadata:
        _fail(source, "the header has no metadata: not a checkpoint of an Aaren Studio run (another program wrote it?)")
    written_format = _required(metadata, "format", source)
    if written_format != RUN_FORMAT:
        _fail(source, f"not a checkpoint of an Aaren Studio run (its metadata says format '{written_format}', "
                      f"not '{RUN_FORMAT}')")
    if "data_fnv1a64" in metadata or version >= 2:
        if safetensors_io.fnv1a64_hex(body) != _required(metadata, "data_fnv1a64", source):
            _fail(source, "the tensor values do not match the checksum stored with them: the file was damaged after "
                          "it was written (train again, or restore it from a copy)")
    version_text = _required(metadata, "version", source)
    if not re.fullmatch(r"[0-9]+", version_text) or int(version_text) < 1:
        _fail(source, f"the metadata's 'version' must be a whole number, got '{version_text}' (a damaged header)")
    written_version = int(version_text)
    provenance = (f"written by {metadata.get('written_by', 'Aaren Studio')} "
                  f"(run format version {written_version})")
    if written_version > RUN_FORMAT_VERSION:
        _fail(source, f"{provenance}, a newer Aaren Studio: this one reads run format versions "
                      f"{task.oldest_version} to {RUN_FORMAT_VERSION}")
    if written_version != version:
        _fail(source, f"{provenance}, but config.json beside it is version {version}: the folder holds the files "
                      "of two different runs")
    written_task = metadata.get("task", "forecast")
    if written_task != task.name:
        _fail(source, f"the checkpoint of {_describe_task(written_task)}, but config.json beside it describes "
                      f"{task.description}: the folder holds the files of two different runs")
    if version == 1:
        if _required(metadata, "model", source) != config.kind:
            _fail(source, f"written for a model of kind '{metadata['model']}', but this run's config.json "
                          f"describes {task.describe(config)}")
    else:
        _required(metadata, "written_by", source)
        copy_source = source + " (its copy of config.json)"
        written_root, _, written_config = parse_config(_required(metadata, "config", source), copy_source, task_name)
        differences = _model_differences(task, written_config, config)
        if differences:
            _fail(source, f"written for {task.describe(written_config)}, but this run's config.json describes "
                          f"{task.describe(config)}: a model of another shape ({_differ(differences)})")
        if task.checks_model_metadata and _required(metadata, "model", source) != config.kind:
            _fail(source, f"the metadata's 'model' says '{metadata['model']}' but its copy of config.json says "
                          f"'{config.kind}' (a damaged header)")
        preparation = _preparation_differences(task, written_root, root)
        if preparation:
            _fail(source, f"trained on data prepared otherwise than config.json describes ({_differ(preparation)}): "
                          "config.json belongs to a later run into this folder that stopped before it saved a model; "
                          "train again, or use another folder")
    found = dict(tensors)
    problems = []
    for name, shape in layout:
        if name not in found:
            problems.append(f"tensor '{name}' is missing")
        elif tuple(found[name].shape) != tuple(shape):
            problems.append(f"'{name}' has shape {list(found[name].shape)} but the configuration implies {list(shape)}")
    expected = {name for name, _ in layout}
    problems += [f"unexpected tensor '{name}' (written by a different architecture?)"
                 for name, _ in tensors if name not in expected]
    if problems:
        more = len(problems) - 1
        _fail(source, problems[0] + (f" (and {more} more mismatch{'es' if more > 1 else ''})" if more else ""))
    return found


# Loading and saving --------------------------------------------------------------------------

@dataclass
class LoadedRun:
    dir: str
    task: str            # "forecast", "events" or "classify"
    config: dict         # config.json as written
    model: torch.nn.Module
    metrics: dict = None  # metrics.json, or None before the first epoch's


def _read_text(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as error:
        _fail(path, f"cannot open ({error.strerror})")


def run_task(directory):
    """The task of a run folder by its config.json ("forecast" where it names none)."""
    try:
        return json.loads(_read_text(os.path.join(directory, "config.json"))).get("task", "forecast")
    except (ValueError, AttributeError):
        return "forecast"


def load_run(directory, task=None, dtype=torch.float64, device="cpu"):
    """A run folder's model with its best weights, in eval mode, as `dtype` on `device`.

    task: "forecast", "events" or "classify"; by default the one config.json names. Raises RunFolderError."""
    directory = os.fspath(directory)
    if not os.path.isdir(directory):
        _fail(directory, "no such run folder")
    task = task or run_task(directory)
    config_path = os.path.join(directory, "config.json")
    root, version, config = parse_config(_read_text(config_path), config_path, task)
    model_path = os.path.join(directory, "model.safetensors")
    if not os.path.exists(model_path):
        _fail(model_path, "missing (the run has not finished an epoch yet?)")
    model = TASKS[task].model_class(config)
    found = parse_checkpoint(_read_text(model_path), model_path, task, root, version, config, model.layout())
    model.load_state_dict({name: torch.from_numpy(found[name].copy()) for name, _ in model.layout()})
    model = model.to(device=device, dtype=dtype).eval()
    metrics_path = os.path.join(directory, "metrics.json")
    metrics = json.loads(_read_text(metrics_path)) if os.path.exists(metrics_path) else None
    return LoadedRun(directory, task, root, model, metrics)


def prepare_run_folder(directory):
    """Creates the folder and removes temporaries that a killed write left (prepare_run_folder)."""
    os.makedirs(directory, exist_ok=True)
    pattern = re.compile(r"(" + "|".join(re.escape(f) for f in FILES) + r")\.tmp-[A-Za-z0-9]{6}")
    for name in os.listdir(directory):
        if pattern.fullmatch(name):
            os.unlink(os.path.join(directory, name))


def _unwrapped(model):
    """The model itself, also when DistributedDataParallel wraps it."""
    return getattr(model, "module", model)


def write_config(model, directory, data, training):
    model = _unwrapped(model)
    text = config_text(model.task, model.config, data, training)
    write_text_atomically(os.path.join(directory, "config.json"), text)
    return text


def checkpoint_bytes(model, config_json_text):
    """model.safetensors: float32 tensors in layout order, with the run format's metadata."""
    model = _unwrapped(model)
    state = model.state_dict()
    tensors = [(name, state[name].detach().to("cpu", torch.float32).numpy()) for name, _ in model.layout()]
    body = b"".join(np.ascontiguousarray(t, dtype="<f4").tobytes() for _, t in tensors)
    metadata = {"format": RUN_FORMAT, "version": str(RUN_FORMAT_VERSION), "written_by": WRITTEN_BY,
                "model": model.config.kind, "config": config_json_text,
                "data_fnv1a64": safetensors_io.fnv1a64_hex(body)}
    if TASKS[model.task].writes_task:
        metadata["task"] = model.task
    return safetensors_io.serialize(tensors, metadata)


def write_checkpoint(model, directory, config_json_text):
    write_bytes_atomically(os.path.join(directory, "model.safetensors"), checkpoint_bytes(model, config_json_text))


def write_metrics(directory, metrics):
    """metrics.json and loss.csv (write_run_metrics_files)."""
    lines = ["epoch,train_loss,val_loss"] + [
        f"{e['epoch']},{format_double(e['train_loss'])},{format_double(e['val_loss'])}" for e in metrics["epochs"]]
    write_text_atomically(os.path.join(directory, "metrics.json"), json_text.dumps(metrics) + "\n")
    write_text_atomically(os.path.join(directory, "loss.csv"), "\n".join(lines) + "\n")


def save_run(model, directory, data, training, metrics=None):
    """Writes a whole run folder: config.json (model section from model.config, `data` and `training`
    sections as given), model.safetensors, and metrics.json with loss.csv when `metrics` is given."""
    directory = os.fspath(directory)
    prepare_run_folder(directory)
    text = write_config(model, directory, data, training)
    write_checkpoint(model, directory, text)
    if metrics is not None:
        write_metrics(directory, metrics)
