"""python3 -m aaren_torch train --processes N: starts N DDP workers of the same command itself, as
torchrun would, with no flags to get right: each a `python3 -m aaren_torch train` with RANK,
LOCAL_RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT set (gloo on CPUs, nccl on GPUs, as the
training chooses). A worker that fails stops the others and its exit code is the launcher's;
Ctrl-C stops them all."""
import os
import signal
import socket
import subprocess
import sys
import time


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def without_processes(argv):
    """The arguments with --processes N (or --processes=N) taken out, for the workers."""
    out, skip = [], False
    for word in argv:
        if skip:
            skip = False
            continue
        if word == "--processes":
            skip = True
            continue
        if word.startswith("--processes="):
            continue
        out.append(word)
    return out


def launch(processes, argv):
    """Runs `python3 -m aaren_torch <argv>` in `processes` workers; returns the exit code."""
    port = str(_free_port())
    workers = []
    for rank in range(processes):
        env = dict(os.environ, RANK=str(rank), LOCAL_RANK=str(rank), WORLD_SIZE=str(processes),
                   LOCAL_WORLD_SIZE=str(processes), MASTER_ADDR="127.0.0.1", MASTER_PORT=port)
        workers.append(subprocess.Popen([sys.executable, "-m", "aaren_torch"] + argv, env=env))

    def stop_all():
        for w in workers:
            if w.poll() is None:
                w.terminate()
        for w in workers:
            try:
                w.wait(timeout=10)
            except subprocess.TimeoutExpired:
                w.kill()

    try:
        while True:
            codes = [w.poll() for w in workers]
            failed = [(rank, c) for rank, c in enumerate(codes) if c not in (None, 0)]
            if failed:
                rank, code = failed[0]
                print(f"aaren_torch: worker {rank} of {processes} stopped with exit code {code}; stopping the others",
                      file=sys.stderr)
                stop_all()
                return code if code > 0 else 1
            if all(c == 0 for c in codes):
                return 0
            time.sleep(0.1)
    except KeyboardInterrupt:
        stop_all()
        return 128 + signal.SIGINT
