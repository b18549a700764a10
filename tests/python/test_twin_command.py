"""The twin's command line as a user meets it: the version is the app's; it packages as a wheel with
the `aaren-torch` command; `train --processes N` starts its own DDP workers; `--split ett` splits as
the app does; and every option of `aaren train` (forecasting and classification) is either taken
by the twin or refused naming it (exit 2), so that the two command lines cannot drift apart."""
import json
import os
import re
import shutil
import subprocess
import sys
import unittest
import zipfile
from datetime import datetime, timedelta

from twin_testing import require_torch

require_torch()

import twin_testing as tt  # noqa: E402
import aaren_torch  # noqa: E402
from aaren_torch.cli import NOT_HERE, parser  # noqa: E402

TWIN = [sys.executable, "-m", "aaren_torch"]
TINY = ["--model", "aaren", "--d-model", "8", "--heads", "2", "--layers", "1", "--d-ff", "16", "--epochs", "1"]


def twin_train_options():
    """The option strings `python3 -m aaren_torch train` knows."""
    subparsers = next(a for a in parser()._actions if a.__class__.__name__ == "_SubParsersAction")
    train = subparsers.choices["train"]
    return {s for action in train._actions for s in action.option_strings}


def hourly_csv(path, rows):
    start = datetime(2016, 7, 1)
    with open(path, "w") as f:
        f.write("date,load\n")
        for t in range(rows):
            f.write(f"{(start + timedelta(hours=t)).strftime('%Y-%m-%d %H:%M:%S')},{10 + (t % 24) * 0.5 + 0.001 * t}\n")
    return path


class TwinCommand(unittest.TestCase):
    def setUp(self):
        self.scratch = tt.scratch_dir()

    def tearDown(self):
        shutil.rmtree(self.scratch, ignore_errors=True)

    def test_the_version_is_the_apps(self):
        _, stdout, _ = tt.run([tt.cli(), "--version"])
        app = re.match(r"aaren (\S+) \(Aaren Studio\)", stdout).group(1)
        self.assertEqual(aaren_torch.__version__, app)
        _, stdout, _ = tt.run(TWIN + ["--version"])
        self.assertEqual(stdout.strip(), f"aaren_torch {app} (Aaren Studio)")

    def test_it_builds_a_wheel_with_the_command(self):
        try:
            import setuptools  # noqa: F401
            import wheel  # noqa: F401
        except ImportError:
            self.skipTest("setuptools or wheel is not installed (Debian: python3-setuptools, python3-wheel)")
        source = os.path.join(self.scratch, "python")
        shutil.copytree(os.path.join(os.environ["AAREN_SOURCE_DIR"], "python"), source,
                        ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
        out = os.path.join(self.scratch, "wheel")
        tt.run([sys.executable, "-m", "pip", "wheel", source, "--no-deps", "--no-build-isolation", "-w", out])
        wheel_path = os.path.join(out, f"aaren_torch-{aaren_torch.__version__}-py3-none-any.whl")
        self.assertTrue(os.path.exists(wheel_path), os.listdir(out))
        with zipfile.ZipFile(wheel_path) as archive:
            names = archive.namelist()
            self.assertIn("aaren_torch/__init__.py", names)
            self.assertIn("aaren_torch/launcher.py", names)
            entry_points = archive.read(next(n for n in names if n.endswith("entry_points.txt"))).decode()
        self.assertIn("aaren-torch = aaren_torch.cli:main", entry_points)

    def test_processes_starts_its_own_workers(self):
        out = os.path.join(self.scratch, "ddp")
        _, stdout, _ = tt.run(TWIN + ["train", "--processes", "2", "--data", tt.dataset("R_AirPassengers.csv"),
                                      "--seq-len", "12", "--horizon", "4", "--batch", "8", "--out", out] + TINY)
        self.assertEqual(stdout.count("run folder:"), 1, stdout)  # rank 0 alone writes and reports
        self.assertEqual(sorted(os.listdir(out)), ["config.json", "loss.csv", "metrics.json", "model.safetensors"])
        with open(os.path.join(out, "metrics.json")) as f:
            self.assertEqual(json.load(f)["stop"], "completed")

    def test_bad_processes_are_usage_errors(self):
        for value in ("0", "-1", "two"):
            code, _, stderr = tt.run(TWIN + ["train", "--processes", value, "--data", "x.csv", "--out", "o"],
                                     check=False)
            self.assertEqual(code, 2, stderr)
            self.assertIn("--processes", stderr)
        env = dict(os.environ, WORLD_SIZE="2")
        result = subprocess.run(TWIN + ["train", "--processes", "2", "--data", "x.csv", "--out", "o"],
                                capture_output=True, text=True, env=env)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn("under torchrun", result.stderr)

    def test_a_failing_worker_stops_the_launch(self):
        code, _, stderr = tt.run(TWIN + ["train", "--processes", "2", "--data", os.path.join(self.scratch, "none.csv"),
                                         "--out", os.path.join(self.scratch, "o")] + TINY, check=False)
        self.assertEqual(code, 1, stderr)
        self.assertIn("none.csv", stderr)
        self.assertIn("stopped with exit code 1", stderr)

    def test_the_ett_split_is_the_apps(self):
        data = hourly_csv(os.path.join(self.scratch, "hourly.csv"), 14500)
        out = os.path.join(self.scratch, "ett")
        tt.run(TWIN + ["train", "--split", "ett", "--data", data, "--seq-len", "24", "--horizon", "6", "--batch", "8",
                       "--steps-per-epoch", "2", "--out", out] + TINY)
        with open(os.path.join(out, "config.json")) as f:
            self.assertEqual(json.load(f)["data"]["split"], "ett")
        firsts = []
        for program in (TWIN, [tt.cli()]):
            csv = os.path.join(self.scratch, f"window{len(firsts)}.csv")
            tt.run(program + ["forecast", "--run", out, "--data", data, "--window", "0", "--out", csv])
            with open(csv) as f:
                firsts.append(f.read().splitlines()[1].split(",")[0])
        # The test part starts after 16 months of 30 days of hourly rows, as in the app.
        self.assertEqual(firsts, [(datetime(2016, 7, 1) + timedelta(hours=16 * 30 * 24)).strftime("%Y-%m-%d %H:%M:%S")] * 2)
        short = hourly_csv(os.path.join(self.scratch, "short.csv"), 5000)
        code, _, stderr = tt.run(TWIN + ["train", "--split", "ett", "--data", short, "--seq-len", "24", "--horizon", "6",
                                         "--out", os.path.join(self.scratch, "short")] + TINY, check=False)
        self.assertEqual(code, 1, stderr)
        self.assertIn("the ETT split needs 20 months of 30 days, 14400 rows at 24 a day", stderr)

    def test_every_option_of_aaren_train_is_taken_or_refused(self):
        known = twin_train_options()
        for task in ("forecast", "classify"):
            _, stdout, _ = tt.run([tt.cli(), "train", "--task", task, "--help"])
            options = re.findall(r"^  (--[a-z0-9-]+)", stdout, re.MULTILINE)
            self.assertGreater(len(options), 10, stdout)
            missing = [o for o in options if o not in known]
            self.assertEqual(missing, [], f"aaren train --task {task} has options the twin does not know")
        for attribute, (option, honoured, reason) in NOT_HERE.items():
            code, _, stderr = tt.run(TWIN + ["train", "--data", "x.csv", "--out", "o", option, "7"], check=False)
            self.assertEqual(code, 2, stderr)
            self.assertIn(f"{option} 7 is not supported by the twin", stderr)
        for task in ("events", "rl"):
            code, _, stderr = tt.run(TWIN + ["train", "--task", task, "--data", "x", "--out", "o"], check=False)
            self.assertEqual(code, 2, stderr)
            self.assertIn("--task", stderr)


if __name__ == "__main__":
    unittest.main()
