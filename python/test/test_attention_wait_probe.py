"""bench/attention_wait_probe.py without a GPU: its copies of tutorial 06
still apply (each edit must match the tutorial's source once), and the
PTX patch of PATCH=4 gives the f16x2 exponentials registers of their own
up to the wait for the wgmma that reads them, so that ptxas keeps the
wgmmas asynchronous (without the patch it serialises them, C7513); the
persistent kernel of PATCH=11 prefetches the next tile's Q into L2 and
keeps its warp specialization."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import numpy as np
import pytest
from conftest import assemble_ptx, PTXAS

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def probe():
    spec = importlib.util.spec_from_file_location(
        "attention_wait_probe", REPO / "bench" / "attention_wait_probe.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_variant(probe, patch):
    folder = probe.tutorial_variant(probe.VARIANTS[patch])
    path = os.path.join(folder, "06-fused-attention.py")
    spec = importlib.util.spec_from_file_location(f"t06_variant_{patch}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("patch", ["4", "5", "6", "7", "8", "10", "11", "15", "16", "17"])
def test_variants_apply(probe, patch):
    folder = probe.tutorial_variant(probe.VARIANTS[patch])
    source = open(os.path.join(folder, "06-fused-attention.py")).read()
    compile(source, "variant", "exec")
    original = (REPO / "tutorials" / "06-fused-attention.py").read_text()
    assert source != original


def test_edit_that_does_not_match_names_itself(probe):
    with pytest.raises(ValueError, match="expected 1 of 'no such line"):
        probe.tutorial_variant({"no such line\n": ""})


def test_half_exponentials_keep_the_wgmmas_asynchronous(probe, monkeypatch):
    pytest.importorskip("terrazzo._C")
    if not PTXAS:
        pytest.skip("needs ptxas (the CUDA toolkit)")
    monkeypatch.setenv("TERRAZZO_TARGET", "cuda:90")
    module = load_variant(probe, "4")
    q = np.zeros((2, 2, 1024, 64), np.float16)
    lse = np.zeros((2, 2, 1024), np.float32)
    s = module._strides(q)
    ptx = module._attn_fwd.compile(
        q, q, q, 0.125, lse, q, *s, *s, *s, *s, 2, 1024, HEAD_DIM=64, CAUSAL=False,
        EVEN_N=True, FLAT_KV=True, **module.fwd_config(64, False, False), stage="ptx")
    assert "ex2.approx.f16x2" in ptx and "setmaxnreg" in ptx
    assert "C7513" in assemble_ptx(ptx)
    patched, count = probe.half_exponentials(ptx)
    # The key loop's 32 pairs of P (64 rows x 128 keys over 128 threads);
    # the peeled first block's are left alone (no wait follows them
    # before the loop).
    assert count == 32
    assert patched.count("xor.b32") - ptx.count("xor.b32") == 32
    report = assemble_ptx(patched)
    assert "C751" not in report, report


def test_next_q_prefetch_in_the_persistent_kernel(probe, monkeypatch):
    pytest.importorskip("terrazzo._C")
    monkeypatch.setenv("TERRAZZO_TARGET", "cuda:90")
    module = load_variant(probe, "11")
    q = np.zeros((1, 2, 1024, 64), np.float16)
    lse = np.zeros((1, 2, 1024), np.float32)
    s = module._strides(q)
    ptx = module._attn_fwd_persistent.compile(
        q, q, q, 0.125, lse, q, *s, *s, *s, *s, 1, 2, 1024, HEAD_DIM=64, CAUSAL=False,
        EVEN_N=True, **module.fwd_config(64, False, False), stage="ptx")
    # The variant's predicated prefetch, one a thread and tile (beside the
    # compiler's own, terrazzo-prefetch-next-tile's), the producer warp
    # group and its TMA copies as in the tutorial's own kernel.
    assert ptx.count("@p prefetch.global.L2") == 1
    assert "setmaxnreg" in ptx and "cp.async.bulk.tensor" in ptx
