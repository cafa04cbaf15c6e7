"""The standard library (language/standard.py): tl.sort, tl.topk,
tl.bitonic_merge, tl.flip, tl.cat, tl.gather, tl.histogram, tl.reduce_or,
tl.softmax, tl.swizzle2d, tl.squeeze/tl.unsqueeze, tl.map_elementwise,
tl.add/tl.sub/tl.mul, tl.const and tl.TRITON_MAX_TENSOR_NUMEL, and their
tensor methods.

Each kernel runs in the interpreter against NumPy on fresh random inputs
(exactly: sorting, flipping, concatenating and gathering only move values;
histograms count), and is compiled to tile IR, verified by terrazzo-opt and
lowered to PTX (assembled by ptxas when present). Bad arguments are errors
that name the line. The GPU tests run the compiled kernels against NumPy.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import terrazzo as triton
import terrazzo.language as tl
from terrazzo.errors import CompilationError, InterpreterError


def interp(kernel):
    return triton.jit(kernel.fn, interpret=True)


# Element types: the NumPy type the kernel reads and writes, and whether the
# kernel reinterprets it (int16 bits) as bfloat16.
DTYPES = {"int8": (np.int8, False), "int32": (np.int32, False), "uint8": (np.uint8, False),
          "int64": (np.int64, False), "float16": (np.float16, False),
          "float32": (np.float32, False), "float64": (np.float64, False),
          "bfloat16": (np.int16, True)}


def random_values(rng, shape, name, nan=False):
    """Random values of type `name` with many repeats (bfloat16: the bits of
    random bfloat16 numbers), and NaNs when `nan`."""
    np_type, bf16 = DTYPES[name]
    if bf16:
        f = rng.standard_normal(shape).astype(np.float32) * 100
        if nan:
            f[rng.random(shape) < 0.1] = np.nan
        return (f.view(np.uint32) >> 16).astype(np.uint16).view(np.int16)
    if np.issubdtype(np_type, np.integer):
        info = np.iinfo(np_type)
        lo, hi = max(info.min, -1000), min(info.max, 1000)
        return rng.integers(lo, hi + 1, shape).astype(np_type)
    x = (rng.standard_normal(shape) * 100).astype(np_type)
    if nan:
        x[rng.random(shape) < 0.1] = np.nan
    return x


def as_values(x, name):
    """What the elements of `x` (as the kernel reads them) are worth, for
    NumPy's sort: float32 for bfloat16 bits."""
    if DTYPES[name][1]:
        return (x.astype(np.uint16).astype(np.uint32) << 16).view(np.float32)
    return x


def np_sort(x, name, axis, descending):
    """The sorted elements of `x` along `axis`, as the kernel stores them (NaNs
    last ascending, first descending)."""
    order = np.argsort(as_values(x, name), axis=axis, kind="stable")
    if descending:
        order = np.flip(order, axis)
    return np.take_along_axis(x, order, axis)


def same(a, b):
    """Exact equality, NaN equal to NaN (bit patterns may differ)."""
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape and a.dtype == b.dtype, (a.shape, b.shape, a.dtype, b.dtype)
    if np.issubdtype(a.dtype, np.floating):
        return bool(np.all((a == b) | (np.isnan(a) & np.isnan(b))))
    return bool(np.all(a == b))


# ---------------------------------------------------------------------------
# Kernels
# ---------------------------------------------------------------------------

@triton.jit
def sort_kernel(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, DIM: tl.constexpr,
                DESCENDING: tl.constexpr, BF16: tl.constexpr, SPELLING: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    if BF16:
        x = x.to(tl.bfloat16, bitcast=True)
    if SPELLING == 0:
        y = tl.sort(x, dim=DIM, descending=DESCENDING)
    else:
        y = x.sort(DIM, DESCENDING)
    if BF16:
        y = y.to(tl.int16, bitcast=True)
    tl.store(out_ptr + offs, y)


@triton.jit
def topk_kernel(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
                DIM: tl.constexpr, DESCENDING: tl.constexpr, BF16: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    if BF16:
        x = x.to(tl.bfloat16, bitcast=True)
    y = tl.topk(x, K, dim=DIM, descending=DESCENDING)
    if BF16:
        y = y.to(tl.int16, bitcast=True)
    if DIM == 0:
        tl.store(out_ptr + tl.arange(0, K)[:, None] * N + tl.arange(0, N)[None, :], y)
    else:
        tl.store(out_ptr + tl.arange(0, M)[:, None] * K + tl.arange(0, K)[None, :], y)


@triton.jit
def bitonic_merge_kernel(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr,
                         DESCENDING: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    tl.store(out_ptr + offs, tl.bitonic_merge(tl.load(x_ptr + offs), descending=DESCENDING))


@triton.jit
def flip_kernel(x_ptr, out_ptr, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr,
                DIM: tl.constexpr, SPELLING: tl.constexpr):
    offs = (tl.arange(0, A)[:, None, None] * B + tl.arange(0, B)[None, :, None]) * C \
        + tl.arange(0, C)[None, None, :]
    x = tl.load(x_ptr + offs)
    if SPELLING == 0:
        y = tl.flip(x, DIM)
    elif SPELLING == 1:
        y = x.flip(dim=DIM)
    else:
        y = tl.flip(x)
    tl.store(out_ptr + offs, y)


@triton.jit
def cat_kernel(x_ptr, y_ptr, out_ptr, N: tl.constexpr, R: tl.constexpr):
    # Two N x R blocks give a 2N x R block; 1-D blocks of N give 2N.
    offs = tl.arange(0, N)[:, None] * R + tl.arange(0, R)[None, :]
    z = tl.cat(tl.load(x_ptr + offs), tl.load(y_ptr + offs), can_reorder=True)
    tl.store(out_ptr + tl.arange(0, 2 * N)[:, None] * R + tl.arange(0, R)[None, :], z)
    flat = tl.cat(tl.load(x_ptr + tl.arange(0, N)), tl.load(y_ptr + tl.arange(0, N)))
    tl.store(out_ptr + 2 * N * R + tl.arange(0, 2 * N), flat)


@triton.jit
def gather_kernel(src_ptr, idx_ptr, out_ptr, S0: tl.constexpr, S1: tl.constexpr,
                  I0: tl.constexpr, I1: tl.constexpr, AXIS: tl.constexpr,
                  METHOD: tl.constexpr):
    src = tl.load(src_ptr + tl.arange(0, S0)[:, None] * S1 + tl.arange(0, S1)[None, :])
    idx = tl.load(idx_ptr + tl.arange(0, I0)[:, None] * I1 + tl.arange(0, I1)[None, :])
    if METHOD:
        out = src.gather(idx, AXIS)
    else:
        out = tl.gather(src, idx, AXIS)
    tl.store(out_ptr + tl.arange(0, I0)[:, None] * I1 + tl.arange(0, I1)[None, :], out)


@triton.jit
def gather3d_kernel(src_ptr, idx_ptr, out_ptr, A: tl.constexpr, B: tl.constexpr,
                    C: tl.constexpr, K: tl.constexpr):
    # src: A x B x C, idx and out: A x K x C, along axis 1.
    a = tl.arange(0, A)[:, None, None]
    c = tl.arange(0, C)[None, None, :]
    src = tl.load(src_ptr + (a * B + tl.arange(0, B)[None, :, None]) * C + c)
    offs = (a * K + tl.arange(0, K)[None, :, None]) * C + c
    tl.store(out_ptr + offs, tl.gather(src, tl.load(idx_ptr + offs), 1))


@triton.jit
def histogram_kernel(x_ptr, out_ptr, n, M: tl.constexpr, NB: tl.constexpr,
                     MASKED: tl.constexpr):
    offs = tl.arange(0, M)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0)
    if MASKED:
        h = tl.histogram(x, NB, mask=offs < n)
    else:
        h = x.histogram(NB)
    # The counts broadcast like any block.
    tl.static_assert(h.shape[0] == NB)
    tl.store(out_ptr + tl.arange(0, NB), h + tl.zeros([1, NB], tl.int32).sum(0))


@triton.jit
def swizzle2d_kernel(out_ptr, size_i, size_j, size_g):
    # As Triton's test: scalars, in loops.
    for i in tl.range(0, size_i, 1):
        for j in tl.range(0, size_j, 1):
            new_i, new_j = tl.swizzle2d(i, j, size_i, size_j, size_g)
            tl.store(out_ptr + new_i * size_j + new_j, i * size_j + j)


@triton.jit
def swizzle2d_block_kernel(out_i_ptr, out_j_ptr, size_i, size_j, size_g,
                           BI: tl.constexpr, BJ: tl.constexpr):
    # Blocks of indices, masked to the grid.
    i = tl.arange(0, BI)[:, None]
    j = tl.arange(0, BJ)[None, :]
    new_i, new_j = tl.swizzle2d(i, j, size_i, size_j, size_g)
    mask = (i < size_i) & (j < size_j)
    tl.store(out_i_ptr + i * size_j + j, new_i, mask=mask)
    tl.store(out_j_ptr + i * size_j + j, new_j, mask=mask)


@triton.jit
def softmax_kernel(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, DIM: tl.constexpr,
                   METHOD: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    if METHOD:
        y = x.softmax(DIM)
    else:
        y = tl.softmax(x, dim=DIM, ieee_rounding=True)
    tl.store(out_ptr + offs, y)


@triton.jit
def reduce_or_kernel(x_ptr, rows_ptr, cols_ptr, all_ptr, M: tl.constexpr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    tl.store(rows_ptr + tl.arange(0, M), tl.reduce_or(x, 1))
    tl.store(cols_ptr + tl.arange(0, N)[None, :], x.reduce_or(0, keep_dims=True))
    tl.store(all_ptr, tl.reduce_or(x, None))


@triton.jit
def _selu(x, alpha):
    return tl.where(x > 0, x, alpha * (tl.exp(x) - 1))


@triton.jit
def _sum_and_difference(a, b):
    return a + b, a - b


@triton.jit
def misc_kernel(x_ptr, y_ptr, out_ptr, N: tl.constexpr):
    # squeeze / unsqueeze, map_elementwise, add / sub / mul.
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    col = tl.unsqueeze(x, 1)
    tl.static_assert(col.shape[1] == 1)
    back = tl.squeeze(col, 1)
    tl.store(out_ptr + offs, back)
    tl.store(out_ptr + N + offs, tl.map_elementwise(_selu, x, 0.5))
    s, d = tl.map_elementwise(_sum_and_difference, x, y)
    tl.store(out_ptr + 2 * N + offs, s)
    tl.store(out_ptr + 3 * N + offs, d)
    tl.store(out_ptr + 4 * N + offs, tl.mul(tl.add(x, y), tl.sub(x, 1.0)))
    tl.static_assert(tl.TRITON_MAX_TENSOR_NUMEL == 1048576)


# ---------------------------------------------------------------------------
# The interpreter against NumPy
# ---------------------------------------------------------------------------

SORT_SHAPES = [(1, 512), (8, 64), (256, 16), (512, 8), (4, 1)]


@pytest.mark.parametrize("dtype", sorted(DTYPES))
@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("m,n", SORT_SHAPES)
def test_sort(m, n, descending, dtype, rng):
    x = random_values(rng, (m, n), dtype, nan=True)
    out = np.zeros_like(x)
    interp(sort_kernel)[(1,)](x, out, m, n, DIM=None, DESCENDING=descending,
                              BF16=DTYPES[dtype][1], SPELLING=0)
    assert same(as_values(out, dtype), as_values(np_sort(x, dtype, 1, descending), dtype))


@pytest.mark.parametrize("descending", [False, True])
def test_sort_special_values(descending):
    # -0.0 sorts below 0.0; NaNs of either sign above infinity, sign cleared.
    x = np.array([[0.0, np.nan, -0.0, 1.0, -np.nan, -np.inf, np.inf, -1.0]], np.float32)
    out = np.zeros_like(x)
    interp(sort_kernel)[(1,)](x, out, 1, 8, DIM=None, DESCENDING=descending, BF16=False,
                              SPELLING=0)
    want = np.array([-np.inf, -1.0, -0.0, 0.0, 1.0, np.inf, np.nan, np.nan], np.float32)
    got = out[0][::-1] if descending else out[0]
    assert same(got, want) and np.array_equal(np.signbit(got), np.signbit(want))


@pytest.mark.parametrize("dim", [0, 1, -1, -2])
@pytest.mark.parametrize("descending", [False, True])
def test_sort_any_dim_and_method(dim, descending, rng):
    x = random_values(rng, (16, 32), "float32")
    out = np.zeros_like(x)
    interp(sort_kernel)[(1,)](x, out, 16, 32, DIM=dim, DESCENDING=descending, BF16=False,
                              SPELLING=1)
    assert same(out, np_sort(x, "float32", dim, descending))


@pytest.mark.parametrize("dtype", ["int32", "float16", "float32", "bfloat16"])
@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("m,n,k", [(1, 512, 1), (1, 512, 512), (8, 64, 4), (8, 64, 16),
                                   (256, 16, 8), (512, 8, 2), (2, 32, 32)])
def test_topk(m, n, k, descending, dtype, rng):
    x = random_values(rng, (m, n), dtype, nan=dtype != "int32")
    out = np.zeros((m, k), x.dtype)
    interp(topk_kernel)[(1,)](x, out, m, n, k, DIM=None, DESCENDING=descending,
                              BF16=DTYPES[dtype][1])
    want = np_sort(x, dtype, 1, descending)[:, :k]
    assert same(as_values(out, dtype), as_values(want, dtype))


def test_topk_first_dim(rng):
    x = random_values(rng, (64, 8), "int32")
    out = np.zeros((4, 8), np.int32)
    interp(topk_kernel)[(1,)](x, out, 64, 8, 4, DIM=0, DESCENDING=True, BF16=False)
    assert same(out, -np.sort(-x, axis=0)[:4])


@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("m,n", [(4, 64), (1, 2), (2, 256)])
def test_bitonic_merge(m, n, descending, rng):
    # Rows rising then falling (or the reverse), rotated: bitonic sequences.
    x = np.zeros((m, n), np.float32)
    for r in range(m):
        v = np.sort(rng.standard_normal(n).astype(np.float32))
        seq = np.concatenate([v[0::2], v[1::2][::-1]])
        x[r] = np.roll(seq if r % 2 == 0 else -seq, rng.integers(0, n))
    out = np.zeros_like(x)
    interp(bitonic_merge_kernel)[(1,)](x, out, m, n, descending)
    want = np.sort(x, axis=1)
    assert same(out, want[:, ::-1] if descending else want)


@pytest.mark.parametrize("spelling", [0, 1])
@pytest.mark.parametrize("dim", [0, 1, 2, -1, -2, -3])
@pytest.mark.parametrize("shape", [(4, 8, 2), (1, 16, 1), (2, 1, 64)])
def test_flip(shape, dim, spelling, rng):
    x = random_values(rng, shape, "float32")
    out = np.zeros_like(x)
    interp(flip_kernel)[(1,)](x, out, *shape, DIM=dim, SPELLING=spelling)
    assert same(out, np.flip(x, dim))


@pytest.mark.parametrize("dtype", ["int32", "float16", "float32", "bfloat16", "uint8"])
def test_flip_last_dim_by_default(dtype, rng):
    x = random_values(rng, (2, 4, 32), dtype, nan=dtype in ("float16", "float32"))
    x.reshape(-1)[0] = np.inf if dtype in ("float16", "float32") else x.reshape(-1)[0]
    out = np.zeros_like(x)
    interp(flip_kernel)[(1,)](x, out, 2, 4, 32, DIM=None, SPELLING=2)
    assert same(out, np.flip(x, 2))


@pytest.mark.parametrize("dtype", ["int8", "int32", "float16", "float32", "float64"])
@pytest.mark.parametrize("n,r", [(128, 2), (1, 1), (16, 8)])
def test_cat(n, r, dtype, rng):
    np_type = np.dtype(dtype).type
    x = (rng.standard_normal((n, r)) * 50).astype(np_type)
    y = (rng.standard_normal((n, r)) * 50).astype(np_type)
    out = np.zeros(2 * n * r + 2 * n, np_type)
    interp(cat_kernel)[(1,)](x, y, out, n, r)
    assert same(out[:2 * n * r].reshape(2 * n, r), np.concatenate([x, y]))
    assert same(out[2 * n * r:], np.concatenate([x.reshape(-1)[:n], y.reshape(-1)[:n]]))


GATHER_CASES = [((4, 4), (8, 4), 0), ((128, 64), (256, 64), 0), ((128, 64), (128, 128), 1),
                ((16, 4), (2, 4), 0), ((2, 32), (2, 1), 1), ((1, 8), (1, 8), 1)]


@pytest.mark.parametrize("src_shape,idx_shape,axis", GATHER_CASES)
@pytest.mark.parametrize("dtype", ["float32", "int64"])
def test_gather(src_shape, idx_shape, axis, dtype, rng):
    src = random_values(rng, src_shape, dtype, nan=dtype == "float32")
    if dtype == "float32":
        src.reshape(-1)[0] = -0.0  # selected bit for bit
    idx = rng.integers(0, src_shape[axis], idx_shape).astype(np.int32)
    out = np.zeros(idx_shape, src.dtype)
    interp(gather_kernel)[(1,)](src, idx, out, *src_shape, *idx_shape, axis, METHOD=False)
    want = np.take_along_axis(src, idx, axis)
    assert np.array_equal(out.view(np.uint8), want.view(np.uint8))


@pytest.mark.parametrize("dtype", ["int8", "uint8", "float16", "bfloat16", "float64"])
def test_gather_types_and_method(dtype, rng):
    src = random_values(rng, (8, 16), dtype)
    idx = rng.integers(0, 16, (8, 32)).astype(np.int64)
    out = np.zeros((8, 32), src.dtype)
    interp(gather_kernel)[(1,)](src, idx, out, 8, 16, 8, 32, 1, METHOD=True)
    assert np.array_equal(out, np.take_along_axis(src, idx, 1))


def test_gather_3d_and_out_of_range(rng):
    src = random_values(rng, (2, 64, 4), "float32")
    idx = rng.integers(-2, 66, (2, 128, 4)).astype(np.int32)
    out = np.full((2, 128, 4), np.nan, np.float32)
    interp(gather3d_kernel)[(1,)](src, idx, out, 2, 64, 4, 128)
    inside = (idx >= 0) & (idx < 64)
    want = np.take_along_axis(src, np.clip(idx, 0, 63), 1)
    assert same(out, np.where(inside, want, np.float32(0)))


HISTOGRAM_CASES = [(2048, 2), (1024, 8), (1024, 128), (256, 512), (32, 512), (8, 512),
                   (8, 2), (1, 1)]


@pytest.mark.parametrize("masked", [False, True])
@pytest.mark.parametrize("m,nb", HISTOGRAM_CASES)
def test_histogram(m, nb, masked, rng):
    # Values also below 0 and above the last bin, which are not counted.
    x = rng.integers(-3, nb + 3, m).astype(np.int32)
    n = int(rng.integers(0, m + 1)) if masked else m
    out = np.full(nb, -1, np.int32)
    interp(histogram_kernel)[(1,)](x, out, n, m, nb, masked)
    counted = np.concatenate([x[:n], np.zeros(m - n, np.int32)]) if not masked else x[:n]
    want = np.bincount(counted[(counted >= 0) & (counted < nb)], minlength=nb)
    assert same(out, want.astype(np.int32))


def swizzle2d_model(size_i, size_j, size_g):
    """Where swizzle2d sends each (i, j): the k-th position of the grid in
    row-major order goes to the k-th position of an enumeration that takes
    size_g rows at a time (fewer in the last group) column by column."""
    order = []
    for first in range(0, size_i, size_g):
        rows = range(first, min(first + size_g, size_i))
        order += [(r, c) for c in range(size_j) for r in rows]
    new_i = np.array([r for r, _ in order]).reshape(size_i, size_j)
    new_j = np.array([c for _, c in order]).reshape(size_i, size_j)
    return new_i, new_j


def test_swizzle2d_as_triton_test():
    out = np.zeros((5, 7), np.float32)
    interp(swizzle2d_kernel)[(1,)](out, 5, 7, 3)
    expected = [[0, 3, 6, 9, 12, 15, 18], [1, 4, 7, 10, 13, 16, 19], [2, 5, 8, 11, 14, 17, 20],
                [21, 23, 25, 27, 29, 31, 33], [22, 24, 26, 28, 30, 32, 34]]
    assert same(out, np.array(expected, np.float32))


@pytest.mark.parametrize("size_i,size_j,size_g", [(5, 7, 3), (8, 8, 2), (13, 3, 4),
                                                  (16, 16, 16), (3, 9, 5), (7, 1, 2)])
def test_swizzle2d(size_i, size_j, size_g):
    new_i, new_j = swizzle2d_model(size_i, size_j, size_g)
    out_i = np.full((size_i, size_j), -1, np.int32)
    out_j = np.full((size_i, size_j), -1, np.int32)
    interp(swizzle2d_block_kernel)[(1,)](out_i, out_j, size_i, size_j, size_g, BI=16, BJ=16)
    assert same(out_i, new_i.astype(np.int32)) and same(out_j, new_j.astype(np.int32))


@pytest.mark.parametrize("method", [False, True])
@pytest.mark.parametrize("dim", [0, 1])
def test_softmax(dim, method, rng):
    x = rng.standard_normal((16, 32)).astype(np.float32) * 4
    out = np.zeros_like(x)
    interp(softmax_kernel)[(1,)](x, out, 16, 32, dim, method)
    e = np.exp(x.astype(np.float64) - x.max(axis=dim, keepdims=True))
    np.testing.assert_allclose(out, e / e.sum(axis=dim, keepdims=True), rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "uint8"])
def test_reduce_or(dtype, rng):
    np_type = np.dtype(dtype).type
    info = np.iinfo(np_type)
    x = rng.integers(info.min, info.max, (8, 16), dtype=np_type, endpoint=True)
    x[rng.random((8, 16)) < 0.5] = 0
    rows, cols, all_ = np.zeros(8, np_type), np.zeros((1, 16), np_type), np.zeros(1, np_type)
    interp(reduce_or_kernel)[(1,)](x, rows, cols, all_, 8, 16)
    assert same(rows, np.bitwise_or.reduce(x, axis=1))
    assert same(cols, np.bitwise_or.reduce(x, axis=0, keepdims=True))
    assert same(all_, np.bitwise_or.reduce(x, axis=None).reshape(1))


def test_misc(rng):
    n = 64
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    out = np.zeros(5 * n, np.float32)
    interp(misc_kernel)[(1,)](x, y, out, n)
    x64 = x.astype(np.float64)
    assert same(out[:n], x)
    np.testing.assert_allclose(out[n:2 * n], np.where(x64 > 0, x64, 0.5 * np.expm1(x64)),
                               rtol=1e-5, atol=1e-6)
    assert same(out[2 * n:3 * n], x + y) and same(out[3 * n:4 * n], x - y)
    assert same(out[4 * n:], (x + y) * (x - np.float32(1)))


@triton.jit
def const_copy_kernel(in_ptr: tl.const, out_ptr, N: tl.constexpr):
    x = tl.load(in_ptr + tl.arange(0, N))
    tl.static_assert(in_ptr.dtype.is_const() and not out_ptr.dtype.is_const())
    tl.store(out_ptr + tl.arange(0, N), x)


@triton.jit
def map_broadcast_kernel(x_ptr, y_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, M))[:, None]
    y = tl.load(y_ptr + tl.arange(0, N))[None, :]
    s, d = tl.map_elementwise(_sum_and_difference, x, y)
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    tl.store(out_ptr + offs, s)
    tl.store(out_ptr + M * N + offs, d)


def test_map_elementwise_broadcasts(rng):
    x = rng.standard_normal(8).astype(np.float32)
    y = rng.standard_normal(4).astype(np.float32)
    out = np.zeros(64, np.float32)
    interp(map_broadcast_kernel)[(1,)](x, y, out, 8, 4)
    assert same(out[:32].reshape(8, 4), x[:, None] + y[None, :])
    assert same(out[32:].reshape(8, 4), x[:, None] - y[None, :])


def test_const_annotation(rng):
    x = rng.standard_normal(16).astype(np.float32)
    out = np.zeros(16, np.float32)
    interp(const_copy_kernel)[(1,)](x, out, 16)
    assert same(out, x)
    text = const_copy_kernel.ir(x, out, 16)
    assert "tile.load" in text and "tile.store" in text
    assert tl.pointer_type(tl.float32, const=True) != tl.pointer_type(tl.float32)
    assert str(tl.pointer_type(tl.float32, const=True)) == "const_pointer<fp32>"


# ---------------------------------------------------------------------------
# Tile IR, verified and lowered to PTX
# ---------------------------------------------------------------------------

def _z(shape, dt=np.float32):
    return np.zeros(shape, dt)


IR_CASES = {
    "sort_f32_desc": (sort_kernel, lambda: (_z((8, 64)), _z((8, 64))),
                      dict(M=8, N=64, DIM=None, DESCENDING=True, BF16=False, SPELLING=0)),
    "sort_bf16_dim0": (sort_kernel, lambda: (_z((16, 8), np.int16), _z((16, 8), np.int16)),
                       dict(M=16, N=8, DIM=0, DESCENDING=False, BF16=True, SPELLING=1)),
    "sort_i32_wide": (sort_kernel, lambda: (_z((1, 512), np.int32), _z((1, 512), np.int32)),
                      dict(M=1, N=512, DIM=1, DESCENDING=False, BF16=False, SPELLING=0)),
    "topk": (topk_kernel, lambda: (_z((8, 64), np.float16), _z((8, 4), np.float16)),
             dict(M=8, N=64, K=4, DIM=1, DESCENDING=True, BF16=False)),
    "bitonic_merge": (bitonic_merge_kernel, lambda: (_z((4, 64)), _z((4, 64))),
                      dict(M=4, N=64, DESCENDING=False)),
    "flip": (flip_kernel, lambda: (_z((4, 8, 2)), _z((4, 8, 2))),
             dict(A=4, B=8, C=2, DIM=1, SPELLING=0)),
    "cat": (cat_kernel, lambda: (_z((16, 8), np.int32), _z((16, 8), np.int32),
                                 _z(2 * 16 * 8 + 32, np.int32)), dict(N=16, R=8)),
    "gather_axis0": (gather_kernel, lambda: (_z((128, 64)), _z((256, 64), np.int32),
                                             _z((256, 64))),
                     dict(S0=128, S1=64, I0=256, I1=64, AXIS=0, METHOD=False)),
    "gather_small": (gather_kernel, lambda: (_z((4, 4), np.float16), _z((8, 4), np.int64),
                                             _z((8, 4), np.float16)),
                     dict(S0=4, S1=4, I0=8, I1=4, AXIS=0, METHOD=True)),
    "histogram": (histogram_kernel, lambda: (_z(1024, np.int32), _z(128, np.int32), 1000),
                  dict(M=1024, NB=128, MASKED=True)),
    "histogram_one_step": (histogram_kernel, lambda: (_z(8, np.int32), _z(512, np.int32), 8),
                           dict(M=8, NB=512, MASKED=False)),
    "swizzle2d": (swizzle2d_kernel, lambda: (_z((5, 7)), 5, 7, 3), {}),
    "softmax": (softmax_kernel, lambda: (_z((16, 32)), _z((16, 32))),
                dict(M=16, N=32, DIM=1, METHOD=False)),
    "reduce_or": (reduce_or_kernel, lambda: (_z((8, 16), np.int32), _z(8, np.int32),
                                             _z((1, 16), np.int32), _z(1, np.int32)),
                  dict(M=8, N=16)),
    "misc": (misc_kernel, lambda: (_z(64), _z(64), _z(320)), dict(N=64)),
    "map_broadcast": (map_broadcast_kernel, lambda: (_z(8), _z(4), _z(64)), dict(M=8, N=4)),
}


@pytest.mark.parametrize("case", sorted(IR_CASES))
def test_lowers_to_ptx(case, check_ir):
    kernel, make_args, meta = IR_CASES[case]
    text = kernel.ir(*make_args(), **meta)
    check_ir.opt(text)
    ptx = check_ir.compile(text, num_warps=4)
    assert ".entry" in ptx and "st.global" in ptx


@pytest.mark.parametrize("num_warps", [1, 8])
@pytest.mark.parametrize("case", ["sort_f32_desc", "gather_axis0", "histogram"])
def test_lowers_to_ptx_warps(case, num_warps, check_ir):
    kernel, make_args, meta = IR_CASES[case]
    assert ".entry" in check_ir.compile(kernel.ir(*make_args(), **meta), num_warps=num_warps)


def test_ir_forms():
    # A sort of floats compares integer keys (the bits, reordered), each
    # with its partner, found by an xor reduction over each pair (8 x 64: at
    # distances 1 to 32); no arithmetic on the values, no float compares
    # but the NaN test.
    text = sort_kernel.ir(*IR_CASES["sort_f32_desc"][1](), **IR_CASES["sort_f32_desc"][2])
    pairs = re.findall(r"tile\.reduce\(%\w+\) axis = 1 : \(tensor<(\d+)x2x(\d+)xi32>\)", text)
    assert sorted({int(b) for _, b in pairs}) == [1, 2, 4, 8, 16, 32]
    assert re.search(r"arith\.cmpi sgt", text)
    assert re.findall(r"arith\.cmpf (\w+)", text) == ["une"]
    assert not re.search(r"arith\.(addf|mulf|subf)|tile\.(split|trans)", text)
    # A gather with several chunks loops over them.
    text = gather_kernel.ir(*IR_CASES["gather_axis0"][1](), **IR_CASES["gather_axis0"][2])
    assert "scf.for" in text and "arith.ori" in text
    text = gather_kernel.ir(*IR_CASES["gather_small"][1](), **IR_CASES["gather_small"][2])
    assert "scf.for" not in text
    # cat: join, then the new dimension first.
    text = cat_kernel.ir(*IR_CASES["cat"][1](), **IR_CASES["cat"][2])
    assert re.search(r"tile\.trans %\w+ \[2, 0, 1\] : tensor<16x8x2xi32> -> "
                     r"tensor<2x16x8xi32>", text)


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------

@triton.jit
def k_sort_scalar(x_ptr):
    tl.sort(tl.load(x_ptr))  # <-


@triton.jit
def k_sort_bad_dim(x_ptr):
    tl.sort(tl.load(x_ptr + tl.arange(0, 8)), dim=1)  # <-


@triton.jit
def k_topk_not_pow2(x_ptr):
    tl.topk(tl.load(x_ptr + tl.arange(0, 8)), 3)  # <-


@triton.jit
def k_topk_too_large(x_ptr):
    tl.topk(tl.load(x_ptr + tl.arange(0, 8)), 16)  # <-


@triton.jit
def k_cat_shapes(x_ptr):
    tl.cat(tl.load(x_ptr + tl.arange(0, 8)), tl.load(x_ptr + tl.arange(0, 4)))  # <-


@triton.jit
def k_gather_shapes(x_ptr):
    src = tl.load(x_ptr + tl.arange(0, 8)[:, None] * 4 + tl.arange(0, 4)[None, :])
    tl.gather(src, tl.zeros([8, 2], tl.int32), 0)  # <-


@triton.jit
def k_gather_float_index(x_ptr):
    src = tl.load(x_ptr + tl.arange(0, 8))
    tl.gather(src, src, 0)  # <-


@triton.jit
def k_histogram_float(x_ptr):
    tl.histogram(tl.load(x_ptr + tl.arange(0, 8)), 4)  # <-


@triton.jit
def k_histogram_bins(x_ptr):
    tl.histogram(tl.load(x_ptr + tl.arange(0, 8)).to(tl.int32), 6)  # <-


@triton.jit
def k_reduce_or_float(x_ptr):
    tl.reduce_or(tl.load(x_ptr + tl.arange(0, 8)), 0)  # <-


@triton.jit
def k_squeeze_not_one(x_ptr):
    tl.squeeze(tl.load(x_ptr + tl.arange(0, 8)), 0)  # <-


@triton.jit
def k_map_not_jit(x_ptr):
    tl.map_elementwise(abs, tl.load(x_ptr + tl.arange(0, 8)))  # <-


@triton.jit
def k_store_const(x_ptr: tl.const):
    tl.store(x_ptr + tl.arange(0, 8), 1.0)  # <-


@triton.jit
def k_const_if(x_ptr: tl.const, y_ptr, flag):
    if flag:  # <-
        p = x_ptr
    else:
        p = y_ptr
    tl.load(p)


@triton.jit
def k_const_ternary(x_ptr: tl.const, y_ptr, flag):
    p = x_ptr if flag else y_ptr  # <-
    tl.load(p)


@triton.jit
def _choose(a, b, flag):
    if flag:
        return a
    return b


@triton.jit
def k_const_call(x_ptr: tl.const, y_ptr, flag):
    tl.load(_choose(x_ptr, y_ptr, flag))  # <-


ERROR_CASES = [
    (k_store_const, r"Cannot store to a constant pointer \(a parameter annotated tl\.const\)"),

    (k_sort_scalar, r"tl\.sort needs a block, got a scalar"),
    (k_sort_bad_dim, r"tl\.sort: dimension 1 is out of range for a block of shape \[8\]"),
    (k_topk_not_pow2, r"tl\.topk: k must be a power of two, got 3"),
    (k_topk_too_large, r"tl\.topk: k = 16 is larger than the dimension \(8\)"),
    (k_cat_shapes, r"tl\.cat needs two blocks of one shape and type, got \[8\] of fp32 "
                   r"and \[4\] of fp32"),
    (k_gather_shapes, r"tl\.gather: the index's shape \[8, 2\] must equal the source's "
                      r"shape \[8, 4\] except along axis 0"),
    (k_gather_float_index, r"tl\.gather: the index must hold integers, got fp32"),
    (k_histogram_float, r"tl\.histogram needs integers, got fp32"),
    (k_histogram_bins, r"tl\.histogram: num_bins must be a power of two, got 6"),
    (k_reduce_or_float, r"tl\.reduce_or needs integers, got fp32"),
    (k_squeeze_not_one, r"tl\.squeeze: dimension 0 of a block of shape \[8\] has size 8"),
    (k_map_not_jit, r"tl\.map_elementwise needs a @jit function"),
]


def _marked_line(kernel):
    lines = [l for l, text in kernel.parsed.src_lines.items() if "# <-" in text]
    assert len(lines) == 1
    return lines[0]


CONST_TYPE_CASES = [
    (k_const_if, r"Mismatched type for p: 'p' has type const_pointer<fp32> at the end of "
                 r"the `if` branch but pointer<fp32>"),
    (k_const_ternary, r"Ternary expression with dynamic condition has inconsistent type"),
    (k_const_call, r"Inconsistent return types: the branches of this if return different "
                   r"types: const_pointer<fp32> and pointer<fp32>"),
]


@pytest.mark.parametrize("kernel,pattern", CONST_TYPE_CASES,
                         ids=[k.fn.__name__ for k, _ in CONST_TYPE_CASES])
def test_const_pointers_are_another_type(kernel, pattern):
    # A runtime choice between a const and a plain pointer is an error; the
    # interpreter, which takes one branch, rejects it as the compiler does.
    x = _z(64)
    with pytest.raises(CompilationError) as ei:
        kernel.ir(x, x, 1)
    assert re.search(pattern, str(ei.value)), str(ei.value)
    assert re.search(pattern, ei.value.error_message)
    line = _marked_line(kernel)
    assert ei.value.line == line or f"{kernel.parsed.file}:{line}" in str(ei.value)
    with pytest.raises(InterpreterError) as interpreted:
        interp(kernel)[(1,)](x, x, 1)
    assert str(interpreted.value) == str(ei.value)


@pytest.mark.parametrize("interpret", [False, True])
@pytest.mark.parametrize("kernel,pattern", ERROR_CASES,
                         ids=[k.fn.__name__ for k, _ in ERROR_CASES])
def test_errors(kernel, pattern, interpret):
    x = _z(64)
    with pytest.raises(CompilationError) as ei:
        if interpret:
            interp(kernel)[(1,)](x)
        else:
            kernel.ir(x)
    e = ei.value
    assert re.search(pattern, str(e)), str(e)
    # The error names the kernel's line: as its position for the builtins,
    # in a note ("in the call of ...") for the @jit functions.
    line = _marked_line(kernel)
    assert e.line == line or f"{kernel.parsed.file}:{line}" in str(e), str(e)


# ---------------------------------------------------------------------------
# GPU: the compiled kernels against NumPy
# ---------------------------------------------------------------------------

def _run_gpu(torch, kernel, args, meta, num_warps=4):
    dev = [torch.from_numpy(np.ascontiguousarray(a)).cuda() if isinstance(a, np.ndarray)
           else a for a in args]
    triton.jit(kernel.fn)[(1,)](*dev, **meta, num_warps=num_warps)
    torch.cuda.synchronize()
    return [d.cpu().numpy() if isinstance(a, np.ndarray) else None for a, d in zip(args, dev)]


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["int32", "float16", "float32", "bfloat16"])
@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("m,n", SORT_SHAPES)
def test_gpu_sort(torch_cuda, m, n, descending, dtype, rng):
    x = random_values(rng, (m, n), dtype, nan=True)
    _, out = _run_gpu(torch_cuda, sort_kernel, [x, np.zeros_like(x)],
                      dict(M=m, N=n, DIM=None, DESCENDING=descending, BF16=DTYPES[dtype][1],
                           SPELLING=0), num_warps=8)
    assert same(as_values(out, dtype), as_values(np_sort(x, dtype, 1, descending), dtype))


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["int32", "float32", "bfloat16"])
@pytest.mark.parametrize("m,n,k", [(1, 512, 1), (8, 64, 4), (256, 16, 16), (512, 8, 2)])
def test_gpu_topk(torch_cuda, m, n, k, dtype, rng):
    x = random_values(rng, (m, n), dtype)
    for descending in (False, True):
        _, out = _run_gpu(torch_cuda, topk_kernel, [x, np.zeros((m, k), x.dtype)],
                          dict(M=m, N=n, K=k, DIM=1, DESCENDING=descending,
                               BF16=DTYPES[dtype][1]))
        want = np_sort(x, dtype, 1, descending)[:, :k]
        assert same(as_values(out, dtype), as_values(want, dtype))


@pytest.mark.gpu
@pytest.mark.parametrize("dim", [0, 1, 2])
def test_gpu_flip_cat_bitonic(torch_cuda, dim, rng):
    x = random_values(rng, (4, 8, 16), "float32")
    _, out = _run_gpu(torch_cuda, flip_kernel, [x, np.zeros_like(x)],
                      dict(A=4, B=8, C=16, DIM=dim, SPELLING=0))
    assert same(out, np.flip(x, dim))
    a, b = random_values(rng, (64, 4), "int32"), random_values(rng, (64, 4), "int32")
    _, _, out = _run_gpu(torch_cuda, cat_kernel, [a, b, np.zeros(2 * 64 * 4 + 128, np.int32)],
                         dict(N=64, R=4))
    assert same(out[:512].reshape(128, 4), np.concatenate([a, b]))
    assert same(out[512:], np.concatenate([a.reshape(-1)[:64], b.reshape(-1)[:64]]))
    v = np.sort(rng.standard_normal((4, 64)).astype(np.float32), axis=1)
    bitonic = np.concatenate([v[:, 0::2], v[:, 1::2][:, ::-1]], axis=1)
    _, out = _run_gpu(torch_cuda, bitonic_merge_kernel, [bitonic, np.zeros_like(bitonic)],
                      dict(M=4, N=64, DESCENDING=True))
    assert same(out, np.sort(bitonic, axis=1)[:, ::-1])


@pytest.mark.gpu
@pytest.mark.parametrize("src_shape,idx_shape,axis", GATHER_CASES)
def test_gpu_gather(torch_cuda, src_shape, idx_shape, axis, rng):
    src = random_values(rng, src_shape, "float32")
    idx = rng.integers(0, src_shape[axis], idx_shape).astype(np.int32)
    _, _, out = _run_gpu(torch_cuda, gather_kernel, [src, idx, np.zeros(idx_shape, np.float32)],
                         dict(S0=src_shape[0], S1=src_shape[1], I0=idx_shape[0],
                              I1=idx_shape[1], AXIS=axis, METHOD=False))
    assert same(out, np.take_along_axis(src, idx, axis))


@pytest.mark.gpu
@pytest.mark.parametrize("m,nb", HISTOGRAM_CASES)
def test_gpu_histogram(torch_cuda, m, nb, rng):
    x = rng.integers(-3, nb + 3, m).astype(np.int32)
    n = int(rng.integers(0, m + 1))
    _, out, _ = _run_gpu(torch_cuda, histogram_kernel, [x, np.zeros(nb, np.int32), n],
                         dict(M=m, NB=nb, MASKED=True))
    want = np.bincount(x[:n][(x[:n] >= 0) & (x[:n] < nb)], minlength=nb)
    assert same(out, want.astype(np.int32))


@pytest.mark.gpu
def test_gpu_swizzle_softmax_reduce_or_misc(torch_cuda, rng):
    new_i, new_j = swizzle2d_model(13, 3, 4)
    out_i, out_j = _run_gpu(torch_cuda, swizzle2d_block_kernel,
                            [np.full((13, 3), -1, np.int32), np.full((13, 3), -1, np.int32),
                             13, 3, 4], dict(BI=16, BJ=16))[:2]
    assert same(out_i, new_i.astype(np.int32)) and same(out_j, new_j.astype(np.int32))
    new_i, new_j = swizzle2d_model(5, 7, 3)
    out = _run_gpu(torch_cuda, swizzle2d_kernel, [np.zeros((5, 7), np.float32), 5, 7, 3], {})[0]
    assert same(out.reshape(-1)[new_i * 7 + new_j], np.arange(35, dtype=np.float32).reshape(5, 7))
    x = rng.standard_normal((16, 32)).astype(np.float32) * 4
    _, out = _run_gpu(torch_cuda, softmax_kernel, [x, np.zeros_like(x)],
                      dict(M=16, N=32, DIM=0, METHOD=True))
    e = np.exp(x.astype(np.float64) - x.max(axis=0, keepdims=True))
    np.testing.assert_allclose(out, e / e.sum(axis=0, keepdims=True), rtol=1e-5, atol=1e-7)
    x = rng.integers(0, 1 << 30, (8, 16)).astype(np.int32)
    _, rows, cols, all_ = _run_gpu(torch_cuda, reduce_or_kernel,
                                   [x, np.zeros(8, np.int32), np.zeros((1, 16), np.int32),
                                    np.zeros(1, np.int32)], dict(M=8, N=16))
    assert same(rows, np.bitwise_or.reduce(x, axis=1))
    assert same(cols, np.bitwise_or.reduce(x, axis=0, keepdims=True))
    assert same(all_, np.bitwise_or.reduce(x, axis=None).reshape(1))
    a, b = rng.standard_normal(64).astype(np.float32), rng.standard_normal(64).astype(np.float32)
    out = _run_gpu(torch_cuda, misc_kernel, [a, b, np.zeros(320, np.float32)], dict(N=64))[2]
    assert same(out[:64], a) and same(out[128:192], a + b) and same(out[192:256], a - b)
