"""Reductions: tl.sum, tl.max, tl.min, tl.argmax, tl.argmin, tl.xor_sum,
tl.reduce with a user @jit combine function, and the tensor methods.

Each kernel runs in the interpreter against float64 NumPy on fresh random
inputs with masked tails, and is compiled to tile IR, verified by
terrazzo-opt and lowered to PTX (assembled by ptxas when present). The fused
softmax kernel (the Triton tutorial's) also runs on the GPU against
torch.softmax in float64.
"""

from __future__ import annotations

import os
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
def row_stats_kernel(x_ptr, sum_ptr, max_ptr, min_ptr, amax_ptr, amin_ptr, colsum_ptr,
                     m, n, BM: tl.constexpr, BN: tl.constexpr):
    # One program: the whole (m, n) matrix, masked to BM x BN.
    rows = tl.arange(0, BM)
    cols = tl.arange(0, BN)
    mask = (rows[:, None] < m) & (cols[None, :] < n)
    offs = rows[:, None] * n + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    xmax = tl.load(x_ptr + offs, mask=mask, other=-float("inf"))
    xmin = tl.load(x_ptr + offs, mask=mask, other=float("inf"))
    tl.store(sum_ptr + rows, tl.sum(x, axis=1), mask=rows < m)
    tl.store(max_ptr + rows, tl.max(xmax, axis=1), mask=rows < m)
    tl.store(min_ptr + rows, xmin.min(axis=-1), mask=rows < m)
    tl.store(amax_ptr + rows, tl.argmax(xmax, axis=1), mask=rows < m)
    tl.store(amin_ptr + rows, tl.argmin(xmin, 1), mask=rows < m)
    tl.store(colsum_ptr + cols, x.sum(axis=0), mask=cols < n)


@triton.jit
def keep_dims_kernel(x_ptr, out_ptr, all_ptr, arg_ptr, m, n, BM: tl.constexpr,
                     BN: tl.constexpr):
    rows = tl.arange(0, BM)
    cols = tl.arange(0, BN)
    mask = (rows[:, None] < m) & (cols[None, :] < n)
    offs = rows[:, None] * n + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=-float("inf"))
    # Subtract the row maxima kept as a BM x 1 column.
    y = x - tl.max(x, axis=1, keep_dims=True)
    tl.store(out_ptr + offs, y, mask=mask)
    z = tl.where(mask, x, 0.0)
    tl.store(all_ptr, tl.sum(z))  # axis=None: every element
    kept = tl.sum(z, axis=None, keep_dims=True)  # 1 x 1
    tl.store(all_ptr + 1 + tl.zeros([1, 1], tl.int32), kept)
    v, i = tl.max(x, axis=None, return_indices=True)
    tl.store(arg_ptr, tl.argmax(x, axis=None))
    tl.store(arg_ptr + 1, i)
    tl.store(all_ptr + 2, v)


@triton.jit
def _add_and_max_index(a, ai, b, bi):
    # The sum of the values, and the largest "index" value seen.
    return a + b, tl.maximum(ai, bi)


@triton.jit
def _mul(a, b):
    return a * b


@triton.jit
def user_combine_kernel(x_ptr, k_ptr, sum_ptr, kmax_ptr, prod_ptr, m, n,
                        BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.arange(0, BM)
    cols = tl.arange(0, BN)
    mask = (rows[:, None] < m) & (cols[None, :] < n)
    offs = rows[:, None] * n + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    k = tl.load(k_ptr + offs, mask=mask, other=-1)
    s, kmax = tl.reduce((x, k), 1, _add_and_max_index)
    tl.store(sum_ptr + rows, s, mask=rows < m)
    tl.store(kmax_ptr + rows, kmax, mask=rows < m)
    p = tl.load(x_ptr + offs, mask=mask, other=1.0)
    tl.store(prod_ptr + cols, p.reduce(0, _mul), mask=cols < n)


@triton.jit
def small_types_kernel(h_ptr, i8_ptr, hsum_ptr, hmax_ptr, isum_ptr, xor_ptr, n,
                       BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    h = tl.load(h_ptr + offs, mask=mask, other=0.0)
    s = tl.sum(h, axis=0)  # fp16 result, accumulated in fp32
    tl.static_assert(s.dtype == tl.float16)
    tl.store(hsum_ptr, s)
    mx = tl.max(tl.where(mask, h, -float("inf")), axis=0)  # as Triton: narrow types reduce as fp32
    tl.static_assert(mx.dtype == tl.float32)
    tl.store(hmax_ptr, mx)
    b = tl.load(i8_ptr + offs, mask=mask, other=0)
    t = tl.sum(b, axis=0)  # int8 sums as int32
    tl.static_assert(t.dtype == tl.int32)
    tl.store(isum_ptr, t)
    tl.store(xor_ptr, tl.xor_sum(b.to(tl.int32), axis=0))


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows,
                   n_cols, BLOCK_SIZE: tl.constexpr):
    # The Triton tutorial's fused softmax: one program per row.
    row_idx = tl.program_id(0)
    row_start_ptr = input_ptr + row_idx * input_row_stride
    col_offsets = tl.arange(0, BLOCK_SIZE)
    input_ptrs = row_start_ptr + col_offsets
    mask = col_offsets < n_cols
    row = tl.load(input_ptrs, mask=mask, other=-float("inf"))
    row_minus_max = row - tl.max(row, axis=0)
    numerator = tl.exp(row_minus_max)
    denominator = tl.sum(numerator, axis=0)
    softmax_output = numerator / denominator
    output_row_start_ptr = output_ptr + row_idx * output_row_stride
    tl.store(output_row_start_ptr + col_offsets, softmax_output, mask=mask)


def softmax_reference(x):
    x = np.asarray(x, dtype=np.float64)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


# ---------------------------------------------------------------------------
# Interpreter against NumPy
# ---------------------------------------------------------------------------

def _row_stats_args(m, n, rng, ties=False):
    if ties:
        x = rng.integers(-3, 4, (m, n)).astype(np.float32)
    else:
        x = rng.standard_normal((m, n)).astype(np.float32)
    outs = [np.full(m, np.nan, np.float32) for _ in range(3)] + \
        [np.full(m, -7, np.int32) for _ in range(2)] + [np.full(n, np.nan, np.float32)]
    return x, outs


@pytest.mark.parametrize("m,n,ties", [(5, 13, False), (16, 32, False), (7, 30, True)])
def test_row_and_column_reductions(m, n, ties, rng):
    x, outs = _row_stats_args(m, n, rng, ties)
    interp(row_stats_kernel)[(1,)](x, *outs, m, n, BM=16, BN=32)
    s, mx, mn, amax, amin, colsum = outs
    x64 = x.astype(np.float64)
    np.testing.assert_allclose(s, x64.sum(axis=1), rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(mx, x64.max(axis=1))
    np.testing.assert_array_equal(mn, x64.min(axis=1))
    # np.argmax/argmin return the first (lowest) index on ties, as Triton.
    np.testing.assert_array_equal(amax, x64.argmax(axis=1))
    np.testing.assert_array_equal(amin, x64.argmin(axis=1))
    np.testing.assert_allclose(colsum, x64.sum(axis=0), rtol=1e-5, atol=1e-5)


def test_argmax_ties_go_to_the_lowest_index(rng):
    m, n = 6, 20
    x = np.zeros((m, n), np.float32)
    for r in range(m):  # the maximum 5.0 at several columns
        cols = rng.choice(n, size=3, replace=False)
        x[r, cols] = 5.0
        x[r, rng.choice(n, size=3, replace=False)] = -5.0
    _, outs = _row_stats_args(m, n, rng)
    interp(row_stats_kernel)[(1,)](x, *outs, m, n, BM=8, BN=32)
    np.testing.assert_array_equal(outs[3], x.argmax(axis=1))
    np.testing.assert_array_equal(outs[4], x.argmin(axis=1))


@pytest.mark.parametrize("m,n", [(5, 13), (8, 16)])
def test_keep_dims_and_axis_none(m, n, rng):
    x = rng.standard_normal((m, n)).astype(np.float32)
    out = np.full((m, n), np.nan, np.float32)
    alls = np.full(3, np.nan, np.float32)
    args = np.full(2, -7, np.int32)
    interp(keep_dims_kernel)[(1,)](x, out, alls, args, m, n, BM=8, BN=16)
    x64 = x.astype(np.float64)
    np.testing.assert_array_equal(out, (x - x.max(axis=1, keepdims=True)))
    np.testing.assert_allclose(alls[:2], [x64.sum()] * 2, rtol=1e-5, atol=1e-5)
    assert alls[2] == x.max()
    # The flat index in the BM x BN block.
    r, c = np.unravel_index(x.argmax(), x.shape)
    assert list(args) == [r * 16 + c] * 2


def test_reduce_with_a_user_combine_function(rng):
    m, n = 7, 27
    x = rng.uniform(0.5, 1.5, (m, n)).astype(np.float32)
    k = rng.integers(-100, 100, (m, n)).astype(np.int32)
    s = np.full(m, np.nan, np.float32)
    kmax = np.full(m, -7, np.int32)
    prod = np.full(n, np.nan, np.float32)
    interp(user_combine_kernel)[(1,)](x, k, s, kmax, prod, m, n, BM=8, BN=32)
    np.testing.assert_allclose(s, x.astype(np.float64).sum(axis=1), rtol=1e-5)
    np.testing.assert_array_equal(kmax, k.max(axis=1))
    np.testing.assert_allclose(prod, x.astype(np.float64).prod(axis=0), rtol=1e-5)


@pytest.mark.parametrize("n", [100, 1000])
def test_small_types(n, rng):
    h = rng.standard_normal(n).astype(np.float16)
    b = rng.integers(-128, 128, n).astype(np.int8)
    hsum = np.full(1, np.nan, np.float16)
    hmax = np.full(1, np.nan, np.float32)
    isum = np.full(1, -7, np.int32)
    xs = np.full(1, -7, np.int32)
    interp(small_types_kernel)[(1,)](h, b, hsum, hmax, isum, xs, n, BLOCK=1024)
    # fp32 accumulation then one rounding to fp16.
    np.testing.assert_allclose(hsum[0], h.astype(np.float64).sum(), rtol=2e-3, atol=2e-2)
    assert hmax[0] == h.max()
    assert isum[0] == b.astype(np.int64).sum()  # overflows int8, fits int32
    assert xs[0] == np.bitwise_xor.reduce(b.astype(np.int32))


@pytest.mark.parametrize("m,n", [(1, 1), (7, 100), (33, 781)])
def test_softmax_interpreter(m, n, rng):
    x = rng.standard_normal((m, n)).astype(np.float32) * 3
    y = np.full_like(x, np.nan)
    block = triton.next_power_of_2(n)
    interp(softmax_kernel)[(m,)](y, x, x.strides[0] // 4, y.strides[0] // 4, m, n,
                                 BLOCK_SIZE=block)
    np.testing.assert_allclose(y, softmax_reference(x), rtol=1e-5, atol=1e-7)


# ---------------------------------------------------------------------------
# Tile IR, verified and lowered to PTX
# ---------------------------------------------------------------------------

def _z(shape, dt=np.float32):
    return np.zeros(shape, dt)


IR_CASES = {
    "row_stats": (row_stats_kernel, lambda: (_z((5, 13)), _z(5), _z(5), _z(5),
                                             _z(5, np.int32), _z(5, np.int32), _z(13), 5, 13),
                  dict(BM=16, BN=32)),
    "keep_dims": (keep_dims_kernel, lambda: (_z((5, 13)), _z((5, 13)), _z(3),
                                             _z(2, np.int32), 5, 13), dict(BM=8, BN=16)),
    "user_combine": (user_combine_kernel, lambda: (_z((7, 27)), _z((7, 27), np.int32),
                                                   _z(7), _z(7, np.int32), _z(27), 7, 27),
                     dict(BM=8, BN=32)),
    "small_types": (small_types_kernel, lambda: (_z(100, np.float16), _z(100, np.int8),
                                                 _z(1, np.float16), _z(1), _z(1, np.int32),
                                                 _z(1, np.int32), 100), dict(BLOCK=1024)),
    "softmax": (softmax_kernel, lambda: (_z((7, 100)), _z((7, 100)), 100, 100, 7, 100),
                dict(BLOCK_SIZE=128)),
}


@pytest.mark.parametrize("case", sorted(IR_CASES))
def test_reductions_lower_to_ptx(case, check_ir):
    kernel, make_args, meta = IR_CASES[case]
    text = kernel.ir(*make_args(), **meta)
    assert "tile.reduce(" in text and "tile.reduce.return" in text
    check_ir.opt(text)
    assert ".entry" in check_ir.compile(text)


def test_reduce_ir_form_and_locations():
    text = softmax_kernel.ir(_z((7, 100)), _z((7, 100)), 100, 100, 7, 100, BLOCK_SIZE=128)
    src = softmax_kernel.parsed
    assert re.search(r"%\d+ = tile.reduce\(%\d+\) axis = 0 : \(tensor<128xf32>\) -> f32 \{",
                     text)
    assert re.search(r"\^bb0\(%\d+: f32, %\d+: f32\):", text)
    assert "arith.maxnumf" in text and "arith.addf" in text
    assert text.count("tile.reduce.return") == 2
    # The region's ops and the op itself carry the line of the tl.max / tl.sum.
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if "tile.reduce.return" in line or "arith.maxnumf" in line:
            assert f'loc("{src.file}":' in line, line
    locs = [int(m.group(1)) for m in re.finditer(
        r'tile.reduce.return .*loc\("[^"]+":(\d+):\d+\)', text)]
    closes = [int(m.group(1)) for m in re.finditer(r'\n\s*\} loc\("[^"]+":(\d+):\d+\)', text)]
    import inspect
    src_lines, start = inspect.getsourcelines(softmax_kernel.fn)
    max_line = start + next(i for i, l in enumerate(src_lines) if "tl.max(" in l)
    sum_line = start + next(i for i, l in enumerate(src_lines) if "tl.sum(" in l)
    assert locs == [max_line, sum_line]
    assert closes[:2] == [max_line, sum_line]


def test_argmax_ir_has_two_results(check_ir):
    kernel, make_args, meta = IR_CASES["row_stats"]
    text = kernel.ir(*make_args(), **meta)
    assert re.search(r"%\d+:2 = tile.reduce\(%\d+, %\d+\) axis = 1 : \(tensor<16x32xf32>, "
                     r"tensor<16x32xi32>\) -> \(tensor<16xf32>, tensor<16xi32>\) \{", text)
    assert re.search(r"\^bb0\(%\d+: f32, %\d+: i32, %\d+: f32, %\d+: i32\):", text)


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------

@triton.jit
def bad_axis_kernel(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK)[:, None] + tl.arange(0, BLOCK)[None, :])
    s = tl.sum(x, axis=2)
    tl.store(x_ptr, tl.sum(s, axis=0))


@triton.jit
def _three_args(a, b, c):
    return a


@triton.jit
def bad_combine_kernel(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.store(x_ptr, tl.reduce(x, 0, _three_args))


@triton.jit
def scalar_reduce_kernel(x_ptr):
    x = tl.load(x_ptr)
    tl.store(x_ptr, tl.max(x, axis=0))


def _line_of(kernel, text):
    import inspect
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
    assert "axis 2 is out of range" in msg
    assert f":{_line_of(bad_axis_kernel, 'axis=2')}" in msg


def test_combine_function_arity_and_scalars():
    with pytest.raises(CompilationError, match="takes 3 arguments"):
        bad_combine_kernel.ir(_z(64), BLOCK=64)
    with pytest.raises(CompilationError, match="cannot reduce a scalar"):
        scalar_reduce_kernel.ir(_z(4))


# ---------------------------------------------------------------------------
# GPU
# ---------------------------------------------------------------------------



@pytest.mark.gpu
@pytest.mark.parametrize("m,n", [(1, 1), (1823, 781), (4096, 1000), (64, 4097)])
def test_gpu_fused_softmax(torch_cuda, m, n, rng):
    torch = torch_cuda
    x = torch.from_numpy(rng.standard_normal((m, n)).astype(np.float32) * 3).cuda()
    y = torch.full_like(x, float("nan"))
    block = triton.next_power_of_2(n)
    num_warps = 4 if block < 2048 else (8 if block < 4096 else 16)
    triton.jit(softmax_kernel.fn)[(m,)](y, x, x.stride(0), y.stride(0), m, n,
                                        BLOCK_SIZE=block, num_warps=num_warps)
    torch.cuda.synchronize()
    ref = torch.softmax(x.double(), dim=1)
    torch.testing.assert_close(y.double(), ref, rtol=1e-5, atol=1e-7)


@pytest.mark.gpu
def test_gpu_reductions_match_the_interpreter(torch_cuda, rng):
    torch = torch_cuda
    m, n = 7, 30
    x = rng.integers(-3, 4, (m, n)).astype(np.float32)  # ties for argmax/argmin
    _, outs = _row_stats_args(m, n, rng)
    interp(row_stats_kernel)[(1,)](x, *outs, m, n, BM=16, BN=32)
    _, dev_outs = _row_stats_args(m, n, rng)
    dev_outs = [torch.from_numpy(o).cuda() for o in dev_outs]
    triton.jit(row_stats_kernel.fn)[(1,)](torch.from_numpy(x).cuda(), *dev_outs, m, n,
                                          BM=16, BN=32)
    torch.cuda.synchronize()
    for a, d in zip(outs, dev_outs):
        np.testing.assert_array_equal(d.cpu().numpy(), a)  # small integers: exact sums


def test_tutorial_fused_softmax_checks_its_results(monkeypatch, capsys):
    """tutorials/02-fused-softmax.py checks itself (in the interpreter here
    without a GPU) and shows the code it generates."""
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parents[2] / "tutorials" / "02-fused-softmax.py"
    spec = importlib.util.spec_from_file_location("tutorial_02_fused_softmax", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setenv("TERRAZZO_INTERPRET", os.environ.get("TERRAZZO_INTERPRET", "0"))
    module.main([])
    out = capsys.readouterr().out
    assert "The results match." in out
