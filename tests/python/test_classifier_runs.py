"""Classification run folders moving both ways between the PyTorch twin and the C++ core
(core/classify/classify_run_folder.hpp, docs/DESIGN.md sections 9 and 10): a run trained by `aaren
train --task classify` loads in the twin and gives the probabilities `aaren forecast --task classify`
writes; a run saved by the twin loads in the app and predicts the same; `python3 -m aaren_torch
forecast --task classify` writes the app's CSV; broken folders are refused by both with the same
message."""
import json
import os
import shutil
import sys
import unittest

from twin_testing import require_torch

require_torch()

import numpy as np  # noqa: E402
import torch  # noqa: E402

import twin_testing as tt  # noqa: E402
from aaren_torch import (ClassifierConfig, ClassifierEnsemble, ClassifierModel, RunFolderError,  # noqa: E402
                         classifier_model, init_parameters_, load_run)
from aaren_torch import ForecastConfig, ForecastModel, safetensors_io, save_run  # noqa: E402
from aaren_torch.classify import classify_cases, predictions_csv, prepare_classify_cases  # noqa: E402
from aaren_torch.labelled_series import read_labelled_series  # noqa: E402

# aaren forecast --task classify runs the model in float: probabilities agree to float precision.
PROBABILITY_TOLERANCE = 1e-5
CLASSES = ("slow", "fast", "flat")


def write_ts(path, cases, seed, labelled=True):
    """A .ts file of `cases` two-channel series of 6 to 12 steps, labelled by their shape (the label
    written when `labelled`), with a few values missing ('?')."""
    rng = np.random.default_rng(seed)
    lines = ["# synthetic cases for the twin's tests", "@problemName Synthetic", "@missing true",
             "@univariate false", "@dimensions 2", "@equalLength false",
             "@classLabel " + ("true " + " ".join(CLASSES) if labelled else "false"), "@data"]
    for i in range(cases):
        label = i % len(CLASSES)
        n = int(rng.integers(6, 13))
        t = np.arange(n)
        base = {0: np.sin(0.4 * t), 1: np.sin(1.7 * t), 2: 0.1 * t}[label]
        channels = [10 + 3 * base + 0.3 * rng.normal(size=n), -2 + base[::-1] + 0.3 * rng.normal(size=n)]
        pieces = []
        for values in channels:
            cells = ["?" if rng.random() < 0.06 else f"{v:.4f}" for v in values]
            pieces.append(",".join(cells))
        lines.append(":".join(pieces) + (":" + CLASSES[label] if labelled else ""))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def cpp_predictions(run_dir, data, out):
    tt.run([tt.cli(), "forecast", "--task", "classify", "--run", run_dir, "--data", data, "--out", out])
    return read_csv(out)


def read_csv(path):
    with open(path) as f:
        return [line.split(",") for line in f.read().splitlines()]


def cpp_refusal(run_dir, data, scratch, task="classify"):
    """The message `aaren forecast` refuses the folder with (its "aaren: error: " stripped)."""
    command = [tt.cli(), "forecast", "--run", run_dir, "--data", data, "--out", os.path.join(scratch, "refused.csv")]
    code, _, stderr = tt.run(command + (["--task", task] if task != "forecast" else []), check=False)
    assert code == 1, f"aaren forecast accepted {run_dir} (exit {code})"
    line = stderr.strip().splitlines()[-1]
    assert line.startswith("aaren: error: "), stderr
    return line[len("aaren: error: "):]


def rewrite_checkpoint(run_dir, change):
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


class ClassifierRuns(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tt.scratch_dir()
        cls.addClassCleanup(shutil.rmtree, cls.scratch, True)
        cls.train_file = write_ts(os.path.join(cls.scratch, "train.ts"), 36, seed=1)
        cls.test_file = write_ts(os.path.join(cls.scratch, "test.ts"), 15, seed=2)
        common = ["--data", cls.train_file, "--test", cls.test_file, "--d-model", "16", "--heads", "2", "--layers",
                  "1", "--d-ff", "32", "--epochs", "3", "--batch", "8", "--threads", "1", "--ensemble", "1"]
        cls.runs = {}
        for kind, options in (("aaren", ["--pooling", "last", "--instance-norm", "--label-smoothing", "0.1"]),
                              ("transformer", [])):
            cls.runs[kind] = os.path.join(cls.scratch, kind)
            tt.run([tt.cli(), "train", "--task", "classify", "--model", kind, *common, *options,
                    "--out", cls.runs[kind]])

    def assert_same_predictions(self, cpp_rows, twin_rows):
        """Same header, cases, labels and predicted classes; probabilities within the tolerance."""
        self.assertEqual(cpp_rows[0], twin_rows[0])
        self.assertEqual(len(cpp_rows), len(twin_rows))
        worst = 0.0
        for a, b in zip(cpp_rows[1:], twin_rows[1:]):
            self.assertEqual(a[:3], b[:3])
            worst = max(worst, max(abs(float(x) - float(y)) for x, y in zip(a[3:], b[3:])))
        self.assertLess(worst, PROBABILITY_TOLERANCE)
        return worst

    def twin_rows(self, run_dir, data):
        run = load_run(run_dir)
        return [line.split(",") for line in predictions_csv(
            classify_cases(run, prepare_classify_cases(run, data)), run.config["data"]["class_names"]).splitlines()]

    def test_runs_trained_by_aaren_load_and_predict_the_same(self):
        for kind, run_dir in self.runs.items():
            with self.subTest(kind):
                run = load_run(run_dir)
                self.assertEqual(run.task, "classify")
                c = run.model.config
                self.assertEqual((c.kind, c.channels, c.classes, c.seq_len), (kind, 2, 3, 12))
                self.assertEqual(run.config["data"]["class_names"], list(CLASSES))
                self.assertEqual(c.pooling, "last" if kind == "aaren" else "mean")
                self.assertEqual(c.instance_norm, kind == "aaren")
                self.assertEqual(c.label_smoothing, 0.1 if kind == "aaren" else 0.0)
                metadata, tensors, _ = safetensors_io.read(os.path.join(run_dir, "model.safetensors"))
                self.assertEqual(metadata["task"], "classify")
                self.assertEqual([name for name, _ in tensors], [name for name, _ in run.model.layout()])
                for data in (self.test_file, self.train_file):
                    cpp = cpp_predictions(run_dir, data, os.path.join(self.scratch, f"cpp_{kind}.csv"))
                    probabilities = np.array([[float(v) for v in row[3:]] for row in cpp[1:]])
                    self.assertGreater(float(np.ptp(probabilities[:, 0])), 1e-3)  # cases the model tells apart
                    worst = self.assert_same_predictions(cpp, self.twin_rows(run_dir, data))
                print(f"{kind}: largest probability difference from aaren forecast {worst:.1e}")

    def test_python_command_writes_the_app_csv(self):
        for kind, run_dir in self.runs.items():
            with self.subTest(kind):
                out = os.path.join(self.scratch, f"twin_{kind}.csv")
                _, stdout, _ = tt.run([sys.executable, "-m", "aaren_torch", "forecast", "--task", "classify", "--run",
                                       run_dir, "--data", self.test_file, "--out", out])
                self.assertIn("15 labelled cases", stdout)
                cpp = cpp_predictions(run_dir, self.test_file, os.path.join(self.scratch, f"cpp_{kind}.csv"))
                self.assertEqual(read_csv(out), self.twin_rows(run_dir, self.test_file))
                self.assert_same_predictions(cpp, read_csv(out))

    def test_unlabelled_cases(self):
        unlabelled = write_ts(os.path.join(self.scratch, "unlabelled.ts"), 7, seed=3, labelled=False)
        for kind, run_dir in self.runs.items():
            with self.subTest(kind):
                cpp = cpp_predictions(run_dir, unlabelled, os.path.join(self.scratch, "unlabelled.csv"))
                self.assertEqual([row[1] for row in cpp[1:]], [""] * 7)
                self.assert_same_predictions(cpp, self.twin_rows(run_dir, unlabelled))

    def test_run_saved_by_the_twin_reads_in_cpp_unchanged(self):
        for kind, run_dir in self.runs.items():
            with self.subTest(kind):
                run = load_run(run_dir)
                copy = os.path.join(self.scratch, f"resaved_{kind}")
                save_run(run.model, copy, run.config["data"], run.config["training"], run.metrics)
                for name in ("config.json", "metrics.json", "loss.csv"):
                    with open(os.path.join(run_dir, name), "rb") as a, open(os.path.join(copy, name), "rb") as b:
                        self.assertEqual(a.read(), b.read(), name)
                metadata, _, body = safetensors_io.read(os.path.join(copy, "model.safetensors"))
                self.assertEqual(body, safetensors_io.read(os.path.join(run_dir, "model.safetensors"))[2])
                self.assertEqual(metadata["task"], "classify")
                self.assertEqual(cpp_predictions(copy, self.test_file, os.path.join(self.scratch, "a.csv")),
                                 cpp_predictions(run_dir, self.test_file, os.path.join(self.scratch, "b.csv")))

    def test_new_twin_model_predicts_the_same_in_cpp(self):
        # A model the app never trained, of another shape, written by the twin alone.
        data = dict(load_run(self.runs["aaren"]).config["data"])
        training = load_run(self.runs["aaren"]).config["training"]
        for kind, pooling, instance_norm in (("transformer", "last", True), ("aaren", "mean", False)):
            with self.subTest(kind=kind, pooling=pooling):
                config = ClassifierConfig(kind=kind, d_model=12, heads=3, layers=2, d_ff=20, seq_len=14, channels=2,
                                          classes=3, pooling=pooling, instance_norm=instance_norm)
                run_dir = os.path.join(self.scratch, f"twin_{kind}_{pooling}")
                save_run(init_parameters_(ClassifierModel(config), 5), run_dir, data, training)
                cpp = cpp_predictions(run_dir, self.test_file, os.path.join(self.scratch, "twin_model.csv"))
                self.assert_same_predictions(cpp, self.twin_rows(run_dir, self.test_file))

    def test_run_trained_by_the_twin_predicts_the_same_in_cpp(self):
        # python3 -m aaren_torch train --task classify, then the app classifies with the run (reading
        # its metrics.json too) as the twin does.
        out = os.path.join(self.scratch, "twin_trained")
        tt.run([sys.executable, "-m", "aaren_torch", "train", "--task", "classify", "--data", self.train_file,
                "--test", self.test_file, "--model", "transformer", "--pooling", "last", "--d-model", "16", "--heads",
                "2", "--layers", "1", "--d-ff", "32", "--epochs", "6", "--batch", "8", "--lr", "0.005", "--out", out])
        run = load_run(out)
        self.assertEqual((run.model.config.seq_len, run.model.config.classes), (12, 3))
        epochs = run.metrics["epochs"]
        self.assertEqual(len(epochs), 6)
        self.assertLess(epochs[-1]["train_loss"], epochs[0]["train_loss"])
        self.assertEqual(run.metrics["test"]["cases"], 15)
        self.assertEqual(sum(map(sum, run.metrics["test"]["confusion"])), 15)
        cpp = cpp_predictions(out, self.test_file, os.path.join(self.scratch, "twin_trained.csv"))
        self.assert_same_predictions(cpp, self.twin_rows(out, self.test_file))
        # The test accuracy metrics.json reports is the one the app finds on the best weights.
        accuracy = sum(row[1] == row[2] for row in cpp[1:]) / 15
        self.assertAlmostEqual(run.metrics["test"]["accuracy"], accuracy)

    def test_ensembles_move_both_ways(self):
        # An ensemble trained by the app (its members named members.<m>.*) predicts the mean of its
        # members in the twin as in the app, and one the twin writes reads in the app unchanged.
        out = os.path.join(self.scratch, "ensemble")
        tt.run([tt.cli(), "train", "--task", "classify", "--model", "aaren", "--data", self.train_file, "--d-model",
                "16", "--heads", "2", "--layers", "1", "--d-ff", "32", "--epochs", "3", "--batch", "8", "--threads", "1",
                "--ensemble", "3", "--augment", "slice,scale", "--out", out])
        run = load_run(out)
        self.assertIsInstance(run.model, ClassifierEnsemble)
        self.assertEqual((run.model.config.members, run.model.config.augmentation), (3, "slice,scale"))
        _, tensors, _ = safetensors_io.read(os.path.join(out, "model.safetensors"))
        self.assertEqual([name for name, _ in tensors], [name for name, _ in run.model.layout()])
        self.assertEqual(tensors[0][0], "members.0.embed.weight")
        cpp = cpp_predictions(out, self.test_file, os.path.join(self.scratch, "cpp_ensemble.csv"))
        self.assert_same_predictions(cpp, self.twin_rows(out, self.test_file))
        # The mean of the members' own probabilities.
        cases = prepare_classify_cases(run, self.test_file)
        x = torch.tensor(np.stack([np.pad(c.values, ((0, 12 - len(c.values)), (0, 0)), constant_values=np.nan)
                                   for c in cases.series[:4]])).to(next(run.model.parameters()).dtype)
        lengths = torch.tensor([len(c.values) for c in cases.series[:4]])
        with torch.no_grad():
            mean = sum(torch.softmax(m(x, lengths), dim=-1) for m in run.model.members) / 3
            self.assertLess(float((run.model.probabilities(run.model(x, lengths)) - mean).abs().max()), 1e-12)
        copy = os.path.join(self.scratch, "ensemble_resaved")
        save_run(run.model, copy, run.config["data"], run.config["training"], run.metrics)
        with open(os.path.join(out, "config.json"), "rb") as a, open(os.path.join(copy, "config.json"), "rb") as b:
            self.assertEqual(a.read(), b.read())
        # Built by the twin alone.
        config = ClassifierConfig(kind="transformer", d_model=8, heads=2, layers=1, d_ff=16, seq_len=12, channels=2,
                                  classes=3, members=2)
        twin_dir = os.path.join(self.scratch, "twin_ensemble")
        save_run(init_parameters_(classifier_model(config), 4), twin_dir, run.config["data"], run.config["training"])
        cpp = cpp_predictions(twin_dir, self.test_file, os.path.join(self.scratch, "twin_ensemble.csv"))
        self.assert_same_predictions(cpp, self.twin_rows(twin_dir, self.test_file))
        with self.assertRaises(ValueError):
            ClassifierModel(config)

    def test_ts_reader_reads_what_the_app_reads(self):
        cases = read_labelled_series(self.test_file)
        self.assertEqual((cases.dims, cases.class_names, len(cases.series)), (2, list(CLASSES), 15))
        self.assertTrue(any(np.isnan(c.values).any() for c in cases.series))
        self.assertEqual([c.case_id for c in cases.series[:3]], ["1", "2", "3"])
        self.assertEqual([c.label for c in cases.series[:4]], [0, 1, 2, 0])

    def refusal(self, name, damage, task="classify"):
        broken = os.path.join(self.scratch, name)
        shutil.copytree(self.runs["aaren"], broken)
        damage(broken)
        expected = cpp_refusal(broken, self.test_file, self.scratch, task)
        with self.assertRaises(RunFolderError) as caught:
            load_run(broken, task=task)
        self.assertEqual(str(caught.exception), expected)
        return expected

    def test_refusals_match_the_cpp_loader(self):
        def flip_a_bit(run_dir):
            path = os.path.join(run_dir, "model.safetensors")
            with open(path, "rb") as f:
                data = bytearray(f.read())
            data[8 + int.from_bytes(data[:8], "little")] ^= 1
            with open(path, "wb") as f:
                f.write(data)

        def transpose_head(_, tensors):
            for i, (name, value) in enumerate(tensors):
                if name == "head.weight":
                    tensors[i] = (name, np.ascontiguousarray(value.T))

        def set_data(field, value):
            return lambda d: edit_config(d, lambda c: c["data"].__setitem__(field, value))

        def set_model(field, value):
            return lambda d: edit_config(d, lambda c: c["model"].__setitem__(field, value))

        cases = {
            "bad_checksum": flip_a_bit,
            "wrong_shape": lambda d: rewrite_checkpoint(d, transpose_head),
            "missing_tensors": lambda d: rewrite_checkpoint(d, lambda _, t: t.__delitem__(slice(-2, None))),
            "mixed_model": lambda d: shutil.copy(os.path.join(self.runs["transformer"], "config.json"), d),
            "mixed_scaling": lambda d: edit_config(d, lambda c: c["data"]["channel_mean"].__setitem__(0, 1.0)),
            "mixed_classes": set_data("class_names", ["slow", "flat", "fast"]),
            "other_pooling": set_model("pooling", "mean"),
            "unknown_pooling": set_model("pooling", "max"),
            "pooling_not_text": set_model("pooling", 3),
            "instance_norm_not_bool": set_model("instance_norm", "yes"),
            "label_smoothing_one": set_model("label_smoothing", 1.0),
            "fractional_classes": set_model("classes", 2.5),
            "missing_seq_len": lambda d: edit_config(d, lambda c: c["model"].pop("seq_len")),
            "two_class_names": set_data("class_names", ["slow", "fast"]),
            "negative_std": set_data("channel_std", [1.0, -1.0]),
            "short_mean": set_data("channel_mean", [1.0]),
            "big_val_fraction": set_data("val_fraction", 0.95),
            "newer_config": lambda d: edit_config(d, lambda c: c.update(version=3)),
            "events_config": lambda d: edit_config(d, lambda c: c.update(task="events")),
        }
        messages = {}
        for name, damage in cases.items():
            with self.subTest(name):
                messages[name] = self.refusal(name, damage)
                print(f"{name}: {messages[name]}")
        self.assertIn("checksum", messages["bad_checksum"])
        self.assertIn("a model of another shape (kind, pooling, instance norm differ)", messages["mixed_model"])
        self.assertIn("(channel scaling differs)", messages["mixed_scaling"])
        self.assertIn("(class names differs)", messages["mixed_classes"])
        self.assertIn("(and 1 more mismatch)", messages["missing_tensors"])
        self.assertIn("field 'pooling' must be 'mean' or 'last', got 'max'", messages["unknown_pooling"])

    def test_classification_run_is_refused_as_a_forecaster(self):
        message = self.refusal("as_forecaster", lambda d: None, task="forecast")
        self.assertIn("a classification run, not a forecasting run", message)

    def test_forecasting_run_is_refused_as_a_classifier(self):
        forecaster = os.path.join(self.scratch, "forecaster")
        data = {"file": "f.csv", "channels": ["a"], "target": "", "date_column": "", "interpolate_missing": False,
                "decimal_mark": ".", "split": "0.7/0.1/0.2", "scaler_mean": [0.0], "scaler_std": [1.0]}
        config = ForecastConfig(d_model=8, heads=2, layers=1, d_ff=8, seq_len=4, horizon=2, channels=1)
        save_run(init_parameters_(ForecastModel(config), 1), forecaster, data, load_run(self.runs["aaren"]).config[
            "training"])
        with self.assertRaises(RunFolderError) as caught:
            load_run(forecaster, task="classify")
        self.assertEqual(str(caught.exception), cpp_refusal(forecaster, self.test_file, self.scratch))
        self.assertIn("a forecasting run, not a classification run", str(caught.exception))


if __name__ == "__main__":
    unittest.main(verbosity=2)
