"""What the twin's tests share: the paths CTest gives them, the skip when torch is missing, runs of
`aaren` and of the probe, and the comparisons with their tolerances."""
import os
import subprocess
import sys
import tempfile

SKIP = 77  # CTest's SKIP_RETURN_CODE for these tests


def require_torch():
    try:
        import numpy  # noqa: F401
        import torch  # noqa: F401
    except ImportError as error:
        print(f"SKIP: {sys.executable} cannot import torch and numpy ({error}); "
              "install python3-torch and python3-numpy")
        sys.exit(SKIP)
    for name in ("AAREN_CLI", "AAREN_TWIN_PROBE", "AAREN_SOURCE_DIR"):
        if name not in os.environ:
            print(f"SKIP: {name} is not set (run these tests through CTest)")
            sys.exit(SKIP)
    sys.path.insert(0, os.path.join(os.environ["AAREN_SOURCE_DIR"], "python"))


def cli():
    return os.environ["AAREN_CLI"]


def dataset(name):
    return os.path.join(os.environ["AAREN_SOURCE_DIR"], "datasets", name)


def scratch_dir():
    return tempfile.mkdtemp(prefix="aaren-twin-")


def run(command, check=True):
    """(returncode, stdout, stderr) of a command; raises with its output when check fails."""
    result = subprocess.run(command, capture_output=True, text=True,
                            env=dict(os.environ, OMP_NUM_THREADS="1"))
    if check and result.returncode != 0:
        raise AssertionError(f"{' '.join(command)} exited {result.returncode}:\n{result.stdout}\n{result.stderr}")
    return result.returncode, result.stdout, result.stderr


def train_cpp(out, model="aaren", data="R_Seatbelts.csv", extra=()):
    """A tiny forecasting run trained by `aaren train`."""
    run([cli(), "train", "--data", dataset(data), "--columns", "DriversKilled,front,rear", "--model", model,
         "--seq-len", "24", "--horizon", "6", "--d-model", "16", "--heads", "2", "--layers", "2", "--d-ff", "32",
         "--epochs", "2", "--batch", "8", "--threads", "1", "--out", out, *extra])
    return out


def probe(task, run_dir, inputs, scratch, metadata=None):
    """Runs twin_probe on `inputs` ({name: array}, with `metadata` in the file's header); returns its
    outputs by name as float64 arrays."""
    from aaren_torch import safetensors_io
    import numpy as np
    in_path, out_path = os.path.join(scratch, "probe_in.safetensors"), os.path.join(scratch, "probe_out.safetensors")
    safetensors_io.write(in_path, list(inputs.items()), metadata)
    run([os.environ["AAREN_TWIN_PROBE"], task, run_dir, in_path, out_path])
    _, tensors, _ = safetensors_io.read(out_path)
    return {name: np.asarray(value, dtype=np.float64) for name, value in tensors}


def relative_error(actual, expected, floor=1e-30):
    """max |a - e| over max |e| (or `floor` where larger): a tensor-wide relative error that small
    entries do not inflate."""
    import numpy as np
    actual, expected = np.asarray(actual, dtype=np.float64), np.asarray(expected, dtype=np.float64)
    return float(np.max(np.abs(actual - expected)) / max(np.max(np.abs(expected)), floor))


def worst_gradient_error(named_grads, cpp):
    """(error, name) of the worst gradient against the probe's "grad.<name>". A gradient that is zero
    in exact arithmetic (the bias of the keys: softmax ignores a shift shared by every score) is
    rounding noise on both sides, so each tensor is measured against at least 1e-6 of the largest."""
    import numpy as np
    largest = max(float(np.max(np.abs(cpp["grad." + name]))) for name in named_grads)
    return max((relative_error(grad, cpp["grad." + name], 1e-6 * largest), name) for name, grad in named_grads.items())
