#!/usr/bin/env python3
"""Host cost of a launch without a GPU: the C++ dispatcher's binding, key
(with each pointer's "fits in 2^31 bytes" bit) and argument packing of a
vector add, launched dry (TERRAZZO_DRY_LAUNCH=1: nothing reaches a
driver), per launch: tutorial 01's vector add.

    PYTHONPATH=build/python /usr/bin/python3 bench/launch_key_cost.py

Three kinds of pointer argument: an object with data_ptr() and dtype only
(its size unknown: no storage is asked for), one with untyped_storage()
too (a stand-in for a torch tensor whose methods are Python functions,
slower than torch's own), and TensorWrapper over a NumPy array (its
storage found in Python once per wrapper). The fastest of 7 runs of
20,000 launches (the machine may be shared: the minimum is the least
disturbed). bench/launch_overhead.py measures real launches on a GPU.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import time
from pathlib import Path

os.environ["TERRAZZO_DRY_LAUNCH"] = "1"

import numpy as np  # noqa: E402

import terrazzo  # noqa: E402
import terrazzo.language as tl  # noqa: E402

LAUNCHES = 20000


def load_add_kernel():
    """Tutorial 01's vector add."""
    path = Path(__file__).resolve().parents[1] / "tutorials" / "01-vector-add.py"
    spec = importlib.util.spec_from_file_location("vector_add_tutorial", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.add_kernel


class PointerOnly:
    """data_ptr() and dtype: what the key reads of any tensor."""

    def __init__(self, address):
        self.address, self.dtype = address, "float32"

    def data_ptr(self):
        return self.address


class WithStorage(PointerOnly):
    """A torch tensor as the key sees it: untyped_storage() too (itself,
    whose data_ptr() and nbytes() are its storage's)."""

    def untyped_storage(self):
        return self

    def nbytes(self):
        return 4096


def us_per_launch(add_kernel, args):
    launch = add_kernel[(1,)]
    for _ in range(LAUNCHES // 10):  # compiles, then warms up
        launch(*args, 1024, BLOCK_SIZE=1024)
    runs = []
    for _ in range(7):
        start = time.perf_counter()
        for _ in range(LAUNCHES):
            launch(*args, 1024, BLOCK_SIZE=1024)
        runs.append((time.perf_counter() - start) / LAUNCHES * 1e6)
    return min(runs)


def main() -> int:
    os.environ.setdefault("TERRAZZO_TARGET", "cuda:90")
    add_kernel = load_add_kernel()
    cases = [
        ("data_ptr() only", [PointerOnly(0x10000 * (i + 1)) for i in range(3)]),
        ("untyped_storage() too", [WithStorage(0x10000 * (i + 1)) for i in range(3)]),
        ("TensorWrapper over NumPy",
         [terrazzo.reinterpret(np.zeros(1024, np.float32), tl.float32) for _ in range(3)]),
    ]
    print("| pointer arguments (3 per launch) | us per dry launch |")
    print("|---|---:|")
    for name, args in cases:
        print(f"| {name} | {us_per_launch(add_kernel, args):.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
