"""Classifying with a run folder, as `aaren forecast --task classify` does (app/classify_commands.cpp,
core/classify/classify_run.hpp): every case of a file is checked against the run (channels, length,
classes), standardized with the run's channel statistics, and classified; the predictions are written
as case,label,predicted,p_<class>,..."""
import math

import numpy as np
import torch

from .atomic import write_text_atomically
from .forecast import single_model_run
from .labelled_series import read_labelled_series
from .number_format import format_double
from .run_folder import RunFolderError, load_run


def _plural(n, noun):
    return f"{n} {noun}{'' if n == 1 else 's'}"


def prepare_classify_cases(run, path):
    """The file's cases as the run reads them (prepare_classify_cases): labels renumbered as the run's
    classes (-1 where the file gives none), values standardized as float32, as the C++ model reads them."""
    config, data = run.model.config, run.config["data"]
    cases = read_labelled_series(path)
    if cases.dims != config.channels:
        raise ValueError(f"{cases.source}: the series have {_plural(cases.dims, 'dimension')} but the model reads "
                         f"{config.channels}")
    for case in cases.series:
        if len(case.values) > config.seq_len:
            raise ValueError(f"{cases.source}: case {case.case_id} has {len(case.values)} time steps, more than the "
                             f"{config.seq_len} the model was trained for (its seq_len)")
    names = data["class_names"]
    known = ", ".join(f"'{n}'" for n in names)
    for case in cases.series:
        if case.label >= 0:
            name = cases.class_names[case.label]
            if name not in names:
                raise ValueError(f"{cases.source}: case {case.case_id} has class '{name}', which the run was not "
                                 f"trained on ({known})")
            case.label = names.index(name)
        case.values = ((case.values - np.asarray(data["channel_mean"])) / np.asarray(data["channel_std"])
                       ).astype(np.float32)
    cases.class_names = list(names)
    return cases


def class_probabilities(model, cases, batch=64):
    """(cases, K) float64 probabilities, the cases padded to one length per batch."""
    parameter = next(model.parameters())
    out = []
    for start in range(0, len(cases), batch):
        chunk = cases[start:start + batch]
        longest = max(len(c.values) for c in chunk)
        x = np.full((len(chunk), longest, model.config.channels), np.nan)
        for i, case in enumerate(chunk):
            x[i, :len(case.values)] = case.values
        lengths = torch.tensor([len(c.values) for c in chunk])
        with torch.no_grad():
            logits = model(torch.from_numpy(x).to(parameter), lengths.to(parameter.device))
        out.append(model.probabilities(logits).double().cpu().numpy())
    return np.concatenate(out) if out else np.zeros((0, model.config.classes))


def classify_cases(run, cases):
    """(case_id, label or -1, predicted, probabilities) of every case, the first class winning ties."""
    if run.task != "classify":
        raise RunFolderError(f"{run.dir}: not a classification run")
    probabilities = class_probabilities(run.model, cases.series)
    return [(case.case_id, case.label, int(np.argmax(p)), p) for case, p in zip(cases.series, probabilities)]


def _csv_field(text):
    if not any(c in text for c in ',"\n\r'):
        return text
    return '"' + text.replace('"', '""') + '"'


def predictions_csv(predictions, names):
    """The CSV of `aaren forecast --task classify`; each probability as the C++ writes its float one."""
    lines = [",".join(["case", "label", "predicted"] + [_csv_field("p_" + n) for n in names])]
    for case_id, label, predicted, p in predictions:
        cells = [_csv_field(case_id), _csv_field(names[label]) if label >= 0 else "", _csv_field(names[predicted])]
        lines.append(",".join(cells + [format_double(float(np.float32(v))) for v in p]))
    return "\n".join(lines) + "\n"


def accuracy_and_nll(predictions):
    """(accuracy, mean -log p(label), labelled cases) over the labelled predictions."""
    labelled = [(label, predicted, p) for _, label, predicted, p in predictions if label >= 0]
    if not labelled:
        return math.nan, math.nan, 0
    correct = sum(label == predicted for label, predicted, _ in labelled)
    nll = -sum(math.log(max(float(p[label]), np.finfo(np.float64).tiny)) for label, _, p in labelled)
    return correct / len(labelled), nll / len(labelled), len(labelled)


def classify_command(args):
    run = load_run(single_model_run(args.run), task="classify", device=args.device)
    cases = prepare_classify_cases(run, args.data)
    predictions = classify_cases(run, cases)
    write_text_atomically(args.out, predictions_csv(predictions, run.config["data"]["class_names"]))
    print(f"wrote {len(predictions)} cases to {args.out}")
    accuracy, nll, labelled = accuracy_and_nll(predictions)
    if labelled:
        print(f"{run.model.config.kind} classifier on {labelled} labelled cases: accuracy {accuracy:.4f}, "
              f"NLL per case {nll:.4f}")
    else:
        print(f"the cases of {cases.source} have no labels: no accuracy to report")
