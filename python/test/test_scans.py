"""Scans: tl.cumsum, tl.cumprod, tl.associative_scan (with user @jit combine
functions of one or several operands), forward and reverse, along 1-D
blocks and both axes of 2-D blocks, and the tensor methods.

Each kernel runs in the interpreter against float64 (or exact integer)
NumPy references on fresh random inputs with masked tails, and is compiled
to tile IR, verified by terrazzo-opt and lowered to PTX (assembled by
ptxas when present). On a GPU the compiled kernels must match the
interpreter.
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
def _max_combine(a, b):
    return tl.maximum(a, b)


@triton.jit
def scan_1d_kernel(x_ptr, k_ptr, sum_ptr, prod_ptr, max_ptr, rsum_ptr, ksum_ptr,
                   rprod_ptr, n, BLOCK: tl.constexpr):
    # Each program scans its own block; masked-off elements load the
    # identity of each combine.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    p = tl.load(x_ptr + offs, mask=mask, other=1.0)
    m = tl.load(x_ptr + offs, mask=mask, other=-float("inf"))
    k = tl.load(k_ptr + offs, mask=mask, other=0)
    tl.store(sum_ptr + offs, tl.cumsum(x, axis=0), mask=mask)
    tl.store(prod_ptr + offs, tl.cumprod(p, 0), mask=mask)
    tl.store(max_ptr + offs, tl.associative_scan(m, 0, _max_combine), mask=mask)
    tl.store(rsum_ptr + offs, x.cumsum(0, reverse=True), mask=mask)
    ks = tl.cumsum(k)  # int8 sums as int32, as in Triton
    tl.static_assert(ks.dtype == tl.int32)
    tl.store(ksum_ptr + offs, ks, mask=mask)
    tl.store(rprod_ptr + offs, p.cumprod(axis=-1, reverse=True), mask=mask)


@triton.jit
def scan_2d_kernel(x_ptr, rows_ptr, cols_ptr, rrev_ptr, crev_ptr, m, n,
                   BM: tl.constexpr, BN: tl.constexpr):
    # One program: the whole (m, n) matrix, masked to BM x BN.
    rows = tl.arange(0, BM)
    cols = tl.arange(0, BN)
    mask = (rows[:, None] < m) & (cols[None, :] < n)
    offs = rows[:, None] * n + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(rows_ptr + offs, tl.cumsum(x, axis=1), mask=mask)
    tl.store(cols_ptr + offs, tl.cumsum(x, axis=0), mask=mask)
    tl.store(rrev_ptr + offs, tl.cumsum(x, axis=-1, reverse=True), mask=mask)
    tl.store(crev_ptr + offs, x.cumsum(axis=0, reverse=True), mask=mask)


@triton.jit
def _affine(a1, b1, a2, b2):
    # Composition of x -> a * x + b maps, the earlier one applied first:
    # not commutative, so the order of the operands shows.
    return a1 * a2, b1 * a2 + b2


@triton.jit
def _argmax_combine(v1, i1, v2, i2):
    take = v2 > v1
    return tl.where(take, v2, v1), tl.where(take, i2, i1)


@triton.jit
def user_combine_kernel(a_ptr, b_ptr, h_ptr, hr_ptr, v_ptr, i_ptr, m, n,
                        BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.arange(0, BM)
    cols = tl.arange(0, BN)
    mask = (rows[:, None] < m) & (cols[None, :] < n)
    offs = rows[:, None] * n + cols[None, :]
    a = tl.load(a_ptr + offs, mask=mask, other=1.0)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0)
    # h[t] = a[t] * h[t-1] + b[t] along each row (h[-1] = 0).
    _, h = tl.associative_scan((a, b), 1, _affine)
    tl.store(h_ptr + offs, h, mask=mask)
    # The same recurrence from the end of each column.
    _, hr = tl.associative_scan((a, b), axis=0, combine_fn=_affine, reverse=True)
    tl.store(hr_ptr + offs, hr, mask=mask)
    # Running maximum and the row of its first occurrence down the columns.
    idx = tl.broadcast_to(rows[:, None], (BM, BN))
    v, i = tl.associative_scan((tl.where(mask, b, -float("inf")), idx), 0,
                               _argmax_combine)
    tl.store(v_ptr + offs, v, mask=mask)
    tl.store(i_ptr + offs, i, mask=mask)


@triton.jit
def _or(a, b):
    return a | b


@triton.jit
def small_types_kernel(h_ptr, bf_bits_ptr, b_ptr, u_ptr, hs_ptr, bfs_ptr, bs_ptr, us_ptr,
                       i64_ptr, seen_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    h = tl.load(h_ptr + offs, mask=mask, other=0.0)
    hs = tl.cumsum(h)  # fp16 stays fp16, as in Triton
    tl.static_assert(hs.dtype == tl.float16)
    tl.store(hs_ptr + offs, hs, mask=mask)
    bf_ptr = bf_bits_ptr.to(tl.pointer_type(tl.bfloat16))
    bf = tl.load(bf_ptr + offs, mask=mask, other=0.0)
    bfs = tl.cumsum(bf)  # bf16 sums as fp32 and stays fp32, as in Triton
    tl.static_assert(bfs.dtype == tl.float32)
    tl.store(bfs_ptr + offs, bfs, mask=mask)
    b = tl.load(b_ptr + offs, mask=mask, other=0) != 0
    bs = tl.cumsum(b)  # bool counts as uint32 (Triton: int1 is unsigned)
    tl.static_assert(bs.dtype == tl.uint32)
    tl.store(bs_ptr + offs, bs, mask=mask)
    seen = tl.associative_scan(b, 0, _or)  # a scan of i1
    tl.static_assert(seen.dtype == tl.int1)
    tl.store(seen_ptr + offs, seen.to(tl.int8), mask=mask)
    u = tl.load(u_ptr + offs, mask=mask, other=0)
    us = tl.cumsum(u)  # uint8 as uint32
    tl.static_assert(us.dtype == tl.uint32)
    tl.store(us_ptr + offs, us, mask=mask)
    wide = tl.cumsum(u, dtype=tl.int64)
    tl.static_assert(wide.dtype == tl.int64)
    tl.store(i64_ptr + offs, wide * 1000000000, mask=mask)


# ---------------------------------------------------------------------------
# References
# ---------------------------------------------------------------------------

def _blocks(values, block, fill):
    """`values` padded with `fill` to whole blocks, one block per row."""
    n = len(values)
    nb = -(-n // block)
    padded = np.full(nb * block, fill, dtype=np.float64)
    padded[:n] = values
    return padded.reshape(nb, block)


def _rev(fn, a, axis):
    return np.flip(fn(np.flip(a, axis), axis), axis)


def _affine_scan(a, b, axis, reverse=False):
    """h[t] = a[t] * h[t-1] + b[t] along `axis` in float64 (from the end with
    `reverse`)."""
    a = np.moveaxis(np.asarray(a, np.float64), axis, 0)
    b = np.moveaxis(np.asarray(b, np.float64), axis, 0)
    order = range(a.shape[0] - 1, -1, -1) if reverse else range(a.shape[0])
    h = np.zeros_like(b)
    prev = np.zeros_like(b[0])
    for t in order:
        prev = a[t] * prev + b[t]
        h[t] = prev
    return np.moveaxis(h, 0, axis)


def _running_argmax(v, axis):
    v = np.moveaxis(np.asarray(v, np.float64), axis, 0)
    best = np.full(v.shape[1:], -np.inf)
    arg = np.zeros(v.shape[1:], np.int64)
    vals, args = np.empty_like(v), np.empty(v.shape, np.int64)
    for t in range(v.shape[0]):
        take = v[t] > best
        best = np.where(take, v[t], best)
        arg = np.where(take, t, arg)
        vals[t], args[t] = best, arg
    return np.moveaxis(vals, 0, axis), np.moveaxis(args, 0, axis)


# ---------------------------------------------------------------------------
# Interpreter against NumPy
# ---------------------------------------------------------------------------

def _scan_1d_args(n, rng):
    x = (rng.uniform(0.5, 1.5, n) * rng.choice([-1, 1], n)).astype(np.float32)
    k = rng.integers(-128, 128, n).astype(np.int8)
    outs = [np.full(n, np.nan, np.float32) for _ in range(4)] + \
        [np.full(n, -7, np.int32), np.full(n, np.nan, np.float32)]
    return x, k, outs


@pytest.mark.parametrize("n,block", [(1, 16), (100, 128), (1000, 256), (700, 64)])
def test_1d_scans(n, block, rng):
    x, k, outs = _scan_1d_args(n, rng)
    grid = (-(-n // block),)
    interp(scan_1d_kernel)[grid](x, k, *outs, n, BLOCK=block)
    s, p, mx, rs, ks, rp = outs
    x0 = _blocks(x, block, 0.0)
    x1 = _blocks(x, block, 1.0)
    xm = _blocks(x, block, -np.inf)
    np.testing.assert_allclose(s, np.cumsum(x0, 1).ravel()[:n], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(p, np.cumprod(x1, 1).ravel()[:n], rtol=1e-4, atol=1e-30)
    np.testing.assert_array_equal(mx, np.maximum.accumulate(xm, 1).ravel()[:n])
    np.testing.assert_allclose(rs, _rev(np.cumsum, x0, 1).ravel()[:n], rtol=1e-5, atol=1e-5)
    kk = _blocks(k.astype(np.float64), block, 0).astype(np.int64)
    np.testing.assert_array_equal(ks, np.cumsum(kk, 1).ravel()[:n])  # no int8 overflow
    np.testing.assert_allclose(rp, _rev(np.cumprod, x1, 1).ravel()[:n], rtol=1e-4,
                               atol=1e-30)


@pytest.mark.parametrize("m,n", [(5, 13), (16, 32), (1, 1), (9, 2)])
def test_2d_scans_along_both_axes(m, n, rng):
    x = rng.standard_normal((m, n)).astype(np.float32)
    outs = [np.full((m, n), np.nan, np.float32) for _ in range(4)]
    interp(scan_2d_kernel)[(1,)](x, *outs, m, n, BM=16, BN=32)
    x64 = x.astype(np.float64)
    rows, cols, rrev, crev = outs
    np.testing.assert_allclose(rows, np.cumsum(x64, 1), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(cols, np.cumsum(x64, 0), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(rrev, _rev(np.cumsum, x64, 1), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(crev, _rev(np.cumsum, x64, 0), rtol=1e-5, atol=1e-5)


def _user_combine_args(m, n, rng):
    a = rng.uniform(0.5, 1.0, (m, n)).astype(np.float32)
    b = rng.integers(-4, 5, (m, n)).astype(np.float32)  # ties for the argmax
    outs = [np.full((m, n), np.nan, np.float32) for _ in range(3)] + \
        [np.full((m, n), -7, np.int32)]
    return a, b, outs


@pytest.mark.parametrize("m,n", [(7, 27), (8, 32), (3, 1)])
def test_user_combine_functions_with_tuples(m, n, rng):
    a, b, outs = _user_combine_args(m, n, rng)
    interp(user_combine_kernel)[(1,)](a, b, *outs, m, n, BM=8, BN=32)
    h, hr, v, i = outs
    np.testing.assert_allclose(h, _affine_scan(a, b, 1), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(hr, _affine_scan(a, b, 0, reverse=True), rtol=1e-5,
                               atol=1e-5)
    ref_v, ref_i = _running_argmax(b, 0)
    np.testing.assert_array_equal(v, ref_v)
    np.testing.assert_array_equal(i, ref_i)  # the first row on ties


@pytest.mark.parametrize("n", [100, 1000])
def test_small_types(n, rng):
    h = (rng.standard_normal(n) * 0.1).astype(np.float16)
    bf = rng.standard_normal(n).astype(np.float32)
    bf_bits = (bf.view(np.uint32) >> 16).astype(np.uint16)  # bf16 by truncation
    bf_vals = (bf_bits.astype(np.uint32) << 16).view(np.float32)
    b = rng.integers(0, 2, n).astype(np.int8)
    u = rng.integers(0, 256, n).astype(np.uint8)
    hs = np.full(n, np.nan, np.float16)
    bfs = np.full(n, np.nan, np.float32)
    bs = np.zeros(n, np.uint32)
    us = np.zeros(n, np.uint32)
    wide = np.zeros(n, np.int64)
    seen = np.full(n, 7, np.int8)
    interp(small_types_kernel)[(1,)](h, bf_bits, b, u, hs, bfs, bs, us, wide, seen, n,
                                     BLOCK=1024)
    # fp16 accumulates in fp16: compare with a float32 scan rounded at each step.
    ref = np.zeros(n, np.float16)
    acc = np.float16(0)
    for t in range(n):
        acc = np.float16(np.float32(acc) + np.float32(h[t]))
        ref[t] = acc
    np.testing.assert_array_equal(hs, ref)
    np.testing.assert_allclose(bfs, np.cumsum(bf_vals.astype(np.float64)), rtol=1e-5,
                               atol=1e-4)
    np.testing.assert_array_equal(bs, np.cumsum(b.astype(np.int64)))
    np.testing.assert_array_equal(us, np.cumsum(u.astype(np.int64)))
    np.testing.assert_array_equal(wide, np.cumsum(u.astype(np.int64)) * 1000000000)
    np.testing.assert_array_equal(seen, np.logical_or.accumulate(b != 0))


# ---------------------------------------------------------------------------
# Tile IR, verified and lowered to PTX
# ---------------------------------------------------------------------------

def _z(shape, dt=np.float32):
    return np.zeros(shape, dt)


IR_CASES = {
    "scan_1d": (scan_1d_kernel, lambda: (_z(1000), _z(1000, np.int8), _z(1000), _z(1000),
                                         _z(1000), _z(1000), _z(1000, np.int32), _z(1000),
                                         1000), dict(BLOCK=1024)),
    "scan_2d": (scan_2d_kernel, lambda: (_z((5, 13)), _z((5, 13)), _z((5, 13)), _z((5, 13)),
                                         _z((5, 13)), 5, 13), dict(BM=16, BN=32)),
    "user_combine": (user_combine_kernel, lambda: (_z((7, 27)), _z((7, 27)), _z((7, 27)),
                                                   _z((7, 27)), _z((7, 27)),
                                                   _z((7, 27), np.int32), 7, 27),
                     dict(BM=8, BN=32)),
    "small_types": (small_types_kernel, lambda: (_z(100, np.float16), _z(100, np.uint16),
                                                 _z(100, np.int8), _z(100, np.uint8),
                                                 _z(100, np.float16), _z(100),
                                                 _z(100, np.uint32), _z(100, np.uint32),
                                                 _z(100, np.int64), _z(100, np.int8), 100),
                    dict(BLOCK=1024)),
}


@pytest.mark.parametrize("num_warps", [1, 4, 8])
@pytest.mark.parametrize("case", sorted(IR_CASES))
def test_scans_lower_to_ptx(case, num_warps, check_ir):
    kernel, make_args, meta = IR_CASES[case]
    text = kernel.ir(*make_args(), **meta)
    assert "tile.scan(" in text and "tile.scan.return" in text
    check_ir.opt(text)
    ptx = check_ir.compile(text, num_warps=num_warps)
    assert ".entry" in ptx and "shfl.sync.idx" in ptx


@pytest.mark.parametrize("case", sorted(IR_CASES))
def test_scans_compile_through_the_extension(case):
    """The same kernels through terrazzo._C.compile (JITFunction.compile):
    PTX with the scan's shuffles, and a cubin."""
    import os
    try:
        from terrazzo import _C  # noqa: F401
    except ImportError as e:
        if os.environ.get("TERRAZZO_REQUIRE_EXTENSION", "") not in ("", "0"):
            pytest.fail(f"terrazzo._C cannot be imported: {e}", pytrace=False)
        pytest.skip(f"terrazzo._C is not built ({e})")
    kernel, make_args, meta = IR_CASES[case]
    ptx = kernel.compile(*make_args(), stage="ptx", target="cuda:90", **meta)
    assert ".entry" in ptx and "shfl.sync.idx.b32" in ptx
    tilegpu = kernel.compile(*make_args(), stage="tilegpu", target="cuda:90", **meta)
    assert "tile.scan(" in tilegpu
    cubin = kernel.compile(*make_args(), stage="cubin", target="cuda:90", num_warps=8, **meta)
    assert isinstance(cubin, bytes) and len(cubin) > 100


def test_scan_ir_form_and_locations():
    kernel, make_args, meta = IR_CASES["user_combine"]
    text = kernel.ir(*make_args(), **meta)
    # Two sources scanned together, forward along axis 1 and reversed along
    # axis 0, with the combine function inlined in the region.
    assert re.search(r"%\d+:2 = tile.scan\(%\d+, %\d+\) axis = 1 : \(tensor<8x32xf32>, "
                     r"tensor<8x32xf32>\) -> \(tensor<8x32xf32>, tensor<8x32xf32>\) \{", text)
    assert re.search(r"%\d+:2 = tile.scan\(%\d+, %\d+\) axis = 0 reverse : ", text)
    assert re.search(r"%\d+:2 = tile.scan\(%\d+, %\d+\) axis = 0 : \(tensor<8x32xf32>, "
                     r"tensor<8x32xi32>\)", text)
    assert re.search(r"\^bb0\(%\d+: f32, %\d+: f32, %\d+: f32, %\d+: f32\):", text)
    assert text.count("tile.scan.return") == 3
    # The region's ops carry the lines of the combine function.
    src, start = inspect.getsourcelines(_affine.fn)
    line = start + next(i for i, l in enumerate(src) if "return a1 * a2" in l)
    assert re.search(rf'arith.mulf .*loc\("[^"]+":{line}:\d+\)', text)
    text1 = scan_1d_kernel.ir(*IR_CASES["scan_1d"][1](), BLOCK=1024)
    assert re.search(r"tile.scan\(%\d+\) axis = 0 reverse : \(tensor<1024xf32>\)", text1)
    assert re.search(r"tile.scan\(%\d+\) axis = 0 : \(tensor<1024xi32>\)", text1)


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------

@triton.jit
def bad_axis_kernel(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK)[:, None] + tl.arange(0, BLOCK)[None, :])
    s = tl.cumsum(x, axis=2)
    tl.store(x_ptr + tl.arange(0, BLOCK)[:, None] + tl.arange(0, BLOCK)[None, :], s)


@triton.jit
def _three_args(a, b, c):
    return a


@triton.jit
def bad_combine_kernel(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.store(x_ptr + tl.arange(0, BLOCK), tl.associative_scan(x, 0, _three_args))


@triton.jit
def _one_of_two(a1, b1, a2, b2):
    return a1 + a2


@triton.jit
def bad_arity_kernel(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    s, t = tl.associative_scan((x, x), 0, _one_of_two)
    tl.store(x_ptr + tl.arange(0, BLOCK), s)


@triton.jit
def scalar_scan_kernel(x_ptr):
    x = tl.load(x_ptr)
    tl.store(x_ptr, tl.cumsum(x, axis=0))


@triton.jit
def no_axis_kernel(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.store(x_ptr + tl.arange(0, BLOCK), tl.cumprod(x, axis=None))


def _line_of(kernel, text):
    src, start = inspect.getsourcelines(kernel.fn)
    for i, l in enumerate(src):
        if text in l:
            return start + i
    raise AssertionError(text)


@pytest.mark.parametrize("interpret", [False, True])
def test_axis_out_of_range_names_the_line(interpret):
    k = interp(bad_axis_kernel) if interpret else bad_axis_kernel
    with pytest.raises(CompilationError) as e:
        if interpret:
            k[(1,)](_z(64), BLOCK=8)
        else:
            k.ir(_z(64), BLOCK=8)
    msg = str(e.value)
    assert "scan axis 2 is out of range for a block of rank 2" in msg
    assert f":{_line_of(bad_axis_kernel, 'axis=2')}" in msg


def test_combine_function_arity_scalars_and_axis():
    with pytest.raises(CompilationError, match="takes 3 arguments"):
        bad_combine_kernel.ir(_z(64), BLOCK=64)
    with pytest.raises(CompilationError, match="returned 1 value\\(s\\) for a scan of 2"):
        bad_arity_kernel.ir(_z(64), BLOCK=64)
    with pytest.raises(CompilationError, match="cannot scan a scalar"):
        scalar_scan_kernel.ir(_z(4))
    with pytest.raises(CompilationError, match="scan axis must be a constexpr int, got None"):
        no_axis_kernel.ir(_z(64), BLOCK=64)


# ---------------------------------------------------------------------------
# GPU
# ---------------------------------------------------------------------------



@pytest.mark.gpu
@pytest.mark.parametrize("num_warps", [1, 4, 8])
def test_gpu_scans_match_the_interpreter(torch_cuda, num_warps, rng):
    torch = torch_cuda
    # 1-D, several programs with a masked tail; exact sums of small integers.
    # Magnitudes of at most 2 with zeros among them keep every partial
    # product finite, whatever order the scan combines in: a segment
    # overflowing to inf and then meeting a zero prefix gives NaN.
    n, block = 3000, 1024
    x = rng.integers(-2, 3, n).astype(np.float32)
    k = rng.integers(-128, 128, n).astype(np.int8)
    _, _, outs = _scan_1d_args(n, rng)
    grid = (-(-n // block),)
    interp(scan_1d_kernel)[grid](x, k, *outs, n, BLOCK=block)
    _, _, dev = _scan_1d_args(n, rng)
    dev = [torch.from_numpy(o).cuda() for o in dev]
    triton.jit(scan_1d_kernel.fn)[grid](torch.from_numpy(x).cuda(),
                                        torch.from_numpy(k).cuda(), *dev, n,
                                        BLOCK=block, num_warps=num_warps)
    torch.cuda.synchronize()
    for name, a, d in zip(["sum", "prod", "max", "rsum", "ksum", "rprod"], outs, dev):
        if name in ("prod", "rprod"):
            np.testing.assert_allclose(d.cpu().numpy(), a, rtol=1e-4, atol=1e-30,
                                       err_msg=name)
        else:
            np.testing.assert_array_equal(d.cpu().numpy(), a, err_msg=name)
    # 2-D with user combine functions along both axes.
    m, n2 = 7, 27
    a, b, outs2 = _user_combine_args(m, n2, rng)
    interp(user_combine_kernel)[(1,)](a, b, *outs2, m, n2, BM=8, BN=32)
    _, _, dev2 = _user_combine_args(m, n2, rng)
    dev2 = [torch.from_numpy(o).cuda() for o in dev2]
    triton.jit(user_combine_kernel.fn)[(1,)](torch.from_numpy(a).cuda(),
                                             torch.from_numpy(b).cuda(), *dev2, m, n2,
                                             BM=8, BN=32, num_warps=num_warps)
    torch.cuda.synchronize()
    for i, (o, d) in enumerate(zip(outs2, dev2)):
        np.testing.assert_allclose(d.cpu().numpy(), o, rtol=1e-5, atol=1e-5,
                                   err_msg=f"output {i}")
