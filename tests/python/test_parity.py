"""The PyTorch twin and the C++ core on the same run folders: forward outputs within 1e-5 and one
training step's gradients within 1e-4 (relative, float64 on both sides), for the three forecasters
(Aaren, Transformer, linear Transformer) and the event model (docs/DESIGN.md section 4)."""
import os
import shutil
import unittest

from twin_testing import require_torch

require_torch()

import numpy as np  # noqa: E402
import torch  # noqa: E402
from torch.nn import functional as F  # noqa: E402

import twin_testing as tt  # noqa: E402
from aaren_torch import EventConfig, EventModel, load_run, save_run  # noqa: E402
from aaren_torch.forecast import forecast_window  # noqa: E402
from aaren_torch.number_format import format_double  # noqa: E402
from aaren_torch.models import event_features, init_parameters_  # noqa: E402
from aaren_torch.train import make_optimizer  # noqa: E402

# The double forwards differ only by the probe's float32 output (about 5e-8); the bounds are tighter
# than the 1e-5 and 1e-4 promised, so that a LayerNorm or instance-norm eps of 1e-6 instead of 1e-5
# (an error of about 5e-6) fails them.
FORWARD_TOLERANCE = 1e-6
GRADIENT_TOLERANCE = 1e-5
# aaren forecast computes in float: its CSV agrees with the double twin to float precision.
FLOAT_FORECAST_TOLERANCE = 1e-5
TRAINING = {"epochs": 1, "batch": 4, "lr": 0.001, "weight_decay": 0.01, "schedule": "cosine",
            "warmup_fraction": 0.05, "clip_norm": 1.0, "patience": 3, "seed": 1}


def event_data_section(config):
    marked = config.marks > 0
    return {"file": "events.csv", "time_column": "t", "time_is_date": False, "date_unit": "days",
            "decimal_mark": ".", "time_unit": "", "sequence_column": "",
            "mark_column": "type" if marked else ("size" if config.feature else ""),
            "mark_use": "categorical" if marked else ("feature" if config.feature else "none"),
            "mark_names": [f"m{k}" for k in range(config.marks)], "feature_mean": 0.0, "feature_std": 1.0,
            "split": "0.6/0.2/0.2", "split_method": "by_time"}


class ForecasterParity(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tt.scratch_dir()
        cls.addClassCleanup(shutil.rmtree, cls.scratch, True)
        cls.runs = {kind: tt.train_cpp(os.path.join(cls.scratch, kind), kind)
                    for kind in ("aaren", "transformer", "linear")}

    def check_run(self, kind):
        run = load_run(self.runs[kind])
        model = run.model
        c = model.config
        rng = np.random.default_rng(7)
        x = rng.normal(size=(3, c.seq_len, c.channels)).astype(np.float32)
        truth = rng.normal(size=(3, c.horizon, c.channels)).astype(np.float32)
        cpp = tt.probe("forecast", self.runs[kind], {"x": x, "truth": truth}, self.scratch)

        y = model(torch.from_numpy(x).double())
        loss = F.mse_loss(y, torch.from_numpy(truth).double())
        model.zero_grad()
        loss.backward()
        forward_error = tt.relative_error(y.detach().numpy(), cpp["y"])
        self.assertLess(forward_error, FORWARD_TOLERANCE)
        self.assertLess(abs(float(loss) - cpp["loss"][0]) / abs(cpp["loss"][0]), FORWARD_TOLERANCE)
        names = [name for name, _ in model.layout()]
        self.assertEqual(sorted(names), sorted(k[len("grad."):] for k in cpp if k.startswith("grad.")))
        worst = tt.worst_gradient_error({n: p.grad.numpy() for n, p in model.named_parameters()}, cpp)
        self.assertLess(worst[0], GRADIENT_TOLERANCE, f"gradient of {worst[1]}")
        print(f"{kind}: forward relative error {forward_error:.2e}, worst gradient {worst[0]:.2e} ({worst[1]})")

    def check_optimizer_step(self, kind):
        # One step of the recipe (clip to the run's clip_norm, AdamW with decay on matrices only)
        # from the same weights and batch moves every weight by the same amount on both sides.
        run = load_run(self.runs[kind])
        model = run.model
        c = model.config
        lr = 0.01
        rng = np.random.default_rng(11)
        x = rng.normal(size=(4, c.seq_len, c.channels)).astype(np.float32)
        truth = rng.normal(size=(4, c.horizon, c.channels)).astype(np.float32)
        cpp = tt.probe("forecast", self.runs[kind], {"x": x, "truth": truth, "lr": np.array([lr], np.float32)},
                       self.scratch)
        before = {name: p.detach().clone() for name, p in model.named_parameters()}
        optimizer = make_optimizer(model, lr, run.config["training"]["weight_decay"])
        F.mse_loss(model(torch.from_numpy(x).double()), torch.from_numpy(truth).double()).backward()
        norm = float(torch.nn.utils.clip_grad_norm_(model.parameters(), run.config["training"]["clip_norm"]))
        self.assertGreater(norm, 0)
        optimizer.step()
        worst = max((float((p.detach() - before[name] - (cpp["step." + name] - before[name].numpy())).abs().max()), name)
                    for name, p in model.named_parameters())
        # float32 weights near 1 round to about 6e-8; the step itself is about lr.
        self.assertLess(worst[0], 1e-3 * lr, f"step of {worst[1]}")
        moved = max(float((p.detach() - before[name]).abs().max()) for name, p in model.named_parameters())
        self.assertGreater(moved, 0.5 * lr)

    def test_optimizer_step_aaren(self):
        self.check_optimizer_step("aaren")

    def test_optimizer_step_transformer(self):
        self.check_optimizer_step("transformer")

    def test_optimizer_step_linear(self):
        self.check_optimizer_step("linear")

    def test_aaren(self):
        self.check_run("aaren")

    def test_linear(self):
        self.check_run("linear")

    def test_transformer(self):
        self.check_run("transformer")

    def test_forecast_csv_matches_aaren_forecast(self):
        # The C++ forecast runs in float, so the CSVs agree to float precision, not digit for digit.
        for kind, run_dir in self.runs.items():
            for window in (["--window", "2"], ["--last"]):
                out = os.path.join(self.scratch, f"cpp_{kind}.csv")
                tt.run([tt.cli(), "forecast", "--run", run_dir, "--data", tt.dataset("R_Seatbelts.csv"), *window,
                        "--out", out])
                with open(out) as f:
                    cpp_lines = [line.split(",") for line in f.read().splitlines()]
                rows = forecast_window(load_run(run_dir), tt.dataset("R_Seatbelts.csv"),
                                       2 if window[0] == "--window" else None)
                self.assertEqual(cpp_lines[0], ["date", "step", "channel", "forecast", "truth"])
                self.assertEqual(len(cpp_lines) - 1, len(rows))
                for cells, (date, step, channel, value, truth) in zip(cpp_lines[1:], rows):
                    self.assertEqual(cells[:3], [date, str(step), channel])
                    self.assertLess(abs(float(cells[3]) - value) / abs(value), FLOAT_FORECAST_TOLERANCE)
                    self.assertEqual(cells[4] == "", truth is None)
                    if truth is not None:
                        self.assertEqual(float(cells[4]), truth)

    def test_decimal_comma_file_with_gaps(self):
        # Excel's German CSV: ';' between fields, a decimal comma, a few empty cells filled by
        # interpolation. The twin reads it as config.json records, and forecasts as the C++ does.
        with open(tt.dataset("R_Seatbelts.csv")) as f:
            rows = [line.split(",") for line in f.read().splitlines()]
        lines = ["time;DriversKilled;PetrolPrice"]
        for i, row in enumerate(rows[1:]):
            killed = "" if i in (5, 6, 40) else row[1]
            lines.append(f"{row[0]};{killed};{row[6].replace('.', ',')}")
        data = os.path.join(self.scratch, "seatbelts_de.csv")
        with open(data, "w") as f:
            f.write("\n".join(lines) + "\n")
        run_dir = os.path.join(self.scratch, "decimal_comma")
        tt.run([tt.cli(), "train", "--data", data, "--interpolate", "--model", "aaren", "--seq-len", "16",
                "--horizon", "4", "--d-model", "8", "--heads", "2", "--layers", "1", "--d-ff", "16", "--epochs", "1",
                "--threads", "1", "--out", run_dir])
        run = load_run(run_dir)
        self.assertEqual(run.config["data"]["decimal_mark"], ",")
        for window in (["--window", "0"], ["--last"]):
            out = os.path.join(self.scratch, "decimal_comma.csv")
            tt.run([tt.cli(), "forecast", "--run", run_dir, "--data", data, *window, "--out", out])
            with open(out) as f:
                cpp_lines = [line.split(",") for line in f.read().splitlines()[1:]]
            rows = forecast_window(run, data, 0 if window[0] == "--window" else None)
            self.assertEqual(len(cpp_lines), len(rows))
            for cells, (date, step, channel, value, truth) in zip(cpp_lines, rows):
                self.assertEqual(cells[:3], [date, str(step), channel])
                self.assertLess(abs(float(cells[3]) - value) / abs(value), FLOAT_FORECAST_TOLERANCE)
                self.assertEqual(cells[4], "" if truth is None else format_double(truth))


class EventModelParity(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tt.scratch_dir()
        cls.addClassCleanup(shutil.rmtree, cls.scratch, True)

    def check(self, config, n, seed):
        model = init_parameters_(EventModel(config), seed)
        run_dir = os.path.join(self.scratch, f"events_{seed}")
        save_run(model, run_dir, event_data_section(config), TRAINING)  # the probe loads it with the C++ loader
        model = load_run(run_dir).model
        self.assertEqual(model.config, config)

        rng = np.random.default_rng(seed)
        gaps = rng.exponential(config.time_scale, size=n)
        gaps[n // 2] = 0.0  # a zero gap is legal, scored as 1e-6 of the time scale
        origin = np.float32(100.0)
        times = (origin + np.cumsum(gaps)).astype(np.float32)
        times = np.maximum.accumulate(times)
        marks = rng.integers(0, max(config.marks, 1), size=n)
        features = rng.normal(size=n).astype(np.float32)
        inputs = {"times": times, "origin": np.array([origin])}
        if config.marks:
            inputs["marks"] = marks.astype(np.float32)
        if config.feature:
            inputs["features"] = features
        cpp = tt.probe("events", run_dir, inputs, self.scratch)

        x, log_gap = event_features(times.astype(np.float64), float(origin), features.astype(np.float64), config)
        marks_tensor = torch.from_numpy(marks).unsqueeze(0)
        time_out, mark_out = model(torch.from_numpy(x).unsqueeze(0), marks_tensor)
        loss = model.loss(time_out, mark_out, torch.from_numpy(log_gap).unsqueeze(0), marks_tensor)
        model.zero_grad()
        loss.backward()
        self.assertLess(tt.relative_error(time_out[0].detach().numpy(), cpp["time_out"]), FORWARD_TOLERANCE)
        if config.marks:
            self.assertLess(tt.relative_error(mark_out[0].detach().numpy(), cpp["mark_out"]), FORWARD_TOLERANCE)
        self.assertLess(abs(float(loss) - cpp["loss"][0]) / abs(cpp["loss"][0]), FORWARD_TOLERANCE)
        worst = tt.worst_gradient_error({n: p.grad.numpy() for n, p in model.named_parameters()}, cpp)
        self.assertLess(worst[0], GRADIENT_TOLERANCE, f"gradient of {worst[1]}")
        print(f"{config.kind} event model: worst gradient {worst[0]:.2e} ({worst[1]})")

    def test_marked_aaren(self):
        self.check(EventConfig(kind="aaren", d_model=16, heads=2, layers=2, d_ff=24, window=12, marks=3,
                               mixture_components=3, time_frequencies=2, time_scale=2.5), n=12, seed=3)

    def test_feature_transformer_partial_window(self):
        self.check(EventConfig(kind="transformer", d_model=12, heads=3, layers=1, d_ff=20, window=16, marks=0,
                               mixture_components=2, time_frequencies=3, feature=True, time_scale=0.75),
                   n=9, seed=4)

    def test_marked_linear(self):
        self.check(EventConfig(kind="linear", d_model=12, heads=2, layers=2, d_ff=16, window=10, marks=2,
                               mixture_components=2, time_frequencies=2, time_scale=1.5), n=10, seed=5)

    def test_run_trained_by_aaren_train(self):
        run_dir = os.path.join(self.scratch, "cpp_events")
        tt.run([tt.cli(), "train", "--task", "events", "--data", tt.dataset("old_faithful_geyser.csv"),
                "--time-col", "t_start_min", "--mark-col", "duration_min", "--mark-use", "feature", "--window", "16",
                "--d-model", "16", "--heads", "2", "--layers", "1", "--d-ff", "32", "--mixture", "3",
                "--time-frequencies", "2", "--epochs", "1", "--threads", "1", "--out", run_dir])
        run = load_run(run_dir)
        self.assertEqual(run.task, "events")
        times = np.cumsum(np.full(16, 70.0, dtype=np.float32)) + np.float32(5.0)
        features = np.linspace(-1, 1, 16).astype(np.float32)
        cpp = tt.probe("events", run_dir, {"times": times, "origin": np.array([0.0], np.float32),
                                           "features": features}, self.scratch)
        x, _ = event_features(times.astype(np.float64), 0.0, features.astype(np.float64), run.model.config)
        with torch.no_grad():
            time_out, _ = run.model(torch.from_numpy(x).unsqueeze(0))
        self.assertLess(tt.relative_error(time_out[0].numpy(), cpp["time_out"]), FORWARD_TOLERANCE)


if __name__ == "__main__":
    unittest.main(verbosity=2)
