"""Atomic file writes (docs/DESIGN.md section 9): a temporary file beside the target, flushed, then
renamed over it, so a reader sees the old file or the new one, never half of one."""
import os
import secrets
import string

_ALNUM = string.ascii_letters + string.digits


def _open_temporary(path):
    # NAME.tmp-XXXXXX, the C++ writer's pattern, so that the next run into the folder removes what a
    # killed process left behind (prepare_run_folder).
    while True:
        name = path + ".tmp-" + "".join(secrets.choice(_ALNUM) for _ in range(6))
        try:
            return name, os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            continue


def write_bytes_atomically(path, data: bytes):
    path = os.fspath(path)
    temporary, handle = _open_temporary(path)
    try:
        with os.fdopen(handle, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def write_text_atomically(path, text: str):
    write_bytes_atomically(path, text.encode("utf-8"))
