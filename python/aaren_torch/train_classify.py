"""Training a classifier as `aaren train --task classify` does (core/classify/classify_run.hpp), on one
CPU or GPU: a stratified validation part split off the training file, every channel standardized
with the training part's mean and standard deviation over its present values, the run's seq_len
the longest case of either file, then the recipe of train.py (AdamW with decay on matrices only,
clipping, warm-up then cosine) on the cross-entropy with label smoothing. The best epoch is the one
with the highest validation accuracy, the validation loss breaking ties; it is written as it
improves. With a test file, metrics.json reports its accuracy, per-class precision, recall and F1
and the confusion matrix. The split draws its own random numbers, so it is not the app's split."""
import math
import os
import time

import numpy as np
import torch

from .classify import class_probabilities
from .labelled_series import read_labelled_series
from .models import ClassifierConfig, ClassifierModel, init_parameters_
from .run_folder import prepare_run_folder, write_checkpoint, write_config, write_metrics
from .train import learning_rate, make_optimizer


def stratified_split(labels, classes, fraction, seed):
    """(train, validation) indices: of each class's cases round(fraction * count) to validation, at least
    one where a class has two or more, never all of them (stratified_split)."""
    rng = np.random.default_rng(seed)
    train, validation = [], []
    for k in range(classes):
        cases = [i for i, label in enumerate(labels) if label == k]
        rng.shuffle(cases)
        n = len(cases)
        count = min(max(math.floor(fraction * n + 0.5), 1), n - 1) if fraction > 0 and n >= 2 else 0
        validation += cases[:count]
        train += cases[count:]
    return sorted(train), sorted(validation)


def fit_channel_scaling(cases, indices, dims):
    """Mean and biased standard deviation of every channel over the present values of the cases
    `indices`; a constant or empty channel keeps a scale of 1."""
    values = np.concatenate([cases[i].values for i in indices]).reshape(-1, dims)
    present = ~np.isnan(values)
    count = present.sum(axis=0)
    mean = np.where(count > 0, np.nansum(values, axis=0) / np.maximum(count, 1), 0.0)
    squares = np.where(present, (np.nan_to_num(values) - mean) ** 2, 0.0).sum(axis=0)
    std = np.sqrt(squares / np.maximum(count, 1))
    return mean, np.where((count > 0) & (std > 0) & np.isfinite(std), std, 1.0)


def standardized(cases, mean, std):
    """The cases' values as the model reads them: float32 of (x - mean) / std, NaN kept."""
    return [((c.values - mean) / std).astype(np.float32) for c in cases]


def padded(values, indices, channels):
    """(x (B, T, C) float64 with NaN padding, lengths (B,)) of the cases `indices`."""
    longest = max(len(values[i]) for i in indices)
    x = np.full((len(indices), longest, channels), np.nan)
    for row, i in enumerate(indices):
        x[row, :len(values[i])] = values[i]
    return torch.from_numpy(x), torch.tensor([len(values[i]) for i in indices])


def scores(model, values, labels, indices, batch=64):
    """{loss (the training objective), accuracy, nll, cases} of the cases `indices`."""
    parameter = next(model.parameters())
    loss = correct = nll = 0.0
    with torch.no_grad():
        for first in range(0, len(indices), batch):
            chosen = indices[first:first + batch]
            x, lengths = padded(values, chosen, model.config.channels)
            logits = model(x.to(parameter), lengths.to(parameter.device)).double()
            target = torch.tensor([labels[i] for i in chosen], device=parameter.device)
            loss += float(model.loss(logits, target)) * len(chosen)
            log_p = torch.log_softmax(logits, dim=-1)
            nll -= float(log_p.gather(1, target[:, None]).sum())
            correct += float((logits.argmax(dim=-1) == target).sum())
    n = len(indices)
    return {"loss": loss / n, "accuracy": correct / n, "nll": nll / n, "cases": n}


def classification_report(probabilities, labels, names):
    """metrics.json's "test" (classification_report): accuracy, nll, cases, macro_f1, per-class precision,
    recall, F1 and support, and the confusion matrix (rows: true class). Undefined numbers are left out."""
    k = len(names)
    predicted = probabilities.argmax(axis=1)
    confusion = np.zeros((k, k), dtype=np.int64)
    for label, guess in zip(labels, predicted):
        confusion[label, guess] += 1
    cases = len(labels)
    nll = -sum(math.log(max(float(p[label]), np.finfo(np.float64).tiny)) for p, label in zip(probabilities, labels))
    report = {"cases": cases}
    if cases:
        report.update(accuracy=float(np.trace(confusion)) / cases, nll=nll / cases)
    classes, f1s = [], []
    for c in range(k):
        support, predicted_as, hits = int(confusion[c].sum()), int(confusion[:, c].sum()), float(confusion[c, c])
        entry = {"name": names[c], "support": support}
        if predicted_as:
            entry["precision"] = hits / predicted_as
        if support:
            entry["recall"] = hits / support
            precision = entry.get("precision", 0.0)
            entry["f1"] = 2 * precision * entry["recall"] / (precision + entry["recall"]) if precision + entry[
                "recall"] > 0 else 0.0
            f1s.append(entry["f1"])
        classes.append(entry)
    if f1s:
        report["macro_f1"] = sum(f1s) / len(f1s)
    report.update(classes=classes, confusion=confusion.tolist())
    return report


def train_classify_command(args):
    if not 0 < args.val_fraction <= 0.9:
        raise ValueError(f"--val-fraction must be above 0 and at most 0.9, got {args.val_fraction}")
    if not 0 <= args.label_smoothing < 1:
        raise ValueError(f"--label-smoothing must be at least 0 and below 1, got {args.label_smoothing}")
    device = torch.device("cuda" if args.device == "cuda" or (args.device == "auto" and torch.cuda.is_available())
                          else "cpu")
    train_file = read_labelled_series(args.data)
    labels = [c.label for c in train_file.series]
    if min(labels) < 0 or not train_file.class_names:
        raise ValueError(f"{train_file.source}: every case needs a class label to train a classifier")
    names = train_file.class_names
    if len(names) < 2:
        raise ValueError(f"{train_file.source}: a classifier needs at least two classes; the file has {len(names)}")
    train, validation = stratified_split(labels, len(names), args.val_fraction, args.seed)
    if not validation:
        raise ValueError(f"{train_file.source}: no class has two cases, so there is nothing to validate on")
    test_file = read_labelled_series(args.test) if args.test else None
    if test_file is not None:
        if test_file.dims != train_file.dims:
            raise ValueError(f"{test_file.source}: the series have {test_file.dims} dimensions but the model reads "
                             f"{train_file.dims}")
        for case in test_file.series:
            if case.label >= 0:
                name = test_file.class_names[case.label]
                if name not in names:
                    raise ValueError(f"{test_file.source}: case {case.case_id} has class '{name}', which the run was "
                                     f"not trained on ({', '.join(repr(n) for n in names)})")
                case.label = names.index(name)
    mean, std = fit_channel_scaling(train_file.series, train, train_file.dims)
    values = standardized(train_file.series, mean, std)
    seq_len = max(len(c.values) for c in train_file.series + (test_file.series if test_file else []))
    config = ClassifierConfig(kind=args.model, d_model=args.d_model, heads=args.heads, layers=args.layers,
                              d_ff=args.d_ff, seq_len=seq_len, channels=train_file.dims, classes=len(names),
                              pooling=args.pooling, instance_norm=args.instance_norm,
                              label_smoothing=args.label_smoothing)
    data = {"file": args.data, "test_file": args.test or "", "problem_name": train_file.problem_name,
            "class_names": names, "channel_mean": [float(m) for m in mean], "channel_std": [float(s) for s in std],
            "val_fraction": float(args.val_fraction)}
    training = {"epochs": args.epochs, "batch": args.batch, "lr": args.lr, "weight_decay": args.weight_decay,
                "schedule": args.schedule, "warmup_fraction": 0.05, "clip_norm": 1.0, "patience": args.patience,
                "seed": args.seed}
    print(f"read {len(labels)} cases of {args.data}: {train_file.dims} dimension(s), {len(names)} classes; "
          f"split {len(train)} training / {len(validation)} validation", flush=True)

    torch.manual_seed(args.seed)
    model = init_parameters_(ClassifierModel(config), args.seed).to(device)
    optimizer = make_optimizer(model, args.lr, args.weight_decay)
    prepare_run_folder(args.out)
    config_text = write_config(model, args.out, data, training)
    generator = torch.Generator().manual_seed(args.seed)
    steps_per_epoch = -(-len(train) // args.batch)
    total, steps, samples = steps_per_epoch * args.epochs, 0, 0
    warmup = int(0.05 * total)
    metrics = {"epochs": [], "best_epoch": 0, "stop": "running", "message": "", "train_seconds": 0.0,
               "samples_per_second": 0.0, "task": "classify",
               "validation": {"cases": len(validation)}}
    best, best_state, since_best, stop, message = None, None, 0, "completed", None
    start = time.monotonic()
    for epoch in range(1, args.epochs + 1):
        epoch_start = time.monotonic()
        order = [train[i] for i in torch.randperm(len(train), generator=generator).tolist()]
        model.train()
        loss_sum = 0.0
        for step in range(steps_per_epoch):
            chosen = order[step * args.batch:(step + 1) * args.batch]
            for group in optimizer.param_groups:
                group["lr"] = learning_rate(args.schedule, args.lr, steps, warmup, total)
            x, lengths = padded(values, chosen, config.channels)
            logits = model(x.to(device, torch.float32), lengths.to(device))
            loss = model.loss(logits, torch.tensor([labels[i] for i in chosen], device=device))
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            if not (torch.isfinite(loss.detach()) and torch.isfinite(norm)):
                stop, message = "diverged", f"the training loss became not finite at epoch {epoch}, step {step + 1}"
                break
            optimizer.step()
            steps += 1
            samples += len(chosen)
            loss_sum += float(loss)
        if stop == "diverged":
            break
        model.eval()
        val = scores(model, values, labels, validation)
        record = {"epoch": epoch, "train_loss": loss_sum / steps_per_epoch, "val_loss": val["loss"],
                  "seconds": time.monotonic() - epoch_start,
                  "train_accuracy": scores(model, values, labels, train)["accuracy"], "val_accuracy": val["accuracy"]}
        metrics["epochs"].append(record)
        print(f"epoch {epoch}/{args.epochs}  train {record['train_loss']:.6f}  val {val['loss']:.6f}  "
              f"val accuracy {val['accuracy']:.4f}", flush=True)
        if best is None or (val["accuracy"], -val["loss"]) > best:
            best, since_best = (val["accuracy"], -val["loss"]), 0
            best_state = {k: v.detach().clone() for k, v in model.state_dict().items()}
            metrics["best_epoch"] = epoch
            metrics["validation"] = {"accuracy": val["accuracy"], "cases": val["cases"], "nll": val["nll"]}
            write_checkpoint(model, args.out, config_text)  # the weights first, then the metrics that match them
            write_metrics(args.out, metrics)
        elif args.patience > 0:
            since_best += 1
            if since_best >= args.patience:
                stop = "early_stopped"
                message = (f"validation accuracy did not improve for {args.patience} epochs; best epoch "
                           f"{metrics['best_epoch']}")
                break
    metrics["stop"] = stop
    metrics["message"] = message or f"trained {args.epochs} epochs; best epoch {metrics['best_epoch']}"
    metrics["train_seconds"] = time.monotonic() - start
    metrics["samples_per_second"] = samples / max(metrics["train_seconds"], 1e-9)
    if best_state is not None:
        model.load_state_dict(best_state)
        model.eval()
        if test_file is not None:
            test_values = standardized(test_file.series, mean, std)
            probabilities = class_probabilities(model, [type(c)(c.case_id, v, c.label)
                                                        for c, v in zip(test_file.series, test_values)])
            labelled = [i for i, c in enumerate(test_file.series) if c.label >= 0]
            metrics["test"] = classification_report(probabilities[labelled],
                                                    [test_file.series[i].label for i in labelled], names)
        write_metrics(args.out, metrics)
    print(metrics["message"])
    if "test" in metrics and "accuracy" in metrics["test"]:
        test = metrics["test"]
        print(f"test accuracy {test['accuracy']:.4f}, macro F1 {test.get('macro_f1', math.nan):.4f}")
    print(f"run folder: {os.fspath(args.out)}", flush=True)
    return 1 if stop == "diverged" else 0
