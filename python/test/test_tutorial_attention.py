"""tutorials/06-fused-attention.py without a GPU: the forward and backward
kernels in the interpreter against float64 NumPy (causal and not, sequence
lengths that are not multiples of the blocks, a causal case shorter than
BLOCK_M), the forward's code for sm_90 (wgmma, no local memory), and on a
GPU the tutorial's own check (float16/bfloat16, head dims 64 and 128, fp8
forward) against float64."""

from __future__ import annotations

import importlib.util
import math
import re
from pathlib import Path

import numpy as np
import pytest
from conftest import assert_no_spills, ptx_loops
from test_frontend import _kernel_from_source

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def tutorial():
    spec = importlib.util.spec_from_file_location(
        "tutorial_attention", REPO / "tutorials/06-fused-attention.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_check_in_the_interpreter(tutorial, monkeypatch, capsys):
    monkeypatch.setenv("TERRAZZO_INTERPRET", "1")
    tutorial.check_interpreter()
    assert "The results match." in capsys.readouterr().out


def random_qkv_do(shape):
    """Q, K, V and dO of `shape`, standard normal float32."""
    rng = np.random.default_rng()
    return tuple(rng.standard_normal(shape).astype(np.float32) for _ in range(4))


def run_in_interpreter(tutorial, q, k, v, do, causal, scale):
    """O, the log-sum-exp and (dQ, dK, dV) of the tutorial's small-block
    kernels in the interpreter."""
    o, lse = tutorial.attention_forward(q, k, v, causal, scale, config=tutorial.SMALL_FWD)
    grads = tutorial.attention_backward(q, k, v, o, do, lse, causal, scale,
                                        config=tutorial.SMALL_BWD)
    return o, lse, tuple(grads)


def assert_close(tutorial, got, want, limit):
    for g, w in zip(got, want):
        assert np.all(np.isfinite(g))
        assert tutorial._rel(g, w) < limit


@pytest.mark.parametrize("causal", [False, True])
def test_interpreter_against_reference(tutorial, monkeypatch, causal):
    # A second draw with another head dim and two programs per row block.
    monkeypatch.setenv("TERRAZZO_INTERPRET", "1")
    q, k, v, do = random_qkv_do((2, 1, 50, 32))
    scale = 0.5 / math.sqrt(32)
    o, lse, grads = run_in_interpreter(tutorial, q, k, v, do, causal, scale)
    # The persistent forward: 3 programs over 4 tiles (one program does two).
    o_p, lse_p = tutorial.attention_forward(q, k, v, causal, scale, config=tutorial.SMALL_FWD,
                                            persistent=True)
    want = tutorial.reference(q, k, v, causal, scale, do)
    assert_close(tutorial, (o,) + grads + (o_p,), want + (want[0],),
                 2e-3)  # tl.dot on float32: tf32
    np.testing.assert_array_equal(lse_p, lse)


@pytest.mark.parametrize("n_ctx", [24, 40, 64, 72])
@pytest.mark.parametrize("block_m,block_n", [(16, 32), (16, 64), (32, 16)])
def test_interpreter_causal_key_blocks_wider_or_narrower(tutorial, monkeypatch, n_ctx,
                                                          block_m, block_n):
    # With the causal mask, key blocks wider than the query blocks: the
    # first masked key block starts below the query block (half of it, or
    # more, already visible); sequence lengths below, at and past the
    # blocks. Both forms, against float64.
    monkeypatch.setenv("TERRAZZO_INTERPRET", "1")
    q, k, v, _ = random_qkv_do((1, 2, n_ctx, 16))
    scale = 1 / math.sqrt(16)
    cfg = dict(BLOCK_M=block_m, BLOCK_N=block_n, num_warps=4, num_stages=1,
               WARP_SPECIALIZE=False)
    want = tutorial.reference(q, k, v, True, scale)
    for persistent in (False, True):
        o, _ = tutorial.attention_forward(q, k, v, True, scale, config=cfg,
                                          persistent=persistent)
        assert_close(tutorial, (o,), (want,), 2e-3)  # tl.dot on float32: tf32


@pytest.mark.parametrize("causal", [False, True])
def test_interpreter_scores_far_below_zero(tutorial, monkeypatch, causal):
    # Every score near -200 in base 2 (q and k opposite along one axis), so
    # the log-sum-exp is too: dQ's block past N_CTX (50 keys in blocks of
    # 16) must mask P there, where K loads as zeros and exp2(0 - lse) would
    # overflow to inf and turn dQ into NaN.
    monkeypatch.setenv("TERRAZZO_INTERPRET", "1")
    q, k, v, do = random_qkv_do((1, 2, 50, 32))
    q[..., 0], k[..., 0] = 40.0, -40.0
    scale = 0.5 / math.sqrt(32)
    o, lse, grads = run_in_interpreter(tutorial, q, k, v, do, causal, scale)
    assert lse.max() < -150
    assert_close(tutorial, (o,) + grads, tutorial.reference(q, k, v, causal, scale, do),
                 1e-2)  # tf32 dots of entries of 40


def compile_forward(module, stage="ptx", head_dim=64, **options):
    """The tutorial's forward kernel (of `module`) for sm_90 at `stage`, on a
    1 x 2 x 1024 x head_dim problem; `options` are its meta-parameters and
    launch options (causal, 128 x 64 blocks, 8 warps, 3 stages unless
    given)."""
    q = np.zeros((1, 2, 1024, head_dim), np.float16)
    lse = np.zeros((1, 2, 1024), np.float32)
    s = module._strides(q)
    options = {**dict(BLOCK_M=128, BLOCK_N=64, CAUSAL=True, EVEN_N=True, WARP_SPECIALIZE=False,
                      num_warps=8, num_stages=3), **options}
    return module._attn_fwd.compile(q, q, q, 0.125, lse, q, *s, *s, *s, *s, 2, 1024,
                                    HEAD_DIM=head_dim, **options, stage=stage)


@pytest.fixture
def sm90(monkeypatch):
    pytest.importorskip("terrazzo._C")
    monkeypatch.setenv("TERRAZZO_TARGET", "cuda:90")


def test_forward_compiles_to_wgmma(tutorial, sm90):
    ptx = compile_forward(tutorial, BLOCK_N=128)
    assert "wgmma.mma_async" in ptx
    assert ".local" not in ptx
    assert "setmaxnreg" not in ptx


@pytest.mark.parametrize("causal", [False, True])
def test_forward_warp_specialized(tutorial, sm90, causal):
    # tl.range(..., warp_specialize=True): a producer warp group of its own
    # (setmaxnreg down) issues the TMA copies, the 8 warps of the kernel
    # compute (setmaxnreg up) and synchronise among themselves only; the
    # kernel launches 12 warps. Causal has two loops, both specialized.
    options = dict(CAUSAL=causal, WARP_SPECIALIZE=True)
    ptx = compile_forward(tutorial, **options)
    assert ".maxntid 384, 1, 1" in ptx
    assert ".maxnreg 168" in ptx
    assert re.search(r"setmaxnreg\.dec\.sync\.aligned\.u32\s+40;", ptx)
    assert "setmaxnreg.inc.sync.aligned.u32" in ptx
    assert "cp.async.bulk.tensor" in ptx
    # Every barrier after the split is the consumers' (256 threads) or the
    # producer's (128); the one barrier of all 384 threads opens the split.
    assert len(re.findall(r"bar\.sync\s+0;", ptx)) == 1
    assert "bar.sync 0, 256;" in ptx
    assert ".local" not in ptx
    # The consumers' registers hold the chain without spilling.
    assert_no_spills(ptx)
    tile = compile_forward(tutorial, "tilegpu", **options)
    assert tile.count("tilegpu.warp_specialize") == 1
    assert tile.count("tilegpu.async_tma_copy_global_to_local") == (4 if causal else 2)


def test_forward_causal_d128_shares_one_ring(tutorial, sm90):
    # D=128, causal: the two specialized loops fill the same 64x128 buffers
    # and share one ring (4 stages of K and V, 128 KiB), which fits beside Q;
    # two rings would not, and the kernel would lose its producer.
    tile = compile_forward(tutorial, "tilegpu", head_dim=128, WARP_SPECIALIZE=True)
    assert tile.count("tilegpu.warp_specialize") == 1
    assert tile.count("tilegpu.local_alloc : () -> !tilegpu.memdesc<4x64x128xf16") == 2
    assert tile.count("tilegpu.mbarrier_init") == 8


@pytest.mark.parametrize("maximum", [True, False])
def test_forward_causal_heaviest_first(sm90, tmp_path, maximum):
    # The causal forward takes its row blocks from the last
    # (_heaviest_first). tiles_m - 1 - within // heads_per_group is never
    # negative, which the compiler learns from the tutorial's maximum with
    # 0: the diagonal loop's K and V loads (at start_m * BLOCK_M) keep their
    # TMA copies, whose coordinates must not be negative. Without the
    # maximum they stay pointer loads (cp.async). The loop below the
    # diagonal starts at 0 either way.
    source = (REPO / "tutorials/06-fused-attention.py").read_text()
    index = "tiles_m - 1 - within // heads_per_group"
    changed = source if maximum else source.replace(f"tl.maximum({index}, 0)", index, 1)
    assert changed != source or maximum
    path = tmp_path / "attention_heaviest_first.py"
    path.write_text(changed)
    spec = importlib.util.spec_from_file_location("attention_heaviest_first", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    ptx = compile_forward(module, HEADS_PER_GROUP=4)
    assert "cp.async.bulk.tensor" in ptx
    assert ("cp.async.cg" not in ptx) == maximum


def test_forward_warp_specialized_under_maxnreg(tutorial, sm90):
    # maxnreg=128 with one consumer warp group: 8 warps launch with 128
    # registers per thread (two programs per SM), the producer gives 88 of
    # them to the consumers (216).
    ptx = compile_forward(tutorial, WARP_SPECIALIZE=True, num_warps=4, maxnreg=128)
    assert ".maxntid 256, 1, 1" in ptx
    assert ".maxnreg 128" in ptx
    assert re.search(r"setmaxnreg\.dec\.sync\.aligned\.u32\s+40;", ptx)
    assert re.search(r"setmaxnreg\.inc\.sync\.aligned\.u32\s+216;", ptx)
    assert ".local" not in ptx


def compile_persistent(module, stage="ptx", head_dim=128, **options):
    """The tutorial's persistent forward for sm_90 at `stage` (as
    compile_forward; D=128, 128 x 128 blocks, 2 stages, warp-specialized
    unless given)."""
    q = np.zeros((1, 2, 1024, head_dim), np.float16)
    lse = np.zeros((1, 2, 1024), np.float32)
    s = module._strides(q)
    options = {**dict(BLOCK_M=128, BLOCK_N=128, CAUSAL=False, EVEN_N=True,
                      WARP_SPECIALIZE=True, num_warps=8, num_stages=2), **options}
    return module._attn_fwd_persistent.compile(q, q, q, 0.125, lse, q, *s, *s, *s, *s, 1, 2,
                                               1024, HEAD_DIM=head_dim, **options, stage=stage)


@pytest.mark.parametrize("causal", [False, True])
def test_persistent_forward_warp_specialized(tutorial, sm90, causal):
    # The loop over tiles around the specialized loops: the producer warp
    # group runs a loop over the same tiles around its loops over the keys
    # (the ring's stage and parity carried from tile to tile), the tensor
    # maps are built once, before it (K and V read as rows of the whole
    # tensors), and the consumers' loop over tiles carries their side of the
    # ring. Causal: two specialized loops per tile share the ring. The
    # tensor maps of K and V, of the kernel's arguments alone, are built
    # by the launcher: two parameters after the arguments, nothing built
    # in the kernel.
    tile = compile_persistent(tutorial, "tilegpu", CAUSAL=causal,
                              **(dict(BLOCK_N=64, num_stages=3) if causal else {}))
    assert tile.count("tilegpu.warp_specialize") == 1
    assert tile.count("#tilegpu.host_tensormap<") == 2
    assert "tilegpu.tensormap_create" not in tile
    producer = tile[tile.index("} producer {"):]
    assert producer.count("scf.for") == (3 if causal else 2)
    # Every copy is the producer's (K and V in each of its loops).
    assert tile.count("tilegpu.async_tma_copy_global_to_local") == (4 if causal else 2)
    assert producer.count("tilegpu.async_tma_copy_global_to_local") == (4 if causal else 2)
    ptx = compile_persistent(tutorial, CAUSAL=causal,
                             **(dict(BLOCK_N=64, num_stages=3) if causal else {}))
    assert ".maxntid 384, 1, 1" in ptx
    assert re.search(r"setmaxnreg\.dec\.sync\.aligned\.u32\s+40;", ptx)
    assert "cp.async.bulk.tensor" in ptx
    assert len(re.findall(r"bar\.sync\s+0;", ptx)) == 1
    assert ".local" not in ptx
    assert_no_spills(ptx)
    # The next tile's Q goes into L2 while this tile runs: one prefetch per
    # 16-byte vector of a consumer thread's Q (128 x 128 f16 over 256
    # threads), in the consumers' loop over tiles, none in the producer's.
    consumers = ptx[ptx.index("setmaxnreg.inc"):]
    assert ptx.count("prefetch.global.L2") == consumers.count("prefetch.global.L2") == 8


@pytest.mark.parametrize("head_dim,causal,n_ctx,want", [
    (64, False, 1024, False), (64, False, 2048, False), (64, False, 4096, False),
    (64, True, 1024, False), (128, False, 16384, True), (128, True, 4096, True),
    (128, True, 8192, False), (128, False, 1000, False), (128, False, 5000, False),
    (128, True, 1000, True)])
def test_default_forward_form(tutorial, head_dim, causal, n_ctx, want):
    # Persistent where it measured faster (bench/RESULTS.md): D=128 but its
    # long causal cases and, without the mask, a masked last block of keys
    # (session 45); D=64 non-causal only when warp-specialized (up to
    # 2k keys, with the next tile's Q prefetched), which by default it is
    # not up to 4k; never fp8.
    assert tutorial.fwd_persistent(head_dim, causal, False, n_ctx) is want
    assert tutorial.fwd_persistent(head_dim, causal, True, n_ctx) is False


@pytest.mark.parametrize("n_ctx,want", [
    (1024, (128, 128, 8, False, 128)), (16384, (128, 128, 8, False, 128)),
    (1000, (64, 128, 4, False, None)), (4000, (64, 128, 4, False, None)),
    (8000, (128, 128, 8, True, None)), (None, (128, 128, 8, True, None))])
def test_default_forward_config_d64(tutorial, n_ctx, want):
    # D=64 without the causal mask: 128 x 128 blocks at 8 warps, unspecialized,
    # two programs to an SM (maxnreg 128) when no key block is masked; for
    # masked tails programs of one warp group on 64 x 128 blocks up to 4k
    # keys, the warp-specialized 128 x 128 form above (and for an unknown
    # length, for fp8, or when warp specialization is asked for).
    cfg = tutorial.fwd_config(64, False, False, n_ctx=n_ctx)
    assert (cfg["BLOCK_M"], cfg["BLOCK_N"], cfg["num_warps"],
            cfg["WARP_SPECIALIZE"], cfg.get("maxnreg")) == want


@pytest.mark.parametrize("n_ctx,want", [
    (1024, (64, 64, 4, None)), (2048, (128, 128, 8, 128)), (16384, (128, 128, 8, 128)),
    (2000, (64, 64, 4, None)), (4000, (128, 64, 8, None)), (None, (128, 64, 8, None))])
def test_default_forward_config_d64_causal(tutorial, n_ctx, want):
    # D=64 with the causal mask: programs of one warp group on 64 x 64
    # blocks at 1k keys (and up to 2k for masked tails), 128 x 128 blocks at
    # 8 warps with maxnreg 128 from 2k (bench/RESULTS.md, session 43), 128 x
    # 64 at 8 warps for longer masked tails; none warp-specialized.
    cfg = tutorial.fwd_config(64, True, False, n_ctx=n_ctx)
    assert (cfg["BLOCK_M"], cfg["BLOCK_N"], cfg["num_warps"], cfg.get("maxnreg")) == want
    assert not cfg["WARP_SPECIALIZE"]


def test_forward_d64_asked_for_warp_specialization(tutorial):
    # Asked for, D=64 without the causal mask keeps the warp-specialized
    # 128 x 128 form at any length, persistent up to 2k keys; fp8 too keeps
    # its 128-row blocks.
    assert tutorial.fwd_config(64, False, False, True, 1024)["WARP_SPECIALIZE"]
    assert tutorial.fwd_persistent(64, False, False, 2048, warp_specialize=True)
    assert tutorial.fwd_config(64, False, True, n_ctx=1024)["BLOCK_M"] == 128


@pytest.mark.parametrize("head_dim,causal,specialized,in_registers", [
    (64, False, True, True), (64, True, True, True), (64, True, False, False),
    (128, False, True, False)])
def test_forward_q_operand(tutorial, sm90, head_dim, causal, specialized, in_registers):
    # Q K^T's A, Q, is loop-invariant: in a warp-specialized loop at D=64 it
    # stays in registers (ldmatrix once per tile, then every Q K^T wgmma
    # names four registers for A), at D=128 the chain's registers leave no
    # room and without warp specialization the registers would cost the
    # second program per SM, so Q is read from shared memory by a matrix
    # descriptor (a 64-bit register).
    # The tutorial's blocks (D=128: 128 keys, two stages).
    options = dict(CAUSAL=causal, WARP_SPECIALIZE=specialized, BLOCK_N=128)
    if head_dim == 128:
        options.update(num_stages=2)
    ptx = compile_forward(tutorial, head_dim=head_dim, **options)
    # Q K^T's wgmmas (N = 128 keys; at D=64 P V's have N = 64), or at D=128
    # both dots': A from registers ({...}) or from a descriptor (%rd).
    a = re.findall(r"wgmma\.mma_async\.sync\.aligned\.m64n128k16\.f32\.f16\.f16 "
                   r"\{[^}]*\}, (\{[^}]*\}|%rd\d+), %rd\d+", ptx)
    if in_registers:
        assert a and all(x.startswith("{") for x in a), a
    else:
        assert any(x.startswith("%rd") for x in a), a
    assert ("ldmatrix" in ptx) == in_registers
    assert_no_spills(ptx)


def test_per_tile_forward_prefetches_nothing(tutorial, sm90):
    # One program per tile has no next tile to prefetch.
    ptx = compile_forward(tutorial, CAUSAL=False, BLOCK_N=128, WARP_SPECIALIZE=True)
    assert "prefetch.global.L2" not in ptx


# Triton's tutorial loads Q, K and V through tensor descriptors. Q's copy
# is staged once, outside the loop, and the buffer that wgmma reads it
# from carries the proxy fence of the value it replaced: that fence writes
# nothing, so the loop's dots need neither a fence nor a barrier of the
# consumers (one per iteration was 10% of the D=64 forward, and with the
# warp groups taking turns at D=128 a barrier both must reach while one
# waits for the other's turn never completes).
_DESCRIPTOR_ATTENTION = """
import terrazzo as triton
import terrazzo.language as tl


@triton.jit
def attention(Q, K, V, Out, qk_scale, Y, N_CTX, HEAD_DIM: tl.constexpr,
              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, CARRIED: tl.constexpr):
    desc_q = tl.make_tensor_descriptor(Q, shape=[Y, HEAD_DIM], strides=[HEAD_DIM, 1],
                                       block_shape=[BLOCK_M, HEAD_DIM])
    desc_k = tl.make_tensor_descriptor(K, shape=[Y, HEAD_DIM], strides=[HEAD_DIM, 1],
                                       block_shape=[BLOCK_N, HEAD_DIM])
    desc_v = tl.make_tensor_descriptor(V, shape=[Y, HEAD_DIM], strides=[HEAD_DIM, 1],
                                       block_shape=[BLOCK_N, HEAD_DIM])
    row0 = tl.program_id(1) * N_CTX
    q_row = row0 + tl.program_id(0) * BLOCK_M
    q = desc_q.load([q_row, 0])
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    kv_row = row0
    for start_n in tl.range(0, N_CTX, BLOCK_N, warp_specialize=not CARRIED):
        # CARRIED: the rows of K and V from an offset the loop advances
        # (Triton's tutorial), and no producer warp group.
        if not CARRIED:
            kv_row = row0 + start_n
        k = desc_k.load([kv_row, 0])
        qk = tl.dot(q, tl.trans(k))
        m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
        p = tl.math.exp2(qk * qk_scale - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = desc_v.load([kv_row, 0])
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_ij
        if CARRIED:
            kv_row += BLOCK_N
    acc = acc / l_i[:, None]
    offs_m = q_row + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_DIM)
    tl.store(Out + offs_m[:, None] * HEAD_DIM + offs_d[None, :], acc.to(tl.float16))
"""


def _compile_descriptor_attention(tmp_path, head_dim, carried):
    attention = _kernel_from_source(_DESCRIPTOR_ATTENTION, "attention", tmp_path)
    x = np.zeros((2 * 1024, head_dim), np.float16)
    return attention.compile(x, x, x, x, 0.125, 2 * 1024, 1024, HEAD_DIM=head_dim,
                                    BLOCK_M=128, BLOCK_N=128 if head_dim == 64 else 64,
                                    CARRIED=carried, num_warps=8, num_stages=2, stage="ptx")


def _key_loops(ptx):
    loops = [body for body in ptx_loops(ptx)
             if "ex2.approx" in body and "wgmma.mma_async" in body]
    assert loops
    return loops


@pytest.mark.parametrize("head_dim", [64, 128])
def test_descriptor_q_needs_no_barrier_in_the_loop(sm90, tmp_path, head_dim):
    ptx = _compile_descriptor_attention(tmp_path, head_dim, carried=False)
    assert re.search(r"setmaxnreg\.dec\.sync\.aligned\.u32\s+40;", ptx)
    key_loops = _key_loops(ptx)
    for body in key_loops:
        assert not re.search(r"bar\.sync\s+0", body)
        assert "fence.proxy.async" not in body
    if head_dim == 128:  # the warp groups take turns
        assert any(re.search(r"bar\.arrive\s+[12], 256;", body) for body in key_loops)
    assert_no_spills(ptx)


@pytest.mark.parametrize("head_dim", [64, 128])
def test_descriptor_loads_at_a_carried_offset_are_pipelined(sm90, tmp_path, head_dim):
    # K's and V's row advanced by the loop itself, as Triton's tutorial
    # does: their copies still go ahead through a ring of mbarriers set up
    # before the loop, so the loop initialises none and passes no barrier
    # of the whole program (a copy waited for at once passes several).
    ptx = _compile_descriptor_attention(tmp_path, head_dim, carried=True)
    assert "setmaxnreg" not in ptx
    for body in _key_loops(ptx):
        assert "mbarrier.init" not in body
        assert not re.search(r"bar\.sync\s+0", body)
    assert_no_spills(ptx)


@pytest.mark.gpu
def test_check_on_the_gpu(tutorial, capsys):
    tutorial.check_gpu()
    assert "The results match." in capsys.readouterr().out

# Narrow barriers (the default; TERRAZZO_NARROW_BARRIERS=0 turns them off):
# rows banded by warp in warp-specialized programs of several warp groups
# and barriers of a warp or warp group where only their threads' accesses
# conflict. Compiled for sm_90 without a GPU: the warp-specialized D=64
# forward takes Q to its first wgmma's register operand through shared
# memory with a barrier of each warp instead of the consumers'; in a kernel
# whose warp groups take turns (the persistent D=128 forward) the turns run
# on from tile to tile (terrazzo-continuous-turns) and its barriers narrow
# too; with "0", neither.

def narrow_forward_ptx(t, head_dim, persistent, causal=False):
    n = 1024
    cfg = dict(BLOCK_M=128, BLOCK_N=128, num_warps=8, num_stages=2, WARP_SPECIALIZE=True)
    q = np.zeros((1, 2, n, head_dim), np.float16)
    lse = np.zeros((1, 2, n), np.float32)
    s = t._strides(q)
    if persistent:
        return t._attn_fwd_persistent.compile(q, q, q, 0.125, lse, q, *s, *s, *s, *s, 1, 2, n,
                                              HEAD_DIM=head_dim, CAUSAL=causal, EVEN_N=True,
                                              **cfg, stage="ptx", target="cuda:90")
    return t._attn_fwd.compile(q, q, q, 0.125, lse, q, *s, *s, *s, *s, 2, n, HEAD_DIM=head_dim,
                               CAUSAL=False, EVEN_N=True, FLAT_KV=True, **cfg, stage="ptx",
                               target="cuda:90")


def barrier_lines(ptx):
    return [line.strip() for line in ptx.splitlines() if "bar.sync" in line or "bar.warp" in line]


def consumer_part(ptx):
    # The consumers' code: after their setmaxnreg.inc.
    return ptx[ptx.index("setmaxnreg.inc"):]


def test_q_through_each_warp(tutorial, monkeypatch):
    monkeypatch.setenv("TERRAZZO_NARROW_BARRIERS", "0")
    plain = consumer_part(narrow_forward_ptx(tutorial, 64, persistent=False))
    monkeypatch.delenv("TERRAZZO_NARROW_BARRIERS", raising=False)
    narrow = consumer_part(narrow_forward_ptx(tutorial, 64, persistent=False))
    first_dot = narrow.index("wgmma.mma_async")
    assert "bar.warp.sync" in narrow[:first_dot]
    assert "bar.sync 0, 256;" not in narrow[:first_dot]
    assert "bar.sync 0, 256;" in plain[:plain.index("wgmma.mma_async")]


def tile_loop(ptx):
    # The loop over tiles: the longest loop with a wgmma in it.
    return max((body for body in ptx_loops(ptx) if "wgmma" in body), key=len)


@pytest.mark.parametrize("causal", [False, True])
def test_turns_run_on_from_tile_to_tile(tutorial, monkeypatch, causal):
    # Warp group 1 passes group 0 the turn at named barrier 1 (bar.arrive),
    # group 0 waits there (bar.sync): in each key loop's iteration, and,
    # with "0", once more around each key loop in every tile (two loops a
    # tile when causal); narrow (the default), once before the loop over tiles and once
    # after it, so that the program's barriers, which those pairs relied
    # on, can narrow to a warp group's (named barriers 8 and up).
    monkeypatch.setenv("TERRAZZO_NARROW_BARRIERS", "0")
    plain = narrow_forward_ptx(tutorial, 128, persistent=True, causal=causal)
    monkeypatch.delenv("TERRAZZO_NARROW_BARRIERS", raising=False)
    narrow = narrow_forward_ptx(tutorial, 128, persistent=True, causal=causal)
    for turn in ("bar.arrive 1, 256;", "bar.sync 1, 256;"):
        # With "0", every pass and wait is in the loop over tiles; narrow, one
        # of each is outside it, and the loop holds fewer.
        assert plain.count(turn) == tile_loop(plain).count(turn) >= 2
        assert narrow.count(turn) == tile_loop(narrow).count(turn) + 1
        assert tile_loop(narrow).count(turn) < tile_loop(plain).count(turn)
    assert "bar.sync 8, 128;" in tile_loop(narrow)
    assert "bar.sync 8, 128;" not in plain
    assert len([b for b in barrier_lines(narrow) if b == "bar.sync 0, 256;"]) < \
        len([b for b in barrier_lines(plain) if b == "bar.sync 0, 256;"])
