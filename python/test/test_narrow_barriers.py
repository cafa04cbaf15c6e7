"""TERRAZZO_NARROW_BARRIERS=1 (off by default, bench/RESULTS.md session 36):
rows banded by warp in programs of several warp groups and barriers of a
warp or warp group where only their threads' accesses conflict. Compiled
for sm_90 without a GPU: tutorial 06's warp-specialized D=64 forward
takes Q to its first wgmma's register operand through shared memory with
a barrier of each warp instead of the consumers'; a kernel whose warp
groups take turns (the persistent D=128 forward) keeps the program's
barriers; unset, nothing changes."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def tutorial():
    spec = importlib.util.spec_from_file_location(
        "tutorial_attention_narrow", REPO / "tutorials/06-fused-attention.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def forward_ptx(t, head_dim, persistent):
    n = 1024
    cfg = dict(BLOCK_M=128, BLOCK_N=128, num_warps=8, num_stages=2, WARP_SPECIALIZE=True)
    q = np.zeros((1, 2, n, head_dim), np.float16)
    lse = np.zeros((1, 2, n), np.float32)
    s = t._strides(q)
    if persistent:
        return t._attn_fwd_persistent.compile(q, q, q, 0.125, lse, q, *s, *s, *s, *s, 1, 2, n,
                                              HEAD_DIM=head_dim, CAUSAL=False, EVEN_N=True,
                                              **cfg, stage="ptx", target="cuda:90")
    return t._attn_fwd.compile(q, q, q, 0.125, lse, q, *s, *s, *s, *s, 2, n, HEAD_DIM=head_dim,
                               CAUSAL=False, EVEN_N=True, FLAT_KV=True, **cfg, stage="ptx",
                               target="cuda:90")


def consumer_part(ptx):
    # The consumers' code: after their setmaxnreg.inc.
    return ptx[ptx.index("setmaxnreg.inc"):]


def test_q_through_each_warp(tutorial, monkeypatch):
    monkeypatch.delenv("TERRAZZO_NARROW_BARRIERS", raising=False)
    plain = consumer_part(forward_ptx(tutorial, 64, persistent=False))
    monkeypatch.setenv("TERRAZZO_NARROW_BARRIERS", "1")
    narrow = consumer_part(forward_ptx(tutorial, 64, persistent=False))
    first_dot = narrow.index("wgmma.mma_async")
    assert "bar.warp.sync" in narrow[:first_dot]
    assert "bar.sync 0, 256;" not in narrow[:first_dot]
    assert "bar.sync 0, 256;" in plain[:plain.index("wgmma.mma_async")]


def test_turns_keep_the_programs_barriers(tutorial, monkeypatch):
    monkeypatch.delenv("TERRAZZO_NARROW_BARRIERS", raising=False)
    plain = forward_ptx(tutorial, 128, persistent=True)
    assert "bar.sync 1, 256;" in plain  # the warp groups take turns
    monkeypatch.setenv("TERRAZZO_NARROW_BARRIERS", "1")
    narrow = forward_ptx(tutorial, 128, persistent=True)
    barriers = [line.strip() for line in narrow.splitlines() if "bar.sync" in line or "bar.warp" in line]
    assert barriers == [line.strip() for line in plain.splitlines()
                        if "bar.sync" in line or "bar.warp" in line]
