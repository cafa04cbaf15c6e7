"""The interpreter against float64 NumPy references, on fresh random inputs.

Every output is poisoned (NaN, or a sentinel for integers) before the launch,
and the tests check that every element that should be written was written.
The kernels here are also compiled to tile IR and lowered to PTX by
test_frontend.py (`CASES`), so both builders see the same programs.
"""

from __future__ import annotations

import numpy as np
import pytest

import terrazzo as triton
import terrazzo.language as tl
from terrazzo.compiler.interpreter import round_to_bf16


@pytest.fixture(autouse=True)
def interpret(_private_cache, monkeypatch):
    monkeypatch.setenv("TERRAZZO_INTERPRET", "1")


def poisoned(shape, dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return np.full(shape, np.nan, dtype=dtype)
    return np.full(shape, np.iinfo(dtype).min if dtype.kind == "i" else np.iinfo(dtype).max,
                   dtype=dtype)


def bf16_round(x):
    """float64 -> nearest bfloat16 (ties to even), computed independently of
    the interpreter from float32 bit patterns."""
    f = np.asarray(x, dtype=np.float32)
    bits = f.view(np.uint32).astype(np.uint64)
    r = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) << 16
    return r.astype(np.uint32).view(np.float32).astype(np.float64)


# ---------------------------------------------------------------------------
# Kernels
# ---------------------------------------------------------------------------

@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


@triton.jit
def fused_kernel(x_ptr, y_ptr, z_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    y = tl.load(y_ptr + offs, mask=m, other=0.0)
    z = tl.load(z_ptr + offs, mask=m, other=0.0)
    a = tl.exp(x) * y + tl.sqrt(tl.abs(z)) - tl.maximum(x, y)
    b = tl.where(x > 0, a, tl.sigmoid(z) * 2.0)
    c = tl.fma(b, 0.5, tl.minimum(y, 1.0)) / (1.0 + x * x)
    tl.store(out_ptr + offs, c + tl.log(1.5 + tl.cos(x)) * tl.sin(y) - tl.rsqrt(2.0 + z * z),
             mask=m)


@triton.jit
def copy2d_kernel(src, dst, M, N, src_stride, dst_stride, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.program_id(1) * BN + tl.arange(0, BN)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    v = tl.load(src + rows[:, None] * src_stride + cols[None, :], mask=mask)
    tl.store(dst + rows[:, None] * dst_stride + cols[None, :], v * 2, mask=mask)


@triton.jit
def convert_kernel(x_ptr, f16_ptr, bf16_bits_ptr, bf16_f32_ptr, i32_ptr, f64_ptr, i64_ptr,
                   u8_ptr, back_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    h = x.to(tl.float16)
    tl.store(f16_ptr + offs, h, mask=m)
    b = x.to(tl.bfloat16)
    tl.store(bf16_bits_ptr + offs, b.to(tl.int16, bitcast=True), mask=m)
    tl.store(bf16_f32_ptr + offs, (b + b).to(tl.float32), mask=m)
    i = x.to(tl.int32)
    tl.store(i32_ptr + offs, i, mask=m)
    tl.store(f64_ptr + offs, x.to(tl.float64) / 3.0, mask=m)
    tl.store(i64_ptr + offs, i.to(tl.int64) * 3000000000, mask=m)
    tl.store(u8_ptr + offs, (i & 255).to(tl.uint8), mask=m)
    tl.store(back_ptr + offs, h.to(tl.float32) + i.to(tl.float32), mask=m)


@triton.jit
def loop_sum_kernel(x_ptr, out_ptr, rows, cols, BLOCK: tl.constexpr):
    j = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = j < cols
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    p = x_ptr + j
    for k in range(0, rows):
        acc += tl.load(p, mask=mask, other=0.0)
        p += cols
    if rows % 2 == 1:
        acc = acc * 2.0
    tl.store(out_ptr + j, acc, mask=mask)


@triton.jit
def loops_kernel(out_ptr, n, BLOCK: tl.constexpr, UNROLL: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.int32)
    for i in tl.static_range(UNROLL):
        acc += offs * (i + 1)
    count = 0
    for k in range(n, 0, -2):
        count += k
    i = 0
    total = 0.0
    while i < n:
        total += i * 0.5
        i += 1
    for t in (1, 2, 3):
        acc += t
    tl.store(out_ptr + offs, acc + count + total.to(tl.int32))


@triton.jit
def activation_kernel(x_ptr, bias_ptr, out_ptr, n, ACTIVATION: tl.constexpr,
                      BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    if bias_ptr is not None:
        x += tl.load(bias_ptr + offs, mask=m)
    if ACTIVATION == "relu":
        x = tl.maximum(x, 0.0)
    elif ACTIVATION == "leaky":
        x = tl.where(x >= 0, x, 0.01 * x)
    else:
        tl.static_assert(ACTIVATION == "none", "unknown activation")
    tl.store(out_ptr + offs, x, mask=m)


@triton.jit
def _offsets(pid, BLOCK: tl.constexpr):
    start = pid * BLOCK
    return start + tl.arange(0, BLOCK), start


@triton.jit
def _scale_shift(x, scale, SHIFT: tl.constexpr):
    if SHIFT > 0:
        return x * scale + SHIFT
    return x * scale


@triton.jit
def nested_kernel(x_ptr, out_ptr, n, scale, BLOCK: tl.constexpr):
    offs, start = _offsets(tl.program_id(0), BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    y = _scale_shift(x, scale, 3) + _scale_shift(x, 2.0, 0)
    tl.store(out_ptr + offs, y + start, mask=m)


@triton.jit
def runtime_if_kernel(x_ptr, out_ptr, n, limit, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    if pid >= limit:
        return
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    if pid % 2 == 0:
        y = x + 1.0
        z = pid
    else:
        y = x - 1.0
        z = -pid
    tl.store(out_ptr + offs, y * z, mask=m)


@triton.jit
def int_ops_kernel(a_ptr, b_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    tl.store(out_ptr + 0 * BLOCK + offs, a // b)
    tl.store(out_ptr + 1 * BLOCK + offs, a % b)
    tl.store(out_ptr + 2 * BLOCK + offs, (a << 3) ^ (a >> 2))
    tl.store(out_ptr + 3 * BLOCK + offs, (a & b) | (~a & 7))
    tl.store(out_ptr + 4 * BLOCK + offs, tl.where(a < b, a, -b))
    tl.store(out_ptr + 5 * BLOCK + offs, tl.abs(a) + tl.minimum(a, b) - tl.maximum(a, b))
    tl.store(out_ptr + 6 * BLOCK + offs, tl.cdiv(tl.abs(a), 7))


@triton.jit
def grid_kernel(out_ptr):
    x = tl.program_id(0)
    y = tl.program_id(1)
    z = tl.program_id(2)
    nx = tl.num_programs(0)
    ny = tl.num_programs(1)
    idx = (z * ny + y) * nx + x
    tl.store(out_ptr + idx, x + 10 * y + 100 * z + 1000 * tl.num_programs(2))


@triton.jit
def outer_kernel(x_ptr, y_ptr, out_ptr, BM: tl.constexpr, BN: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BM))
    y = tl.load(y_ptr + tl.arange(0, BN))
    o = x[:, None] * y[None, :] + tl.expand_dims(x, 1)
    tl.store(out_ptr + tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :], o)


@triton.jit
def scalar_kernel(x_ptr, out_ptr, flag_ptr, alpha):
    v = tl.load(x_ptr)
    ok = tl.load(flag_ptr)
    w = tl.where(ok, v * alpha, -v)
    tl.store(out_ptr, w)
    tl.store(out_ptr + 1, v.to(tl.float16).to(tl.float32))
    tl.store(flag_ptr + 1, v > 0)


@triton.jit
def half_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)  # float16
    y = tl.load(y_ptr + offs, mask=m)  # float16
    s = x * y + x  # computed in float16
    e = tl.exp(x)  # float32 internally, float16 result
    q = x / y  # float32 (division of halves is done in float32)
    tl.store(out_ptr + offs, s, mask=m)
    tl.store(out_ptr + n + offs, e, mask=m)
    tl.store(out_ptr + 2 * n + offs, q, mask=m)


@triton.jit
def control_kernel(x_ptr, y_ptr, out_ptr, n, big, flag, scale, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(0, n):
        p = tl.where(offs % 2 == 0, x_ptr + offs, y_ptr + offs)  # a block of pointers
        v = tl.load(p + i * BLOCK)
        if i % 3 == 0:
            acc += v * scale
        else:
            for j in range(i):
                acc -= 0.25
    if flag:
        k = 0
        while k < 2:
            acc = acc * 2
            k += 1
    wide = offs.to(tl.int64) + big  # 64-bit offsets
    tl.store(out_ptr + (wide - big), acc)


# ---------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("n", [1, 97, 1024, 3000])
def test_vector_add_masked_tail(n, rng):
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    out = poisoned(n, np.float32)
    BLOCK = 256
    add_kernel[(triton.cdiv(n, BLOCK),)](x, y, out, n, BLOCK_SIZE=BLOCK)
    assert not np.isnan(out).any()
    np.testing.assert_array_equal(out, x + y)  # fp32 addition is exact to fp32


def test_vector_add_grid_callable_and_padding(rng):
    n = 1000
    big = poisoned(n + 64, np.float32)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    out = big[:n]
    grid = lambda meta: (triton.cdiv(meta["n_elements"], meta["BLOCK_SIZE"]),)
    add_kernel[grid](x, y, out, n, BLOCK_SIZE=128)
    np.testing.assert_array_equal(out, x + y)
    assert np.isnan(big[n:]).all()  # nothing past the end was written


def test_fused_elementwise(rng):
    n = 777
    x, y, z = (rng.standard_normal(n).astype(np.float32) for _ in range(3))
    out = poisoned(n, np.float32)
    fused_kernel[(triton.cdiv(n, 128),)](x, y, z, out, n, BLOCK=128)
    X, Y, Z = (v.astype(np.float64) for v in (x, y, z))
    a = np.exp(X) * Y + np.sqrt(np.abs(Z)) - np.maximum(X, Y)
    b = np.where(X > 0, a, 1 / (1 + np.exp(-Z)) * 2.0)
    c = (b * 0.5 + np.minimum(Y, 1.0)) / (1.0 + X * X)
    ref = c + np.log(1.5 + np.cos(X)) * np.sin(Y) - 1 / np.sqrt(2.0 + Z * Z)
    assert not np.isnan(out).any()
    np.testing.assert_allclose(out, ref, rtol=2e-5, atol=2e-5)


@pytest.mark.parametrize("M,N", [(37, 70), (64, 64), (1, 129)])
def test_copy2d_strided_masks(M, N, rng):
    src_full = rng.standard_normal((M + 3, N + 11)).astype(np.float32)
    src = src_full[2:, 5:5 + N]  # a strided view: row stride N + 11
    dst_full = poisoned((M, N + 7), np.float32)
    BM, BN = 16, 32
    grid = (triton.cdiv(M, BM), triton.cdiv(N, BN))
    copy2d_kernel[grid](src, dst_full, M, N, src_full.shape[1], dst_full.shape[1], BM=BM, BN=BN)
    np.testing.assert_array_equal(dst_full[:, :N], src[:M] * 2)
    assert np.isnan(dst_full[:, N:]).all()


def test_conversions(rng):
    n = 300
    x = (rng.standard_normal(n) * 100).astype(np.float32)
    x[:4] = [0.5, -2.5, 65504.0, 1e-8]
    outs = dict(f16=poisoned(n, np.float16), bf16_bits=poisoned(n, np.int16),
                bf16_f32=poisoned(n, np.float32), i32=poisoned(n, np.int32),
                f64=poisoned(n, np.float64), i64=poisoned(n, np.int64),
                u8=poisoned(n, np.uint8), back=poisoned(n, np.float32))
    convert_kernel[(triton.cdiv(n, 64),)](x, *outs.values(), n, BLOCK=64)
    X = x.astype(np.float64)
    np.testing.assert_array_equal(outs["f16"], x.astype(np.float16))
    b = bf16_round(X)
    expected_bits = (b.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16).view(np.int16)
    np.testing.assert_array_equal(outs["bf16_bits"], expected_bits)
    np.testing.assert_array_equal(outs["bf16_f32"], bf16_round(b + b))
    i = np.trunc(X).astype(np.int32)
    np.testing.assert_array_equal(outs["i32"], i)
    np.testing.assert_allclose(outs["f64"], X / 3.0, rtol=1e-15)
    np.testing.assert_array_equal(outs["i64"], i.astype(np.int64) * 3000000000)
    np.testing.assert_array_equal(outs["u8"], (i & 255).astype(np.uint8))
    np.testing.assert_array_equal(outs["back"],
                                  (x.astype(np.float16).astype(np.float32) + i.astype(np.float32)))


def test_bfloat16_rounding_ties_and_specials():
    vals = np.array([1.0, 1.00390625, 1.01171875, -3.0e38, 3.4e38, np.inf, -np.inf, 0.0],
                    dtype=np.float64)
    r = round_to_bf16(vals)
    # 1 + 2^-8 is a tie between 1 and 1 + 2^-7: even mantissa wins (1.0);
    # 1 + 3 * 2^-8 ties to 1 + 2^-6.
    assert r[0] == 1.0 and r[1] == 1.0 and r[2] == 1.015625
    assert np.isinf(r[4]) and r[5] == np.inf and r[6] == -np.inf and r[7] == 0
    assert np.isnan(round_to_bf16(np.array([np.nan])))[0]


@triton.jit
def _invalid_ops_kernel(x_ptr, out_ptr):
    # NaNs made by arithmetic from finite values, and a NaN's negation.
    x = tl.load(x_ptr + tl.arange(0, 4))  # 0, -1, 0, 1
    tl.store(out_ptr + tl.arange(0, 4), x / x)
    tl.store(out_ptr + 4 + tl.arange(0, 4), tl.sqrt(x))
    tl.store(out_ptr + 8 + tl.arange(0, 4), tl.fma(x, x / x, x))
    tl.store(out_ptr + 12 + tl.arange(0, 4), -(x / x))


def test_nans_of_arithmetic_are_positive():
    # As the GPU's: 0 / 0, sqrt(-1) and an fma of a NaN give a positive NaN
    # (x86 a negative one); negation flips the sign bit of any value.
    x = np.array([0.0, -1.0, 0.0, 1.0], np.float32)
    out = np.zeros(16, np.float32)
    _invalid_ops_kernel[(1,)](x, out)
    sign = np.signbit(out)
    nan = np.isnan(out)
    assert nan[[0, 2, 5, 8, 10, 12, 14]].all()
    assert not sign[[0, 2, 5, 8, 10]].any()
    assert sign[[12, 14]].all()


@pytest.mark.parametrize("rows", [0, 1, 6, 7])
def test_loop_carried_values(rows, rng):
    cols = 200
    x = rng.standard_normal((max(rows, 1), cols)).astype(np.float32)
    out = poisoned(cols, np.float32)
    loop_sum_kernel[(triton.cdiv(cols, 64),)](x, out, rows, cols, BLOCK=64)
    ref = x[:rows].astype(np.float64).sum(axis=0) * (2 if rows % 2 else 1)
    np.testing.assert_allclose(out, ref, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("n", [0, 5, 8])
def test_static_runtime_while_and_tuple_loops(n):
    out = poisoned(16, np.int32)
    loops_kernel[(1,)](out, n, BLOCK=16, UNROLL=3)
    offs = np.arange(16)
    acc = offs * (1 + 2 + 3) + 6
    count = sum(range(n, 0, -2))
    total = int(sum(i * 0.5 for i in range(n)))
    np.testing.assert_array_equal(out, acc + count + total)


@pytest.mark.parametrize("activation", ["relu", "leaky", "none"])
@pytest.mark.parametrize("with_bias", [True, False])
def test_constexpr_branches(activation, with_bias, rng):
    n = 300
    x = rng.standard_normal(n).astype(np.float32)
    bias = rng.standard_normal(n).astype(np.float32)
    out = poisoned(n, np.float32)
    activation_kernel[(triton.cdiv(n, 128),)](x, bias if with_bias else None, out, n,
                                              ACTIVATION=activation, BLOCK=128)
    v = x.astype(np.float64) + (bias if with_bias else 0)
    ref = {"relu": np.maximum(v, 0), "leaky": np.where(v >= 0, v, 0.01 * v), "none": v}
    np.testing.assert_allclose(out, ref[activation], rtol=1e-6, atol=1e-6)


def test_nested_jit_calls(rng):
    n = 500
    x = rng.standard_normal(n).astype(np.float32)
    out = poisoned(n, np.float32)
    nested_kernel[(triton.cdiv(n, 128),)](x, out, n, 1.5, BLOCK=128)
    X = x.astype(np.float64)
    start = (np.arange(n) // 128) * 128
    np.testing.assert_allclose(out, X * 1.5 + 3 + X * 2.0 + start, rtol=1e-6, atol=1e-4)


def test_runtime_if_and_early_return(rng):
    n, BLOCK = 1000, 128
    x = rng.standard_normal(n).astype(np.float32)
    out = poisoned(n, np.float32)
    limit = 5
    runtime_if_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, limit, BLOCK=BLOCK)
    pid = np.arange(n) // BLOCK
    ref = np.where(pid % 2 == 0, (x + 1.0) * pid, (x - 1.0) * -pid)
    np.testing.assert_allclose(out[:limit * BLOCK], ref[:limit * BLOCK], rtol=1e-6, atol=1e-5)
    assert np.isnan(out[limit * BLOCK:]).all()


def test_integer_semantics_follow_c(rng):
    B = 64
    a = rng.integers(-1000, 1000, B).astype(np.int32)
    b = rng.integers(1, 50, B).astype(np.int32) * rng.choice([-1, 1], B).astype(np.int32)
    out = poisoned(7 * B, np.int32)
    int_ops_kernel[(1,)](a, b, out, BLOCK=B)
    A, Bv = a.astype(np.int64), b.astype(np.int64)
    q = np.trunc(A / Bv).astype(np.int64)  # C division truncates toward zero
    refs = [q, A - q * Bv, ((A << 3) ^ (A >> 2)), (A & Bv) | (~A & 7),
            np.where(A < Bv, A, -Bv), np.abs(A) + np.minimum(A, Bv) - np.maximum(A, Bv),
            (np.abs(A) + 6) // 7]
    for k, ref in enumerate(refs):
        np.testing.assert_array_equal(out[k * B:(k + 1) * B], ref.astype(np.int32),
                                      err_msg=f"output {k}")


@pytest.mark.parametrize("grid", [(3,), (2, 3), (2, 2, 2)])
def test_program_ids_and_num_programs(grid):
    g = tuple(grid) + (1,) * (3 - len(grid))
    out = poisoned(int(np.prod(g)), np.int32)
    grid_kernel[grid](out)
    ref = [x + 10 * y + 100 * z + 1000 * g[2] for z in range(g[2]) for y in range(g[1])
           for x in range(g[0])]
    np.testing.assert_array_equal(out, ref)


def test_broadcasting_outer_product(rng):
    x = rng.standard_normal(16).astype(np.float32)
    y = rng.standard_normal(32).astype(np.float32)
    out = poisoned((16, 32), np.float32)
    outer_kernel[(1,)](x, y, out, BM=16, BN=32)
    np.testing.assert_allclose(out, np.outer(x, y) + x[:, None], rtol=1e-6, atol=1e-5)


@pytest.mark.parametrize("flag", [True, False])
def test_scalar_pointers_and_bool_memory(flag, rng):
    x = rng.standard_normal(1).astype(np.float32)
    out = poisoned(2, np.float32)
    flags = np.array([flag, not flag], dtype=np.bool_)
    scalar_kernel[(1,)](x, out, flags, 2.5)
    assert out[0] == (np.float32(x[0] * np.float32(2.5)) if flag else -x[0])
    assert out[1] == x.astype(np.float16).astype(np.float32)[0]
    assert flags[1] == (x[0] > 0)


def test_float16_arithmetic_in_its_own_precision(rng):
    n = 200
    x = (rng.standard_normal(n) * 3).astype(np.float16)
    y = (rng.standard_normal(n) * 3 + 0.1).astype(np.float16)
    out = poisoned(3 * n, np.float16)
    half_kernel[(triton.cdiv(n, 64),)](x, y, out, n, BLOCK=64)
    # Each float16 operation rounds: x * y, then + x.
    np.testing.assert_array_equal(out[:n], (x * y) + x)
    # The float64 result rounded to float16: where exp(x) exceeds float16's
    # range (x > 11.09, in about 2% of random draws) both are +inf.
    exp_in_float16 = np.exp(x.astype(np.float64)).astype(np.float16)
    np.testing.assert_allclose(out[n:2 * n].astype(np.float64),
                               exp_in_float16.astype(np.float64), rtol=1e-3, atol=1e-6)
    np.testing.assert_array_equal(out[2 * n:], (x.astype(np.float32) / y.astype(np.float32))
                                  .astype(np.float16))


def test_interpret_flag_on_decorator(monkeypatch, rng):
    monkeypatch.delenv("TERRAZZO_INTERPRET")

    @triton.jit(interpret=True)
    def double(x_ptr, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        m = offs < n
        tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=m) * 2, mask=m)

    x = rng.standard_normal(10).astype(np.float32)
    ref = x * 2
    double[(1,)](x, 10, BLOCK=16)
    np.testing.assert_array_equal(x, ref)


@pytest.mark.parametrize("flag", [True, False])
def test_nested_control_flow_pointer_select_and_scalar_params(flag, rng):
    n, B = 5, 32
    x = rng.standard_normal(n * B).astype(np.float32)
    y = rng.standard_normal(n * B).astype(np.float32)
    out = poisoned(B, np.float32)
    control_kernel[(1,)](x, y, out, n, 3 * 2**33, flag, 1.5, BLOCK=B)
    acc = np.zeros(B)
    offs = np.arange(B)
    for i in range(n):
        v = np.where(offs % 2 == 0, x[i * B + offs], y[i * B + offs])
        acc = acc + v * 1.5 if i % 3 == 0 else acc - 0.25 * i
    if flag:
        acc = acc * 4
    np.testing.assert_allclose(out, acc, rtol=1e-5, atol=1e-5)


def test_device_print(capsys):
    @triton.jit
    def show(x_ptr):
        tl.device_print("value: ", tl.load(x_ptr + tl.arange(0, 4)))
        print("pid", tl.program_id(0))

    show[(2,)](np.arange(4, dtype=np.int32))
    text = capsys.readouterr().out
    assert "pid (0, 0, 0) value: [0 1 2 3]" in text
    assert "pid (1, 0, 0) pid 1" in text




@triton.jit
def small_ints_kernel(a_ptr, b_ptr, out8_ptr, outu_ptr, flags_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs)  # int8
    b = tl.load(b_ptr + offs)  # uint8
    tl.store(out8_ptr + offs, a * 3 + 100)  # wraps in int8
    s = a.to(tl.uint8) + b  # uint8 arithmetic wraps modulo 256
    tl.store(outu_ptr + offs, s)
    big = b.to(tl.uint32) * 16777216  # >= 2**31 for b >= 128: unsigned comparisons
    lt = big < 2147483648
    nz = b != 0
    tl.store(flags_ptr + offs, (lt & nz) | ~(a < 0))


def test_small_and_unsigned_integers(rng):
    B = 64
    a = rng.integers(-128, 128, B).astype(np.int8)
    b = rng.integers(0, 256, B).astype(np.uint8)
    out8 = poisoned(B, np.int8)
    outu = poisoned(B, np.uint8)
    flags = np.zeros(B, np.bool_)
    small_ints_kernel[(1,)](a, b, out8, outu, flags, BLOCK=B)
    np.testing.assert_array_equal(out8, ((a.astype(np.int64) * 3 + 100 + 128) % 256 - 128))
    np.testing.assert_array_equal(outu, (a.astype(np.int64) % 256 + b) % 256)
    big = b.astype(np.uint64) * 16777216
    np.testing.assert_array_equal(flags, ((big < 2**31) & (b != 0)) | ~(a < 0))


def test_full_zeros_like_broadcast_and_static_print(capsys):
    @triton.jit
    def k(out_ptr, v, BLOCK: tl.constexpr):
        tl.static_print("BLOCK is", BLOCK)
        x = tl.full([BLOCK], v, tl.int16)  # a runtime fill value
        z = tl.zeros_like(x)
        col, row = tl.broadcast(tl.arange(0, BLOCK)[:, None], tl.arange(0, 2)[None, :])
        tl.store(out_ptr + col * 2 + row, (x + z)[:, None] + row * 1000)

    out = poisoned(16, np.int16)
    k[(1,)](out, 7, BLOCK=8)
    np.testing.assert_array_equal(out.reshape(8, 2), [[7, 1007]] * 8)
    assert "BLOCK is 8" in capsys.readouterr().out


# Kernels and arguments that test_frontend.py compiles to PTX.
def _arrays(*specs):
    return [np.zeros(n, dtype=d) for n, d in specs]


CASES = {
    "add": (add_kernel, lambda: (*_arrays((64, np.float32), (64, np.float32),
                                          (64, np.float32)), 64), dict(BLOCK_SIZE=1024)),
    "fused": (fused_kernel, lambda: (*_arrays(*[(64, np.float32)] * 4), 64), dict(BLOCK=512)),
    "copy2d": (copy2d_kernel, lambda: (*_arrays((80, np.float32), (160, np.float32)), 5, 7,
                                       16, 32), dict(BM=32, BN=64)),
    "convert": (convert_kernel, lambda: (*_arrays((8, np.float32), (8, np.float16),
                                                  (8, np.int16), (8, np.float32),
                                                  (8, np.int32), (8, np.float64),
                                                  (8, np.int64), (8, np.uint8),
                                                  (8, np.float32)), 8), dict(BLOCK=256)),
    "loop_sum": (loop_sum_kernel, lambda: (*_arrays((192, np.float32), (64, np.float32)), 3, 64),
                 dict(BLOCK=256)),
    "loops": (loops_kernel, lambda: (*_arrays((128, np.int32)), 9), dict(BLOCK=128, UNROLL=2)),
    "activation_relu": (activation_kernel, lambda: (*_arrays((64, np.float32),
                                                             (64, np.float32),
                                                             (64, np.float32)), 64),
                        dict(ACTIVATION="relu", BLOCK=128)),
    "activation_none": (activation_kernel, lambda: (np.zeros(4, np.float32), None,
                                                    np.zeros(4, np.float32), 4),
                        dict(ACTIVATION="leaky", BLOCK=128)),
    "nested": (nested_kernel, lambda: (*_arrays((64, np.float32), (64, np.float32)), 64, 1.5),
               dict(BLOCK=128)),
    "runtime_if": (runtime_if_kernel, lambda: (*_arrays((64, np.float32), (64, np.float32)),
                                               64, 3), dict(BLOCK=128)),
    "int_ops": (int_ops_kernel, lambda: _arrays((64, np.int32), (64, np.int32),
                                                (448, np.int32)), dict(BLOCK=64)),
    "grid": (grid_kernel, lambda: _arrays((64, np.int32)), {}),
    "outer": (outer_kernel, lambda: _arrays((16, np.float32), (32, np.float32),
                                            (512, np.float32)), dict(BM=16, BN=32)),
    "scalar": (scalar_kernel, lambda: (*_arrays((2, np.float32), (2, np.float32),
                                                (2, np.bool_)), 2.5), {}),
    "control": (control_kernel, lambda: (*_arrays((128, np.float32), (128, np.float32),
                                                  (32, np.float32)), 4, 2**33, True, 0.5),
                dict(BLOCK=32)),
    "small_ints": (small_ints_kernel, lambda: _arrays((64, np.int8), (64, np.uint8),
                                                      (64, np.int8), (64, np.uint8),
                                                      (64, np.bool_)), dict(BLOCK=64)),
    "half": (half_kernel, lambda: (*_arrays((64, np.float16), (64, np.float16),
                                            (192, np.float16)), 64), dict(BLOCK=128)),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_cases_run_in_bounds(case):
    """The arguments of CASES are valid for a grid of 2 programs (the GPU
    test runs them there and compares with the interpreter)."""
    kernel, make_args, meta = CASES[case]
    kernel[(2,)](*make_args(), **meta)
