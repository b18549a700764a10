"""Two processes training one forecaster with DistributedDataParallel on the CPU (gloo), one epoch
of a tiny model on a bundled data set; rank 0 writes the run folder, which `aaren forecast` loads."""
import json
import os
import shutil
import socket
import sys
import unittest

from twin_testing import require_torch

require_torch()

import torch.distributed  # noqa: E402

import twin_testing as tt  # noqa: E402
from aaren_torch import load_run  # noqa: E402


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class DistributedTraining(unittest.TestCase):
    def setUp(self):
        if not torch.distributed.is_available() or not torch.distributed.is_gloo_available():
            self.skipTest("this torch has no gloo backend")
        self.scratch = tt.scratch_dir()

    def tearDown(self):
        shutil.rmtree(self.scratch, ignore_errors=True)

    def test_two_processes_on_cpu(self):
        out = os.path.join(self.scratch, "ddp")
        _, stdout, _ = tt.run([
            sys.executable, "-m", "torch.distributed.run", "--nnodes", "1", "--nproc_per_node", "2",
            "--master_addr", "127.0.0.1", "--master_port", str(free_port()),
            # torch 1.13 under Python 3.11 (Debian 12) reads the default "0" of these as None and stops
            # before it starts a worker; 1 (stdout to a log file and the console) is read correctly.
            "--redirects", "1", "--tee", "1", "--log_dir", os.path.join(self.scratch, "logs"),
            "-m", "aaren_torch", "train", "--data", tt.dataset("R_AirPassengers.csv"), "--model", "aaren",
            "--seq-len", "12", "--horizon", "4", "--d-model", "8", "--heads", "2", "--layers", "1", "--d-ff", "16",
            "--epochs", "1", "--batch", "8", "--out", out])
        self.assertEqual(stdout.count("run folder:"), 1, stdout)  # rank 0 alone writes and reports
        self.assertEqual(sorted(os.listdir(out)), ["config.json", "loss.csv", "metrics.json", "model.safetensors"])
        with open(os.path.join(out, "metrics.json")) as f:
            metrics = json.load(f)
        self.assertEqual([e["epoch"] for e in metrics["epochs"]], [1])
        self.assertEqual(metrics["stop"], "completed")

        forecast = os.path.join(self.scratch, "forecast.csv")
        _, stdout, _ = tt.run([tt.cli(), "forecast", "--run", out, "--data", tt.dataset("R_AirPassengers.csv"),
                               "--last", "--out", forecast])
        self.assertIn("wrote 4 steps x 1 channels", stdout)
        with open(forecast) as f:
            lines = f.read().splitlines()
        self.assertEqual(lines[0], "date,step,channel,forecast,truth")
        self.assertEqual([line.split(",")[0] for line in lines[1:]], ["1961-01", "1961-02", "1961-03", "1961-04"])
        self.assertEqual(load_run(out).model.config.kind, "aaren")


if __name__ == "__main__":
    unittest.main(verbosity=2)
