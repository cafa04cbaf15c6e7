"""Shape ops: tl.trans / tl.permute / x.T, tl.reshape / tl.view / tl.ravel,
tl.join, tl.split and tl.interleave, and their tensor methods.

Each kernel runs in the interpreter against NumPy on fresh random inputs
(exactly: the ops only move values), with masked edges where the kernel has
them, and is compiled to tile IR, verified by terrazzo-opt and lowered to
PTX (assembled by ptxas when present) at 1, 4 and 8 warps. Bad shapes and
dimensions are errors naming the file and line. The GPU tests compare the
compiled kernels with the interpreter.
"""

from __future__ import annotations

import inspect
import re

import numpy as np
import pytest

import terrazzo as triton
import terrazzo.language as tl
from terrazzo.errors import CompilationError


def interp(kernel):
    return triton.jit(kernel.fn, interpret=True)


# ---------------------------------------------------------------------------
# Kernels
# ---------------------------------------------------------------------------

@triton.jit
def transpose_kernel(x_ptr, out_ptr, m, n, BM: tl.constexpr, BN: tl.constexpr,
                     SPELLING: tl.constexpr):
    # out (n x m) = x (m x n) transposed, in BM x BN tiles, masked at the edges.
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.program_id(1) * BN + tl.arange(0, BN)
    mask = (rows[:, None] < m) & (cols[None, :] < n)
    x = tl.load(x_ptr + rows[:, None] * n + cols[None, :], mask=mask)
    if SPELLING == 0:
        t = tl.trans(x)
    elif SPELLING == 1:
        t = x.T
    elif SPELLING == 2:
        t = tl.permute(x, (1, 0))
    elif SPELLING == 3:
        t = x.trans(1, 0)
    else:
        t = x.permute(1, 0)
    tl.store(out_ptr + cols[:, None] * m + rows[None, :], t,
             mask=(cols[:, None] < n) & (rows[None, :] < m))


@triton.jit
def permute3d_kernel(x_ptr, out_ptr, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    # out[c, a, b] = x[a, b, c]
    a = tl.arange(0, A)[:, None, None]
    b = tl.arange(0, B)[None, :, None]
    c = tl.arange(0, C)[None, None, :]
    x = tl.load(x_ptr + (a * B + b) * C + c)
    y = tl.permute(x, 2, 0, 1)
    tl.static_assert(y.shape[0] == C)
    ca = tl.arange(0, C)[:, None, None]
    aa = tl.arange(0, A)[None, :, None]
    ba = tl.arange(0, B)[None, None, :]
    tl.store(out_ptr + (ca * A + aa) * B + ba, y)


@triton.jit
def reshape_kernel(x_ptr, y_ptr, flat_ptr, tile_ptr, sums_ptr, m, n,
                   BM: tl.constexpr, BN: tl.constexpr):
    # 2-D -> 1-D: the BM x BN tile of an m x n matrix, flattened, plus its
    # row-major index. 1-D -> 2-D: a flat block of y as BM x BN, plus the row.
    pid = tl.program_id(0)
    rows = pid * BM + tl.arange(0, BM)
    cols = tl.arange(0, BN)
    mask = (rows[:, None] < m) & (cols[None, :] < n)
    x = tl.load(x_ptr + rows[:, None] * n + cols[None, :], mask=mask, other=0.0)
    f = tl.reshape(x, BM * BN)
    k = tl.arange(0, BM * BN)
    tl.store(flat_ptr + pid * BM * BN + k, f + k)
    g = tl.load(y_ptr + pid * BM * BN + k)
    t = g.reshape(BM, BN) * 2 + tl.arange(0, BM)[:, None]
    tl.store(tile_ptr + pid * BM * BN + tl.arange(0, BM)[:, None] * BN + cols[None, :], t)
    # view and ravel: any order, so only order-free results are checked.
    v = tl.view(x, (BN, BM))
    tl.store(sums_ptr + pid * 2, tl.sum(tl.ravel(v), axis=0))
    tl.store(sums_ptr + pid * 2 + 1, tl.sum(tl.reshape(x, [BM * BN], can_reorder=True),
                                            axis=0))


@triton.jit
def join_split_kernel(a_ptr, b_ptr, ab_ptr, c_ptr, lo_ptr, hi_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask)
    b = tl.load(b_ptr + offs, mask=mask)
    # Interleave with join + reshape, de-interleave with reshape + split.
    j = tl.join(a, b)
    tl.static_assert(j.shape[1] == 2)
    offs2 = tl.program_id(0) * 2 * BLOCK + tl.arange(0, 2 * BLOCK)
    tl.store(ab_ptr + offs2, tl.reshape(j, 2 * BLOCK), mask=offs2 < 2 * n)
    c = tl.load(c_ptr + offs2, mask=offs2 < 2 * n)
    lo, hi = tl.split(tl.reshape(c, (BLOCK, 2)))
    tl.store(lo_ptr + offs, lo, mask=mask)
    tl.store(hi_ptr + offs, hi, mask=mask)


@triton.jit
def interleave_kernel(a_ptr, b_ptr, out_ptr, pair_ptr, R: tl.constexpr, C: tl.constexpr):
    r = tl.arange(0, R)[:, None]
    c = tl.arange(0, C)[None, :]
    a = tl.load(a_ptr + r * C + c)
    b = tl.load(b_ptr + r * C + c)
    # out is R x 2C: a and b alternate along the rows.
    tl.store(out_ptr + r * 2 * C + tl.arange(0, 2 * C)[None, :], tl.interleave(a, b))
    # Methods, broadcasting and scalars: join a block with a scalar, split a
    # block of two into scalars.
    j = a.join(7.0)
    x, y = j.split()
    tl.store(pair_ptr + r * C + c, x + y)
    s0, s1 = tl.split(tl.join(tl.sum(x.reshape(R * C), axis=0), 1.5))
    tl.store(pair_ptr + R * C, s0)
    tl.store(pair_ptr + R * C + 1, s1)
    tl.store(pair_ptr + R * C + 2 + tl.arange(0, 2), tl.interleave(2.0, 3.0))


@triton.jit
def pointers_kernel(x_ptr, out_ptr, N: tl.constexpr):
    # Blocks of pointers move like values.
    offs = tl.arange(0, N)
    p = tl.join(x_ptr + offs, x_ptr + N + offs)
    lo, hi = tl.split(tl.trans(tl.trans(p, 1, 0)))
    tl.store(out_ptr + offs, tl.load(lo) - tl.load(hi))


# ---------------------------------------------------------------------------
# Interpreter against NumPy
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("spelling", range(5))
@pytest.mark.parametrize("m,n", [(32, 64), (1, 1), (31, 65), (100, 77)])
def test_transpose(m, n, spelling, rng):
    x = rng.standard_normal((m, n)).astype(np.float32)
    out = np.full((n, m), np.nan, np.float32)
    grid = (triton.cdiv(m, 16), triton.cdiv(n, 32))
    interp(transpose_kernel)[grid](x, out, m, n, BM=16, BN=32, SPELLING=spelling)
    np.testing.assert_array_equal(out, x.T)


@pytest.mark.parametrize("dt", [np.float16, np.int8, np.int64])
def test_transpose_dtypes(dt, rng):
    m, n = 20, 40
    x = (rng.standard_normal((m, n)) * 50).astype(dt)
    out = np.zeros((n, m), dt)
    interp(transpose_kernel)[(2, 2)](x, out, m, n, BM=16, BN=32, SPELLING=1)
    np.testing.assert_array_equal(out, x.T)


def test_permute3d(rng):
    x = rng.standard_normal((2, 4, 8)).astype(np.float32)
    out = np.zeros((8, 2, 4), np.float32)
    interp(permute3d_kernel)[(1,)](x, out, A=2, B=4, C=8)
    np.testing.assert_array_equal(out, np.transpose(x, (2, 0, 1)))


@pytest.mark.parametrize("m,n", [(8, 16), (13, 9), (1, 1)])
def test_reshape(m, n, rng):
    BM, BN = 8, 16
    x = rng.integers(-1000, 1000, (m, n)).astype(np.float32)
    programs = triton.cdiv(m, BM)
    y = rng.integers(-1000, 1000, programs * BM * BN).astype(np.float32)
    flat = np.full(programs * BM * BN, np.nan, np.float32)
    tile = np.full(programs * BM * BN, np.nan, np.float32)
    sums = np.full(programs * 2, np.nan, np.float32)
    interp(reshape_kernel)[(programs,)](x, y, flat, tile, sums, m, n, BM=BM, BN=BN)
    padded = np.zeros((programs * BM, BN), np.float32)
    padded[:m, :n] = x
    k = np.arange(BM * BN)
    expected_flat = (padded.reshape(programs, BM * BN) + k).ravel()
    np.testing.assert_array_equal(flat, expected_flat)
    expected_tile = (y.reshape(programs, BM, BN) * 2 +
                     np.arange(BM)[None, :, None]).ravel()
    np.testing.assert_array_equal(tile, expected_tile)
    block_sums = padded.reshape(programs, BM * BN).astype(np.float64).sum(axis=1)
    np.testing.assert_array_equal(sums.reshape(programs, 2), np.stack([block_sums] * 2, 1))


@pytest.mark.parametrize("n", [1, 100, 256, 1000])
def test_join_split(n, rng):
    BLOCK = 256
    a = rng.standard_normal(n).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    c = rng.standard_normal(2 * n).astype(np.float32)
    ab = np.full(2 * n, np.nan, np.float32)
    lo = np.full(n, np.nan, np.float32)
    hi = np.full(n, np.nan, np.float32)
    interp(join_split_kernel)[(triton.cdiv(n, BLOCK),)](a, b, ab, c, lo, hi, n,
                                                        BLOCK=BLOCK)
    np.testing.assert_array_equal(ab[0::2], a)
    np.testing.assert_array_equal(ab[1::2], b)
    np.testing.assert_array_equal(lo, c[0::2])
    np.testing.assert_array_equal(hi, c[1::2])


def test_interleave_methods_and_scalars(rng):
    R, C = 4, 8
    a = rng.standard_normal((R, C)).astype(np.float32)
    b = rng.standard_normal((R, C)).astype(np.float32)
    out = np.full((R, 2 * C), np.nan, np.float32)
    pair = np.full(R * C + 4, np.nan, np.float32)
    interp(interleave_kernel)[(1,)](a, b, out, pair, R=R, C=C)
    expected = np.empty((R, 2 * C), np.float32)
    expected[:, 0::2], expected[:, 1::2] = a, b
    np.testing.assert_array_equal(out, expected)
    np.testing.assert_array_equal(pair[:R * C], (a + 7).ravel())
    np.testing.assert_allclose(pair[R * C], a.astype(np.float64).sum(), rtol=1e-5)
    assert pair[R * C + 1] == 1.5
    np.testing.assert_array_equal(pair[R * C + 2:], [2.0, 3.0])


def test_pointer_blocks(rng):
    N = 64
    x = rng.standard_normal(2 * N).astype(np.float32)
    out = np.zeros(N, np.float32)
    interp(pointers_kernel)[(1,)](x, out, N=N)
    np.testing.assert_array_equal(out, x[:N] - x[N:])


# ---------------------------------------------------------------------------
# Tile IR, verified and lowered to PTX
# ---------------------------------------------------------------------------

def _z(shape, dt=np.float32):
    return np.zeros(shape, dt)


IR_CASES = {
    "transpose": (transpose_kernel, lambda: (_z((31, 65)), _z((65, 31)), 31, 65),
                  dict(BM=32, BN=64, SPELLING=1)),
    "transpose_i8": (transpose_kernel, lambda: (_z((31, 65), np.int8),
                                                _z((65, 31), np.int8), 31, 65),
                     dict(BM=16, BN=32, SPELLING=2)),
    "permute3d": (permute3d_kernel, lambda: (_z((2, 4, 8)), _z((8, 2, 4))),
                  dict(A=2, B=4, C=8)),
    "reshape": (reshape_kernel, lambda: (_z((13, 9)), _z(256), _z(256), _z(256), _z(4),
                                         13, 9), dict(BM=8, BN=16)),
    "join_split": (join_split_kernel, lambda: (_z(100), _z(100), _z(200), _z(200),
                                               _z(100), _z(100), 100), dict(BLOCK=256)),
    "interleave": (interleave_kernel, lambda: (_z((4, 8)), _z((4, 8)), _z((4, 16)),
                                               _z(36)), dict(R=4, C=8)),
    "pointers": (pointers_kernel, lambda: (_z(128), _z(64)), dict(N=64)),
}


@pytest.mark.parametrize("num_warps", [1, 4, 8])
@pytest.mark.parametrize("case", sorted(IR_CASES))
def test_shape_ops_lower_to_ptx(case, num_warps, check_ir):
    kernel, make_args, meta = IR_CASES[case]
    text = kernel.ir(*make_args(), **meta)
    assert re.search(r"tile\.(trans|reshape|join|split)", text)
    check_ir.opt(text)
    assert ".entry" in check_ir.compile(text, num_warps=num_warps)


def _line_of(kernel, needle):
    src, start = inspect.getsourcelines(kernel.fn)
    return start + next(i for i, l in enumerate(src) if needle in l)


def test_ir_forms_and_locations():
    kernel, make_args, meta = IR_CASES["join_split"]
    text = kernel.ir(*make_args(), **meta)
    file = kernel.parsed.file
    join_line = _line_of(kernel, "tl.join(a, b)")
    split_line = _line_of(kernel, "tl.split(")
    assert re.search(rf"= tile\.join %\d+, %\d+ : tensor<256xf32> -> tensor<256x2xf32> "
                     rf"loc\(\"{re.escape(file)}\":{join_line}:\d+\)", text), text
    assert re.search(rf"%\d+:2 = tile\.split %\d+ : tensor<256x2xf32> -> tensor<256xf32> "
                     rf"loc\(\"{re.escape(file)}\":{split_line}:\d+\)", text), text
    assert re.search(r"= tile\.reshape %\d+ : tensor<256x2xf32> -> tensor<512xf32>", text)
    text = transpose_kernel.ir(_z((31, 65)), _z((65, 31)), 31, 65, BM=32, BN=64,
                               SPELLING=1)
    assert re.search(r"= tile\.trans %\d+ \[1, 0\] : tensor<32x64xf32> -> "
                     r"tensor<64x32xf32>", text)
    text = permute3d_kernel.ir(_z((2, 4, 8)), _z((8, 2, 4)), A=2, B=4, C=8)
    assert re.search(r"tile\.trans %\d+ \[2, 0, 1\] : tensor<2x4x8xf32> -> "
                     r"tensor<8x2x4xf32>", text)
    text = reshape_kernel.ir(*IR_CASES["reshape"][1](), BM=8, BN=16)
    # view and can_reorder=True allow reordering.
    assert text.count("allow_reorder") == 2


def test_identity_permutation_and_same_shape_emit_nothing():
    @triton.jit
    def k(x_ptr, N: tl.constexpr):
        x = tl.load(x_ptr + tl.arange(0, N)[:, None] * N + tl.arange(0, N)[None, :])
        y = tl.permute(x, 0, 1)
        z = tl.reshape(y, N, N)
        tl.store(x_ptr + tl.arange(0, N)[:, None] * N + tl.arange(0, N)[None, :], z)

    text = k.ir(_z((8, 8)), N=8)
    assert "tile.trans" not in text and "tile.reshape" not in text


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------

@triton.jit
def k_bad_permutation(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 4)[:, None] * 8 + tl.arange(0, 8)[None, :])
    y = tl.permute(x, (0, 0))  # <-


@triton.jit
def k_trans_1d(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 8))
    y = x.T  # <-


@triton.jit
def k_trans_rank3_no_dims(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 8))
    y = tl.trans(tl.reshape(x, 2, 2, 2))  # <-


@triton.jit
def k_reshape_numel(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 8))
    y = tl.reshape(x, (4, 4))  # <-


@triton.jit
def k_reshape_not_pow2(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 8))
    y = x.reshape(3, 4)  # <-


@triton.jit
def k_reshape_runtime(x_ptr, n):
    x = tl.load(x_ptr + tl.arange(0, 8))
    y = tl.reshape(x, (n, 2))  # <-


@triton.jit
def k_split_not_2(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 8))
    a, b = tl.split(x.reshape(2, 4))  # <-


@triton.jit
def k_join_types(x_ptr, i_ptr):
    x = tl.load(x_ptr + tl.arange(0, 8))
    i = tl.load(i_ptr + tl.arange(0, 8))
    y = tl.join(x, i)  # <-


@triton.jit
def k_join_shapes(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 8))
    y = tl.join(x, x.reshape(2, 4))  # <-


@triton.jit
def k_permute_scalar(x_ptr):
    y = tl.permute(tl.load(x_ptr), 0)  # <-


ERROR_CASES = [
    (k_bad_permutation, r"tl.permute: dims \(0, 0\) are not a permutation of the 2 "
                        r"dimensions of a block of shape \[4, 8\]"),
    (k_trans_1d, r"tl.trans without dims transposes a 2-D block, got shape \[8\]"),
    (k_trans_rank3_no_dims, r"tl.trans without dims transposes a 2-D block, got shape "
                            r"\[2, 2, 2\]"),
    (k_reshape_numel, r"tl.reshape cannot change the number of elements: a block of shape "
                      r"\[8\] \(8 elements\) cannot become \[4, 4\] \(16 elements\)"),
    (k_reshape_not_pow2, r"tl.reshape: shape dimension 0 must be a power of two, got 3"),
    (k_reshape_runtime, r"tl.reshape: dimensions must be compile-time constants"),
    (k_split_not_2, r"tl.split needs a block whose last dimension has size 2, got shape "
                    r"\[2, 4\]"),
    (k_join_types, r"tl.join needs two values of one type, got fp32 and int32"),
    (k_join_shapes, r"cannot broadcast shapes"),
    (k_permute_scalar, r"tl.permute needs a block, got a scalar"),
]


def _marked_line(kernel):
    lines = [l for l, text in kernel.parsed.src_lines.items() if "# <-" in text]
    assert len(lines) == 1
    return lines[0]


@pytest.mark.parametrize("interpret", [False, True])
@pytest.mark.parametrize("kernel,pattern", ERROR_CASES,
                         ids=[k.fn.__name__ for k, _ in ERROR_CASES])
def test_errors_name_the_line(kernel, pattern, interpret):
    args = [_z(64)] + ([_z(64, np.int32)] if kernel is k_join_types else []) + \
        ([8] if kernel is k_reshape_runtime else [])
    with pytest.raises(CompilationError) as ei:
        if interpret:
            interp(kernel)[(1,)](*args)
        else:
            kernel.ir(*args)
    e = ei.value
    assert re.search(pattern, str(e)), str(e)
    assert e.file == kernel.parsed.file
    assert e.line == _marked_line(kernel), str(e)
    assert str(e).startswith(f"{kernel.parsed.file}:{e.line}:"), str(e)


# ---------------------------------------------------------------------------
# GPU: the compiled kernels against the interpreter
# ---------------------------------------------------------------------------



@pytest.mark.gpu
@pytest.mark.parametrize("num_warps", [1, 4, 8])
@pytest.mark.parametrize("m,n", [(1, 1), (31, 65), (300, 257)])
def test_gpu_transpose(torch_cuda, m, n, num_warps, rng):
    torch = torch_cuda
    x = torch.from_numpy(rng.standard_normal((m, n)).astype(np.float32)).cuda()
    out = torch.full((n, m), float("nan"), device="cuda")
    grid = (triton.cdiv(m, 32), triton.cdiv(n, 64))
    triton.jit(transpose_kernel.fn)[grid](x, out, m, n, BM=32, BN=64, SPELLING=0,
                                          num_warps=num_warps)
    torch.cuda.synchronize()
    assert torch.equal(out, x.T)


@pytest.mark.gpu
@pytest.mark.parametrize("num_warps", [1, 4, 8])
@pytest.mark.parametrize("n", [1, 1000, 4097])
def test_gpu_join_split(torch_cuda, n, num_warps, rng):
    torch = torch_cuda
    BLOCK = 256
    a, b = (torch.from_numpy(rng.standard_normal(n).astype(np.float32)).cuda()
            for _ in range(2))
    c = torch.from_numpy(rng.standard_normal(2 * n).astype(np.float32)).cuda()
    ab = torch.full((2 * n,), float("nan"), device="cuda")
    lo = torch.full((n,), float("nan"), device="cuda")
    hi = torch.full((n,), float("nan"), device="cuda")
    triton.jit(join_split_kernel.fn)[(triton.cdiv(n, BLOCK),)](
        a, b, ab, c, lo, hi, n, BLOCK=BLOCK, num_warps=num_warps)
    torch.cuda.synchronize()
    assert torch.equal(ab[0::2], a) and torch.equal(ab[1::2], b)
    assert torch.equal(lo, c[0::2]) and torch.equal(hi, c[1::2])


@pytest.mark.gpu
@pytest.mark.parametrize("case", ["reshape", "interleave", "permute3d", "pointers"])
def test_gpu_matches_the_interpreter(torch_cuda, case, rng):
    torch = torch_cuda
    kernel, make_args, meta = IR_CASES[case]
    args = [rng.standard_normal(a.shape).astype(a.dtype) if isinstance(a, np.ndarray)
            else a for a in make_args()]
    if case in ("reshape", "interleave"):  # integers: sums exact in any order
        args[0] = np.round(args[0] * 100)
    expected = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    grid = (2,) if case == "reshape" else (1,)
    interp(kernel)[grid](*expected, **meta)
    device = [torch.from_numpy(a).cuda() if isinstance(a, np.ndarray) else a
              for a in args]
    triton.jit(kernel.fn)[grid](*device, **meta)
    torch.cuda.synchronize()
    for want, got in zip(expected, device):
        if isinstance(want, np.ndarray):
            np.testing.assert_array_equal(got.cpu().numpy(), want)


# ---------------------------------------------------------------------------
# A layout conversion larger than the target's shared memory, in rounds
# ---------------------------------------------------------------------------

@triton.jit
def column_broadcast_kernel(x_ptr, twice_ptr, out_ptr, N: tl.constexpr, C: tl.constexpr):
    # out (N x C) = x repeated along each row; x's 1-D layout (also used
    # for twice = 2x) is converted to the 2-D one through shared memory:
    # N * 4 bytes, more than a program has for N = 65536.
    r = tl.arange(0, N)
    x = tl.load(x_ptr + r)
    tl.store(twice_ptr + r, x * 2)
    tl.store(out_ptr + r[:, None] * C + tl.arange(0, C)[None, :],
             tl.broadcast_to(x[:, None], (N, C)))


def _column_broadcast_args(rng, n=65536, c=2):
    x = rng.standard_normal(n).astype(np.float32)
    return x, np.full(n, np.nan, np.float32), np.full((n, c), np.nan, np.float32)


@pytest.mark.parametrize("target,stage,barrier,rounds", [
    ("cuda:90", "ptx", r"bar\.sync", 2), ("cuda:80", "ptx", r"bar\.sync", 2),
    ("hip:gfx942", "amdgcn", r"s_barrier\b", 4), ("hip:gfx950", "amdgcn", r"s_barrier\b", 2)])
def test_conversion_in_rounds_compiles(target, stage, barrier, rounds, rng):
    # 256 KiB to move: two halves of the rows on an H100 (227 KiB) or an
    # A100 (163 KiB), four quarters on gfx942 (64 KiB), two on gfx950
    # (160 KiB); a barrier between a round's stores and loads and one
    # before the next round's stores.
    pytest.importorskip("terrazzo._C")
    code = column_broadcast_kernel.compile(*_column_broadcast_args(rng), N=65536, C=2,
                                           stage=stage, target=target, num_warps=4)
    assert len(re.findall(barrier, code)) == 2 * rounds - 1


def test_conversion_in_rounds_interpreted(rng):
    x, twice, out = _column_broadcast_args(rng)
    interp(column_broadcast_kernel)[(1,)](x, twice, out, N=65536, C=2)
    np.testing.assert_array_equal(twice, 2 * x)
    np.testing.assert_array_equal(out, np.repeat(x[:, None], 2, axis=1))


@pytest.mark.gpu
@pytest.mark.parametrize("c", [2, 4])
def test_gpu_conversion_in_rounds(torch_cuda, c, rng):
    torch = torch_cuda
    x, twice, out = (torch.from_numpy(a).cuda() for a in _column_broadcast_args(rng, c=c))
    triton.jit(column_broadcast_kernel.fn)[(1,)](x, twice, out, N=65536, C=c, num_warps=4)
    torch.cuda.synchronize()
    want = x.cpu().numpy()
    np.testing.assert_array_equal(twice.cpu().numpy(), 2 * want)
    np.testing.assert_array_equal(out.cpu().numpy(), np.repeat(want[:, None], c, axis=1))
