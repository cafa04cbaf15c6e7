"""bench/attention_timeline.py without a GPU: its edits of tutorial 06 still
apply (each must match the tutorial's source once), the stamped kernels
compile for sm_90 with their clock reads where the summary expects them
(and the key loop keeps its dots and exponentials), and the summaries'
arithmetic on stamps whose answer is known."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from conftest import bench_module, ptx_loops

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def timeline():
    with bench_module("attention_timeline") as module:
        yield module


def stamped_module(timeline, tmp_path, iterations):
    path = tmp_path / f"stamped_{int(iterations)}.py"
    path.write_text(timeline.stamped_source(iterations=iterations))
    return timeline.load_module(str(path), path.stem)


@pytest.fixture
def sm90(monkeypatch):
    pytest.importorskip("terrazzo._C")
    monkeypatch.setenv("TERRAZZO_TARGET", "cuda:90")


@pytest.mark.parametrize("iterations", [False, True])
def test_edits_apply(timeline, iterations):
    source = timeline.stamped_source(iterations=iterations)
    compile(source, "stamped", "exec")
    # Entry, before and after the loops, after the stores; with iterations
    # three stamps in the key loop.
    assert source.count("_clock(off_hz)") == 4
    assert source.count("_wg_stamp(") == (3 + 1 if iterations else 1)  # + the definition


def test_edit_that_does_not_match_names_itself(timeline):
    with pytest.raises(SystemExit, match="expected 1 of"):
        timeline._edit("a b", "c", "d")


def compile_stamped(module, persistent, head_dim, causal=False):
    q = np.zeros((2, 2, 1024, head_dim), np.float16)
    lse = np.zeros((2, 2, 1024), np.float32)
    stamps = np.zeros(8, np.int64)
    s = module._strides(q)
    cfg = module.fwd_config(head_dim, causal, False)
    if persistent:
        return module._attn_fwd_persistent.compile(
            q, q, q, 0.125, lse, q, *s, *s, *s, *s, 2, 2, 1024, stamps, HEAD_DIM=head_dim,
            CAUSAL=causal, EVEN_N=True, **cfg, stage="ptx")
    return module._attn_fwd.compile(
        q, q, q, 0.125, lse, q, *s, *s, *s, *s, 2, 1024, stamps, HEAD_DIM=head_dim,
        CAUSAL=causal, EVEN_N=True, FLAT_KV=True, **cfg, stage="ptx")


@pytest.mark.parametrize("persistent, head_dim", [(False, 64), (True, 128)])
def test_stamped_kernels_compile(timeline, sm90, tmp_path, persistent, head_dim):
    module = stamped_module(timeline, tmp_path, iterations=True)
    ptx = compile_stamped(module, persistent, head_dim)
    # Four clock reads per tile, two of the global timer, the SM's number.
    assert ptx.count("%globaltimer") == 2
    assert ptx.count("%smid") == 1
    # The key loop (the innermost loop of dots) still runs on wgmma with
    # its exponentials, and reads the clock three times (its rotation
    # copies the stamps into its prologue and epilogue too).
    loops = [body for body in ptx_loops(ptx)
             if "wgmma.mma_async" in body and "ex2.approx" in body]
    key_loop = min(loops, key=len)
    assert key_loop.count("%clock64") == 3
    assert ptx.count("%clock64") >= 4 + 3
    assert "setmaxnreg" in ptx  # still warp-specialized


def test_summary_of_known_stamps(timeline, capsys):
    # Four tiles on two SMs (two each, one after the other), four key
    # blocks of 2000 cycles each, warp group 1 half a period behind.
    n = 4
    stamps = np.zeros((4, timeline.record_size(True)), np.int64)
    for t in range(4):
        start = 20000 * (t // 2)
        stamps[t, :7] = [start, start + 100, start + 300, start + 8300, start + 9100,
                         start + 9100, t % 2]
        for j in range(n):
            base = timeline.SLOTS + 8 * j
            top = start + 300 + 2000 * j
            stamps[t, base:base + 3] = [top, top + 500, top + 1500]
            stamps[t, base + 3:base + 6] = [top + 1000, top + 1500, top + 2500]
    timeline.summarise(stamps, "known", n)
    timeline.summarise_iterations(stamps, n)
    out = capsys.readouterr().out
    assert "4 tiles on 2 SMs" in out
    assert "prologue 200, loops 8000 (2000 per key block), epilogue 800" in out
    # An SM's second tile enters at 20100, its first left at 9100.
    assert "gap between an SM's tiles (median / 90th percentile): 11000 / 11000" in out
    assert re.search(r"warp group 0: period 2000 cycles .* start to maximum 500, "
                     r"exponentials and sum 1000, sum to the next start 500", out)
    assert "warp group 1 behind 0: 1000 cycles, 0.50 of a period" in out


def test_summary_of_overlapping_tiles(timeline, capsys):
    # Two programs at a time on one SM (both tiles span the whole kernel):
    # no gap between tiles, but how many programs ran at once.
    stamps = np.zeros((2, timeline.SLOTS), np.int64)
    stamps[:, :7] = [0, 0, 100, 900, 1000, 1000, 0]
    timeline.summarise(stamps, "overlapping", 4)
    out = capsys.readouterr().out
    assert "programs at once per SM: 2.00" in out and "gap between an SM" not in out
