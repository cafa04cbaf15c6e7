"""Block pointers: tl.make_block_ptr, tl.advance, and tl.load / tl.store
through them with boundary_check and padding_option.

The interpreter copies 1-D, 2-D and 3-D blocks of strided (also
transposed) arrays with tails in every dimension against NumPy, with each
padding ("zero", "nan", "" read as zero) and boundary checks on some
dimensions only; stores skip the elements outside the tensor (the
interpreter would stop at an out-of-bounds access). Block pointers advance
in loops (a matmul through tl.dot against float64), in runtime ifs, in
while loops, and travel into and out of @jit functions. The kernels
compile to tile IR (the loop carries the advanced offsets only), verified
by terrazzo-opt and lowered to PTX. Mistakes are errors naming the line.
On the GPU the compiled kernels match the interpreter.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import terrazzo as triton
import terrazzo.language as tl
from terrazzo.errors import CompilationError


def interp(kernel):
    return triton.jit(kernel.fn, interpret=True)


PADDING = {"zero": 0.0, "nan": np.nan, "": 0.0}  # "" is unspecified: zero here


# ---------------------------------------------------------------------------
# Kernels
# ---------------------------------------------------------------------------

@triton.jit
def copy_1d_kernel(x_ptr, tile_ptr, out_ptr, n, BLOCK: tl.constexpr, PAD: tl.constexpr):
    # tile: every element of each block as loaded (padding visible);
    # out: the blocks stored back through a block pointer, inside n only.
    pid = tl.program_id(0)
    src = tl.make_block_ptr(base=x_ptr, shape=(n,), strides=(1,), offsets=(pid * BLOCK,),
                            block_shape=(BLOCK,), order=(0,))
    v = tl.load(src, boundary_check=(0,), padding_option=PAD)
    tl.store(tile_ptr + pid * BLOCK + tl.arange(0, BLOCK), v)
    dst = tl.make_block_ptr(out_ptr, [n], [1], [pid * BLOCK], [BLOCK], [0])
    tl.store(dst, v * 2, boundary_check=[0])


@triton.jit
def copy_2d_kernel(x_ptr, tile_ptr, out_ptr, m, n, stride_m, stride_n, BM: tl.constexpr,
                   BN: tl.constexpr, CHECK: tl.constexpr, PAD: tl.constexpr,
                   ORDER: tl.constexpr):
    # The (BM, BN) block at (pid_m * BM, pid_n * BN) of the m x n array x
    # (any strides): tile (padded, row-major, grid_m*BM x grid_n*BN) and out
    # (x * 3 + 1 where stored, boundary-checked on both dimensions).
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    src = tl.make_block_ptr(x_ptr, (m, n), (stride_m, stride_n), (pid_m * BM, pid_n * BN),
                            (BM, BN), ORDER)
    if CHECK == 2:
        v = tl.load(src, boundary_check=(0, 1), padding_option=PAD)
    elif CHECK == 0:
        v = tl.load(src, boundary_check=0, padding_option=PAD)
    elif CHECK == 1:
        v = tl.load(src, boundary_check=(1,), padding_option=PAD)
    else:
        v = tl.load(src, boundary_check=(1, 0), padding_option=PAD)
    rows = pid_m * BM + tl.arange(0, BM)[:, None]
    cols = pid_n * BN + tl.arange(0, BN)[None, :]
    tl.store(tile_ptr + rows * (tl.num_programs(1) * BN) + cols, v)
    dst = tl.make_block_ptr(out_ptr, (m, n), (n, 1), (pid_m * BM, pid_n * BN), (BM, BN),
                            (1, 0))
    tl.store(dst, v * 3 + 1, boundary_check=(0, 1))


@triton.jit
def copy_3d_kernel(x_ptr, out_ptr, a, b, c, A: tl.constexpr, B: tl.constexpr,
                   C: tl.constexpr):
    # One block per program along the first dimension; scalar stores are
    # broadcast; an int8 tensor (booleans are bytes).
    p = tl.make_block_ptr(x_ptr, (a, b, c), (b * c, c, 1), (tl.program_id(0) * A, 0, 0),
                          (A, B, C), (2, 1, 0))
    q = tl.make_block_ptr(out_ptr, (a, b, c), (b * c, c, 1), (tl.program_id(0) * A, 0, 0),
                          (A, B, C), (2, 1, 0))
    v = tl.load(p, boundary_check=(0, 1, 2), padding_option="zero")
    tl.store(q, v + 1, boundary_check=(0, 1, 2))


@triton.jit
def fill_kernel(out_ptr, n, BLOCK: tl.constexpr):
    # A scalar stored through a block pointer fills the block.
    q = tl.make_block_ptr(out_ptr, (n,), (1,), (tl.program_id(0) * BLOCK,), (BLOCK,), (0,))
    tl.store(q, 7, boundary_check=(0,))


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                  stride_cm, stride_cn, BM: tl.constexpr, BN: tl.constexpr,
                  BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a = tl.make_block_ptr(a_ptr, (M, K), (stride_am, stride_ak), (pid_m * BM, 0), (BM, BK),
                          (1, 0))
    b = tl.make_block_ptr(b_ptr, (K, N), (stride_bk, stride_bn), (0, pid_n * BN), (BK, BN),
                          (0, 1))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        x = tl.load(a, boundary_check=(0, 1), padding_option="zero")
        y = tl.load(b, boundary_check=(0, 1), padding_option="zero")
        acc += tl.dot(x, y, input_precision="ieee")
        a = tl.advance(a, (0, BK))
        b = tl.advance(b, [BK, 0])
    c = tl.make_block_ptr(c_ptr, (M, N), (stride_cm, stride_cn), (pid_m * BM, pid_n * BN),
                          (BM, BN), (1, 0))
    tl.store(c, acc, boundary_check=(0, 1))


@triton.jit
def _row_sums(p, n, BN: tl.constexpr):
    # Sum of the rows of p's blocks along dimension 1, advancing p; returns
    # the sums and the advanced block pointer.
    total = tl.zeros((p.type.element_ty.shape[0],), dtype=tl.float32)
    for _ in range(0, n, BN):
        total += tl.sum(tl.load(p, boundary_check=(0, 1), padding_option="zero"), axis=1)
        p = tl.advance(p, (0, BN))
    return total, p


@triton.jit
def flow_kernel(x_ptr, out_ptr, m, n, flag, BM: tl.constexpr, BN: tl.constexpr):
    # Row sums of x through a @jit function, then the block after the last
    # one (all padding: 0), one row down when flag (a runtime if), then a
    # while loop walking back to the start of the row (-1 steps of BN).
    p = tl.make_block_ptr(x_ptr, (m, n), (n, 1), (tl.program_id(0) * BM, 0), (BM, BN),
                          (1, 0))
    sums, after = _row_sums(p, n, BN)
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    tl.store(out_ptr + rows * 4, sums, mask=rows < m)
    tl.store(out_ptr + rows * 4 + 1,
             tl.sum(tl.load(after, boundary_check=(0, 1), padding_option="zero"), axis=1),
             mask=rows < m)
    q = p
    if flag > 0:
        q = tl.advance(q, (1, 0))
    tl.store(out_ptr + rows * 4 + 2,
             tl.sum(tl.load(q, boundary_check=(0, 1), padding_option="zero"), axis=1),
             mask=rows < m)
    steps = 0
    while steps < tl.cdiv(n, BN):
        after = tl.advance(after, (0, -BN))
        steps += 1
    tl.store(out_ptr + rows * 4 + 3,
             tl.sum(tl.load(after, boundary_check=(0, 1), padding_option="zero"), axis=1),
             mask=rows < m)


# ---------------------------------------------------------------------------
# Interpreter
# ---------------------------------------------------------------------------

def _padded(x, shape, fill):
    out = np.full(shape, fill, dtype=x.dtype)
    out[tuple(slice(0, s) for s in x.shape)] = x
    return out


@pytest.mark.parametrize("pad", ["zero", "nan", ""])
@pytest.mark.parametrize("n", [1, 64, 100, 129])
def test_copy_1d(n, pad, rng):
    BLOCK = 32
    grid = triton.cdiv(n, BLOCK)
    x = rng.standard_normal(n).astype(np.float32)
    tile = np.full(grid * BLOCK, 5.0, np.float32)
    out = np.full(n, np.inf, np.float32)
    interp(copy_1d_kernel)[(grid,)](x, tile, out, n, BLOCK=BLOCK, PAD=pad)
    np.testing.assert_array_equal(tile, _padded(x, tile.shape, PADDING[pad]))
    np.testing.assert_array_equal(out, x * 2)


@pytest.mark.parametrize("pad", ["zero", "nan"])
@pytest.mark.parametrize("layout", ["row", "column", "strided"])
@pytest.mark.parametrize("m,n", [(16, 32), (21, 45), (1, 3)])
def test_copy_2d(m, n, layout, pad, rng):
    BM, BN = 8, 16
    base = rng.standard_normal((2 * m, 2 * n)).astype(np.float32)
    if layout == "row":
        x = np.ascontiguousarray(base[:m, :n])
    elif layout == "column":
        x = np.asfortranarray(base[:m, :n])
    else:
        x = base[::2, ::2]  # a view: strides of 2 rows and 2 columns
    stride_m, stride_n = (s // 4 for s in x.strides)
    gm, gn = triton.cdiv(m, BM), triton.cdiv(n, BN)
    tile = np.full((gm * BM, gn * BN), 5.0, np.float32)
    out = np.full((m, n), np.inf, np.float32)
    order = (1, 0) if layout != "column" else (0, 1)
    interp(copy_2d_kernel)[(gm, gn)](x, tile, out, m, n, stride_m, stride_n, BM=BM, BN=BN,
                                     CHECK=2, PAD=pad, ORDER=order)
    np.testing.assert_array_equal(tile, _padded(x, tile.shape, PADDING[pad]))
    np.testing.assert_array_equal(out, x * 3 + 1)


@pytest.mark.parametrize("check", [0, 1, 3])
def test_boundary_check_on_some_dimensions(check, rng):
    # Only the checked dimension has a tail; the other fits the blocks.
    BM, BN = 8, 16
    m, n = {0: (19, 32), 1: (16, 37), 3: (19, 37)}[check]
    x = rng.standard_normal((m, n)).astype(np.float32)
    gm, gn = triton.cdiv(m, BM), triton.cdiv(n, BN)
    tile = np.full((gm * BM, gn * BN), 5.0, np.float32)
    out = np.full((m, n), np.inf, np.float32)
    interp(copy_2d_kernel)[(gm, gn)](x, tile, out, m, n, n, 1, BM=BM, BN=BN, CHECK=check,
                                     PAD="nan", ORDER=(1, 0))
    np.testing.assert_array_equal(tile, _padded(x, tile.shape, np.nan))
    np.testing.assert_array_equal(out, x * 3 + 1)


def test_unchecked_dimension_is_not_masked(rng):
    # Without boundary_check on the dimension with a tail, the block reads
    # past the array: the interpreter stops at the first such access.
    m, n = 19, 32
    x = rng.standard_normal((m, n)).astype(np.float32)
    tile = np.zeros((24, 32), np.float32)
    out = np.zeros((m, n), np.float32)
    with pytest.raises(triton.InterpreterError):
        interp(copy_2d_kernel)[(3, 2)](x, tile, out, m, n, n, 1, BM=8, BN=16, CHECK=1,
                                       PAD="zero", ORDER=(1, 0))


@pytest.mark.parametrize("dt", [np.int8, np.int32, np.float16, np.float64])
def test_copy_3d_dtypes(dt, rng):
    a, b, c = 5, 3, 6
    x = (rng.standard_normal((a, b, c)) * 20).astype(dt)
    out = np.zeros_like(x)
    interp(copy_3d_kernel)[(triton.cdiv(a, 2),)](x, out, a, b, c, A=2, B=4, C=8)
    np.testing.assert_array_equal(out, (x + 1).astype(dt))


def test_fill_with_a_scalar():
    n = 45
    out = np.zeros(n, np.int32)
    interp(fill_kernel)[(3,)](out, n, BLOCK=16)
    np.testing.assert_array_equal(out, np.full(n, 7, np.int32))


@pytest.mark.parametrize("M,N,K", [(32, 32, 32), (37, 50, 71), (16, 17, 5)])
def test_matmul_advance_in_loop(M, N, K, rng):
    BM, BN, BK = 16, 32, 16
    a = rng.standard_normal((M, K)).astype(np.float32)
    b = np.asfortranarray(rng.standard_normal((K, N)).astype(np.float32))
    c = np.full((M, N), np.nan, np.float32)
    interp(matmul_kernel)[(triton.cdiv(M, BM), triton.cdiv(N, BN))](
        a, b, c, M, N, K, *(s // 4 for s in a.strides), *(s // 4 for s in b.strides),
        *(s // 4 for s in c.strides), BM=BM, BN=BN, BK=BK)
    ref = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(c, ref, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("flag", [0, 2])
def test_calls_ifs_and_while_loops(flag, rng):
    m, n, BM, BN = 13, 45, 8, 16
    x = rng.standard_normal((m, n)).astype(np.float32)
    out = np.full((m, 4), np.nan, np.float32)
    interp(flow_kernel)[(triton.cdiv(m, BM),)](x, out, m, n, flag, BM=BM, BN=BN)
    np.testing.assert_allclose(out[:, 0], x.sum(axis=1), rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(out[:, 1], 0)
    # One row down: row i sums row i + 1 (none after the last row).
    down = np.vstack([x[1:, :BN], np.zeros((1, BN), np.float32)])
    first = x[:, :BN] if not flag else down
    np.testing.assert_allclose(out[:, 2], first.sum(axis=1), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(out[:, 3], x[:, :BN].sum(axis=1), rtol=1e-5, atol=1e-5)


@triton.jit
def methods_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # Block pointer methods, as Triton's tensor methods: p.advance, p.store
    # (and tl.load of the result), the second block of x to the first of out.
    p = tl.make_block_ptr(x_ptr, (n,), (1,), (0,), (BLOCK,), (0,)).advance((BLOCK,))
    q = tl.make_block_ptr(out_ptr, (n,), (1,), (0,), (BLOCK,), (0,))
    q.store(p.load(boundary_check=(0,), padding_option="zero") + 1, boundary_check=(0,))


def test_block_pointer_methods(rng):
    n = 40
    x = rng.standard_normal(n).astype(np.float32)
    out = np.full(n, np.nan, np.float32)
    interp(methods_kernel)[(1,)](x, out, n, BLOCK=32)
    want = out.copy()
    want[:n - 32] = x[32:] + 1
    want[n - 32:32] = 1  # padding (0) + 1
    np.testing.assert_array_equal(out, want)
    text = methods_kernel.ir(x, out, n, BLOCK=32)
    assert text.count("tile.load") == 1 and text.count("tile.store") == 1


def test_block_pointer_type():
    @triton.jit(interpret=True)
    def k(x_ptr, out_ptr):
        p = tl.make_block_ptr(x_ptr, (4, 8), (8, 1), (0, 0), (4, 8), (1, 0))
        tl.static_assert(p.type.element_ty.shape == (4, 8))
        tl.static_assert(p.type.element_ty.element_ty == tl.float16)
        tl.static_assert(p.dtype == p.type)
        tl.store(out_ptr, tl.sum(tl.sum(tl.load(p).to(tl.float32), axis=1), axis=0))

    x = np.arange(32, dtype=np.float16)
    out = np.zeros(1, np.float32)
    k[(1,)](x, out)
    assert out[0] == np.arange(32).sum()


# ---------------------------------------------------------------------------
# Errors name the line
# ---------------------------------------------------------------------------

@triton.jit
def e_rank(x_ptr):
    p = tl.make_block_ptr(x_ptr, (4, 4), (4, 1), (0,), (4, 4), (1, 0))  # <-
    tl.store(x_ptr + tl.arange(0, 4), tl.sum(tl.load(p), axis=1))


@triton.jit
def e_order(x_ptr):
    p = tl.make_block_ptr(x_ptr, (4, 4), (4, 1), (0, 0), (4, 4), (1, 1))  # <-
    tl.store(x_ptr + tl.arange(0, 4), tl.sum(tl.load(p), axis=1))


@triton.jit
def e_block_shape(x_ptr):
    p = tl.make_block_ptr(x_ptr, (4, 4), (4, 1), (0, 0), (4, 3), (1, 0))  # <-
    tl.store(x_ptr + tl.arange(0, 4), tl.sum(tl.load(p), axis=1))


@triton.jit
def e_check_range(x_ptr):
    p = tl.make_block_ptr(x_ptr, (4, 4), (4, 1), (0, 0), (4, 4), (1, 0))
    v = tl.load(p, boundary_check=(0, 2))  # <-
    tl.store(x_ptr + tl.arange(0, 4), tl.sum(v, axis=1))


@triton.jit
def e_check_twice(x_ptr):
    p = tl.make_block_ptr(x_ptr, (4, 4), (4, 1), (0, 0), (4, 4), (1, 0))
    tl.store(p, tl.zeros((4, 4), tl.int32), boundary_check=(1, 1))  # <-


@triton.jit
def e_nan_int(x_ptr):
    p = tl.make_block_ptr(x_ptr, (4, 4), (4, 1), (0, 0), (4, 4), (1, 0))
    v = tl.load(p, boundary_check=(0,), padding_option="nan")  # <-
    tl.store(x_ptr + tl.arange(0, 4), tl.sum(v, axis=1))


@triton.jit
def e_padding_name(x_ptr):
    p = tl.make_block_ptr(x_ptr, (4, 4), (4, 1), (0, 0), (4, 4), (1, 0))
    v = tl.load(p, boundary_check=(0,), padding_option="ones")  # <-
    tl.store(x_ptr + tl.arange(0, 4), tl.sum(v, axis=1))


@triton.jit
def e_mask(x_ptr):
    p = tl.make_block_ptr(x_ptr, (4, 4), (4, 1), (0, 0), (4, 4), (1, 0))
    v = tl.load(p, mask=tl.full((4, 4), 1, tl.int1))  # <-
    tl.store(x_ptr + tl.arange(0, 4), tl.sum(v, axis=1))


@triton.jit
def e_store_shape(x_ptr):
    p = tl.make_block_ptr(x_ptr, (4, 4), (4, 1), (0, 0), (4, 4), (1, 0))
    tl.store(p, tl.zeros((4, 2), tl.int32))  # <-


@triton.jit
def e_advance_rank(x_ptr):
    p = tl.make_block_ptr(x_ptr, (4, 4), (4, 1), (0, 0), (4, 4), (1, 0))
    p = tl.advance(p, (1, 0, 0))  # <-
    tl.store(x_ptr + tl.arange(0, 4), tl.sum(tl.load(p), axis=1))


@triton.jit
def e_advance_pointer(x_ptr):
    q = tl.advance(x_ptr, (1,))  # <-
    tl.store(x_ptr, 1)


@triton.jit
def e_plain_pointer(x_ptr):
    v = tl.load(x_ptr + tl.arange(0, 4), boundary_check=(0,))  # <-
    tl.store(x_ptr + tl.arange(0, 4), v)


@triton.jit
def e_offsets_i64(x_ptr):
    start = tl.program_id(0).to(tl.int64)
    p = tl.make_block_ptr(x_ptr, (4, 4), (4, 1), (start, 0), (4, 4), (1, 0))  # <-
    tl.store(x_ptr + tl.arange(0, 4), tl.sum(tl.load(p), axis=1))


@triton.jit
def e_base(x_ptr):
    p = tl.make_block_ptr(x_ptr + tl.arange(0, 4), (4,), (1,), (0,), (4,), (0,))  # <-
    tl.store(x_ptr + tl.arange(0, 4), tl.load(p))


@triton.jit
def e_loop_kind(x_ptr):
    p = tl.make_block_ptr(x_ptr, (4, 4), (4, 1), (0, 0), (4, 4), (1, 0))
    for i in range(3):  # <-
        p = x_ptr
    tl.store(x_ptr, 1)


ERROR_CASES = [
    (e_rank, r"offsets has 1 entries, but the block pointer has rank 2"),
    (e_order, r"order must be a permutation of 0\.\.1, got \[1, 1\]"),
    (e_block_shape, r"block_shape entries must be powers of two, got 3"),
    (e_check_range, r"boundary_check dimension 2 is out of range for a block pointer of "
                    r"rank 2"),
    (e_check_twice, r"boundary_check names dimension 1 twice"),
    (e_nan_int, r"padding_option='nan' needs floating-point elements, not int32"),
    (e_padding_name, r"unknown padding_option 'ones'"),
    (e_mask, r"tl.load of a block pointer takes no `mask` or `other`"),
    (e_store_shape, r"cannot store a block of shape \[4, 2\] through a block pointer of "
                    r"block shape \[4, 4\]"),
    (e_advance_rank, r"tl.advance's offsets has 3 entries, but the block pointer has "
                     r"rank 2"),
    (e_advance_pointer, r"tl.advance needs a block pointer"),
    (e_plain_pointer, r"boundary_check and padding_option apply to block pointers"),
    (e_offsets_i64, r"block pointer offsets are int32 values, got int64"),
    (e_base, r"`base` must be a scalar pointer"),
]


def _marked_line(kernel):
    lines = [l for l, text in kernel.parsed.src_lines.items() if "# <-" in text]
    assert len(lines) == 1
    return lines[0]


@pytest.mark.parametrize("interpret", [False, True])
@pytest.mark.parametrize("kernel,pattern", ERROR_CASES,
                         ids=[k.fn.__name__ for k, _ in ERROR_CASES])
def test_errors_name_the_line(kernel, pattern, interpret):
    x = np.zeros(16, np.int32)
    with pytest.raises(CompilationError) as ei:
        if interpret:
            interp(kernel)[(1,)](x)
        else:
            kernel.ir(x)
    e = ei.value
    assert re.search(pattern, str(e)), str(e)
    assert e.line == _marked_line(kernel), str(e)


def test_loop_must_keep_a_block_pointer():
    x = np.zeros(16, np.int32)
    with pytest.raises(CompilationError, match="'p' is block_pointer.* before the loop but"):
        e_loop_kind.ir(x)


# ---------------------------------------------------------------------------
# Compile path: tile IR verified and lowered to PTX
# ---------------------------------------------------------------------------

def _z(shape, dt=np.float32):
    return np.zeros(shape, dt)


IR_CASES = {
    "copy_1d": (copy_1d_kernel, lambda: (_z(100), _z(128), _z(100), 100),
                dict(BLOCK=32, PAD="nan")),
    "copy_2d": (copy_2d_kernel, lambda: (_z((21, 45)), _z((24, 48)), _z((21, 45)), 21, 45,
                                         45, 1), dict(BM=8, BN=16, CHECK=2, PAD="zero",
                                                      ORDER=(1, 0))),
    "copy_3d": (copy_3d_kernel, lambda: (_z((5, 3, 6), np.int8), _z((5, 3, 6), np.int8),
                                         5, 3, 6), dict(A=2, B=4, C=8)),
    "matmul": (matmul_kernel, lambda: (_z((64, 64), np.float16), _z((64, 64), np.float16),
                                       _z((64, 64)), 64, 64, 64, 64, 1, 64, 1, 64, 1),
               dict(BM=64, BN=64, BK=32)),
    "flow": (flow_kernel, lambda: (_z((13, 45)), _z((13, 4)), 13, 45, 2),
             dict(BM=8, BN=16)),
}


@pytest.mark.parametrize("num_warps", [1, 4])
@pytest.mark.parametrize("case", sorted(IR_CASES))
def test_block_pointer_kernels_lower_to_ptx(case, num_warps, check_ir):
    kernel, make_args, meta = IR_CASES[case]
    text = kernel.ir(*make_args(), **meta)
    check_ir.opt(text)
    assert ".entry" in check_ir.compile(text, num_warps=num_warps)


def test_loop_carries_the_offsets_only():
    kernel, make_args, meta = IR_CASES["matmul"]
    text = kernel.ir(*make_args(), **meta)
    # acc, a's column offset and b's row offset: nothing else changes.
    m = re.search(r"scf\.for .* iter_args\((.*)\) -> \((.*)\) : i32", text)
    assert m, text
    assert sorted(m.group(2).replace(" ", "").split(",")) == ["i32", "i32",
                                                              "tensor<64x64xf32>"], m.group(0)
    # Boundary masks: compares against the shape, and the padding.
    assert re.search(r"tile\.load %\d+, %\d+, %\d+ : tensor<64x32x!tile\.ptr<f16>>", text)
    text = IR_CASES["flow"][0].ir(*IR_CASES["flow"][1](), **IR_CASES["flow"][2])
    assert re.search(r"scf\.if %\d+ -> \(i32\)", text), text  # the row offset
    assert re.search(r"scf\.while", text)
    assert re.search(r"func\.call @_row_sums", text)


# ---------------------------------------------------------------------------
# GPU: the compiled kernels against NumPy and the interpreter
# ---------------------------------------------------------------------------

@pytest.mark.gpu
@pytest.mark.parametrize("pad", ["zero", "nan"])
@pytest.mark.parametrize("m,n", [(21, 45), (128, 64), (300, 257)])
def test_gpu_copy_2d(torch_cuda, m, n, pad, rng):
    torch = torch_cuda
    BM, BN = 32, 64
    x = rng.standard_normal((m, n)).astype(np.float32)
    gm, gn = triton.cdiv(m, BM), triton.cdiv(n, BN)
    tile = torch.full((gm * BM, gn * BN), 5.0, device="cuda")
    out = torch.full((m, n), float("inf"), device="cuda")
    triton.jit(copy_2d_kernel.fn)[(gm, gn)](torch.from_numpy(x).cuda(), tile, out, m, n,
                                            n, 1, BM=BM, BN=BN, CHECK=2, PAD=pad,
                                            ORDER=(1, 0))
    torch.cuda.synchronize()
    np.testing.assert_array_equal(tile.cpu().numpy(), _padded(x, (gm * BM, gn * BN),
                                                              PADDING[pad]))
    # Compiled with fp fusion (Triton's default), v * 3 + 1 is one fma:
    # the exact value rounded once to float32.
    np.testing.assert_array_equal(out.cpu().numpy(),
                                  (x.astype(np.float64) * 3 + 1).astype(np.float32))


@pytest.mark.gpu
@pytest.mark.parametrize("M,N,K", [(128, 128, 128), (100, 70, 333)])
def test_gpu_matmul(torch_cuda, M, N, K, rng):
    torch = torch_cuda
    BM, BN, BK = 64, 64, 32
    a = torch.from_numpy(rng.standard_normal((M, K)).astype(np.float32)).cuda()
    b = torch.from_numpy(rng.standard_normal((K, N)).astype(np.float32)).cuda()
    c = torch.full((M, N), float("nan"), device="cuda")
    triton.jit(matmul_kernel.fn)[(triton.cdiv(M, BM), triton.cdiv(N, BN))](
        a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
        c.stride(1), BM=BM, BN=BN, BK=BK)
    torch.cuda.synchronize()
    ref = a.double().cpu().numpy() @ b.double().cpu().numpy()
    np.testing.assert_allclose(c.cpu().numpy(), ref, rtol=1e-4, atol=1e-4)


@pytest.mark.gpu
@pytest.mark.parametrize("case", ["copy_1d", "copy_3d", "flow"])
def test_gpu_matches_the_interpreter(torch_cuda, case, rng):
    torch = torch_cuda
    kernel, make_args, meta = IR_CASES[case]
    args = [(rng.standard_normal(a.shape) * 20).astype(a.dtype) if isinstance(a, np.ndarray)
            else a for a in make_args()]
    grid = {"copy_1d": (4,), "copy_3d": (3,), "flow": (2,)}[case]
    expected = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    interp(kernel)[grid](*expected, **meta)
    device = [torch.from_numpy(a).cuda() if isinstance(a, np.ndarray) else a for a in args]
    triton.jit(kernel.fn)[grid](*device, **meta)
    torch.cuda.synchronize()
    for want, got in zip(expected, device):
        if isinstance(want, np.ndarray):
            np.testing.assert_allclose(got.cpu().numpy(), want, rtol=1e-5, atol=1e-5)
