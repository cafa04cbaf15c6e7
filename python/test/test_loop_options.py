"""tl.range's loop options (Triton's API): num_stages and loop_unroll_factor
become the loop's tile.num_stages / tile.loop_unroll_factor and are honoured
(the pipeliner's depth for that loop; the body unrolled, with a remainder
loop), the other options are accepted hints; bad values are errors naming
the line. Results against NumPy in the interpreter and on the GPU, with trip
counts that the factor does not divide."""

from __future__ import annotations

import re

import numpy as np
import pytest

import terrazzo as triton
import terrazzo.language as tl


@triton.jit
def strided_sum(x_ptr, out_ptr, n_chunks, BLOCK: tl.constexpr, UNROLL: tl.constexpr,
                STAGES: tl.constexpr):
    # out[j] = sum over chunks c of x[c * BLOCK + j] * (c + 1)
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for c in tl.range(0, n_chunks, loop_unroll_factor=UNROLL, num_stages=STAGES,
                      disallow_acc_multi_buffer=True, flatten=False,
                      warp_specialize=False):
        acc += tl.load(x_ptr + c * BLOCK + offs) * (c + 1).to(tl.float32)
    tl.store(out_ptr + offs, acc)


def _reference(x, n_chunks, block):
    chunks = x[: n_chunks * block].astype(np.float64).reshape(n_chunks, block)
    return (chunks * np.arange(1, n_chunks + 1)[:, None]).sum(axis=0)


@pytest.mark.parametrize("n_chunks", [0, 1, 7, 12])
@pytest.mark.parametrize("unroll", [1, 3, 4])
def test_unrolled_loop_in_the_interpreter(n_chunks, unroll, rng):
    block = 32
    x = rng.standard_normal(max(n_chunks, 1) * block).astype(np.float32)
    out = np.full(block, np.nan, np.float32)
    k = triton.jit(strided_sum.fn, interpret=True)
    k[(1,)](x, out, n_chunks, BLOCK=block, UNROLL=unroll, STAGES=2)
    np.testing.assert_allclose(out, _reference(x, n_chunks, block), rtol=1e-5, atol=1e-5)


def _tile_ir(**meta):
    x = np.zeros(128, np.float32)
    out = np.zeros(32, np.float32)
    return strided_sum.compile(x, out, 4, BLOCK=32, stage="tile", **meta)


def _tilegpu_ir(**meta):
    x = np.zeros(128, np.float32)
    out = np.zeros(32, np.float32)
    return strided_sum.compile(x, out, 4, BLOCK=32, stage="tilegpu", arch=90, **meta)


def test_options_become_loop_attributes():
    # The unrolled loop and the remainder loop both keep the loop's depth.
    ir = _tile_ir(UNROLL=4, STAGES=1)
    assert ir.count("scf.for") == 2 and ir.count("tile.load") == 5, ir
    assert ir.count("{tile.num_stages = 1 : i32}") == 2, ir
    assert "tile.loop_unroll_factor" not in ir


def test_unroll_factor_repeats_the_body():
    def loads_per_loop(ir):
        loops = re.findall(r"scf\.for.*?\n(.*?)\n\s*\}", ir, re.S)
        return [body.count("tile.load") for body in loops]
    once = loads_per_loop(_tilegpu_ir(UNROLL=1, STAGES=1))
    four = loads_per_loop(_tilegpu_ir(UNROLL=4, STAGES=1))
    assert once == [1]
    # The unrolled loop (four loads), then the remainder loop (one).
    assert four[0] == 4 and four[-1] == 1, four
    assert "tile.loop_unroll_factor" not in _tilegpu_ir(UNROLL=4, STAGES=1)


@triton.jit
def dot_loop(a_ptr, b_ptr, c_ptr, K, STAGES: tl.constexpr):
    # C (64 x 64) = A (64 x K) @ B (K x 64), K in steps of 32.
    rm = tl.arange(0, 64)
    rk = tl.arange(0, 32)
    acc = tl.zeros([64, 64], dtype=tl.float32)
    for k in tl.range(0, K, 32, num_stages=STAGES):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * 64 + rm[None, :])
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * 64 + rm[None, :], acc)


def _dot_loop_ir(stages, kernel_stages):
    a = np.zeros((64, 128), np.float16)
    b = np.zeros((128, 64), np.float16)
    c = np.zeros((64, 64), np.float32)
    return dot_loop.compile(a, b, c, 128, STAGES=stages, stage="tilegpu", arch=90,
                            num_stages=kernel_stages)


def test_num_stages_per_loop():
    # The loop's num_stages=1: no copies ahead, whatever the kernel's depth.
    assert "async_copy_global_to_local" not in _dot_loop_ir(1, 3)
    # Its num_stages=3 pipelines it (stacks of three) when the kernel asks for 1.
    ir = _dot_loop_ir(3, 1)
    assert "async_copy_global_to_local" in ir and "memdesc<3x" in ir, ir


@pytest.mark.parametrize("target", ["cuda:80", "cuda:90"])
@pytest.mark.parametrize("stages", [3, 5, 8])
def test_loop_depth_in_the_ptx(target, stages):
    """Each pipelined load commits its own cp.async group per iteration (as
    Triton does), so the wait at the top of the loop leaves the groups of
    the stages - 2 iterations after this one in flight: two operands at
    num_stages=5 read "cp.async.wait_group 6" in the PTX on sm_80, as
    Triton's. On sm_90 B (its box at columns 0..63 of rows k..k+31, proven
    without a mask) comes by TMA, and A's copies alone are counted."""
    pytest.importorskip("terrazzo._C")
    a = np.zeros((64, 512), np.float16)
    b = np.zeros((512, 64), np.float16)
    c = np.zeros((64, 64), np.float32)
    ptx = dot_loop.compile(a, b, c, 512, STAGES=stages, stage="ptx", target=target)
    loads = 2 if target == "cuda:80" else 1
    assert ("cp.async.bulk.tensor" in ptx) == (target == "cuda:90")
    waits = set(re.findall(r"cp\.async\.wait_group (\d+);", ptx))
    assert waits == {str(loads * (stages - 2)), "0"}, waits
    # Copies for stages - 1 iterations before the loop and one in it, a
    # group each per operand (LLVM may duplicate the loop's on sm_90).
    assert ptx.count("cp.async.commit_group;") >= loads * stages


@pytest.mark.gpu
@pytest.mark.parametrize("stages", [1, 2, 4, 5, 8])
def test_gpu_dot_loop_stages(torch_cuda, stages, rng):
    torch = torch_cuda
    a = rng.standard_normal((64, 256)).astype(np.float16)
    b = rng.standard_normal((256, 64)).astype(np.float16)
    c = torch.full((64, 64), float("nan"), device="cuda")
    dot_loop[(1,)](torch.from_numpy(a).cuda(), torch.from_numpy(b).cuda(), c, 256,
                   STAGES=stages, num_stages=3)
    torch.cuda.synchronize()
    want = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(c.cpu().numpy(), want, rtol=2e-2, atol=2e-2)


@pytest.mark.parametrize("stages", [1, 2, 4, 5, 8])
def test_interpreter_dot_loop_stages(stages, rng):
    # test_gpu_dot_loop_stages's kernel at its arguments,
    # in the interpreter: checked here without a GPU, and
    # (TERRAZZO_AMD_LAUNCHES) compiled at that key for the AMD targets.
    a = rng.standard_normal((64, 256)).astype(np.float16)
    b = rng.standard_normal((256, 64)).astype(np.float16)
    c = np.full((64, 64), np.nan, np.float32)
    triton.jit(dot_loop.fn, interpret=True)[(1,)](a, b, c, 256, STAGES=stages, num_stages=3)
    want = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(c, want, rtol=2e-2, atol=2e-2)


@triton.jit
def bad_unroll(out_ptr, n, V: tl.constexpr):
    acc = 0
    for i in tl.range(0, n, loop_unroll_factor=V):
        acc += i
    tl.store(out_ptr, acc)


@triton.jit
def bad_stages(out_ptr, n, V: tl.constexpr):
    acc = 0
    for i in tl.range(0, n, num_stages=V):
        acc += i
    tl.store(out_ptr, acc)


@triton.jit
def bad_hint(out_ptr, n, V: tl.constexpr):
    acc = 0
    for i in tl.range(0, n, warp_specialize=V):
        acc += i
    tl.store(out_ptr, acc)


@pytest.mark.parametrize("kernel, value, message", [
    (bad_unroll, 0, "tl.range's loop_unroll_factor must be at least 1, got 0"),
    (bad_stages, -1, "tl.range's num_stages must be at least 0, got -1"),
    (bad_unroll, 2.5, "tl.range's loop_unroll_factor must be a compile-time integer"),
    (bad_hint, 3, "tl.range's warp_specialize must be True or False, got 3"),
])
@pytest.mark.parametrize("interpret", [False, True])
def test_bad_option_names_the_line(kernel, value, message, interpret):
    out = np.zeros(1, np.int32)
    with pytest.raises(triton.CompilationError) as info:
        if interpret:
            triton.jit(kernel.fn, interpret=True)[(1,)](out, 4, V=value)
        else:
            kernel.compile(out, 4, V=value, stage="tile")
    text = str(info.value)
    assert message in text and "test_loop_options.py" in text, text
    assert "for i in tl.range" in text, text


@pytest.mark.gpu
@pytest.mark.parametrize("n_chunks", [1, 7, 12, 33])
@pytest.mark.parametrize("unroll, stages", [(1, 3), (4, 3), (3, 1), (2, 4)])
def test_gpu_unrolled_and_staged_loops(torch_cuda, n_chunks, unroll, stages, rng):
    torch = torch_cuda
    block = 128
    x = rng.standard_normal(n_chunks * block).astype(np.float32)
    out = torch.full((block,), float("nan"), device="cuda")
    strided_sum[(1,)](torch.from_numpy(x).cuda(), out, n_chunks, BLOCK=block,
                      UNROLL=unroll, STAGES=stages)
    torch.cuda.synchronize()
    np.testing.assert_allclose(out.cpu().numpy(), _reference(x, n_chunks, block),
                               rtol=1e-5, atol=1e-4)


# ---------------------------------------------------------------------------
# flatten=True: the loop over tiles and its inner loop as one loop
# ---------------------------------------------------------------------------

@triton.jit
def row_block_sums(x_ptr, out_ptr, count_ptr, n_tiles, K, BLOCK: tl.constexpr,
                   FLATTEN: tl.constexpr):
    # A persistent loop: program p does tiles p, p + programs, ...; tile t
    # sums rows t * BLOCK .. of x (K columns) into out, times (t + 1); the
    # tiles a program did are counted (a value the loop over tiles carries).
    offs = tl.arange(0, BLOCK)
    done = 0
    for t in tl.range(tl.program_id(0), n_tiles, tl.num_programs(0), flatten=FLATTEN):
        row = t * BLOCK
        weight = (t + 1).to(tl.float32)
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        for k in range(0, K):
            acc += tl.load(x_ptr + (row + offs) * K + k)
        tl.store(out_ptr + row + offs, acc * weight)
        done += 1
    tl.store(count_ptr + tl.program_id(0), done)


def _row_block_sums_reference(x, n_tiles, k, block, programs):
    sums = x.reshape(n_tiles * block, k).astype(np.float64).sum(axis=1) if k else \
        np.zeros(n_tiles * block)
    weights = np.repeat(np.arange(1, n_tiles + 1), block)
    counts = [len(range(p, n_tiles, programs)) for p in range(programs)]
    return sums * weights, np.array(counts, np.int32)


def _row_block_sums_ir(flatten, stage="tile"):
    x = np.zeros(4096, np.float32)
    out = np.zeros(512, np.float32)
    count = np.zeros(4, np.int32)
    return row_block_sums.compile(x, out, count, 8, 8, BLOCK=64, FLATTEN=flatten, stage=stage)


def test_flatten_is_a_hint():
    # The frontend marks the loop (tile.flatten, what terrazzo-flatten-loops
    # takes in terrazzo-opt); the compiler keeps the nest, with or without
    # the hint (the flattened loop measured slower on the H100).
    pytest.importorskip("terrazzo._C")
    flat = _row_block_sums_ir(True)
    nest = _row_block_sums_ir(False)
    assert "tile.flatten" in flat and "tile.flatten" not in nest, flat
    for ir in (flat, nest):
        assert ir.count("scf.for") == 2 and "scf.if" not in ir, ir
        assert ir.count("tile.store") == 2, ir


@pytest.mark.parametrize("flatten", [False, True])
@pytest.mark.parametrize("n_tiles, k", [(7, 5), (3, 0), (2, 1)])
def test_flatten_in_the_interpreter(flatten, n_tiles, k, rng):
    # The interpreter runs the loops as written: the reference semantics
    # the flattened loop must keep (K = 0: each tile stores zeros).
    block, programs = 16, 3
    x = rng.standard_normal(max(n_tiles * block * k, 1)).astype(np.float32)
    out = np.full(n_tiles * block, np.nan, np.float32)
    count = np.full(programs, -1, np.int32)
    kernel = triton.jit(row_block_sums.fn, interpret=True)
    kernel[(programs,)](x, out, count, n_tiles, k, BLOCK=block, FLATTEN=flatten)
    want, counts = _row_block_sums_reference(x[:n_tiles * block * k], n_tiles, k, block,
                                             programs)
    np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(count, counts)


@pytest.mark.gpu
@pytest.mark.parametrize("flatten", [False, True])
@pytest.mark.parametrize("n_tiles, k, programs", [(37, 9, 4), (5, 0, 2), (6, 1, 8),
                                                  (130, 33, 132)])
def test_gpu_flatten(torch_cuda, flatten, n_tiles, k, programs, rng):
    # The flat loop (several tiles per program, one step per tile, more
    # programs than tiles) and the nest it falls back to when K is 0,
    # against float64; every program's count of tiles.
    torch = torch_cuda
    block = 64
    x = rng.standard_normal(max(n_tiles * block * k, 1)).astype(np.float32)
    out = torch.full((n_tiles * block,), float("nan"), device="cuda")
    count = torch.full((programs,), -1, dtype=torch.int32, device="cuda")
    row_block_sums[(programs,)](torch.from_numpy(x).cuda(), out, count, n_tiles, k,
                                BLOCK=block, FLATTEN=flatten)
    torch.cuda.synchronize()
    want, counts = _row_block_sums_reference(x[:n_tiles * block * k], n_tiles, k, block,
                                             programs)
    np.testing.assert_allclose(out.cpu().numpy(), want, rtol=1e-4, atol=1e-4)
    np.testing.assert_array_equal(count.cpu().numpy(), counts)
