"""Training a forecaster as `aaren train` does (core/train/trainer.cpp, adamw.cpp), on CPU or CUDA,
and under torchrun with DistributedDataParallel (gloo on CPUs, nccl on GPUs).

The same recipe: AdamW (beta 0.9, 0.999, eps 1e-8, decoupled decay on matrices only), the gradient
norm clipped to clip_norm, a linear warm-up over warmup_fraction of the steps then a cosine (or
constant) rate, shuffled windows each epoch, the validation MSE after each epoch, the best weights
kept and early stopping after `patience` epochs without improvement. Under DDP, --batch is the
global batch, split among the processes; rank 0 alone writes the run folder, every file atomically.
"""
import math
import os
import time

import numpy as np
import torch
from torch import distributed as dist
from torch.nn import functional as F

from .csv_series import date_seconds, read_series
from .forecast_data import fit_scaler, scale, split_rows, split_text, window_starts
from .models import ForecastConfig, ForecastModel, init_parameters_
from .run_folder import prepare_run_folder, write_checkpoint, write_config, write_metrics

DATE_NAMES = {"date", "time", "timestamp", "datetime", "period", "year", "month", "day", "ds", "datum", "fecha",
              "date_approx", "data", "zeit"}


def learning_rate(schedule, base, step, warmup, total):
    """core/train/adamw.cpp: learning_rate."""
    if warmup > 0 and step < warmup:
        return base * (step + 1) / warmup
    if schedule == "constant" or total <= warmup:
        return base
    progress = min(max((step - warmup) / (total - warmup), 0.0), 1.0)
    return base * 0.5 * (1.0 + math.cos(math.pi * progress))


def make_optimizer(model, lr, weight_decay):
    """AdamW with decay on matrices only (AdamW::AdamW: entries of two or more dimensions)."""
    decay = [p for p in model.parameters() if p.dim() >= 2]
    rest = [p for p in model.parameters() if p.dim() < 2]
    return torch.optim.AdamW([{"params": decay, "weight_decay": weight_decay}, {"params": rest, "weight_decay": 0.0}],
                             lr=lr, betas=(0.9, 0.999), eps=1e-8)


def gather(scaled, starts, seq_len, horizon, target_channel=-1):
    """(N, T, C) inputs and (N, H, K) targets of the windows starting at `starts`: every channel, or
    the target's alone (features MS, target_channel >= 0)."""
    x = np.stack([scaled[s:s + seq_len] for s in starts])
    y = np.stack([scaled[s + seq_len:s + seq_len + horizon] for s in starts])
    if target_channel >= 0:
        y = y[:, :, target_channel:target_channel + 1]
    return torch.from_numpy(x), torch.from_numpy(np.ascontiguousarray(y))


def error_sums(model, x, y, indices, batch=256):
    """Per-channel sums of squared and absolute errors over the windows `indices` (of the channels
    forecast, y's), and their count."""
    parameter = next(model.parameters())
    squared = torch.zeros(y.shape[-1], dtype=torch.float64, device=parameter.device)
    absolute = torch.zeros_like(squared)
    with torch.no_grad():
        for first in range(0, len(indices), batch):
            chosen = indices[first:first + batch]
            error = (model(x[chosen].to(parameter)) - y[chosen].to(parameter)).double()
            squared += (error ** 2).sum(dim=(0, 1))
            absolute += error.abs().sum(dim=(0, 1))
    return squared, absolute, torch.tensor(float(len(indices)), dtype=torch.float64, device=parameter.device)


def evaluate(model, x, y, rank, world):
    """{mse, mae, windows, channel_mse, channel_mae} on scaled data, the windows shared among ranks."""
    squared, absolute, count = error_sums(model, x, y, list(range(rank, len(x), world)))
    if world > 1:
        for tensor in (squared, absolute, count):
            dist.all_reduce(tensor)
    terms = len(x) * y.shape[1]
    channel_mse, channel_mae = (squared / terms).tolist(), (absolute / terms).tolist()
    return {"mse": float(squared.sum()) / (terms * y.shape[2]), "mae": float(absolute.sum()) / (terms * y.shape[2]),
            "windows": len(x), "channel_mse": channel_mse, "channel_mae": channel_mae}


def detect_date_column(header, first_row):
    for index, name in enumerate(header):
        cell = first_row[index] if index < len(first_row) else ""
        try:
            float(cell)
            numeric = True
        except ValueError:
            numeric = False
        if name.strip().lower() in DATE_NAMES or (index == 0 and not numeric):
            return name
    return ""


def choose_columns(path, args):
    """(channels, date column) from the options, or detected from the header and the first row."""
    import csv
    from .csv_series import _delimiter, _text
    text = _text(path)
    rows = list(csv.reader(text.splitlines()[:2], delimiter=_delimiter(text.splitlines()[0])))
    header = [name.strip() for name in rows[0]]
    date_column = args.date_column if args.date_column is not None else detect_date_column(header, rows[1])
    channels = args.columns.split(",") if args.columns else [n for n in header if n != date_column]
    return channels, date_column


def train_command(args):
    distributed = int(os.environ.get("WORLD_SIZE", "1")) > 1
    use_cuda = args.device == "cuda" or (args.device == "auto" and torch.cuda.is_available())
    if args.device == "cuda" and not torch.cuda.is_available():
        raise RuntimeError("--device cuda: no CUDA device can be used")
    if distributed:
        dist.init_process_group("nccl" if use_cuda else "gloo")
    rank = dist.get_rank() if distributed else 0
    world = dist.get_world_size() if distributed else 1
    device = torch.device(f"cuda:{int(os.environ.get('LOCAL_RANK', '0'))}" if use_cuda else "cpu")
    if use_cuda:
        torch.cuda.set_device(device)
    try:
        return _train(args, rank, world, device)
    finally:
        if distributed:
            dist.destroy_process_group()


def features_columns(channels, target, features):
    """(channels read, target channel) for --features (core/data/forecast_features.hpp): S reads the
    target alone; MS forecasts the target's channel; M every channel (-1)."""
    if features == "M":
        return channels, -1
    if not target:
        raise ValueError(f"--features {features} forecasts the target"
                         f"{' from its own past alone' if features == 'S' else ' from every channel'}: "
                         "name it with --target NAME")
    if target not in channels:
        raise ValueError(f"the target '{target}' is not among the chosen columns ({', '.join(channels)})")
    return ([target], -1) if features == "S" else (channels, channels.index(target))


def _train(args, rank, world, device):
    channels, date_column = choose_columns(args.data, args)
    features = getattr(args, "features", "M")
    channels, target_channel = features_columns(channels, args.target, features)
    decimal_mark = args.decimal_mark or "."
    dates, values = read_series(args.data, channels, date_column, decimal_mark, args.interpolate)
    split = split_text(args.split)
    train_part, val_part, test_part = split_rows(split, len(values), date_seconds(dates))
    mean, std = fit_scaler(values, train_part)
    scaled = scale(values, mean, std)
    config = ForecastConfig(kind=args.model, d_model=args.d_model, heads=args.heads, layers=args.layers, d_ff=args.d_ff,
                            seq_len=args.seq_len, horizon=args.horizon, channels=len(channels))
    config.target_channel = target_channel
    parts = (("train", train_part), ("validation", val_part), ("test", test_part))
    for name, part in parts:
        if len(window_starts(part, args.seq_len, args.horizon, name == "train")) == 0:
            rows = part[1] - part[0]
            needs = (f"look-back {args.seq_len} + horizon {args.horizon} needs at least {args.seq_len + args.horizon}"
                     if name == "train" else
                     f"horizon {args.horizon} (its look-back reaches into the part before) needs at least {args.horizon}")
            raise ValueError(f"the {name} part has {rows} rows but {needs}; lower --horizon or --seq-len, give "
                             f"{name} a larger fraction or use a longer file")
    windows = {name: gather(scaled, window_starts(part, args.seq_len, args.horizon, name == "train"), args.seq_len,
                            args.horizon, target_channel)
               for name, part in parts}
    data = {"file": os.path.abspath(args.data), "channels": channels, "target": args.target or "",
            "features": features, "date_column": date_column, "interpolate_missing": bool(args.interpolate), "decimal_mark": decimal_mark,
            "split": split,
            "scaler_mean": [float(m) for m in mean], "scaler_std": [float(s) for s in std]}
    training = {"epochs": args.epochs, "batch": args.batch, "lr": args.lr, "weight_decay": args.weight_decay,
                "schedule": args.schedule, "warmup_fraction": 0.05, "clip_norm": 1.0, "patience": args.patience,
                "seed": args.seed}

    torch.manual_seed(args.seed)
    model = init_parameters_(ForecastModel(config), args.seed).to(device)
    net = torch.nn.parallel.DistributedDataParallel(model) if world > 1 else model
    optimizer = make_optimizer(model, args.lr, args.weight_decay)
    config_text = None
    if rank == 0:
        prepare_run_folder(args.out)
        config_text = write_config(model, args.out, data, training)

    x_train, y_train = windows["train"]
    sampler = torch.utils.data.DistributedSampler(range(len(x_train)), num_replicas=world, rank=rank, shuffle=True,
                                                  seed=args.seed)
    local_batch = max(1, -(-args.batch // world))
    steps_per_epoch = -(-len(sampler) // local_batch)
    if args.steps_per_epoch:
        steps_per_epoch = min(steps_per_epoch, args.steps_per_epoch)
    total = steps_per_epoch * args.epochs
    warmup = int(0.05 * total)
    metrics = {"epochs": [], "best_epoch": 0, "stop": "running", "message": "", "train_seconds": 0.0,
               "samples_per_second": 0.0, "validation": {"mse": 0.0, "mae": 0.0, "windows": 0},
               "test": {"mse": 0.0, "mae": 0.0, "windows": 0}, "device": device.type}
    best_state, best_loss, since_best, steps, samples = None, math.inf, 0, 0, 0
    start = time.monotonic()
    stop, message = "completed", None
    for epoch in range(1, args.epochs + 1):
        epoch_start = time.monotonic()
        sampler.set_epoch(epoch)
        order = list(sampler)
        net.train()
        loss_sum = 0.0
        for step in range(steps_per_epoch):
            chosen = order[step * local_batch:(step + 1) * local_batch]
            for group in optimizer.param_groups:
                group["lr"] = learning_rate(args.schedule, args.lr, steps, warmup, total)
            loss = F.mse_loss(net(x_train[chosen].to(device)), y_train[chosen].to(device))
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            finite = (torch.isfinite(loss.detach()) & torch.isfinite(norm)).to(torch.int32)
            if world > 1:  # every process stops together, or the others would wait for it forever
                dist.all_reduce(finite, op=dist.ReduceOp.MIN)
            if not bool(finite):
                stop, message = "diverged", f"the training loss became not finite at epoch {epoch}, step {step + 1}"
                break
            optimizer.step()
            steps += 1
            samples += len(chosen) * world
            loss_sum += float(loss)
        if stop == "diverged":
            break
        train_loss = torch.tensor(loss_sum / steps_per_epoch, dtype=torch.float64, device=device)
        if world > 1:
            dist.all_reduce(train_loss)
            train_loss /= world
        net.eval()
        val_loss = evaluate(model, *windows["validation"], rank, world)["mse"]
        metrics["epochs"].append({"epoch": epoch, "train_loss": float(train_loss), "val_loss": val_loss,
                                  "seconds": time.monotonic() - epoch_start})
        if rank == 0:
            print(f"epoch {epoch}/{args.epochs}  train {float(train_loss):.6f}  val {val_loss:.6f}", flush=True)
        if val_loss < best_loss:
            best_loss, since_best = val_loss, 0
            best_state = {k: v.detach().clone() for k, v in model.state_dict().items()}
            metrics["best_epoch"] = epoch
            metrics["validation"] = {"mse": val_loss, "mae": 0.0, "windows": len(windows["validation"][0])}
            if rank == 0:  # the weights first, then the metrics that match them
                write_checkpoint(model, args.out, config_text)
                write_metrics(args.out, metrics)
        elif args.patience > 0:
            since_best += 1
            if since_best >= args.patience:
                stop = "early_stopped"
                message = (f"validation loss did not improve for {args.patience} epochs; best epoch "
                           f"{metrics['best_epoch']}")
                break
    if best_state is not None:
        model.load_state_dict(best_state)
    metrics["stop"] = stop
    metrics["message"] = message or f"trained {args.epochs} epochs; best epoch {metrics['best_epoch']}"
    metrics["train_seconds"] = time.monotonic() - start
    metrics["samples_per_second"] = samples / max(metrics["train_seconds"], 1e-9)
    if best_state is not None:
        metrics["validation"] = evaluate(model, *windows["validation"], rank, world)
        metrics["test"] = evaluate(model, *windows["test"], rank, world)
    if rank == 0:
        if best_state is not None:
            write_metrics(args.out, metrics)
        print(f"run folder: {args.out}", flush=True)
    return 0
