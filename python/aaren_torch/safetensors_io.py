"""Safetensors, float32 only, as Aaren Studio writes them (docs/DESIGN.md section 9).

An 8-byte little-endian header length N, N bytes of JSON ({name: {dtype, shape, data_offsets}}
plus "__metadata__", a map of strings), padded with spaces to a multiple of 8, then the raw
little-endian float32 data. The run folder's checksum, data_fnv1a64, is FNV-1a 64 over that data
section (core/io/checksum.hpp).
"""
import json
import struct

import numpy as np

from .atomic import write_bytes_atomically

_FNV_OFFSET = 0xCBF29CE484222325
_FNV_PRIME = 0x100000001B3
_MASK = (1 << 64) - 1


def fnv1a64_hex(data: bytes) -> str:
    """FNV-1a 64 of `data`, as 16 lowercase hexadecimal digits."""
    state = _FNV_OFFSET
    for byte in data:
        state = ((state ^ byte) * _FNV_PRIME) & _MASK
    return format(state, "016x")


def serialize(tensors, metadata=None) -> bytes:
    """tensors: (name, array) pairs in file order; metadata: {str: str} or None."""
    header = {}
    if metadata:
        header["__metadata__"] = {str(k): str(v) for k, v in sorted(metadata.items())}
    chunks, offset = [], 0
    for name, value in tensors:
        array = np.ascontiguousarray(np.asarray(value, dtype="<f4"))
        if name == "__metadata__":
            raise ValueError("tensor '__metadata__': the name is reserved for the file's metadata")
        if name in header:
            raise ValueError(f"tensor '{name}' is given twice")
        if not np.all(np.isfinite(array)):
            raise ValueError(f"tensor '{name}' holds a non-finite value; a checkpoint with it could not be read back")
        data = array.tobytes()
        header[name] = {"dtype": "F32", "shape": list(array.shape), "data_offsets": [offset, offset + len(data)]}
        chunks.append(data)
        offset += len(data)
    text = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    text += b" " * ((8 - len(text) % 8) % 8)
    return struct.pack("<Q", len(text)) + text + b"".join(chunks)


def write(path, tensors, metadata=None):
    write_bytes_atomically(path, serialize(tensors, metadata))


def parse(data: bytes, source: str):
    """(metadata, [(name, float32 array)] in data-section order, data section bytes).

    Raises ValueError "SOURCE: PROBLEM" for what a reader cannot trust."""
    def fail(problem):
        raise ValueError(f"{source}: {problem}")

    if len(data) < 8:
        fail(f"the file is {len(data)} bytes long, too short for a safetensors checkpoint "
             "(its header length alone takes 8)")
    (length,) = struct.unpack("<Q", data[:8])
    if length > len(data) - 8:
        fail(f"header length {length} runs past the end of the file ({len(data) - 8} bytes follow the length; "
             "truncated file?)")
    try:
        header = json.loads(data[8:8 + length].decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        fail(f"header is not valid JSON ({error})")
    if not isinstance(header, dict):
        fail("header is not a JSON object")
    body = data[8 + length:]
    metadata = header.pop("__metadata__", {})
    entries = []
    for name, entry in header.items():
        if not isinstance(entry, dict) or entry.get("dtype") != "F32":
            fail(f"tensor '{name}' has dtype {entry.get('dtype') if isinstance(entry, dict) else None}; "
                 "Aaren Studio reads only F32 checkpoints")
        begin, end = entry["data_offsets"]
        shape = [int(d) for d in entry["shape"]]
        if end > len(body) or end - begin != 4 * int(np.prod(shape, dtype=np.int64)):
            fail(f"tensor '{name}': data_offsets [{begin}, {end}] do not fit shape {shape} in a data section of "
                 f"{len(body)} bytes")
        entries.append((begin, end, name, shape))
    entries.sort()
    covered = 0
    for begin, end, name, _ in entries:
        if begin != covered:
            fail(f"tensor '{name}' does not follow the previous tensor in the data section")
        covered = end
    if covered != len(body):
        fail(f"{len(body) - covered} bytes after the last tensor belong to no tensor")
    tensors = [(name, np.frombuffer(body, dtype="<f4", count=(end - begin) // 4, offset=begin).reshape(shape))
               for begin, end, name, shape in entries]
    for name, values in tensors:
        bad = np.flatnonzero(~np.isfinite(values))
        if len(bad):
            fail(f"tensor '{name}' holds a non-finite value at index {bad[0]}")
    return metadata, tensors, body


def read(path):
    with open(path, "rb") as f:
        return parse(f.read(), str(path))
