"""Issue 20's kernels: tutorials/09-persistent-matmul.py (persistent
pointer and TMA kernels, fp8 scales), tutorials/08-grouped-gemm.py (one
launch over a list of problems) and bench/matmul_skinny.py (split-K).

Here: the persistent and split-K kernels in the interpreter against
float64 with tails in M, N and K and several tiles per program; the PTX for
sm_90 of every kernel (TMA loads and a deferred TMA store with stmatrix in
the persistent TMA kernel, cp.async rings elsewhere, fp8 wgmma). On a GPU
(marked gpu): every configuration of each kernel over masked shapes and
dtypes against float64, and the tutorials' own checks.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from conftest import assert_no_spills, ptx_loops
from test_tutorial_matmul import load

import terrazzo as triton
import terrazzo.language as tl


@pytest.fixture(scope="module")
def t09():
    return load("tutorials/09-persistent-matmul.py", "tutorial_persistent_matmul")


# Loaded once for the fixture and for _grouped_schedule_kernel, which calls
# its snake_tile.
_T08 = load("tutorials/08-grouped-gemm.py", "tutorial_grouped_gemm")


@pytest.fixture(scope="module")
def t08():
    return _T08


@pytest.fixture(scope="module")
def skinny():
    return load("bench/matmul_skinny.py", "bench_matmul_skinny")


@pytest.fixture(scope="module")
def loaded_strides():
    return load("bench/grouped_gemm_loaded_strides.py", "bench_grouped_gemm_loaded_strides")


def _needs_extension():
    from terrazzo.runtime import driver
    if not driver.extension_available():
        pytest.skip("terrazzo._C is not built")


# ---------------------------------------------------------------------------
# The interpreter
# ---------------------------------------------------------------------------

SMALL = dict(BLOCK_SIZE_M=16, BLOCK_SIZE_N=16, BLOCK_SIZE_K=16, GROUP_SIZE_M=2)


def _persistent_case(t09, kernel, m, n, k, scaling, rng, programs=3):
    """Runs one persistent kernel in the interpreter on `programs`
    programs (several tiles each) and returns (got, want) in float64."""
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    c = np.full((m, n), np.nan, np.float16)
    a_scale = b_scale = None
    want = a.astype(np.float64) @ b.astype(np.float64)
    if scaling == "tensor":
        a_scale = np.array([1.5], np.float32)
        b_scale = np.array([0.25], np.float32)
        want = want * 1.5 * 0.25
    elif scaling == "row":
        a_scale = (rng.random(m) + 0.5).astype(np.float32)
        b_scale = (rng.random(n) + 0.5).astype(np.float32)
        want = want * a_scale[:, None].astype(np.float64) * b_scale[None, :]
    kernel, meta = kernel
    interpreted = triton.jit(kernel.fn, interpret=True)
    if meta is None:
        interpreted[(programs,)](a, b, c, a_scale, b_scale, m, n, k, k, 1, n, 1, n, 1,
                                 SCALING=scaling, **SMALL)
    else:
        interpreted[(programs,)](a, b, c, a_scale, b_scale, m, n, k, SCALING=scaling,
                                 B_COLUMN_MAJOR=False, **meta, **SMALL)
    return c.astype(np.float64), want


def _tma_meta(which):
    """The TMA kernel's FLAT, WARP_SPECIALIZE and EPILOGUE_SUBTILE for
    `which` ("tma": the nest; "flat": one loop by hand; "ws": the nest, its
    K loop warp-specialized; "subtile": the nest, C stored in halves;
    "ws-subtile": both)."""
    return dict(FLAT=which == "flat", WARP_SPECIALIZE=which in ("ws", "ws-subtile"),
                EPILOGUE_SUBTILE=which in ("subtile", "ws-subtile"))


def _kernel(t09, which):
    """The kernel and its constexprs (None for the pointer kernel)."""
    if which == "pointers":
        return t09.matmul_persistent_kernel, None
    return t09.matmul_tma_persistent_kernel, _tma_meta(which)


@pytest.mark.parametrize("which", ["pointers", "tma", "flat", "ws", "subtile", "ws-subtile"])
@pytest.mark.parametrize("scaling", ["none", "tensor", "row"])
def test_interpreter_persistent(t09, which, scaling, rng):
    # 83 x 72 x 40 in 16 x 16 tiles: 30 tiles over 3 programs (10 each), in
    # the grouped order; tails in M and K (and N for the pointer kernel).
    kernel = _kernel(t09, which)
    n = 70 if which == "pointers" else 72
    got, want = _persistent_case(t09, kernel, 83, n, 40, scaling, rng)
    assert not np.isnan(got).any(), "output elements not written"
    err = np.abs(got - want).max() / np.abs(want).max()
    assert err < 2e-3, err


@pytest.mark.parametrize("which", ["tma", "flat", "ws", "subtile", "ws-subtile"])
def test_interpreter_one_program_per_tile(t09, which, rng):
    # More programs than tiles: each program's loop runs once (or not).
    got, want = _persistent_case(t09, _kernel(t09, which), 20, 24, 16, "none", rng,
                                 programs=8)
    assert not np.isnan(got).any()
    assert np.abs(got - want).max() / np.abs(want).max() < 2e-3


def test_tutorial_09_check_in_the_interpreter(t09, monkeypatch, capsys):
    monkeypatch.setenv("TERRAZZO_INTERPRET", "1")
    t09.check(on_gpu=False)
    assert "The results match." in capsys.readouterr().out


@pytest.mark.parametrize("form", ["pointers", "descriptors", "descriptors, B as N x K",
                                  "descriptors, swapped", "descriptors, swapped, B as N x K"])
@pytest.mark.parametrize("split", [1, 3])
def test_interpreter_split_k(skinny, form, split, rng):
    # 5 rows, K = 200 in 16-wide blocks (13 blocks: splits of 5, 5, 3; the
    # last block partial, masked or zero-filled by the descriptors), N = 40
    # with a tail; the reduction adds the partials in order. The descriptor
    # form reads B as given (K x N) or as the transpose of an N x K matrix,
    # and computes the tile or its transpose (SWAP_AB).
    m, n, k = 5, 40, 200
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    c = np.full((m, n), np.nan, np.float16)
    partial = np.full((split, m, n), np.nan, np.float32)
    reduce = triton.jit(skinny.splitk_reduce_kernel.fn, interpret=True)
    grid = (triton.cdiv(m, 16), triton.cdiv(n, 16), split)
    blocks = dict(BLOCK_SIZE_M=16, BLOCK_SIZE_N=16, BLOCK_SIZE_K=16, SPLIT_K=split)
    if form == "pointers":
        matmul = triton.jit(skinny.splitk_matmul_kernel.fn, interpret=True)
        matmul[grid](a, b, c, partial, m, n, k, k, 1, n, 1, n, 1, **blocks)
    else:
        b_nk = form.endswith("N x K")
        matmul = triton.jit(skinny.splitk_tma_kernel.fn, interpret=True)
        matmul[grid](a, np.ascontiguousarray(b.T) if b_nk else b, c, partial, m, n, k,
                     B_NK=b_nk, WARP_SPECIALIZE=False, SWAP_AB="swapped" in form, **blocks)
    if split > 1:
        assert not np.isnan(partial).any()
        reduce[(m, triton.cdiv(n, 16))](partial, c, m, n, n, 1, SPLIT_K=split, BLOCK=16)
    want = a.astype(np.float64) @ b.astype(np.float64)
    got = c.astype(np.float64)
    assert not np.isnan(got).any()
    assert np.abs(got - want).max() / np.abs(want).max() < 2e-3


# ---------------------------------------------------------------------------
# PTX for sm_90
# ---------------------------------------------------------------------------

TMA_LOAD = "cp.async.bulk.tensor.2d.shared::cluster.global"
TMA_STORE = "cp.async.bulk.tensor.2d.global.shared::cta"


def _fp8(shape, name="float8e4nv"):
    return triton.reinterpret(np.zeros(shape, np.int8), getattr(tl, name))


def _tma_ptx(t09, dtype=np.float16, scaling="none", column_major=False, fp8=None,
             config=(128, 256, 64, 3, 8), which="tma"):
    bm, bn, bk, stages, warps = config
    if fp8:
        a, b = _fp8((512, 512), fp8), _fp8((512, 512), fp8)
        c = np.zeros((512, 512), np.float16)
    else:
        a = b = c = np.zeros((512, 512), dtype)
    scale = np.zeros(512, np.float32)
    return t09.matmul_tma_persistent_kernel.compile(
        a, b, c, scale, scale, 512, 512, 512, BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn,
        BLOCK_SIZE_K=bk, GROUP_SIZE_M=8, SCALING=scaling, B_COLUMN_MAJOR=column_major,
        **_tma_meta(which), stage="ptx", target="cuda:90", num_warps=warps,
        num_stages=stages)


def _assert_wgmma_not_serialized(ptx, spills=True, injected_waits=1):
    """Where ptxas is installed: it keeps the wgmma pipeline (no C7515
    serialization warning) and copies no accumulator register before a
    wait (a wait of its own injected in the loop, C7517, would show as
    more than `injected_waits`: by default one, at the kernel's exit,
    outside the loop); with `spills` false, it spills no register either."""
    from conftest import assemble_ptx
    report = assemble_ptx(ptx)
    if report is None:
        return
    assert "C7515" not in report and "C7510" not in report, report
    assert report.count("C7517") <= injected_waits, report
    assert spills or "0 bytes spill stores" in report, report


#: Copies of the K loop and epilogue in the TMA kernel's PTX: one each (the
#: loop over tiles keeps its K loop: flatten=True is a hint).
TMA_COPIES = {"tma": 1, "flat": 1, "ws": 1, "subtile": 1, "ws-subtile": 1}


@pytest.mark.parametrize("which", ["tma", "flat"])
def test_tma_persistent_ptx(t09, which):
    # A and B by TMA in a 3-deep ring, C by a TMA store from shared memory
    # written with stmatrix; the store's wait is deferred: the loop over
    # tiles waits (read, 0 groups) once before rewriting the buffer, and
    # once after the loop, not right after the store. Each loop keeps one
    # wgmma group in flight (one wait for 1 group in it); the flat one,
    # whose accumulator the store reads on a tile's last step, waits for
    # none only there: right after the branch on that step, and once after
    # the loop; the nest's K loop once after it, for its tile's store.
    _needs_extension()
    ptx = _tma_ptx(t09, which=which)
    copies = TMA_COPIES[which]
    assert ptx.count(TMA_LOAD) >= 4
    assert "cp.async.cg" not in ptx
    assert ptx.count("mbarrier.try_wait.parity") == copies
    assert ptx.count("wgmma.wait_group.sync.aligned 1;") == copies
    waits_for_none = ptx.count("wgmma.wait_group.sync.aligned 0;")
    after_branch = re.findall(r"@%p\d+ bra\s+\S+;\s*// begin inline asm\s*"
                              r"wgmma\.wait_group\.sync\.aligned 0;", ptx)
    assert (waits_for_none, len(after_branch)) == ((2, 2) if which == "flat" else (1, 0))
    _assert_wgmma_not_serialized(ptx)
    # C's 256 columns are four 64-column boxes (128-byte swizzle).
    assert ptx.count(TMA_STORE) == 4 * copies
    assert ptx.count("stmatrix.sync.aligned") == 16 * copies
    assert "st.global" not in ptx, "C must be stored by TMA, not through pointers"
    after_store = ptx[ptx.index(TMA_STORE):]
    # The store's group is committed, then the loop goes on (a branch back)
    # before any wait.
    commit = after_store.index("cp.async.bulk.commit_group")
    next_wait = after_store.index("cp.async.bulk.wait_group.read")
    assert re.search(r"\bbra(\.uni)?\b", after_store[commit:next_wait]), \
        "the TMA store is waited for right after it is issued"


def test_tma_warp_specialized_ptx(t09):
    # WARP_SPECIALIZE: 4 producer warps (setmaxnreg down to 40) issue every
    # copy of A and B; the 8 others (setmaxnreg up) wait for a stage's full
    # mbarrier, keep one wgmma group in flight and hand each stage back by an
    # arrival on its empty mbarrier: once in the K loop (the previous
    # iteration's stage) and once after it (the last one's), never through a
    # barrier of the whole program. C goes out by TMA from the consumers.
    _needs_extension()
    ptx = _tma_ptx(t09, which="ws")
    assert re.search(r"setmaxnreg\.dec\.sync\.aligned\.u32\s+40;", ptx)
    assert "setmaxnreg.inc.sync.aligned.u32" in ptx
    producer = ptx[ptx.index("setmaxnreg.dec"):ptx.index("setmaxnreg.inc")]
    consumers = ptx[ptx.index("setmaxnreg.inc"):]
    assert producer.count(TMA_LOAD) >= 2 and TMA_LOAD not in consumers
    assert "wgmma" not in producer
    # The producer waits for a release, the consumers for a fill.
    assert producer.count("mbarrier.try_wait.parity") == 1
    assert consumers.count("mbarrier.try_wait.parity") == 1
    assert consumers.count("mbarrier.arrive.shared") == 2
    assert consumers.count("wgmma.wait_group.sync.aligned 1;") == 1
    # The consumers' barriers are among their 256 threads only.
    assert re.findall(r"bar\.sync\s+0;", consumers) == []
    assert consumers.count(TMA_STORE) == 4
    # Nor do the consumers spill (two copies of the accumulator once did,
    # around the branch after the K loop).
    _assert_wgmma_not_serialized(ptx, spills=False)


def test_tma_subtile_ptx(t09):
    # EPILOGUE_SUBTILE: the accumulator split in two halves (reshape,
    # permute, split) is truncated and written from its own layout, each
    # half through the same 128 x 128 buffer (two 64-column TMA boxes each),
    # no layout conversion through shared memory; the room saved takes a
    # fourth stage at 128 x 256 x 64, which without it does not fit.
    _needs_extension()
    ptx = _tma_ptx(t09, which="subtile", config=(128, 256, 64, 4, 8))
    assert ptx.count(TMA_STORE) == 4
    assert ptx.count("cp.async.bulk.wait_group.read") >= 2
    _assert_wgmma_not_serialized(ptx)
    with pytest.raises(Exception, match="shared memory"):
        _tma_ptx(t09, which="tma", config=(128, 256, 64, 4, 8))


def test_tma_warp_specialized_subtile_ptx(t09):
    # Both: the producer warp group and C in halves, 128 x 256 x 64 at 4
    # stages. After the K loop the consumers wait for the last wgmma without
    # a branch, so ptxas injects no wait of its own (C7517, which it did
    # while the wait was under the branch on whether the loop ran).
    _needs_extension()
    ptx = _tma_ptx(t09, which="ws-subtile", config=(128, 256, 64, 4, 8))
    assert "setmaxnreg.inc.sync.aligned.u32" in ptx
    consumers = ptx[ptx.index("setmaxnreg.inc"):]
    assert consumers.count(TMA_STORE) == 4
    _assert_wgmma_not_serialized(ptx, spills=False, injected_waits=0)


@pytest.mark.parametrize("config", [(128, 128, 64, 4, 8), (256, 128, 64, 3, 8),
                                    (64, 128, 64, 4, 4)])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("which", ["tma", "ws"])
def test_tma_persistent_configs_compile(t09, config, dtype, which):
    # The other configurations fit in shared memory with the store's
    # buffer, for both 16-bit types.
    _needs_extension()
    bm, bn, bk, stages, warps = config
    x = triton.reinterpret(np.zeros((512, 512), np.uint16), getattr(tl, dtype))
    scale = np.zeros(512, np.float32)
    ptx = t09.matmul_tma_persistent_kernel.compile(
        x, x, x, scale, scale, 512, 512, 512, BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn,
        BLOCK_SIZE_K=bk, GROUP_SIZE_M=8, SCALING="none", B_COLUMN_MAJOR=False,
        **_tma_meta(which), stage="ptx", target="cuda:90", num_warps=warps,
        num_stages=stages)
    assert ptx.count(TMA_STORE) == TMA_COPIES["tma"] * (bn // 64) and TMA_LOAD in ptx
    assert "stmatrix.sync.aligned" in ptx
    assert ("setmaxnreg.dec" in ptx) == (which == "ws")


@pytest.mark.parametrize("fp8", ["float8e4nv", "float8e5"])
@pytest.mark.parametrize("scaling", ["tensor", "row"])
def test_fp8_persistent_ptx(t09, fp8, scaling):
    # B column-major (N x K by TMA, read transposed): fp8 wgmma, scales in
    # the epilogue.
    _needs_extension()
    kind = "e4m3" if fp8 == "float8e4nv" else "e5m2"
    for which in ("tma", "flat", "ws", "subtile", "ws-subtile"):
        ptx = _tma_ptx(t09, scaling=scaling, column_major=True, fp8=fp8,
                       config=(128, 256, 128, 3, 8), which=which)
        assert f".f32.{kind}.{kind}" in ptx
        assert TMA_STORE in ptx and "cp.async.cg" not in ptx
        # One wgmma group in flight in the loop (the scales read under the
        # tile's last step in the flattened loop).
        assert ptx.count("wgmma.wait_group.sync.aligned 1;") == TMA_COPIES[which]
        _assert_wgmma_not_serialized(ptx)
    a, b = _fp8((512, 512), fp8), _fp8((512, 512), fp8)
    c = np.zeros((512, 512), np.float16)
    scale = np.zeros(512, np.float32)
    ptx = t09.matmul_persistent_kernel.compile(
        a, b, c, scale, scale, 512, 512, 512, 512, 1, 1, 512, 512, 1, BLOCK_SIZE_M=128,
        BLOCK_SIZE_N=256, BLOCK_SIZE_K=128, GROUP_SIZE_M=8, SCALING=scaling, stage="ptx",
        target="cuda:90", num_warps=8, num_stages=3)
    assert f".f32.{kind}.{kind}" in ptx


def _pointer_persistent_ptx(t09):
    a = np.zeros((512, 512), np.float16)
    scale = np.zeros(512, np.float32)
    return t09.matmul_persistent_kernel.compile(
        a, a, a, scale, scale, 512, 512, 512, 512, 1, 512, 1, 512, 1, BLOCK_SIZE_M=128,
        BLOCK_SIZE_N=256, BLOCK_SIZE_K=64, GROUP_SIZE_M=8, SCALING="none", stage="ptx",
        target="cuda:90", num_warps=8, num_stages=3)


def test_pointer_persistent_ptx(t09):
    # The tile loop around a cp.async ring feeding wgmma.
    _needs_extension()
    ptx = _pointer_persistent_ptx(t09)
    assert "wgmma.mma_async" in ptx and "cp.async.cg.shared.global" in ptx
    assert re.search(r"cp\.async\.wait_group\s+2;", ptx)  # 3 stages, 2 operands


def test_pointer_persistent_rows_not_banded(t09, monkeypatch):
    # Narrow barriers are the default, but rows are banded by warp only in
    # warp-specialized functions: this kernel's loop is not, so its loads
    # keep their layouts (banded, it ran 7% slower on an H200,
    # bench/RESULTS.md session 37) and its PTX is the one with narrow
    # barriers off.
    _needs_extension()
    monkeypatch.delenv("TERRAZZO_NARROW_BARRIERS", raising=False)
    default = _pointer_persistent_ptx(t09)
    monkeypatch.setenv("TERRAZZO_NARROW_BARRIERS", "0")
    assert _pointer_persistent_ptx(t09) == default


def test_grouped_gemm_ptx(t08):
    # Aligned problems (16-byte rows): cp.async rings into wgmma. Must not:
    # without the alignment promise, the rows loaded from unknown addresses
    # are not copied 16 bytes at a time.
    _needs_extension()
    ptx = t08.compile_for_sm90()
    assert "wgmma.mma_async" in ptx and "cp.async.cg.shared.global" in ptx
    assert "cvta.to.global" in ptx or "ld.global" in ptx
    # The problems' pointers have no known range, so their offsets are
    # promoted to i64, but the K tail `K - k * BLOCK_SIZE_K` of the loop to
    # cdiv(K, BLOCK_SIZE_K) is known not to wrap: no i64 clamp per K step
    # (the epilogue's masks, outside the loop, keep theirs).
    k_loop = min((body for body in ptx_loops(ptx) if "wgmma.mma_async" in body), key=len)
    assert "cp.async.cg.shared.global" in k_loop
    assert "max.s64" not in k_loop and "min.s64" not in k_loop
    assert "max.s64" in ptx
    plain = t08.compile_for_sm90(aligned=False)
    assert "cp.async.cg.shared.global" not in plain


def test_tutorial_08_without_gpu(t08, capsys, monkeypatch):
    _needs_extension()
    monkeypatch.setattr(t08, "gpu_available", lambda: False)
    t08.main([])
    out = capsys.readouterr().out
    assert "wgmma.mma_async" in out and "No GPU" in out


@triton.jit
def _grouped_schedule_kernel(owner, visits, total_tiles):
    """Writes, for every tile of tutorial 08's schedule, the program that
    takes it, and counts the visits."""
    for i in tl.range(tl.program_id(0), total_tiles, tl.num_programs(0)):
        t = _T08.snake_tile(i, total_tiles, tl.num_programs(0))
        tl.store(owner + t, tl.program_id(0))
        tl.atomic_add(visits + t, 1)


def _grouped_owners(total, programs):
    owner = np.full(total, -1, np.int32)
    visits = np.zeros(total, np.int32)
    triton.jit(_grouped_schedule_kernel.fn, interpret=True)[(programs,)](owner, visits, total)
    return owner, visits


@pytest.mark.parametrize("total,programs", [(1, 4), (7, 3), (9, 3), (10, 3), (16, 5), (5, 8)])
def test_grouped_schedule_visits_every_tile_once(total, programs):
    # Rounds with and without a partial last one, odd and even: each tile is
    # taken once, by a program that exists, and the programs take as many
    # tiles as a round-robin would give them (i = p, p + programs, ...).
    owner, visits = _grouped_owners(total, programs)
    assert visits.tolist() == [1] * total
    counts = np.bincount(owner, minlength=programs)
    assert counts.tolist() == [len(range(p, total, programs)) for p in range(programs)]
    # The last full round backwards, and every second one before it; the
    # partial round in order.
    full_rounds = total // programs
    for t in range(total):
        round_, place = divmod(t, programs)
        backwards = round_ < full_rounds and (full_rounds - 1 - round_) % 2 == 0
        assert owner[t] == (programs - 1 - place if backwards else place), \
            (t, owner.tolist())


@pytest.mark.parametrize("programs", [132, 114])
def test_grouped_schedule_balances_the_mixed_sizes(t08, programs):
    # Tutorial 08's bench problems on 132 programs (an H100 SXM: 9 full
    # rounds) and 114 (an H100 PCIe: 11), 128 x 256 x 64 blocks: the
    # launcher's order (decreasing K) and the kernel's snake order give the
    # busiest program at most 3% more K steps than the average (1.4% and
    # 2.2%), where round-robin gives it 9% more (9.9%, 9.5%).
    bm, bn, bk = 128, 256, 64
    order = t08.problem_order([k for _, _, k in t08.MIXED_SIZES])
    assert [t08.MIXED_SIZES[g][2] for g in order] == \
        sorted((k for _, _, k in t08.MIXED_SIZES), reverse=True)
    costs = []
    for g in order:
        m, n, k = t08.MIXED_SIZES[g]
        costs += [-(-k // bk)] * (-(-m // bm) * -(-n // bn))
    costs = np.array(costs)
    owner, _ = _grouped_owners(len(costs), programs)
    snake = np.bincount(owner, weights=costs, minlength=programs)
    round_robin = np.bincount(np.arange(len(costs)) % programs, weights=costs,
                              minlength=programs)
    average = costs.sum() / programs
    assert snake.max() / average < 1.03
    assert round_robin.max() / average > 1.09


@pytest.mark.parametrize("m", [16, 64, 128])
def test_split_k_ptx(skinny, m):
    # 16 rows: mma.sync; 64 and 128: wgmma; all through cp.async rings.
    _needs_extension()
    a = np.zeros((m, 4096), np.float16)
    b = np.zeros((4096, 4096), np.float16)
    partial = np.zeros((4, m, 4096), np.float32)
    bm, bn, bk, split, stages, warps = skinny.candidates(m)[2]
    ptx = skinny.splitk_matmul_kernel.compile(
        a, b, a, partial, m, 4096, 4096, 4096, 1, 4096, 1, 4096, 1, BLOCK_SIZE_M=bm,
        BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk, SPLIT_K=split, stage="ptx", target="cuda:90",
        num_stages=stages, num_warps=warps)
    assert ("mma.sync.aligned" if m == 16 else "wgmma.mma_async") in ptx
    assert "cp.async.cg.shared.global" in ptx


@pytest.mark.parametrize("m", [16, 64, 128])
@pytest.mark.parametrize("b_nk", [False, True])
def test_split_k_tma_ptx(skinny, m, b_nk):
    # Every configuration of the descriptor form: A and B by TMA, a producer
    # warp group (setmaxnreg) where asked for and its ring fits, no spill.
    _needs_extension()
    a = np.zeros((m, 4096), np.float16)
    b = np.zeros((4096, 4096), np.float16)
    partial = np.zeros((2, m, 4096), np.float32)
    specialized = 0
    for bm, bn, bk, split, stages, warps, ws, swap in skinny.tma_candidates(m):
        ptx = skinny.splitk_tma_kernel.compile(
            a, b, a, partial, m, 4096, 4096, BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn,
            BLOCK_SIZE_K=bk, SPLIT_K=split, B_NK=b_nk, WARP_SPECIALIZE=ws, SWAP_AB=swap,
            stage="ptx", target="cuda:90", num_stages=stages, num_warps=warps)
        assert TMA_LOAD in ptx
        assert "cp.async.cg.shared.global" not in ptx
        # 16 rows transposed: wgmma's N (m64n16).
        assert ("mma.sync.aligned" if m == 16 and not swap else "wgmma.mma_async") in ptx
        assert not swap or f"m64n{bm}k16" in ptx
        assert ws or "setmaxnreg" not in ptx
        specialized += "setmaxnreg" in ptx
        # One block shape spills one register (at 6 stages before session
        # 38's deeper rings, at 11 now): the launcher's tensor maps of A and
        # B are two 64-bit addresses held across the K loop where maps
        # built in global scratch were one (ptxas picks 96 registers and
        # spills where it used 98 before).
        one_register = m == 16 and (bn, bk) == (64, 128) and not b_nk
        assert_no_spills(ptx, allowed_bytes=4 if one_register else 0)
    assert specialized >= 6


@pytest.mark.parametrize("bk,stages", [(128, 4), (64, 8)])
def test_multicast_probe_patches_the_skinny_kernel(skinny, bk, stages):
    # bench/matmul_multicast_probe.py --skinny: the warp-specialized 128 x 64
    # kernel's PTX patched for clusters of two. Each form assembles; the
    # multicast form has every A copy multicast by one program of the pair
    # (128-deep steps: the two halves, one each; 64-deep: by K step parity),
    # B's copies its own, the "empty" count doubled with a remote arrival
    # per release, and cluster barriers after the initialisation and at the
    # exit.
    _needs_extension()
    probe = load("bench/matmul_multicast_probe.py", "bench_matmul_multicast_probe")
    a = np.zeros((128, 8192), np.float16)
    b = np.zeros((8192, 8192), np.float16)
    ptx = skinny.splitk_tma_kernel.compile(
        a, b, a, a, 128, 8192, 8192, BLOCK_SIZE_M=128, BLOCK_SIZE_N=64, BLOCK_SIZE_K=bk,
        SPLIT_K=1, B_NK=False, WARP_SPECIALIZE=True, stage="ptx", target="cuda:90",
        num_stages=stages, num_warps=8)
    patch = dict(halves=True) if bk == 128 else dict(tensor_map="first", k_index=0, k_shift=6)
    copies = [line for line in ptx.splitlines() if probe.COPY in line]
    a_map = re.search(r"\[(%rd\d+), \{", copies[0]).group(1)
    a_copies = sum(f"[{a_map}, {{" in line for line in copies)
    for form in probe.CLUSTER_FORMS:
        patched = probe.patch_ptx(ptx, form, **patch)
        assert_no_spills(patched)
        clustered = form != "launch"
        assert patched.count("barrier.cluster.arrive.release;") == (2 if clustered else 0)
        assert ("mbarrier.inval" in patched) == (not clustered)
        coupled = form in ("coupled", "multicast")
        remote = patched.count("mbarrier.arrive.shared::cluster.b64")
        assert (remote >= 1) == coupled
        # The empty mbarriers' count: the 8 consumer warps, doubled when
        # the other program's arrive too.
        assert bool(re.search(r"mov\.b32 \t%r\d+, 16;", patched)) == coupled
        multicast = [line for line in patched.splitlines() if "multicast::cluster" in line]
        assert len(multicast) == (a_copies if form == "multicast" else 0)
        assert all(f"[{a_map}, {{" in line and line.strip().startswith("@tz")
                   for line in multicast)
    assert re.search(r"mov\.b32 \t%r\d+, 8;", ptx)


# ---------------------------------------------------------------------------
# The GPU
# ---------------------------------------------------------------------------

def _sm90(torch):
    if torch.cuda.get_device_capability()[0] != 9:
        pytest.skip("TMA and wgmma are for sm_90")


@pytest.mark.gpu
@pytest.mark.parametrize("which", ["pointers", "tma", "flat", "ws", "subtile", "ws-subtile"])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("mnk", [(1000, 776, 328), (2048, 3072, 512), (8, 8, 8),
                                 (4000, 3000, 200), (1500, 2056, 40)])
def test_gpu_persistent_every_config(torch_cuda, t09, which, dtype, mnk, rng):
    # Every configuration (not only the autotuner's choice), masked tails,
    # one program per SM, each output element written once. The last two
    # shapes give each program several tiles with tails in M, N and K
    # (the flattened loop keeps its dot in flight across a tile's end), the
    # last one K in one block (every step ends a tile: the accumulator is
    # stored and cleared each time).
    torch = torch_cuda
    _sm90(torch)
    m, n, k = mnk
    tdt = getattr(torch, dtype)
    a = torch.from_numpy(rng.standard_normal((m, k)).astype(np.float32)).cuda().to(tdt)
    b = torch.from_numpy(rng.standard_normal((k, n)).astype(np.float32)).cuda().to(tdt)
    want = a.double() @ b.double()
    sms = t09.num_sms()
    for cfg in t09.persistent_configs(subtile=which.endswith("subtile")):
        c = torch.full((m, n), float("nan"), device="cuda", dtype=tdt)
        grid = t09.persistent_grid(m, n, sms)(cfg.kwargs)
        meta = dict(cfg.kwargs, SCALING="none", num_warps=cfg.num_warps,
                    num_stages=cfg.num_stages)
        if which == "pointers":
            t09.matmul_persistent_kernel[grid](a, b, c, None, None, m, n, k, k, 1, n, 1, n, 1,
                                               **meta)
        else:
            t09.matmul_tma_persistent_kernel[grid](a, b, c, None, None, m, n, k,
                                                   B_COLUMN_MAJOR=False, **_tma_meta(which),
                                                   **meta)
        torch.cuda.synchronize()
        assert not c.isnan().any(), f"{cfg}: output elements not written"
        err = ((c.double() - want).norm() / want.norm()).item()
        assert err < (1e-2 if dtype == "bfloat16" else 2e-3), f"{cfg}: {err}"


@pytest.mark.gpu
@pytest.mark.parametrize("which", ["pointers", "tma", "flat", "ws", "subtile", "ws-subtile"])
@pytest.mark.parametrize("fp8", ["e4m3", "e5m2"])
@pytest.mark.parametrize("scaling", ["tensor", "row"])
def test_gpu_fp8_scaled(torch_cuda, t09, which, fp8, scaling):
    # B column-major, tails in M; bfloat16 out; against the float64 product
    # of the scaled operands. (tutorials/09-persistent-matmul.py's own check
    # runs the autotuned launchers on more shapes.)
    torch = torch_cuda
    _sm90(torch)
    m, n, k = 1000, 784, 336
    a = t09.random_fp8(m, k, fp8)
    b = t09.random_fp8(k, n, fp8, column_major=True)
    a_scale, b_scale = t09.random_scales(a, b, scaling)
    want = t09.scaled_reference(a, b, a_scale, b_scale)
    c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
    meta = dict(BLOCK_SIZE_M=128, BLOCK_SIZE_N=128, BLOCK_SIZE_K=128, GROUP_SIZE_M=8,
                SCALING=scaling, num_warps=8, num_stages=4)
    grid = t09.persistent_grid(m, n, t09.num_sms())(meta)
    if which == "pointers":
        t09.matmul_persistent_kernel[grid](a, b, c, a_scale, b_scale, m, n, k, a.stride(0),
                                           a.stride(1), b.stride(0), b.stride(1), c.stride(0),
                                           c.stride(1), **meta)
    else:
        t09.matmul_tma_persistent_kernel[grid](a, b, c, a_scale, b_scale, m, n, k,
                                               B_COLUMN_MAJOR=True, **_tma_meta(which),
                                               **meta)
    torch.cuda.synchronize()
    assert not c.isnan().any()
    err = ((c.double() - want).norm() / want.norm()).item()
    assert err < 1e-2, err


@pytest.mark.gpu
def test_gpu_tutorial_08_check(torch_cuda, t08):
    _sm90(torch_cuda)
    t08.check()


@pytest.mark.gpu
def test_gpu_grouped_every_config(torch_cuda, t08):
    # The tutorial's check (tails in M, N and K, one-row and eight-column
    # problems, aligned and not) under each configuration alone: the
    # autotuned check above validates only the one it picks.
    _sm90(torch_cuda)
    for config in t08.grouped_configs():
        t08.check(configs=[config])


@pytest.mark.gpu
def test_gpu_grouped_tma_every_config(torch_cuda, t08):
    # The TMA form (descriptors made per problem in the loop over problems,
    # their maps rebuilt there) on the check's aligned lists, each
    # configuration alone.
    _sm90(torch_cuda)
    from terrazzo.errors import OutOfResourcesCompilationError
    for config in t08.grouped_configs():
        shape = (config.kwargs["BLOCK_SIZE_M"], config.kwargs["BLOCK_SIZE_N"],
                 config.num_stages)
        try:
            t08.check(configs=[config], kernel=t08.grouped_matmul_tma_kernel)
        except OutOfResourcesCompilationError:
            # 128 x 256 blocks 4 stages deep: C's TMA buffer (64 KiB) beside
            # the ring (192 KiB) exceeds the 227 KiB of shared memory; the
            # autotuner leaves that configuration out for this form.
            assert shape == (128, 256, 4), shape


def test_grouped_gemm_tma_ptx(t08):
    # The TMA form on the H100: per-problem maps built in the loop over
    # problems, the K loop's copies by TMA into a ring of mbarriers, the
    # tile stored by TMA; no per-element loads or stores of A, B or C.
    _needs_extension()
    ptx = t08.compile_for_sm90(kernel=t08.grouped_matmul_tma_kernel)
    first_loop = ptx.index("$L__BB")
    assert ptx.count("tensormap.replace.tile.global_address", first_loop) == 3
    loops = [body for body in ptx_loops(ptx) if "wgmma.mma_async" in body]
    assert any("cp.async.bulk.tensor.2d.shared::cluster.global" in body and
               "mbarrier.try_wait" in body for body in loops)
    assert "cp.async.bulk.tensor.2d.global.shared::cta" in ptx
    assert "st.global" not in ptx and "cp.async.cg" not in ptx


def test_grouped_loaded_strides_ptx(loaded_strides):
    # Triton's tutorial-08 form: addresses, sizes and row strides loaded in
    # the kernel, no hints. The code using the descriptors is versioned on
    # their alignment: a K loop on pipelined TMA copies (sm_90) and C stored
    # by TMA (where its coordinates are not negative) and, for rows that
    # are not whole 16 bytes, a K loop on pointer loads.
    _needs_extension()
    addresses, ints = np.zeros(12, np.int64), np.zeros(12, np.int32)
    ptx = loaded_strides.grouped_gemm_loaded_kernel.compile(
        addresses, ints, ints, 4, DTYPE=tl.float16, PROGRAMS=132, **loaded_strides.CONFIG,
        stage="ptx", target="cuda:90")
    loops = [body for body in ptx_loops(ptx) if "wgmma.mma_async" in body]
    assert any("cp.async.bulk.tensor.2d.shared::cluster.global" in body and
               "mbarrier.try_wait" in body and "ld.global" not in body for body in loops)
    assert any("ld.global" in body and "cp.async.bulk" not in body for body in loops)
    assert "cp.async.bulk.tensor.2d.global.shared::cta" in ptx


@pytest.mark.gpu
@pytest.mark.parametrize("aligned", [True, False])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_gpu_grouped_loaded_strides(torch_cuda, t08, loaded_strides, aligned, dtype):
    # Both versions: rows of whole 16 bytes (TMA on the H100), and A's rows
    # one element longer than K (pointer loads); tails in M, N and K (the
    # tutorial's mixed list), every C element written (C starts as NaN).
    torch = torch_cuda
    triples = loaded_strides.problems(t08.MIXED_SIZES, getattr(torch, dtype), aligned)
    for _, _, c in triples:
        c.fill_(float("nan"))
    grouped = loaded_strides.Grouped(triton, loaded_strides.grouped_gemm_loaded_kernel,
                                     triples)
    grouped()
    torch.cuda.synchronize()
    assert not any(c.isnan().any() for _, _, c in triples)
    assert max(t08.relative_errors(*zip(*triples))) < 1e-2


@pytest.mark.gpu
@pytest.mark.parametrize("m,n,k", [(1, 1000, 1032), (16, 4096, 4096), (33, 1000, 1032),
                                   (128, 4096, 4096)])
def test_gpu_split_k_every_config(torch_cuda, skinny, m, n, k, rng):
    torch = torch_cuda
    a = torch.from_numpy(rng.standard_normal((m, k)).astype(np.float32)).cuda().bfloat16()
    b = torch.from_numpy(rng.standard_normal((k, n)).astype(np.float32)).cuda().bfloat16()
    want = a.double() @ b.double()
    runner = skinny.SkinnyMatmul()
    for config in skinny.candidates(m):
        c = runner.run(a, b, config)
        torch.cuda.synchronize()
        err = ((c.double() - want).norm() / want.norm()).item()
        assert err < 1e-2, f"{config}: {err}"


@pytest.mark.gpu
@pytest.mark.parametrize("m,n,k", [(1, 1000, 1032), (16, 4096, 4096), (33, 1000, 1032),
                                   (128, 4096, 4096)])
@pytest.mark.parametrize("b_nk", [False, True])
def test_gpu_split_k_tma_every_config(torch_cuda, skinny, m, n, k, b_nk, rng):
    # The descriptor form, every configuration, B in either layout; C
    # starts as NaN so that an element left unwritten fails.
    torch = torch_cuda
    a = torch.from_numpy(rng.standard_normal((m, k)).astype(np.float32)).cuda().bfloat16()
    w = torch.from_numpy(rng.standard_normal((n, k) if b_nk else (k, n)).astype(np.float32))
    b = w.cuda().bfloat16().t() if b_nk else w.cuda().bfloat16()
    want = a.double() @ b.double()
    runner = skinny.SkinnyMatmul(tma=True)
    for config in skinny.tma_candidates(m):
        c = runner.run(a, b, config, out=torch.full((m, n), float("nan"), device="cuda",
                                                      dtype=torch.bfloat16))
        torch.cuda.synchronize()
        assert not torch.isnan(c).any(), config
        err = ((c.double() - want).norm() / want.norm()).item()
        assert err < 1e-2, f"{config}: {err}"


def test_autotuners_keyed_on_the_scaling(t09):
    # A configuration tuned with tensor scales may not fit with row scales
    # (their loads take shared memory): each scaling is tuned on its own.
    matmuls = t09.make_matmuls(triton, t09.matmul_persistent_kernel,
                               t09.matmul_tma_persistent_kernel,
                               t09.persistent_configs(fp8=True),
                               t09.persistent_configs(fp8=True, subtile=True))
    for name, run in matmuls.items():
        assert run.autotuner.keys == ["M", "N", "K", "SCALING"], name
