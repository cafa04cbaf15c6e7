"""The tools for timing hand-edited kernels, without a GPU:
bench/swap_cached_binary.py (a copy of a kernel cache with one kernel's
binary replaced: only that kernel's entries, valid ones, the source left
as it was, and refusals where the launch would differ) and the parts of
bench/attention_hand_edited.py that do not depend on one compiler's IR:
its tutorial copy that loads Q through a descriptor (the edits still
apply, and the copy's persistent forward matches float64 in the
interpreter) and its PTX edits."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import bench_module

REPO = Path(__file__).resolve().parents[2]
SWAP = REPO / "bench" / "swap_cached_binary.py"


@pytest.fixture(scope="module")
def hand_edited():
    with bench_module("attention_hand_edited") as module:
        yield module


MAPS = [{"parameter": 21, "base": 1}]


def fill_cache(root):
    """Two entries, as a run leaves them: the kernel's and another's."""
    from terrazzo.runtime.cache import DiskCache
    cache = DiskCache(root)
    meta = {"name": "kern", "threads_per_block": 384, "shared_memory_bytes": 1000,
            "global_scratch_bytes": 0, "host_tensormaps": MAPS, "signature": "pi",
            "target": "cuda:90", "kernel": "kern", "source": "k.py"}
    cache.store("ab" + "1" * 62, b"old kern binary", meta)
    cache.store("cd" + "2" * 62, b"old other binary",
                dict(meta, name="other", kernel="other", host_tensormaps=[]))
    return cache


def write_binary(tmp_path, maps=MAPS):
    binary = tmp_path / "k.cubin"
    binary.write_bytes(b"new kern binary, longer")
    (tmp_path / "k.cubin.json").write_text(json.dumps(
        {"name": "kern", "threads_per_block": 256, "shared_memory_bytes": 2048,
         "host_tensormaps": maps}))
    return binary


def swap(*args):
    return subprocess.run([sys.executable, str(SWAP), *map(str, args)],
                          capture_output=True, text=True)


def test_swap_replaces_only_the_kernel(tmp_path):
    from terrazzo.runtime.cache import DiskCache
    fill_cache(tmp_path / "a")
    result = swap(tmp_path / "a", tmp_path / "b", write_binary(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "replaced 1 entry of kern" in result.stdout
    binary, meta = DiskCache(tmp_path / "b").load("ab" + "1" * 62, "kern")
    assert binary == b"new kern binary, longer"
    assert (meta["shared_memory_bytes"], meta["threads_per_block"]) == (2048, 256)
    assert DiskCache(tmp_path / "b").load("cd" + "2" * 62)[0] == b"old other binary"
    # The source is as the run left it.
    assert DiskCache(tmp_path / "a").load("ab" + "1" * 62)[0] == b"old kern binary"


def test_swap_refuses_what_would_launch_differently(tmp_path):
    fill_cache(tmp_path / "a")
    result = swap(tmp_path / "a", tmp_path / "b",
                  write_binary(tmp_path, maps=[{"parameter": 22, "base": 1}]))
    assert result.returncode != 0
    assert "passes tensor maps as parameters [21]" in result.stderr
    result = swap(tmp_path / "a", tmp_path / "c", write_binary(tmp_path), "--key", "ff")
    assert result.returncode != 0 and "no entry of kern" in result.stderr
    result = swap(tmp_path / "empty", tmp_path / "d", write_binary(tmp_path))
    assert result.returncode != 0 and "holds no cached kernels" in result.stderr


def test_q_descriptor_copy_in_the_interpreter(hand_edited, tmp_path, monkeypatch):
    # The copy's persistent forward at D=128 without the mask (where it
    # loads Q through the descriptor) against float64, a tile per program
    # and two.
    monkeypatch.setenv("TERRAZZO_INTERPRET", "1")
    hand_edited.q_descriptor_tutorial(tmp_path / "t06pq")
    text = (tmp_path / "t06pq" / "06-fused-attention.py").read_text()
    assert "q = q_desc.load(" in text
    from loading import load_tutorial
    copy = load_tutorial("06-fused-attention.py", str(tmp_path / "t06pq"))
    rng = np.random.default_rng()
    q, k, v, do = (rng.standard_normal((1, 2, 64, 128)).astype(np.float32) for _ in range(4))
    scale = 0.5 / math.sqrt(128)
    o, lse = copy.attention_forward(q, k, v, False, scale, config=copy.SMALL_FWD,
                                    persistent=True)
    want = copy.reference(q, k, v, False, scale, do)[0]
    assert np.all(np.isfinite(o))
    assert copy._rel(o, want) < 2e-3  # tl.dot on float32: tf32


PTX = """\
\tst.shared.v4.b32 \t[%r1], {%r2, %r3, %r4, %r5};
\tfence.proxy.async.shared::cta;
\t// begin inline asm
\tbar.sync 0, 256;
\t// end inline asm
\twgmma.fence.sync.aligned;
\tfence.proxy.async.shared::cta;
\t// begin inline asm
\tbar.sync 0, 256;
\t// end inline asm
\twgmma.fence.sync.aligned;
\tbar.sync 0, 256;
\tld.shared.b32 \t%r6, [%r1];"""


def test_ptx_barrier_edits(hand_edited):
    # The first dot's barrier follows a plain store: kept (narrowed on
    # request); the second's does not: dropped with its fence; a barrier
    # in front of something else than a dot stays.
    kept_ptx, kept, dropped = hand_edited.patch_ptx(PTX, narrow=False)
    assert (kept, dropped) == (1, 1)
    assert kept_ptx.count("bar.sync 0, 256;") == 2
    assert kept_ptx.count("fence.proxy.async") == 1
    narrow_ptx, _, _ = hand_edited.patch_ptx(PTX, narrow=True)
    assert hand_edited.GROUP_BARRIER in narrow_ptx
    assert narrow_ptx.count("bar.sync 0, 256;") == 1
    none_ptx, kept, dropped = hand_edited.patch_ptx(PTX, narrow=False, keep=False)
    assert (kept, dropped) == (0, 2) and none_ptx.count("fence.proxy.async") == 0


def test_ptx_map_acquire(hand_edited):
    ptx = "\n".join([
        "\t@%p27 bra \t$L__BB0_61;",
        "\tmbarrier.arrive.expect_tx.shared::cta.b64 _, [%rd116], %r1235;",
        "\tcp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
        "[%r1238], [%rd14, {%r1239, %r164}], [global_smem+196736];",
        "\tcp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
        "[%r1240], [%rd2, {%r1241, %r164}], [global_smem+196608];"])
    lines = hand_edited.acquire_map_in_producer(ptx).split("\n")
    assert lines[1] == "\tfence.proxy.tensormap::generic.acquire.gpu [%rd14], 128;"
    assert sum("acquire" in line for line in lines) == 1
