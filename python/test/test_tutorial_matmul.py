"""tutorials/03-matrix-multiplication.py and bench/matmul.py here, without
a GPU: the tutorial's check in the interpreter (against float64 NumPy, with
M, N and K tails), its autotuned kernel's tile IR for every configuration,
the PTX of two configurations, and the benchmark's module importing."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, REPO / path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def tutorial():
    return load("tutorials/03-matrix-multiplication.py", "tutorial_matmul")


def test_check_in_the_interpreter(tutorial, monkeypatch, capsys):
    monkeypatch.setenv("TERRAZZO_INTERPRET", "1")
    tutorial.check(on_gpu=False)
    assert "The results match." in capsys.readouterr().out


@pytest.mark.parametrize("activation", ["", "leaky_relu"])
def test_interpreter_small_blocks(tutorial, activation, rng):
    # Several programs in the grouped order, tails in M, N and K.
    import terrazzo as triton
    kernel = triton.jit(tutorial.matmul_kernel.fn.fn, interpret=True)
    m, n, k = 83, 61, 45
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    c = np.full((m, n), np.nan, np.float16)
    grid = (triton.cdiv(m, 16) * triton.cdiv(n, 16),)
    kernel[grid](a, b, c, m, n, k, k, 1, n, 1, n, 1, BLOCK_SIZE_M=16, BLOCK_SIZE_N=16,
                 BLOCK_SIZE_K=16, GROUP_SIZE_M=2, ACTIVATION=activation)
    want = tutorial.reference(a, b, activation)
    err = np.linalg.norm(c.astype(np.float64) - want) / np.linalg.norm(want)
    assert err < 2e-3


def test_every_config_has_tile_ir(tutorial, check_ir):
    a = np.zeros((256, 256), np.float16)
    for cfg in tutorial.get_autotune_configs():
        text = tutorial.matmul_kernel.fn.ir(a, a, a, 256, 256, 256, 256, 1, 256, 1, 256, 1,
                                            ACTIVATION="leaky_relu", num_warps=cfg.num_warps,
                                            **cfg.kwargs)
        assert "tile.dot" in text and "scf.for" in text
    check_ir(text, ptx=False)


@pytest.mark.parametrize("target", ["cuda:80", "cuda:90"])
@pytest.mark.parametrize("cfg_index", [2, 7])
def test_ptx(cfg_index, target):
    """The PTX of two configurations, compiled in a child process so that a
    compiler crash fails this test instead of ending the whole run."""
    pytest.importorskip("terrazzo._C")
    code = f"""
import importlib.util, numpy as np
spec = importlib.util.spec_from_file_location("t", {str(REPO / 'tutorials/03-matrix-multiplication.py')!r})
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
cfg = m.get_autotune_configs()[{cfg_index}]
a = np.zeros((256, 256), np.float16)
ptx = m.matmul_kernel.fn.compile(a, a, a, 256, 256, 256, 256, 1, 256, 1, 256, 1,
                                 ACTIVATION="", stage="ptx", target={target!r},
                                 num_warps=cfg.num_warps, num_stages=cfg.num_stages,
                                 **cfg.kwargs)
assert ".entry matmul_kernel" in ptx
print("ok")
"""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=600, env=env)
    assert r.returncode == 0 and "ok" in r.stdout, \
        f"compiling the tutorial's kernel for {target} failed (rc {r.returncode}):\n" \
        f"{r.stderr[-3000:]}"


def test_bench_imports():
    pytest.importorskip("torch")
    module = load("bench/matmul.py", "bench_matmul")
    assert "def make_kernel" in module.TRITON_SOURCE
