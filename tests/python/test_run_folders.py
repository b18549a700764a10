"""Run folders moving both ways between the PyTorch twin and the C++ core (docs/DESIGN.md section
9): safetensors with metadata and checksum read and written by each side, a run trained by the
twin forecast by `aaren forecast`, and broken folders refused by both with the same message."""
import json
import os
import subprocess
import shutil
import sys
import unittest

from twin_testing import require_torch

require_torch()

import numpy as np  # noqa: E402

import twin_testing as tt  # noqa: E402
from aaren_torch import RunFolderError, load_run, safetensors_io, save_run  # noqa: E402
from aaren_torch import EventConfig, EventModel  # noqa: E402
from aaren_torch.models import init_parameters_  # noqa: E402

DATA = "R_Seatbelts.csv"


def cpp_refusal(run_dir, scratch):
    """The message `aaren forecast` refuses the folder with (its "aaren: error: " stripped)."""
    code, _, stderr = tt.run([tt.cli(), "forecast", "--run", run_dir, "--data", tt.dataset(DATA), "--out",
                              os.path.join(scratch, "refused.csv")], check=False)
    assert code == 1, f"aaren forecast accepted {run_dir} (exit {code})"
    prefix = "aaren: error: "
    line = stderr.strip().splitlines()[-1]
    assert line.startswith(prefix), stderr
    return line[len(prefix):]


def rewrite_checkpoint(run_dir, change):
    """Rewrites run_dir/model.safetensors after change(metadata, tensors) edits them, with a valid checksum."""
    path = os.path.join(run_dir, "model.safetensors")
    metadata, tensors, _ = safetensors_io.read(path)
    tensors = [(name, np.array(value)) for name, value in tensors]
    change(metadata, tensors)
    body = b"".join(np.ascontiguousarray(t, dtype="<f4").tobytes() for _, t in tensors)
    metadata["data_fnv1a64"] = safetensors_io.fnv1a64_hex(body)
    safetensors_io.write(path, tensors, metadata)


def edit_config(run_dir, change):
    path = os.path.join(run_dir, "config.json")
    with open(path) as f:
        config = json.load(f)
    change(config)
    with open(path, "w") as f:
        json.dump(config, f, indent=2, sort_keys=True)


class RunFolders(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tt.scratch_dir()
        cls.addClassCleanup(shutil.rmtree, cls.scratch, True)
        cls.aaren = tt.train_cpp(os.path.join(cls.scratch, "aaren"), "aaren")
        cls.transformer = tt.train_cpp(os.path.join(cls.scratch, "transformer"), "transformer")

    def forecast_cpp(self, run_dir, name):
        out = os.path.join(self.scratch, name)
        tt.run([tt.cli(), "forecast", "--run", run_dir, "--data", tt.dataset(DATA), "--window", "1", "--out", out])
        with open(out) as f:
            return f.read()

    def test_checkpoint_written_by_cpp_reads_with_its_metadata(self):
        metadata, tensors, body = safetensors_io.read(os.path.join(self.aaren, "model.safetensors"))
        with open(os.path.join(self.aaren, "config.json")) as f:
            self.assertEqual(metadata["config"], f.read())
        self.assertEqual(metadata["format"], "aaren-studio-run")
        self.assertEqual(metadata["version"], "2")
        self.assertEqual(metadata["model"], "aaren")
        self.assertTrue(metadata["written_by"].startswith("Aaren Studio "))
        self.assertEqual(metadata["data_fnv1a64"], safetensors_io.fnv1a64_hex(body))
        model = load_run(self.aaren).model
        self.assertEqual([name for name, _ in tensors], [name for name, _ in model.layout()])

    def test_run_saved_by_the_twin_reads_in_cpp_unchanged(self):
        # Loaded and saved again: every file but the checkpoint's provenance is byte for byte the C++ one.
        run = load_run(self.aaren)
        copy = os.path.join(self.scratch, "resaved")
        save_run(run.model, copy, run.config["data"], run.config["training"], run.metrics)
        for name in ("config.json", "metrics.json", "loss.csv"):
            with open(os.path.join(self.aaren, name), "rb") as a, open(os.path.join(copy, name), "rb") as b:
                self.assertEqual(a.read(), b.read(), name)
        metadata, _, body = safetensors_io.read(os.path.join(copy, "model.safetensors"))
        original_metadata, _, original_body = safetensors_io.read(os.path.join(self.aaren, "model.safetensors"))
        self.assertEqual(body, original_body)
        self.assertEqual(metadata["data_fnv1a64"], original_metadata["data_fnv1a64"])
        self.assertEqual(self.forecast_cpp(copy, "resaved.csv"), self.forecast_cpp(self.aaren, "original.csv"))

    def test_event_run_saved_by_the_twin_reads_in_cpp_unchanged(self):
        trained = os.path.join(self.scratch, "cpp_events")
        tt.run([tt.cli(), "train", "--task", "events", "--data", tt.dataset("old_faithful_geyser.csv"),
                "--time-col", "t_start_min", "--mark-col", "duration_min", "--mark-use", "feature", "--window", "16",
                "--model", "transformer", "--d-model", "16", "--heads", "2", "--layers", "1", "--d-ff", "32",
                "--mixture", "3", "--time-frequencies", "2", "--epochs", "1", "--threads", "1", "--out", trained])
        run = load_run(trained)
        copy = os.path.join(self.scratch, "events_resaved")
        save_run(run.model, copy, run.config["data"], run.config["training"], run.metrics)
        for name in ("config.json", "metrics.json", "loss.csv"):
            with open(os.path.join(trained, name), "rb") as a, open(os.path.join(copy, name), "rb") as b:
                self.assertEqual(a.read(), b.read(), name)
        self.assertEqual(safetensors_io.read(os.path.join(copy, "model.safetensors"))[0]["task"], "events")
        outputs = []
        for run_dir in (trained, copy):
            out = os.path.join(self.scratch, os.path.basename(run_dir) + ".csv")
            tt.run([tt.cli(), "forecast", "--task", "events", "--run", run_dir, "--out", out])
            with open(out) as f:
                outputs.append(f.read())
        self.assertGreater(len(outputs[0].splitlines()), 10)
        self.assertEqual(outputs[0], outputs[1])

    def test_safetensors_metadata_round_trip(self):
        tensors = [("b", np.arange(6, dtype=np.float32).reshape(2, 3)), ("a", np.array([1.5], np.float32))]
        metadata = {"note": "Zürich, \"quoted\"\n", "empty": ""}
        data = safetensors_io.serialize(tensors, metadata)
        self.assertEqual(len(data[8:8 + int.from_bytes(data[:8], "little")]) % 8, 0)
        read_metadata, read_tensors, _ = safetensors_io.parse(data, "memory")
        self.assertEqual(read_metadata, metadata)
        self.assertEqual([n for n, _ in read_tensors], ["b", "a"])
        for (_, a), (_, b) in zip(tensors, read_tensors):
            np.testing.assert_array_equal(a, b)

    def test_run_trained_by_the_twin_forecasts_the_same_in_cpp(self):
        out = os.path.join(self.scratch, "twin_trained")
        for kind in ("aaren", "transformer", "linear"):
            tt.run([sys.executable, "-m", "aaren_torch", "train", "--data",
                    tt.dataset(DATA), "--columns", "DriversKilled,front,rear", "--model", kind, "--seq-len", "24",
                    "--horizon", "6", "--d-model", "16", "--heads", "2", "--layers", "1", "--d-ff", "32",
                    "--epochs", "2", "--batch", "8", "--out", out])
            cpp = self.forecast_cpp(out, f"twin_{kind}_cpp.csv").splitlines()
            twin = os.path.join(self.scratch, f"twin_{kind}.csv")
            tt.run([sys.executable, "-m", "aaren_torch", "forecast", "--run", out, "--data", tt.dataset(DATA),
                    "--window", "1", "--out", twin])
            with open(twin) as f:
                mine = f.read().splitlines()
            self.assertEqual(len(cpp), len(mine))
            for a, b in zip(cpp[1:], mine[1:]):
                a, b = a.split(","), b.split(",")
                self.assertEqual(a[:3] + a[4:], b[:3] + b[4:])
                self.assertLess(abs(float(a[3]) - float(b[3])) / abs(float(b[3])), 1e-5)
            with open(os.path.join(out, "metrics.json")) as f:
                metrics = json.load(f)
            self.assertEqual(metrics["stop"], "completed")
            self.assertEqual(len(metrics["epochs"]), 2)
            self.assertGreater(metrics["test"]["windows"], 0)
            self.app_reports_on(out)

    def app_reports_on(self, run_dir):
        """The app lists, opens and forecasts with a run the twin trained: its one-file report."""
        studio = os.environ.get("AAREN_STUDIO")
        if not studio:
            return
        pdf = os.path.join(self.scratch, "twin_report.pdf")
        done = subprocess.run([studio, "--run", run_dir, "--open", tt.dataset(DATA), "--export-report", pdf],
                              capture_output=True, text=True,
                              env=dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=self.scratch))
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("wrote the report of", done.stderr)
        self.assertGreater(os.path.getsize(pdf), 10000)

    def refusal(self, name, damage):
        broken = os.path.join(self.scratch, name)
        shutil.copytree(self.aaren, broken)
        damage(broken)
        expected = cpp_refusal(broken, self.scratch)
        with self.assertRaises(RunFolderError) as caught:
            load_run(broken, task="forecast")
        self.assertEqual(str(caught.exception), expected)
        return expected

    def test_refusals_match_the_cpp_loader(self):
        def flip_a_bit(run_dir):
            path = os.path.join(run_dir, "model.safetensors")
            with open(path, "rb") as f:
                data = bytearray(f.read())
            data[8 + int.from_bytes(data[:8], "little")] ^= 1  # the lowest bit of the first value
            with open(path, "wb") as f:
                f.write(data)

        def newer_version(metadata, _):
            metadata["version"] = "3"

        def swap_head_shape(_, tensors):
            for i, (name, value) in enumerate(tensors):
                if name == "head.weight":
                    tensors[i] = (name, np.ascontiguousarray(value.T))

        def drop_two_tensors(_, tensors):
            del tensors[-2:]

        cases = {
            "missing_checkpoint": lambda d: os.remove(os.path.join(d, "model.safetensors")),
            "missing_config": lambda d: os.remove(os.path.join(d, "config.json")),
            "bad_checksum": flip_a_bit,
            "newer_checkpoint": lambda d: rewrite_checkpoint(d, newer_version),
            "newer_config": lambda d: edit_config(d, lambda c: c.update(version=3)),
            "wrong_shape": lambda d: rewrite_checkpoint(d, swap_head_shape),
            "missing_tensors": lambda d: rewrite_checkpoint(d, drop_two_tensors),
            "mixed_model": lambda d: shutil.copy(os.path.join(self.transformer, "config.json"), d),
            "mixed_preparation": lambda d: edit_config(d, lambda c: c["data"]["scaler_mean"].__setitem__(0, 1.0)),
            "foreign_format": lambda d: rewrite_checkpoint(d, lambda m, _: m.update(format="other")),
        }
        messages = {}
        for name, damage in cases.items():
            with self.subTest(name):
                messages[name] = self.refusal(name, damage)
                print(f"{name}: {messages[name]}")
        self.assertIn("checksum", messages["bad_checksum"])
        self.assertIn("a newer Aaren Studio", messages["newer_checkpoint"])
        self.assertIn("a model of another shape (kind differs)", messages["mixed_model"])
        self.assertIn("(scaler differs)", messages["mixed_preparation"])
        self.assertIn("(and 1 more mismatch)", messages["missing_tensors"])

    def test_event_run_is_refused_as_a_forecaster(self):
        config = EventConfig(kind="aaren", d_model=8, heads=2, layers=1, d_ff=8, window=4, mixture_components=1,
                             time_frequencies=1)
        events = os.path.join(self.scratch, "events")
        data = {"file": "e.csv", "time_column": "t", "time_is_date": False, "date_unit": "days", "decimal_mark": ".",
                "time_unit": "", "sequence_column": "", "mark_column": "", "mark_use": "none", "mark_names": [],
                "feature_mean": 0.0, "feature_std": 1.0, "split": "0.6/0.2/0.2", "split_method": "by_time"}
        save_run(init_parameters_(EventModel(config), 1), events, data, load_run(self.aaren).config["training"])
        self.assertEqual(load_run(events).task, "events")
        with self.assertRaises(RunFolderError) as caught:
            load_run(events, task="forecast")
        self.assertEqual(str(caught.exception), cpp_refusal(events, self.scratch))


if __name__ == "__main__":
    unittest.main(verbosity=2)
