"""The disk cache never trusts a bad entry, and a kernel is compiled once per
key however many threads or processes ask for it at the same time (issue 21,
items 4 and 5). Dry-run launches (no GPU), as test_jit_compile."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from terrazzo.runtime import cache as kernel_cache
from test_jit_compile import _C, _count_compiles, add_kernel, extension, fresh, ptrs  # noqa: F401

ARGS = (*ptrs("float32", "float32", "float32"), 1000)


def _entry() -> Path:
    """The folder of the one kernel entry in the test's cache."""
    (binary,) = Path(os.environ["TERRAZZO_CACHE_DIR"]).glob("*/*/kernel.bin")
    return binary.parent


def _rewrite(entry: Path, binary=None, checksum=True, **fields):
    """Writes the entry with `binary` and the metadata fields changed (None
    deletes a field); with `checksum`, the size and checksum are made to
    match, as a careful forger would."""
    meta = json.loads((entry / "kernel.json").read_text())
    if binary is None:
        binary = (entry / "kernel.bin").read_bytes()
    for field, value in fields.items():
        if value is None:
            meta.pop(field, None)
        else:
            meta[field] = value
    if checksum:
        if "binary_size" not in fields:
            meta["binary_size"] = len(binary)
        meta["sha256"] = kernel_cache.checksum(meta, binary)
    (entry / "kernel.bin").write_bytes(binary)
    (entry / "kernel.json").write_text(json.dumps(meta))


def _garbage(entry: Path) -> bytes:
    return bytes(range(256)) * (len((entry / "kernel.bin").read_bytes()) // 256 + 1)


# Each plants one corruption in a valid entry.
CORRUPTIONS = {
    "binary missing": lambda e: (e / "kernel.bin").unlink(),
    "metadata missing": lambda e: (e / "kernel.json").unlink(),
    "binary empty": lambda e: (e / "kernel.bin").write_bytes(b""),
    "binary truncated": lambda e: (e / "kernel.bin").write_bytes(
        (e / "kernel.bin").read_bytes()[:100]),
    "binary garbage": lambda e: (e / "kernel.bin").write_bytes(_garbage(e)),
    "binary garbage, checksum matching": lambda e: _rewrite(e, binary=_garbage(e)),
    "binary of another kernel, checksum matching": lambda e: _rewrite(
        e, binary=(e / "kernel.bin").read_bytes().replace(b"add_kernel", b"sub_kernel")),
    "metadata empty": lambda e: (e / "kernel.json").write_text(""),
    "metadata not JSON": lambda e: (e / "kernel.json").write_text("{not json"),
    "metadata not UTF-8": lambda e: (e / "kernel.json").write_bytes(b"\xff\xfe{}"),
    "metadata nested 100000 deep": lambda e: (e / "kernel.json").write_text(
        "[" * 100000 + "]" * 100000),
    "metadata a list": lambda e: (e / "kernel.json").write_text("[]"),
    "metadata a string": lambda e: (e / "kernel.json").write_text('"kernel"'),
    "metadata edited, checksum not": lambda e: _rewrite(e, checksum=False,
                                                        threads_per_block=64),
    "checksum missing": lambda e: _rewrite(e, checksum=False, sha256=None),
    "older format": lambda e: _rewrite(e, format=1),
    "another key": lambda e: _rewrite(e, key="0" * 64),
    "wrong kernel name, checksum matching": lambda e: _rewrite(e, name="other_kernel"),
    "name field missing, checksum matching": lambda e: _rewrite(e, name=None),
    "threads a string, checksum matching": lambda e: _rewrite(e, threads_per_block="128"),
    "threads a boolean, checksum matching": lambda e: _rewrite(e, threads_per_block=True),
    "signature missing, checksum matching": lambda e: _rewrite(e, signature=None),
    "binary size wrong, checksum matching": lambda e: _rewrite(e, binary_size=1),
}


@pytest.mark.parametrize("corruption", sorted(CORRUPTIONS))
def test_a_bad_entry_is_recompiled_and_replaced(monkeypatch, corruption):
    calls = _count_compiles(monkeypatch)
    first = fresh(add_kernel)[(1,)](*ARGS, BLOCK_SIZE=256)
    assert calls == ["cubin"]
    entry = _entry()
    CORRUPTIONS[corruption](entry)
    second = fresh(add_kernel)[(1,)](*ARGS, BLOCK_SIZE=256)
    assert calls == ["cubin", "cubin"], f"{corruption}: the entry was trusted"
    assert second.binary == first.binary and second.threads_per_block == first.threads_per_block
    # The entry was written again, valid: the next process loads it.
    assert kernel_cache.DiskCache().load(entry.name, "add_kernel") is not None
    fresh(add_kernel)[(1,)](*ARGS, BLOCK_SIZE=256)
    assert calls == ["cubin", "cubin"]


def test_a_valid_entry_is_trusted_and_names_its_kernel(monkeypatch):
    calls = _count_compiles(monkeypatch)
    fresh(add_kernel)[(1,)](*ARGS, BLOCK_SIZE=256)
    key = _entry().name
    disk = kernel_cache.DiskCache()
    binary, meta = disk.load(key, "add_kernel")
    assert meta["name"] == "add_kernel" and b"add_kernel" in binary
    assert disk.load(key) is not None
    assert disk.load(key, "another_kernel") is None
    assert calls == ["cubin"]


def _slow_compiles(monkeypatch, seconds=0.5):
    """Counts compiles, each made slow enough that every thread asks while
    the first is running."""
    calls = []
    real = _C.compile

    def slow(*args, **kwargs):
        calls.append(threading.get_ident())
        time.sleep(seconds)
        return real(*args, **kwargs)
    monkeypatch.setattr(_C, "compile", slow)
    return calls


@pytest.mark.parametrize("same_function", [True, False])
def test_eight_threads_compile_a_kernel_once(monkeypatch, same_function):
    calls = _slow_compiles(monkeypatch)
    shared = fresh(add_kernel)
    start = threading.Barrier(8)
    kernels, errors = [], []

    def launch():
        kernel = shared if same_function else fresh(add_kernel)
        start.wait()
        try:
            kernels.append(kernel[(1,)](*ARGS, BLOCK_SIZE=256))
        except BaseException as e:  # reported below
            errors.append(e)
    threads = [threading.Thread(target=launch) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(calls) == 1
    assert len(kernels) == 8 and len({k.binary for k in kernels}) == 1


def test_threads_waiting_for_a_failing_compile_get_its_error(monkeypatch):
    calls = []

    def failing(*args, **kwargs):
        calls.append(1)
        time.sleep(0.3)
        raise RuntimeError("the compiler broke")
    monkeypatch.setattr(_C, "compile", failing)
    kernel = fresh(add_kernel)
    start = threading.Barrier(4)
    errors = []

    def launch():
        start.wait()
        try:
            kernel[(1,)](*ARGS, BLOCK_SIZE=256)
        except RuntimeError as e:
            errors.append(str(e))
    threads = [threading.Thread(target=launch) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == ["the compiler broke"] * 4
    assert len(calls) == 1
    # Nothing is left in flight: the next launch compiles again.
    with pytest.raises(RuntimeError):
        kernel[(1,)](*ARGS, BLOCK_SIZE=256)
    assert len(calls) == 2


_PROCESS = """
import os, sys, time
sys.path.insert(0, sys.argv[1])
from terrazzo import _C
import kernel_module
calls = []
real = _C.compile
def slow(*args, **kwargs):
    calls.append(1)
    time.sleep(1.0)
    return real(*args, **kwargs)
_C.compile = slow
time.sleep(max(0.0, float(sys.argv[2]) - time.time()))
kernel_module.copy[(1,)](*kernel_module.ARGS, BLOCK=256)
print("compiles", len(calls))
"""

_KERNEL_MODULE = """
import terrazzo as triton
import terrazzo.language as tl

class Pointer:
    def __init__(self, address):
        self.address = address
        self.dtype = "float32"
    def data_ptr(self):
        return self.address

ARGS = (Pointer(1 << 20), Pointer(1 << 21), 1000)

@triton.jit
def copy(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y + offs, tl.load(x + offs, mask=offs < n), mask=offs < n)
"""


def test_four_processes_compile_a_kernel_once(tmp_path):
    (tmp_path / "kernel_module.py").write_text(_KERNEL_MODULE)
    env = dict(os.environ, TERRAZZO_DRY_LAUNCH="1",
               TERRAZZO_CACHE_DIR=str(tmp_path / "shared-cache"))
    start = time.time() + 3.0  # after every process has imported terrazzo
    procs = [subprocess.Popen([sys.executable, "-c", _PROCESS, str(tmp_path), str(start)],
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for _ in range(4)]
    outputs = [p.communicate(timeout=120) for p in procs]
    for p, (out, err) in zip(procs, outputs):
        assert p.returncode == 0, err
    counts = [int(out.split()[-1]) for out, _ in outputs]
    assert sorted(counts) == [0, 0, 0, 1]
    (entry,) = (tmp_path / "shared-cache").glob("*/*/kernel.bin")
    assert kernel_cache.DiskCache(tmp_path / "shared-cache").load(
        entry.parent.name, "copy") is not None
