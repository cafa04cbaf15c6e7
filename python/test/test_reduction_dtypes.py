"""Reductions and scans over many shapes and every supported dtype, against
float64 (or exact integer) references on fresh random inputs: tl.sum,
tl.max, tl.min and tl.argmax, and tl.cumsum (forward and reverse) and a
running maximum through tl.associative_scan, along both axes of a 2-D
block, with masked tails
(shapes that are not multiples of the block), at 4 warps for every dtype
and 1 and 8 warps for float32 and int32 on the GPU; the same kernel in the
interpreter here. Output buffers are poisoned
and checked past their ends, so a missing or stray store fails.
"""

from __future__ import annotations

import numpy as np
import pytest

import terrazzo as triton
import terrazzo.language as tl


@triton.jit
def reduce_kernel(x_ptr, sum_ptr, max_ptr, min_ptr, amax_ptr, m, n,
                  AXIS: tl.constexpr, LOW: tl.constexpr, HIGH: tl.constexpr,
                  BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.arange(0, BM)
    cols = tl.arange(0, BN)
    mask = (rows[:, None] < m) & (cols[None, :] < n)
    offs = rows[:, None] * n + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    lo = tl.load(x_ptr + offs, mask=mask, other=LOW)
    hi = tl.load(x_ptr + offs, mask=mask, other=HIGH)
    if AXIS == 0:
        out = cols
        out_mask = cols < n
    else:
        out = rows
        out_mask = rows < m
    tl.store(sum_ptr + out, tl.sum(x, axis=AXIS), mask=out_mask)
    tl.store(max_ptr + out, tl.max(lo, axis=AXIS), mask=out_mask)
    tl.store(min_ptr + out, tl.min(hi, axis=AXIS), mask=out_mask)
    tl.store(amax_ptr + out, tl.argmax(lo, axis=AXIS), mask=out_mask)


GUARD = 16

# dtype -> (numpy type, dtype of tl.sum's result, relative tolerance of the sum
# against float64, relative to the sum of magnitudes)
DTYPES = {
    "float16": (np.float16, np.float32, 2e-3),
    "float32": (np.float32, np.float32, 1e-5),
    "float64": (np.float64, np.float64, 1e-12),
    "int8": (np.int8, np.int32, 0),
    "int16": (np.int16, np.int32, 0),
    "int32": (np.int32, np.int32, 0),
    "int64": (np.int64, np.int64, 0),
    "uint8": (np.uint8, np.uint32, 0),
}


def _inputs(dtype, m, n, rng):
    np_type = DTYPES[dtype][0]
    if np.issubdtype(np_type, np.floating):
        x = rng.standard_normal((m, n)) * 4
        low, high = -float("inf"), float("inf")
    else:
        info = np.iinfo(np_type)
        x = rng.integers(max(info.min, -100), min(info.max, 100) + 1, (m, n))
        low, high = int(info.min), int(info.max)
    return x.astype(np_type), low, high


def _sum_type(dtype):
    return DTYPES[dtype][1]


def _outputs(dtype, size, xp):
    """Poisoned outputs (sum, max, min, argmax) of `size` plus GUARD."""
    np_type = DTYPES[dtype][0]
    sentinel = lambda t: (np.nan if np.issubdtype(t, np.floating) else np.iinfo(t).max - 3)
    outs = []
    for t in (_sum_type(dtype), np_type, np_type, np.int32):
        outs.append(xp(np.full(size + GUARD, sentinel(t), dtype=t)))
    return outs


def _check(dtype, x, axis, sums, maxs, mins, amaxs):
    tol = DTYPES[dtype][2]
    m, n = x.shape
    size = n if axis == 0 else m
    x64 = x.astype(np.float64)
    want_sum = x64.sum(axis=axis)
    scale = np.abs(x64).sum(axis=axis) + 1
    got_sum = sums[:size].astype(np.float64)
    assert np.all(np.abs(got_sum - want_sum) <= tol * scale), (got_sum, want_sum)
    np.testing.assert_array_equal(maxs[:size], x.max(axis=axis))
    np.testing.assert_array_equal(mins[:size], x.min(axis=axis))
    # Ties go to the lowest index, as numpy's argmax.
    np.testing.assert_array_equal(amaxs[:size], x.argmax(axis=axis))
    for out in (sums, maxs, mins, amaxs):
        tail = out[size:]
        if np.issubdtype(tail.dtype, np.floating):
            assert np.all(np.isnan(tail)), "a store went past the end"
        else:
            assert np.all(tail == np.iinfo(tail.dtype).max - 3), "a store went past the end"


SHAPES = [(1, 1), (16, 32), (37, 100), (8, 1000), (100, 20)]
# One program holds the whole block: keep each thread's share reasonable
# (a 128 x 1024 block on one warp would take ptxas minutes).
MAX_ELEMENTS_PER_THREAD = 64


@pytest.mark.parametrize("dtype", ["float16", "float32", "int8", "int32", "uint8"])
@pytest.mark.parametrize("shape", [(1, 1), (37, 100)])
@pytest.mark.parametrize("axis", [0, 1])
def test_interpreter(dtype, shape, axis, rng):
    m, n = shape
    x, low, high = _inputs(dtype, m, n, rng)
    outs = _outputs(dtype, n if axis == 0 else m, lambda a: a)
    kernel = triton.jit(reduce_kernel.fn, interpret=True)
    kernel[(1,)](x, *outs, m, n, AXIS=axis, LOW=low, HIGH=high,
                 BM=triton.next_power_of_2(m), BN=triton.next_power_of_2(n))
    _check(dtype, x, axis, *outs)




# Every dtype at 4 warps; the layouts of 1 and 8 warps with one float and
# one integer type (each case compiles its own kernel: keep the count sane).
GPU_CASES = [(dtype, 4) for dtype in sorted(DTYPES)] + [
    (dtype, warps) for dtype in ("float32", "int32") for warps in (1, 8)]


@pytest.mark.gpu
@pytest.mark.parametrize("dtype,num_warps", GPU_CASES)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("axis", [0, 1])
def test_gpu(torch_cuda, dtype, shape, axis, num_warps, rng):
    torch = torch_cuda
    m, n = shape
    block = triton.next_power_of_2(m) * triton.next_power_of_2(n)
    if block > MAX_ELEMENTS_PER_THREAD * 32 * num_warps:
        pytest.skip(f"a {block}-element block is too large for {num_warps} warps")
    x, low, high = _inputs(dtype, m, n, rng)
    outs = _outputs(dtype, n if axis == 0 else m, lambda a: torch.from_numpy(a).cuda())
    reduce_kernel[(1,)](torch.from_numpy(x).cuda(), *outs, m, n, AXIS=axis, LOW=low,
                        HIGH=high, BM=triton.next_power_of_2(m),
                        BN=triton.next_power_of_2(n), num_warps=num_warps)
    torch.cuda.synchronize()
    _check(dtype, x, axis, *[o.cpu().numpy() for o in outs])


@pytest.mark.gpu
@pytest.mark.parametrize("shape", [(16, 32), (37, 100), (100, 1000)])
@pytest.mark.parametrize("axis", [0, 1])
def test_gpu_bfloat16(torch_cuda, shape, axis, rng):
    torch = torch_cuda
    m, n = shape
    x = torch.from_numpy(rng.standard_normal((m, n)) * 4).to(torch.bfloat16).cuda()
    size = n if axis == 0 else m
    sums = torch.full((size + GUARD,), float("nan"), dtype=torch.float32, device="cuda")
    maxs = torch.full((size + GUARD,), float("nan"), dtype=torch.bfloat16, device="cuda")
    mins = torch.full((size + GUARD,), float("nan"), dtype=torch.bfloat16, device="cuda")
    amaxs = torch.full((size + GUARD,), -7, dtype=torch.int32, device="cuda")
    reduce_kernel[(1,)](x, sums, maxs, mins, amaxs, m, n, AXIS=axis, LOW=-float("inf"),
                        HIGH=float("inf"), BM=triton.next_power_of_2(m),
                        BN=triton.next_power_of_2(n), num_warps=4)
    torch.cuda.synchronize()
    x64 = x.double()
    want = x64.sum(dim=axis)
    scale = x64.abs().sum(dim=axis) + 1
    assert torch.all((sums[:size].double() - want).abs() <= 2e-2 * scale)
    assert torch.equal(maxs[:size], x.max(dim=axis).values)
    assert torch.equal(mins[:size], x.min(dim=axis).values)
    assert torch.equal(amaxs[:size].long(), x.float().argmax(dim=axis))
    assert torch.all(torch.isnan(sums[size:].float()))
    assert torch.all(amaxs[size:] == -7)


@triton.jit
def _maximum(a, b):
    return tl.maximum(a, b)


@triton.jit
def scan_kernel(x_ptr, sum_ptr, rsum_ptr, max_ptr, m, n, AXIS: tl.constexpr,
                BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.arange(0, BM)
    cols = tl.arange(0, BN)
    mask = (rows[:, None] < m) & (cols[None, :] < n)
    offs = rows[:, None] * n + cols[None, :]
    # The masked tail holds zeros: it comes after the valid elements in
    # forward order and sums to nothing in reverse order.
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    tl.store(sum_ptr + offs, tl.cumsum(x, axis=AXIS), mask=mask)
    tl.store(rsum_ptr + offs, tl.cumsum(x, axis=AXIS, reverse=True), mask=mask)
    tl.store(max_ptr + offs, tl.associative_scan(x, AXIS, _maximum), mask=mask)


def _scan_outputs(dtype, m, n, xp):
    """Poisoned (cumsum, reverse cumsum, running max) buffers of m * n plus GUARD."""
    outs = []
    for t in (_sum_type(dtype), _sum_type(dtype), DTYPES[dtype][0]):
        fill = np.nan if np.issubdtype(t, np.floating) else np.iinfo(t).max - 3
        outs.append(xp(np.full(m * n + GUARD, fill, dtype=t)))
    return outs


# float16 prefix sums accumulate in float16 (as Triton's): up to ~log2(n)
# roundings of partial sums on the GPU's tree, n in the interpreter's loop.
SCAN_TOLERANCE = {"float16": 2e-2}


def _check_scans(dtype, x, axis, sums, rsums, maxs):
    tol = SCAN_TOLERANCE.get(dtype, DTYPES[dtype][2])
    m, n = x.shape
    x64 = x.astype(np.float64)
    flipped = np.flip(x64, axis=axis)
    for got, want, scale in (
            (sums, np.cumsum(x64, axis=axis), np.cumsum(np.abs(x64), axis=axis)),
            (rsums, np.flip(np.cumsum(flipped, axis=axis), axis=axis),
             np.flip(np.cumsum(np.abs(flipped), axis=axis), axis=axis))):
        got = got[:m * n].reshape(m, n).astype(np.float64)
        if tol == 0:  # integers: exact (no sum here leaves the result type)
            np.testing.assert_array_equal(got, want)
        else:
            assert np.all(np.abs(got - want) <= tol * (scale + 1)), (got, want)
    np.testing.assert_array_equal(maxs[:m * n].reshape(m, n),
                                  np.maximum.accumulate(x, axis=axis))
    for out in (sums, rsums, maxs):
        tail = out[m * n:]
        if np.issubdtype(tail.dtype, np.floating):
            assert np.all(np.isnan(tail)), "a store went past the end"
        else:
            assert np.all(tail == np.iinfo(tail.dtype).max - 3), "a store went past the end"


@pytest.mark.parametrize("dtype", ["float16", "float32", "int8", "uint8"])
@pytest.mark.parametrize("shape", [(1, 1), (13, 40)])
@pytest.mark.parametrize("axis", [0, 1])
def test_scan_interpreter(dtype, shape, axis, rng):
    m, n = shape
    x, _, _ = _inputs(dtype, m, n, rng)
    outs = _scan_outputs(dtype, m, n, lambda a: a)
    kernel = triton.jit(scan_kernel.fn, interpret=True)
    kernel[(1,)](x, *outs, m, n, AXIS=axis, BM=triton.next_power_of_2(m),
                 BN=triton.next_power_of_2(n))
    _check_scans(dtype, x, axis, *outs)


SCAN_SHAPES = [(1, 1), (16, 32), (37, 100), (4, 1000), (200, 12)]


@pytest.mark.gpu
@pytest.mark.parametrize("dtype,num_warps", GPU_CASES)
@pytest.mark.parametrize("shape", SCAN_SHAPES)
@pytest.mark.parametrize("axis", [0, 1])
def test_scan_gpu(torch_cuda, dtype, shape, axis, num_warps, rng):
    torch = torch_cuda
    m, n = shape
    block = triton.next_power_of_2(m) * triton.next_power_of_2(n)
    if block > MAX_ELEMENTS_PER_THREAD * 32 * num_warps:
        pytest.skip(f"a {block}-element block is too large for {num_warps} warps")
    x, _, _ = _inputs(dtype, m, n, rng)
    outs = _scan_outputs(dtype, m, n, lambda a: torch.from_numpy(a).cuda())
    scan_kernel[(1,)](torch.from_numpy(x).cuda(), *outs, m, n, AXIS=axis,
                      BM=triton.next_power_of_2(m), BN=triton.next_power_of_2(n),
                      num_warps=num_warps)
    torch.cuda.synchronize()
    _check_scans(dtype, x, axis, *[o.cpu().numpy() for o in outs])
