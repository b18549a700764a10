"""Forecasting with a run folder, as `aaren forecast` does (app/cmd_train.cpp: run_forecast): one
window in, the horizon out in the data's units, written as date,step,channel,forecast,truth."""
import os

import numpy as np
import torch

from .atomic import write_text_atomically
from .csv_series import continue_dates, date_seconds, read_series
from .forecast_data import scale, split_rows, window_starts
from .number_format import format_double, format_float
from .models import KINDS
from .run_folder import RunFolderError, load_run


def forecast_channels(run):
    """(indices, names) of the channels the run's model forecasts (RunConfig::forecast_channels)."""
    names = run.config["data"]["channels"]
    t = run.model.config.target_channel
    return ([t], [names[t]]) if t >= 0 else (list(range(len(names))), list(names))


def read_run_data(run, data_path):
    """(dates, values, scaled) of `data_path`, read and scaled as the run's config.json says."""
    d = run.config["data"]
    dates, values = read_series(data_path, d["channels"], d["date_column"], d.get("decimal_mark", "."),
                                d["interpolate_missing"])
    return dates, values, scale(values, np.asarray(d["scaler_mean"]), np.asarray(d["scaler_std"]))


def forecast_window(run, data_path, window=None):
    """The rows of the forecast CSV: (date, step, channel, forecast, truth or None) tuples.

    window: a test window (0-based, in time order); None forecasts past the end of the file."""
    if run.task != "forecast":
        raise RunFolderError(f"{run.dir}: an event-model run, not a forecasting run")
    c = run.model.config
    d = run.config["data"]
    dates, values, scaled = read_run_data(run, data_path)
    rows = len(values)
    if window is None:
        if rows < c.seq_len:
            raise ValueError(f"the data has {rows} rows but the look-back needs {c.seq_len}")
        input_row = rows - c.seq_len
    else:
        starts = window_starts(split_rows(d["split"], rows, date_seconds(dates))[2], c.seq_len, c.horizon, False)
        if not 0 <= window < len(starts):
            raise ValueError(f"window {window} does not exist: the test part has windows 0 to {len(starts) - 1}")
        input_row = int(starts[window])
    parameter = next(run.model.parameters())
    x = torch.from_numpy(scaled[input_row:input_row + c.seq_len]).to(parameter)
    with torch.no_grad():
        y = run.model(x.unsqueeze(0))[0].cpu().numpy()
    # The C++ forecast is a float; it is brought back to the data's units in double, with the scaler
    # of the channels forecast.
    columns, names = forecast_channels(run)
    forecast = (y.astype(np.float32).astype(np.float64) * np.asarray(d["scaler_std"])[columns] +
                np.asarray(d["scaler_mean"])[columns])
    first_target = input_row + c.seq_len
    known = max(0, min(c.horizon, rows - first_target))
    after_end = continue_dates(dates, c.horizon - known) if dates and known < c.horizon else []

    def date_of(row):
        if not dates:
            return str(row + 1)
        if row < len(dates):
            return dates[row]
        past = row - len(dates)
        return after_end[past] if past < len(after_end) else ""

    out = []
    for h in range(c.horizon):
        for k, (ch, name) in enumerate(zip(columns, names)):
            truth = values[first_target + h, ch] if known == c.horizon else None
            out.append((date_of(first_target + h), h + 1, name, forecast[h, k], truth))
    return out


def write_forecast_csv(path, rows):
    lines = ["date,step,channel,forecast,truth"] + [
        f"{date},{step},{channel},{format_float(value)},{'' if truth is None else format_double(truth)}"
        for date, step, channel, value, truth in rows]
    write_text_atomically(path, "\n".join(lines) + "\n")


def single_model_run(directory):
    """The folder itself, unless it holds the runs of several models side by side (app/train_cli.cpp)."""
    if os.path.exists(os.path.join(directory, "config.json")):
        return directory
    runs = [os.path.join(directory, kind) for kind in KINDS
            if os.path.exists(os.path.join(directory, kind, "config.json"))]
    if runs:
        choices = ", ".join(f"--run {run}" for run in runs[:-1])
        choices = f"{choices} or --run {runs[-1]}" if choices else f"--run {runs[-1]}"
        raise RunFolderError(f"{directory} holds the runs of several models side by side: give {choices}")
    return directory


def forecast_command(args):
    run = load_run(single_model_run(args.run), task="forecast", device=args.device)
    rows = forecast_window(run, args.data, None if args.window is None else args.window)
    write_forecast_csv(args.out, rows)
    channels = len(forecast_channels(run)[1])
    print(f"wrote {len(rows) // channels} steps x {channels} channels to {args.out}")
