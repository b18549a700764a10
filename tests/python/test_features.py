"""Features S and MS (the Time-Series-Library's --features with --target) in the twin and the C++
core: runs that `aaren train --features S|MS` wrote load in the twin with the same model (forward
and gradients through twin_probe, the forecast CSV), and runs the twin trained with them forecast
the same in `aaren forecast` (docs/DESIGN.md sections 5 and 9)."""
import json
import os
import shutil
import subprocess
import sys
import unittest

from twin_testing import require_torch

require_torch()

import numpy as np  # noqa: E402
import torch  # noqa: E402
from torch.nn import functional as F  # noqa: E402

import twin_testing as tt  # noqa: E402
from aaren_torch import load_run  # noqa: E402
from aaren_torch.forecast import forecast_window  # noqa: E402

DATA = "R_Seatbelts.csv"
COLUMNS = "DriversKilled,front,rear"
TARGET = "front"
# As test_parity.py: double on both sides, the probe's output in float32.
FORWARD_TOLERANCE = 1e-6
GRADIENT_TOLERANCE = 1e-5
FLOAT_FORECAST_TOLERANCE = 1e-5


def features_args(features):
    return ["--target", TARGET, "--features", features]


class CppRunsInTheTwin(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tt.scratch_dir()
        cls.addClassCleanup(shutil.rmtree, cls.scratch, True)
        cls.runs = {(kind, features): tt.train_cpp(os.path.join(cls.scratch, f"{kind}_{features}"), kind,
                                                   extra=features_args(features))
                    for kind, features in (("aaren", "S"), ("aaren", "MS"), ("transformer", "MS"))}

    def test_config_records_the_features(self):
        for (kind, features), run_dir in self.runs.items():
            with open(os.path.join(run_dir, "config.json")) as f:
                data = json.load(f)["data"]
            self.assertEqual(data["features"], features)
            self.assertEqual(data["target"], TARGET)
            self.assertEqual(data["channels"], [TARGET] if features == "S" else COLUMNS.split(","))
            c = load_run(run_dir).model.config
            self.assertEqual(c.channels, 1 if features == "S" else 3)
            self.assertEqual(c.target_channel, 1 if features == "MS" else -1)
            self.assertEqual(c.outputs(), 1)

    def check_parity(self, kind, features):
        run_dir = self.runs[(kind, features)]
        model = load_run(run_dir).model
        c = model.config
        rng = np.random.default_rng(5)
        x = rng.normal(size=(3, c.seq_len, c.channels)).astype(np.float32)
        truth = rng.normal(size=(3, c.horizon, c.outputs())).astype(np.float32)
        cpp = tt.probe("forecast", run_dir, {"x": x, "truth": truth}, self.scratch)
        y = model(torch.from_numpy(x).double())
        self.assertEqual(tuple(y.shape), (3, c.horizon, 1))
        loss = F.mse_loss(y, torch.from_numpy(truth).double())
        model.zero_grad()
        loss.backward()
        self.assertLess(tt.relative_error(y.detach().numpy(), cpp["y"]), FORWARD_TOLERANCE)
        self.assertLess(abs(float(loss) - cpp["loss"][0]) / abs(cpp["loss"][0]), FORWARD_TOLERANCE)
        worst = tt.worst_gradient_error({n: p.grad.numpy() for n, p in model.named_parameters()}, cpp)
        self.assertLess(worst[0], GRADIENT_TOLERANCE, f"gradient of {worst[1]}")
        print(f"{kind} {features}: worst gradient {worst[0]:.2e} ({worst[1]})")

    def test_parity_aaren_s(self):
        self.check_parity("aaren", "S")

    def test_parity_aaren_ms(self):
        self.check_parity("aaren", "MS")

    def test_parity_transformer_ms(self):
        self.check_parity("transformer", "MS")

    def test_ms_forecast_goes_back_with_the_targets_statistics(self):
        # Shifting and stretching the target's look-back moves the forecast the same way (to about
        # 1e-5: the instance norm's sigma is sqrt(var + 1e-5)); the other channels' statistics do not
        # enter the de-normalization.
        model = load_run(self.runs[("aaren", "MS")]).model
        c = model.config
        x = torch.from_numpy(np.random.default_rng(2).normal(size=(1, c.seq_len, c.channels)))
        moved = x.clone()
        moved[..., c.target_channel] = moved[..., c.target_channel] * 3 + 10
        with torch.no_grad():
            self.assertTrue(torch.allclose(model(moved), model(x) * 3 + 10, rtol=1e-5, atol=0))

    def test_forecast_csv_matches_aaren_forecast(self):
        for (kind, features), run_dir in self.runs.items():
            for window in (["--window", "2"], ["--last"]):
                out = os.path.join(self.scratch, f"cpp_{kind}_{features}.csv")
                tt.run([tt.cli(), "forecast", "--run", run_dir, "--data", tt.dataset(DATA), *window, "--out", out])
                with open(out) as f:
                    cpp_lines = [line.split(",") for line in f.read().splitlines()[1:]]
                rows = forecast_window(load_run(run_dir), tt.dataset(DATA), 2 if window[0] == "--window" else None)
                self.assertEqual(len(cpp_lines), 6)  # the horizon of the target alone
                self.assertEqual(len(rows), len(cpp_lines))
                for cells, (date, step, channel, value, truth) in zip(cpp_lines, rows):
                    self.assertEqual(cells[:3], [date, str(step), TARGET])
                    self.assertEqual(channel, TARGET)
                    self.assertLess(abs(float(cells[3]) - value) / abs(value), FLOAT_FORECAST_TOLERANCE)
                    self.assertEqual(cells[4] == "", truth is None)


class TwinRunsInCpp(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tt.scratch_dir()
        cls.addClassCleanup(shutil.rmtree, cls.scratch, True)
        cls.runs = {}
        for features in ("S", "MS"):
            out = os.path.join(cls.scratch, f"twin_{features}")
            code, _, err = cls.train_twin(out, features, ["--target", TARGET])
            if code != 0:
                raise AssertionError(err)
            cls.runs[features] = out

    @staticmethod
    def train_twin(out, features, extra=()):
        return tt.run([sys.executable, "-m", "aaren_torch", "train", "--data", tt.dataset(DATA), "--columns", COLUMNS,
                       "--model", "aaren", "--seq-len", "24", "--horizon", "6", "--d-model", "16", "--heads", "2",
                       "--layers", "1", "--d-ff", "32", "--epochs", "2", "--batch", "8", "--features", features,
                       *extra, "--out", out], check=False)

    def test_twin_trained_runs_forecast_the_same_in_cpp(self):
        for features, out in self.runs.items():
            with open(os.path.join(out, "config.json")) as f:
                self.assertEqual(json.load(f)["data"]["features"], features)
            with open(os.path.join(out, "metrics.json")) as f:
                metrics = json.load(f)
            # The errors of what is forecast: the target alone.
            self.assertEqual(len(metrics["test"]["channel_mse"]), 1)
            cpp_csv, twin_csv = os.path.join(self.scratch, "cpp.csv"), os.path.join(self.scratch, "twin.csv")
            tt.run([tt.cli(), "forecast", "--run", out, "--data", tt.dataset(DATA), "--window", "1", "--out", cpp_csv])
            tt.run([sys.executable, "-m", "aaren_torch", "forecast", "--run", out, "--data", tt.dataset(DATA),
                    "--window", "1", "--out", twin_csv])
            with open(cpp_csv) as a, open(twin_csv) as b:
                cpp, mine = a.read().splitlines(), b.read().splitlines()
            self.assertEqual(len(cpp), 7)
            self.assertEqual(len(cpp), len(mine))
            for x, y in zip(cpp[1:], mine[1:]):
                x, y = x.split(","), y.split(",")
                self.assertEqual(x[2], TARGET)
                self.assertEqual(x[:3] + x[4:], y[:3] + y[4:])
                self.assertLess(abs(float(x[3]) - float(y[3])) / abs(float(y[3])), FLOAT_FORECAST_TOLERANCE)

    def test_app_reports_on_a_run_of_the_target_alone(self):
        """The app opens, forecasts and reports on an MS run (its charts and tables of the target)."""
        studio = os.environ.get("AAREN_STUDIO")
        if not studio:
            self.skipTest("the app is not built")
        out = self.runs["MS"]
        pdf = os.path.join(self.scratch, "ms_report.pdf")
        done = subprocess.run([studio, "--run", out, "--open", tt.dataset(DATA), "--export-report", pdf],
                              capture_output=True, text=True,
                              env=dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=self.scratch))
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("wrote the report of", done.stderr)
        self.assertGreater(os.path.getsize(pdf), 10000)

    def test_features_without_a_target_are_refused(self):
        code, _, err = self.train_twin(os.path.join(self.scratch, "no_target"), "MS")
        self.assertEqual(code, 1)
        self.assertIn("--features MS forecasts the target from every channel: name it with --target NAME", err)


if __name__ == "__main__":
    unittest.main(verbosity=2)
