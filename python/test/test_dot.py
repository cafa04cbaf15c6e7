"""tl.dot in the frontend: operand checks, result types, accumulators and
precisions as in Triton; the interpreter against float64 NumPy on fresh
random inputs with masked tails; the tile IR it generates (verified by
terrazzo-opt) and its PTX: mma.sync, wgmma (tf32x3 as three tf32 dots) or
fused multiply-adds where no tensor core applies; on a GPU, the same
kernels against float64. fp8 operands (both
formats and their mix) in the interpreter, in PTX for sm_90a (wgmma), sm_89
(mma.sync on float16) and sm_80 (an error), and on a GPU against float64
products of their exact values.
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import terrazzo as triton
import terrazzo.language as tl
from terrazzo.errors import CompilationError


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, d_ptr, M, N, K, PRECISION: tl.constexpr,
                  USE_ACC: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
                  BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :],
                mask=(rm[:, None] < M) & (rk[None, :] < K), other=0)
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :],
                mask=(rk[:, None] < K) & (rn[None, :] < N), other=0)
    c_mask = (rm[:, None] < M) & (rn[None, :] < N)
    if USE_ACC:
        c = tl.load(c_ptr + rm[:, None] * N + rn[None, :], mask=c_mask, other=0)
        d = tl.dot(a, b, acc=c, input_precision=PRECISION)
    else:
        d = tl.dot(a, b, input_precision=PRECISION)
    tl.store(d_ptr + rm[:, None] * N + rn[None, :], d, mask=c_mask)


@triton.jit
def half_out_kernel(a_ptr, b_ptr, d_ptr, BM: tl.constexpr, BN: tl.constexpr,
                    BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = tl.load(a_ptr + rm[:, None] * BK + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * BN + rn[None, :])
    d = tl.dot(a, b, out_dtype=tl.float16)
    tl.store(d_ptr + rm[:, None] * BN + rn[None, :], d)


@triton.jit
def batched_kernel(a_ptr, b_ptr, d_ptr, B: tl.constexpr, M: tl.constexpr, N: tl.constexpr,
                   K: tl.constexpr):
    rb = tl.arange(0, B)
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rb[:, None, None] * M * K + rm[None, :, None] * K + rk[None, None, :])
    b = tl.load(b_ptr + rb[:, None, None] * K * N + rk[None, :, None] * N + rn[None, None, :])
    d = tl.dot(a, b)
    tl.store(d_ptr + rb[:, None, None] * M * N + rm[None, :, None] * N + rn[None, None, :], d)


@triton.jit
def matmul_operator_kernel(a_ptr, b_ptr, d_ptr):
    r = tl.arange(0, 16)
    a = tl.load(a_ptr + r[:, None] * 16 + r[None, :])
    b = tl.load(b_ptr + r[:, None] * 16 + r[None, :])
    tl.store(d_ptr + r[:, None] * 16 + r[None, :], a @ b)


def interp(kernel):
    return triton.jit(kernel.fn, interpret=True)


def _blocks(m, n, k):
    return dict(BM=max(16, triton.next_power_of_2(m)), BN=max(16, triton.next_power_of_2(n)),
                BK=max(16, triton.next_power_of_2(k)))


def _run(dtype, m, n, k, precision, use_acc, rng):
    if np.issubdtype(dtype, np.integer):
        a = rng.integers(-128, 128, (m, k)).astype(dtype)
        b = rng.integers(-128, 128, (k, n)).astype(dtype)
        c = rng.integers(-1000, 1000, (m, n)).astype(np.int32)
        d = np.full((m, n), -7, np.int32)
    else:
        a = rng.standard_normal((m, k)).astype(dtype)
        b = rng.standard_normal((k, n)).astype(dtype)
        c = rng.standard_normal((m, n)).astype(np.float32)
        d = np.full((m, n), np.nan, np.float32)
    interp(matmul_kernel)[(1,)](a, b, c, d, m, n, k, PRECISION=precision,
                                USE_ACC=use_acc, **_blocks(m, n, k))
    want = a.astype(np.float64) @ b.astype(np.float64)
    if use_acc:
        want = want + c
    scale = np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64)) + 1
    return d, want, scale


@pytest.mark.parametrize("shape", [(16, 16, 16), (20, 30, 40), (33, 17, 65)])
@pytest.mark.parametrize("use_acc", [False, True])
def test_float32_ieee_and_tf32(shape, use_acc, rng):
    m, n, k = shape
    d, want, scale = _run(np.float32, m, n, k, "ieee", use_acc, rng)
    assert np.all(np.abs(d - want) <= 1e-6 * scale)
    d, want, scale = _run(np.float32, m, n, k, "tf32", use_acc, rng)
    err = np.abs(d - want)
    # Operands rounded to 10 mantissa bits: each product is off by at most
    # about 2^-10 of its size.
    assert np.all(err <= 2e-3 * scale)
    assert np.any(err > 1e-6 * scale), "tf32 should round the operands"


@pytest.mark.parametrize("dtype", [np.float16, np.int8])
@pytest.mark.parametrize("use_acc", [False, True])
def test_float16_and_int8(dtype, use_acc, rng):
    d, want, scale = _run(dtype, 37, 21, 50, "ieee", use_acc, rng)
    if dtype == np.int8:
        np.testing.assert_array_equal(d, want.astype(np.int64))
    else:
        # float16 products are exact in float32; only the sums round.
        assert np.all(np.abs(d - want) <= 1e-6 * scale)


def test_float16_output(rng):
    a = rng.standard_normal((16, 32)).astype(np.float16)
    b = rng.standard_normal((32, 16)).astype(np.float16)
    d = np.full((16, 16), np.nan, np.float16)
    interp(half_out_kernel)[(1,)](a, b, d, BM=16, BN=16, BK=32)
    want = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(d.astype(np.float64), want, rtol=2e-3, atol=2e-3)


def test_matmul_operator_is_dot(rng):
    a = rng.standard_normal((16, 16)).astype(np.float16)
    b = rng.standard_normal((16, 16)).astype(np.float16)
    d = np.full((16, 16), np.nan, np.float32)
    interp(matmul_operator_kernel)[(1,)](a, b, d)
    want = a.astype(np.float64) @ b.astype(np.float64)
    assert np.all(np.abs(d - want) <= 1e-6 * (np.abs(a.astype(np.float64)) @
                                              np.abs(b.astype(np.float64)) + 1))


def test_batched(rng):
    a = rng.standard_normal((2, 16, 32)).astype(np.float32)
    b = rng.standard_normal((2, 32, 16)).astype(np.float32)
    d = np.full((2, 16, 16), np.nan, np.float32)
    interp(batched_kernel)[(1,)](a, b, d, B=2, M=16, N=16, K=32)
    want = np.matmul(a.astype(np.float64), b.astype(np.float64))
    scale = np.matmul(np.abs(a.astype(np.float64)), np.abs(b.astype(np.float64))) + 1
    assert np.all(np.abs(d - want) <= 2e-3 * scale)  # tf32 operands, the default


def test_ir(check_ir):
    z = np.zeros
    args = (z((16, 32), np.float32), z((32, 16), np.float32), z((16, 16), np.float32),
            z((16, 16), np.float32), 16, 16, 32)
    tf32 = matmul_kernel.ir(*args, PRECISION="tf32", USE_ACC=False, BM=16, BN=16, BK=32)
    assert "tile.dot" in tf32 and "precision = tf32" in tf32
    assert "-> tensor<16x16xf32>" in tf32
    check_ir(tf32, ptx=False)
    ieee = matmul_kernel.ir(*args, PRECISION="ieee", USE_ACC=True, BM=16, BN=16, BK=32)
    assert "tile.dot" in ieee and "precision" not in ieee.split("tile.dot")[1].split("\n")[0]
    check_ir(ieee, ptx=False)
    ints = matmul_kernel.ir(z((16, 32), np.int8), z((32, 16), np.int8), z((16, 16), np.int32),
                            z((16, 16), np.int32), 16, 16, 32, PRECISION="ieee", USE_ACC=False,
                            BM=16, BN=16, BK=32)
    assert "tensor<16x32xi8> * tensor<32x16xi8> -> tensor<16x16xi32>" in ints
    check_ir(ints, ptx=False)


@triton.jit
def bad_dot_kernel(x_ptr, CASE: tl.constexpr):
    r16 = tl.arange(0, 16)
    r8 = tl.arange(0, 8)
    a = tl.load(x_ptr + r16[:, None] * 16 + r16[None, :])
    if CASE == 0:
        d = tl.dot(a, tl.load(x_ptr + r8[:, None] * 16 + r16[None, :]))  # K mismatch
    elif CASE == 1:
        d = tl.dot(tl.load(x_ptr + r8[:, None] * 16 + r16[None, :]), a)  # M = 8
    elif CASE == 2:
        d = tl.dot(a, a.to(tl.float16))  # mixed types
    elif CASE == 3:
        d = tl.dot(a, a, acc=tl.zeros((16, 16), dtype=tl.float16))  # wrong acc
    else:
        d = tl.dot(a, a, input_precision="bf16x9")  # unknown precision
    tl.store(x_ptr + r16[:, None] * 16 + r16[None, :], d)


def _line_of(kernel, text):
    src, start = inspect.getsourcelines(kernel.fn)
    for i, line in enumerate(src):
        if text in line:
            return start + i
    raise AssertionError(text)


@pytest.mark.parametrize("case,message,marker", [
    (0, "inner dimensions differ", "K mismatch"),
    (1, "M, N and K of at least 16", "M = 8"),
    (2, "must have one type", "mixed types"),
    (3, "accumulator must be a fp32 block", "wrong acc"),
    (4, "input_precision must be one of", "unknown precision"),
])
def test_errors_name_the_line(case, message, marker):
    with pytest.raises(CompilationError) as e:
        bad_dot_kernel.ir(np.zeros(256, np.float32), CASE=case)
    text = str(e.value)
    assert message in text
    assert f":{_line_of(bad_dot_kernel, marker)}" in text


def test_float32_ieee_lowers_to_fma_ptx(check_ir):
    """float32 in "ieee" precision has no tensor-core instruction: the dot
    lowers to fused multiply-adds, and the PTX assembles."""
    z = np.zeros
    text = matmul_kernel.ir(z((16, 32), np.float32), z((32, 16), np.float32),
                            z((16, 16), np.float32), z((16, 16), np.float32), 16, 16, 32,
                            PRECISION="ieee", USE_ACC=True, BM=16, BN=16, BK=32)
    ptx = check_ir(text)
    # 16 x 16 results over 128 threads, 32 products each.
    assert ptx.count("fma.rn.f32") == 2 * 32
    assert "mma.sync" not in ptx


@pytest.mark.parametrize("dtype,precision,instruction,count", [
    # 16 x 16 x 32 at 4 warps: warps 2 x 2 over two 16 x 8 tiles (two warps
    # hold copies), each warp one tile, K in steps of 16 / 8 / 32.
    (np.float16, "ieee", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 2),
    (np.float32, "tf32", "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", 4),
    (np.int8, "ieee", "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32", 1),
])
def test_tensor_core_types_lower_to_mma_sync(check_ir, dtype, precision, instruction, count):
    """On sm_90 (and sm_80+) float16, tf32 and int8 dots are mma.sync
    instructions; the PTX assembles."""
    z = np.zeros
    acc = np.int32 if dtype == np.int8 else np.float32
    text = matmul_kernel.ir(z((16, 32), dtype), z((32, 16), dtype), z((16, 16), acc),
                            z((16, 16), acc), 16, 16, 32, PRECISION=precision,
                            USE_ACC=True, BM=16, BN=16, BK=32)
    ptx = check_ir(text)
    assert ptx.count(instruction) == count, [l for l in ptx.splitlines() if "mma" in l]
    assert "fma.rn.f32" not in ptx


@pytest.mark.parametrize("target,instruction", [
    # 64 x 64 x 32 at 4 warps: mma.sync m16n8k8 on sm_80, wgmma m64n64k8 on
    # sm_90a.
    ("cuda:80", "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"),
    ("cuda:90", "wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32"),
])
def test_tf32x3_lowers_to_three_tf32_dots(check_ir, target, instruction):
    """On tensor cores a tf32x3 dot is three tf32 dots (each operand split
    into a tf32 part and a remainder): three times the tf32 dot's
    instructions and no FMA fallback; the PTX assembles."""
    z = np.zeros
    args = (z((64, 32), np.float32), z((32, 64), np.float32), z((64, 64), np.float32),
            z((64, 64), np.float32), 64, 64, 32)
    counts = {}
    for precision in ("tf32", "tf32x3"):
        text = matmul_kernel.ir(*args, PRECISION=precision, USE_ACC=True, BM=64, BN=64, BK=32)
        ptx = check_ir.compile(text, target=target, num_warps=4)
        assert "fma.rn.f32" not in ptx, precision
        counts[precision] = ptx.count(instruction)
    assert counts["tf32"] > 0 and counts["tf32x3"] == 3 * counts["tf32"], counts


@pytest.mark.parametrize("use_acc", [False, True])
def test_tf32x3_interpreter_is_float32(use_acc, rng):
    """The interpreter takes tf32x3 as float32, which tf32x3 approximates."""
    d, want, scale = _run(np.float32, 33, 47, 50, "tf32x3", use_acc, rng)
    assert np.all(np.abs(d - want) <= 1e-6 * scale)


def _run_gpu_float32(torch, a, b, c, precision, use_acc):
    """D = A B (+ C) by matmul_kernel on the GPU in `precision`, in one
    program instance of 4 warps; D has a guard row and starts as NaN."""
    (m, k), n = a.shape, b.shape[1]
    d = torch.full((m + 1, n), float("nan"), dtype=torch.float32, device="cuda")
    cuda = lambda x: torch.from_numpy(x).cuda()
    matmul_kernel[(1,)](cuda(a), cuda(b), cuda(c), d, m, n, k, PRECISION=precision,
                        USE_ACC=use_acc, num_warps=4, **_blocks(m, n, k))
    torch.cuda.synchronize()
    return d.cpu().numpy().astype(np.float64)


@pytest.mark.gpu
@pytest.mark.parametrize("shape", [(64, 64, 64), (128, 128, 64), (33, 47, 50), (16, 16, 16)],
                         ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("use_acc", [False, True])
def test_gpu_tf32x3_matches_float64(torch_cuda, shape, use_acc, rng):
    """tf32x3 on tensor cores (wgmma on sm_90a from M = 64, mma.sync
    otherwise) is within float32's accuracy of the float64 product, where
    tf32 alone is not; every element of D is written and, with masked
    edges (33 x 47 x 50), nothing past its last row."""
    m, n, k = shape
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    c = rng.standard_normal((m, n)).astype(np.float32)
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    want = a64 @ b64 + (c if use_acc else 0)
    scale = np.abs(a64) @ np.abs(b64) + (np.abs(c) if use_acc else 0)
    tol = 1e-5  # relative to scale; float32's own rounding stays below it
    got = _run_gpu_float32(torch_cuda, a, b, c, "tf32x3", use_acc)
    assert not np.isnan(got[:m]).any(), "elements of D were not written"
    assert np.isnan(got[m]).all(), "a store went past the last row"
    err = (np.abs(got[:m] - want) / scale).max()
    assert err <= tol, f"tf32x3: max error {err:.2e} relative to |A||B|"
    # The bound separates the precisions: one tf32 product misses it.
    tf32 = _run_gpu_float32(torch_cuda, a, b, c, "tf32", use_acc)
    tf32_err = (np.abs(tf32[:m] - want) / scale).max()
    assert tf32_err > tol, f"tf32 alone is within {tf32_err:.2e}: the test cannot tell"


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["float16", "float32", "int8"])
@pytest.mark.parametrize("shape", [(16, 16, 16), (20, 30, 40), (64, 33, 17)])
@pytest.mark.parametrize("use_acc", [False, True])
def test_gpu_matches_float64(torch_cuda, dtype, shape, use_acc, rng):
    torch = torch_cuda
    m, n, k = shape
    np_type = np.dtype(dtype)
    if np_type.kind == "i":
        a = rng.integers(-128, 128, (m, k)).astype(np_type)
        b = rng.integers(-128, 128, (k, n)).astype(np_type)
        c = rng.integers(-1000, 1000, (m, n)).astype(np.int32)
        d = torch.full((m, n), -7, dtype=torch.int32, device="cuda")
    else:
        a = rng.standard_normal((m, k)).astype(np_type)
        b = rng.standard_normal((k, n)).astype(np_type)
        c = rng.standard_normal((m, n)).astype(np.float32)
        d = torch.full((m, n), float("nan"), dtype=torch.float32, device="cuda")
    cuda = lambda x: torch.from_numpy(x).cuda()
    matmul_kernel[(1,)](cuda(a), cuda(b), cuda(c), d, m, n, k, PRECISION="ieee",
                        USE_ACC=use_acc, **_blocks(m, n, k))
    torch.cuda.synchronize()
    got = d.cpu().numpy()
    want = a.astype(np.float64) @ b.astype(np.float64) + (c if use_acc else 0)
    if np_type.kind == "i":
        np.testing.assert_array_equal(got, want.astype(np.int64))
    else:
        scale = np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64)) + 1
        assert np.all(np.abs(got - want) <= 1e-5 * scale)


@triton.jit
def looped_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk,
                         stride_bn, stride_cm, stride_cn, PRECISION: tl.constexpr,
                         ACC: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
                         BK: tl.constexpr):
    # The shape of Triton's matmul tutorial: a K loop over blocks of A and B
    # with masked edges in M, N and K, any strides (transposed operands).
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn
    acc = tl.zeros((BM, BN), dtype=ACC)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & (rk[None, :] < K - k * BK), other=0)
        b = tl.load(b_ptrs, mask=(rk[:, None] < K - k * BK) & (rn[None, :] < N), other=0)
        acc = tl.dot(a, b, acc, input_precision=PRECISION, out_dtype=ACC)
        a_ptrs += BK * stride_ak
        b_ptrs += BK * stride_bk
    c_ptrs = c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn
    tl.store(c_ptrs, acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


# (input dtype, input_precision, accumulator, tolerance relative to |A| |B|)
TENSOR_CORE_TYPES = [
    ("float16", "ieee", "float32", 1e-5),
    ("bfloat16", "ieee", "float32", 1e-5),
    ("float32", "tf32", "float32", 2e-3),
    ("float32", "tf32x3", "float32", 1e-5),
    ("int8", "ieee", "int32", 0),
    ("float16", "ieee", "float16", 2e-3),
]

# (M, N, K), (BM, BN, BK), warps: tails in every dimension, a single warp.
LOOPED_SHAPES = [
    ((128, 128, 64), (64, 64, 32), 4),
    ((200, 150, 100), (64, 64, 32), 4),
    ((96, 256, 48), (128, 64, 16), 8),
    ((33, 17, 256), (32, 16, 64), 1),
]


@pytest.mark.gpu
@pytest.mark.parametrize("types", TENSOR_CORE_TYPES, ids=lambda t: f"{t[0]}-{t[1]}-{t[2]}")
@pytest.mark.parametrize("shape,blocks,num_warps", LOOPED_SHAPES)
@pytest.mark.parametrize("transpose_b", [False, True])
def test_gpu_tensor_cores_match_float64(torch_cuda, types, shape, blocks, num_warps,
                                        transpose_b):
    torch = torch_cuda
    dtype, precision, acc, tol = types
    (m, n, k), (bm, bn, bk) = shape, blocks
    if dtype == "int8" and bk < 32:
        bk = 32  # below mma.sync's K for int8 the FMA path would run instead
    t_in = getattr(torch, dtype)
    if dtype == "int8":
        a = torch.randint(-128, 128, (m, k), dtype=t_in, device="cuda")
        b = torch.randint(-128, 128, (k, n), dtype=t_in, device="cuda")
    else:
        a = torch.randn((m, k), device="cuda").to(t_in)
        b = torch.randn((k, n), device="cuda").to(t_in)
    if transpose_b:  # B stored N x K, read through its strides
        b = b.t().contiguous().t()
    t_acc = getattr(torch, acc)
    fill = -7 if acc == "int32" else float("nan")
    c = torch.full((m + 1, n), fill, dtype=t_acc, device="cuda")  # one guard row
    grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
    looped_matmul_kernel[grid](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0),
                               b.stride(1), c.stride(0), c.stride(1), PRECISION=precision,
                               ACC=getattr(tl, acc), BM=bm, BN=bn, BK=bk,
                               num_warps=num_warps)
    torch.cuda.synchronize()
    want = a.double() @ b.double()
    got = c[:m].double()
    if dtype == "int8":
        assert torch.equal(got, want), (got - want).abs().max()
    else:
        scale = a.double().abs() @ b.double().abs() + 1
        err = ((got - want).abs() / scale).max().item()
        assert err <= tol, f"max error {err:.2e} relative to |A||B|"
    guard = c[m]
    assert bool(torch.all(guard == fill) if acc == "int32" else torch.all(torch.isnan(guard))), \
        "a store went past the last row"


@pytest.mark.parametrize("types", [t for t in TENSOR_CORE_TYPES if t[0] != "bfloat16"],
                         ids=lambda t: f"{t[0]}-{t[1]}-{t[2]}")
@pytest.mark.parametrize("shape,blocks,num_warps", LOOPED_SHAPES)
@pytest.mark.parametrize("transpose_b", [False, True])
def test_interpreter_tensor_core_types_match_float64(types, shape, blocks, num_warps,
                                                     transpose_b, rng):
    # test_gpu_tensor_cores_match_float64's kernel at its arguments,
    # in the interpreter: checked here without a GPU, and
    # (TERRAZZO_AMD_LAUNCHES) compiled at that key for the AMD targets.
    # (bfloat16 aside: NumPy has no such type to pass.)
    dtype, precision, acc, tol = types
    (m, n, k), (bm, bn, bk) = shape, blocks
    if dtype == "int8" and bk < 32:
        bk = 32
    if dtype == "int8":
        a = rng.integers(-128, 128, (m, k)).astype(np.int8)
        b = rng.integers(-128, 128, (k, n)).astype(np.int8)
    else:
        a = rng.standard_normal((m, k)).astype(dtype)
        b = rng.standard_normal((k, n)).astype(dtype)
    if transpose_b:
        b = np.asfortranarray(b)
    fill = -7 if acc == "int32" else np.nan
    c = np.full((m + 1, n), fill, dtype=acc)
    sb = [s // b.itemsize for s in b.strides]
    interp(looped_matmul_kernel)[(triton.cdiv(m, bm), triton.cdiv(n, bn))](
        a, b, c, m, n, k, k, 1, sb[0], sb[1], n, 1, PRECISION=precision,
        ACC=getattr(tl, acc), BM=bm, BN=bn, BK=bk, num_warps=num_warps)
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    want, got = a64 @ b64, c[:m].astype(np.float64)
    if dtype == "int8":
        assert np.array_equal(got, want)
    else:
        err = (np.abs(got - want) / (np.abs(a64) @ np.abs(b64) + 1)).max()
        assert err <= max(tol, 1e-5), err
    assert (c[m] == fill).all() if acc == "int32" else np.isnan(c[m]).all()


@pytest.mark.gpu
@pytest.mark.parametrize("acc", ["float32", "float16"])
@pytest.mark.parametrize("num_warps", [4, 8])
def test_gpu_empty_k_loop_gives_zeros(torch_cuda, acc, num_warps):
    # K = 0: the pipelined loop never runs, so its accumulator (on sm_90 a
    # wgmma one that starts from no value, with use_c false) must come out
    # as the zeros it started as, in every element. The operands are real
    # (and their strides those of 64 columns) so that the loads are
    # pipelined as in a matmul.
    torch = torch_cuda
    m, n = 150, 192
    a = torch.randn((m, 64), device="cuda").to(torch.float16)
    b = torch.randn((64, n), device="cuda").to(torch.float16)
    t_acc = getattr(torch, acc)
    c = torch.full((m + 1, n), float("nan"), dtype=t_acc, device="cuda")
    grid = (triton.cdiv(m, 128), triton.cdiv(n, 128))
    looped_matmul_kernel[grid](a, b, c, m, n, 0, a.stride(0), 1, b.stride(0), 1, c.stride(0),
                               1, PRECISION="ieee", ACC=getattr(tl, acc), BM=128, BN=128,
                               BK=64, num_warps=num_warps)
    torch.cuda.synchronize()
    assert bool(torch.all(c[:m] == 0)), "an element is not zero (or was not written)"
    assert bool(torch.all(torch.isnan(c[m]))), "a store went past the last row"


# ---------------------------------------------------------------------------
# fp8 operands (float8e4nv = e4m3, float8e5 = e5m2), accumulated in float32
# (or float16): wgmma on sm_90a, mma.sync on float16 converted from fp8 on
# sm_89 and where wgmma does not apply, an error before sm_89.
# ---------------------------------------------------------------------------

# name -> (exponent bits, mantissa bits, bias, has infinities)
FP8_FORMATS = {"float8e4nv": (4, 3, 7, False), "float8e5": (5, 2, 15, True)}
FP8_PAIRS = [("float8e4nv", "float8e4nv"), ("float8e5", "float8e5"),
             ("float8e4nv", "float8e5")]
TL_FP8 = {"float8e4nv": tl.float8e4nv, "float8e5": tl.float8e5}
# The names in wgmma's type suffixes.
PTX_FP8 = {"float8e4nv": "e4m3", "float8e5": "e5m2"}


def fp8_code_values(name):
    """float64 value of each of the 256 codes of an fp8 format (NaN for NaN
    codes, infinities for e5m2's), from the format's definition."""
    ebits, mbits, bias, has_inf = FP8_FORMATS[name]
    out = np.empty(256)
    for code in range(256):
        sign = -1.0 if code >> 7 else 1.0
        e = (code >> mbits) & ((1 << ebits) - 1)
        m = code & ((1 << mbits) - 1)
        if e == (1 << ebits) - 1 and (has_inf or m == (1 << mbits) - 1):
            out[code] = sign * np.inf if has_inf and m == 0 else np.nan
        elif e == 0:
            out[code] = sign * m * 2.0 ** (1 - bias - mbits)
        else:
            out[code] = sign * (1 + m / 2 ** mbits) * 2.0 ** (e - bias)
    return out


def random_fp8(rng, name, shape, limit=8.0, integers=False):
    """Codes (uint8) drawn uniformly from the finite codes of magnitude at
    most `limit` (subnormals and zeros of both signs included; only the
    integers with `integers`), and their float64 values."""
    values = fp8_code_values(name)
    allowed = np.isfinite(values) & (np.abs(values) <= limit)
    if integers:
        allowed &= values == np.round(values)
    allowed = np.flatnonzero(allowed)
    codes = rng.choice(allowed, size=shape).astype(np.uint8)
    return codes, values[codes]


@triton.jit
def fp8_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk,
                      stride_bn, stride_cm, stride_cn, A: tl.constexpr, B: tl.constexpr,
                      ACC: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
                      BK: tl.constexpr):
    # The operands' bytes as fp8 whatever the pointers' own type (uint8
    # arrays in the interpreter, float8 tensors on the GPU); a K loop with
    # masked edges in M, N and K and any strides (B K-major or N-major); the
    # accumulator converted to C's type.
    a_ptr = a_ptr.to(tl.pointer_type(A))
    b_ptr = b_ptr.to(tl.pointer_type(B))
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn
    acc = tl.zeros((BM, BN), dtype=ACC)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & (rk[None, :] < K - k * BK), other=0.0)
        b = tl.load(b_ptrs, mask=(rk[:, None] < K - k * BK) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, out_dtype=ACC)
        a_ptrs += BK * stride_ak
        b_ptrs += BK * stride_bk
    c_ptrs = c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=(rm[:, None] < M) & (rn[None, :] < N))


def _fp8_operands(rng, fa, fb, m, n, k, b_k_major, **values):
    """(a codes M x K, b codes as stored, b's strides (k, n), A and B in
    float64): B stored N x K (K contiguous) when b_k_major."""
    a, a64 = random_fp8(rng, fa, (m, k), **values)
    if b_k_major:
        bt, bt64 = random_fp8(rng, fb, (n, k), **values)
        return a, bt, (1, k), a64, bt64.T
    b, b64 = random_fp8(rng, fb, (k, n), **values)
    return a, b, (n, 1), a64, b64


@pytest.mark.parametrize("fa,fb", FP8_PAIRS)
@pytest.mark.parametrize("shape,blocks", [
    ((64, 64, 64), (64, 64, 64)),
    ((100, 72, 96), (64, 64, 32)),    # masked tails in M, N and K, a K loop
    ((33, 17, 80), (32, 32, 32)),
])
@pytest.mark.parametrize("b_k_major", [False, True])
@pytest.mark.parametrize("out", ["float32", "float16"])
def test_fp8_interpreter(fa, fb, shape, blocks, b_k_major, out, rng):
    (m, n, k), (bm, bn, bk) = shape, blocks
    a, b, (sbk, sbn), a64, b64 = _fp8_operands(rng, fa, fb, m, n, k, b_k_major)
    c = np.full((m + 1, n), np.nan, np.dtype(out))  # poisoned, one guard row
    grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
    interp(fp8_matmul_kernel)[grid](a, b, c, m, n, k, k, 1, sbk, sbn, n, 1, A=TL_FP8[fa],
                                    B=TL_FP8[fb], ACC=tl.float32, BM=bm, BN=bn, BK=bk)
    want = a64 @ b64  # exact: fp8 products and their sums fit in float64
    # The interpreter adds each K step's float64 product to the float32
    # accumulator, rounding once per step; a float16 C rounds once more
    # (within float16's subnormal spacing near zero).
    steps = -(-k // bk)
    tol = steps * 2.0 ** -24 * (np.abs(a64) @ np.abs(b64))
    if out == "float16":
        tol = tol * (1 + 2.0 ** -11) + 2.0 ** -11 * np.abs(want) + 2.0 ** -25
    err = np.abs(c[:m].astype(np.float64) - want)
    assert np.all(err <= tol), (err - tol).max()
    assert np.isnan(c[m]).all(), "a store went past the last row"


def test_fp8_interpreter_float16_accumulator(rng):
    a, a64 = random_fp8(rng, "float8e5", (48, 64))
    b, b64 = random_fp8(rng, "float8e4nv", (64, 40))
    c = np.full((48, 40), np.nan, np.float16)
    interp(fp8_matmul_kernel)[(1, 1)](a, b, c, 48, 40, 64, 64, 1, 40, 1, 40, 1,
                                      A=tl.float8e5, B=tl.float8e4nv, ACC=tl.float16,
                                      BM=64, BN=64, BK=32)
    want = a64 @ b64
    # Two K steps, each rounded to float16.
    assert np.all(np.abs(c.astype(np.float64) - want) <= 2 * 2.0 ** -11 *
                  (np.abs(a64) @ np.abs(b64)) + 1e-12)


def _fp8_ir(fa, fb, b_k_major, blocks=(128, 128, 128), acc=tl.float32, m=256, n=256, k=256):
    z = np.zeros(16, np.uint8)
    c = np.zeros(16, np.float16)
    sbk, sbn = (1, k) if b_k_major else (n, 1)
    bm, bn, bk = blocks
    return fp8_matmul_kernel.ir(z, z, c, m, n, k, k, 1, sbk, sbn, n, 1, A=TL_FP8[fa],
                                B=TL_FP8[fb], ACC=acc, BM=bm, BN=bn, BK=bk)


@pytest.mark.parametrize("fa,fb", FP8_PAIRS)
@pytest.mark.parametrize("b_k_major", [False, True])
def test_fp8_lowers_to_wgmma_on_sm90(check_ir, fa, fb, b_k_major):
    """On sm_90a both formats and their mix are wgmma instructions on the fp8
    bytes (K 32 per instruction, float32 accumulators); A, a box of a
    row-major tensor terrazzo-loads-to-descriptors proves, is copied into
    shared memory by TMA, and so is a K-major B (stride 1 along K: a box
    read transposed, loaded as stored); no cp.async is left; the PTX
    assembles."""
    text = _fp8_ir(fa, fb, b_k_major)
    assert "tensor<128x128xf8E" in text and "tile.dot" in text
    ptx = check_ir.compile(text, target="cuda:90", num_warps=4)
    instruction = (f"wgmma.mma_async.sync.aligned.m64n128k32.f32."
                   f"{PTX_FP8[fa]}.{PTX_FP8[fb]}")
    assert instruction in ptx, [line for line in ptx.splitlines() if "wgmma" in line][:3]
    assert "mma.sync" not in ptx and "cvt.rn.f16x2.e" not in ptx
    assert "cp.async.bulk.tensor.2d.shared::cluster.global" in ptx
    assert "cp.async.cg.shared.global" not in ptx


def test_fp8_lowers_to_mma_sync_on_sm89(check_ir):
    """sm_89 has no fp8 wgmma: the operands are converted to float16 (cvt
    from e4m3 and e5m2 pairs) and mma.sync multiplies them."""
    ptx = check_ir.compile(_fp8_ir("float8e4nv", "float8e5", True, blocks=(64, 64, 64)),
                           target="cuda:89", num_warps=4)
    assert "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" in ptx
    assert "cvt.rn.f16x2.e4m3x2" in ptx and "cvt.rn.f16x2.e5m2x2" in ptx
    assert "wgmma" not in ptx


def test_fp8_fallbacks_on_sm90(check_ir):
    """Where wgmma does not take an fp8 dot on sm_90a (a float16
    accumulator; M = 32), mma.sync computes it on float16 operands."""
    for acc, blocks in ((tl.float16, (64, 64, 64)), (tl.float32, (32, 64, 64))):
        ptx = check_ir.compile(_fp8_ir("float8e5", "float8e5", False, blocks=blocks, acc=acc),
                               target="cuda:90", num_warps=4)
        assert "mma.sync.aligned.m16n8k16.row.col" in ptx and "cvt.rn.f16x2.e5m2x2" in ptx
        assert "wgmma.mma_async" not in ptx


def test_fp8_before_sm89_is_a_located_error():
    pytest.importorskip("terrazzo._C")
    z = np.zeros(16, np.uint8)
    with pytest.raises(CompilationError) as e:
        fp8_matmul_kernel.compile(z, z, np.zeros(16, np.float32), 64, 64, 64, 64, 1, 64, 1,
                                  64, 1, A=tl.float8e4nv, B=tl.float8e4nv, ACC=tl.float32,
                                  BM=64, BN=64, BK=64, target="cuda:80")
    text = str(e.value)
    assert "fp8 dots need sm_89 or newer" in text and "the target is sm_80" in text, text
    assert f":{_line_of(fp8_matmul_kernel, 'acc = tl.dot(a, b, acc')}:" in text, text


@triton.jit
def bad_fp8_dot_kernel(x_ptr, CASE: tl.constexpr):
    r = tl.arange(0, 16)
    p = x_ptr.to(tl.pointer_type(tl.float8e4nv))
    a = tl.load(p + r[:, None] * 16 + r[None, :])
    if CASE == 0:
        d = tl.dot(a, a.to(tl.float16))  # fp8 x float16
    else:
        d = tl.dot(a, a, out_dtype=tl.bfloat16)  # bfloat16 accumulator
    tl.store(x_ptr.to(tl.pointer_type(tl.float32)) + r[:, None] * 16 + r[None, :],
             d.to(tl.float32))


@pytest.mark.parametrize("case,message,marker", [
    (0, "must have one type, got fp8e4nv and fp16", "fp8 x float16"),
    (1, "accumulates in float32 or float16, not bf16", "bfloat16 accumulator"),
])
def test_fp8_errors_name_the_line(case, message, marker):
    with pytest.raises(CompilationError) as e:
        bad_fp8_dot_kernel.ir(np.zeros(256, np.uint8), CASE=case)
    text = str(e.value)
    assert message in text, text
    assert f":{_line_of(bad_fp8_dot_kernel, marker)}" in text


# (shape, blocks, warps): wgmma at 4 and 8 warps with one and several K
# steps and masked tails in M, N and K; mma.sync on float16 converted from
# fp8 where wgmma does not apply (M = 32 blocks).
FP8_GPU_CASES = [
    ((64, 64, 64), (64, 64, 64), 4),
    ((128, 128, 128), (128, 128, 64), 4),
    ((100, 72, 96), (64, 64, 32), 4),
    ((200, 150, 256), (128, 128, 128), 8),
    ((96, 80, 80), (32, 32, 32), 4),
]


def _fp8_accumulation_bound(torch, a64, b64):
    """Per element of A B (float64, K a multiple of 32 or zero-padded),
    a bound on the error of wgmma's fp8 accumulation: each instruction adds
    32 exact products to the float32 accumulator after truncating every
    term below 13 bits under the largest term's binade (the about 14 bits
    Hopper keeps; Triton's max_num_imprecise_acc exists for this), so it is
    off by less than 33 * 2^-13 * max(|accumulator|, max |product|). The
    bound doubles that (it holds with 11 bits kept too) and adds the
    accumulator's rounding to float32. mma.sync on float16 (exact products,
    float32 sums) stays far below it."""
    k = a64.shape[1]
    bound = torch.zeros(a64.shape[0], b64.shape[1], dtype=torch.float64, device=a64.device)
    partial = torch.zeros_like(bound)
    for k0 in range(0, k, 32):
        products = a64[:, None, k0:k0 + 32] * b64[k0:k0 + 32].t()[None, :, :]
        largest = torch.maximum(partial.abs(), products.abs().amax(dim=2))
        bound += 33 * 2.0 ** -12 * largest + 2.0 ** -24 * (partial.abs() + largest)
        partial += products.sum(dim=2)
    return bound


def _run_gpu_fp8(torch, rng, fa, fb, shape, blocks, num_warps, b_k_major, acc, out,
                 integers):
    (m, n, k), (bm, bn, bk) = shape, blocks
    t_fp8 = {"float8e4nv": torch.float8_e4m3fn, "float8e5": torch.float8_e5m2}
    values = dict(limit=4.0, integers=True) if integers else {}
    a_codes, b_codes, (sbk, sbn), _, _ = _fp8_operands(rng, fa, fb, m, n, k, b_k_major,
                                                       **values)
    a = torch.from_numpy(a_codes).cuda().view(t_fp8[fa])
    b = torch.from_numpy(b_codes).cuda().view(t_fp8[fb])
    if b_k_major:
        b = b.t()  # K x N, column-major: the B of torch._scaled_mm
    assert b.stride() == (sbk, sbn)
    c = torch.full((m + 1, n), float("nan"), dtype=getattr(torch, out), device="cuda")
    grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
    fp8_matmul_kernel[grid](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0),
                            b.stride(1), c.stride(0), c.stride(1), A=TL_FP8[fa],
                            B=TL_FP8[fb], ACC=getattr(tl, acc), BM=bm, BN=bn, BK=bk,
                            num_warps=num_warps)
    torch.cuda.synchronize()
    a64, b64 = a.to(torch.float64), b.to(torch.float64)  # the exact fp8 values
    want = a64 @ b64
    got = c[:m].double()
    assert not torch.isnan(got).any(), "elements of C were not written"
    assert bool(torch.isnan(c[m]).all()), "a store went past the last row"
    if integers:
        # Integer products of at most 16 and sums of at most 4096 in
        # magnitude: every accumulation (wgmma's 14 bits, float16 up to
        # 2048) is exact.
        bad = (got != want).sum().item()
        assert bad == 0, f"{bad} elements differ, max {(got - want).abs().max().item()}"
        return
    if acc == "float32":
        tol = _fp8_accumulation_bound(torch, a64, b64)
    else:  # a float16 accumulator rounds once per mma.sync (K = 16)
        tol = -(-k // 16) * 2.0 ** -11 * (a64.abs() @ b64.abs())
    if out == "float16":
        tol = tol * (1 + 2.0 ** -11) + 2.0 ** -11 * want.abs() + 2.0 ** -25
    excess = ((got - want).abs() - tol).max().item()
    assert excess <= 0, f"an element is off by {excess:.3g} more than the bound"


@pytest.mark.gpu
@pytest.mark.parametrize("fa,fb", FP8_PAIRS)
@pytest.mark.parametrize("shape,blocks,num_warps", FP8_GPU_CASES)
@pytest.mark.parametrize("b_k_major", [True, False])
def test_gpu_fp8_exact(torch_cuda, fa, fb, shape, blocks, num_warps, b_k_major, rng):
    """Small integers: the result must be the float64 product exactly."""
    _run_gpu_fp8(torch_cuda, rng, fa, fb, shape, blocks, num_warps, b_k_major, "float32",
                 "float32", integers=True)


@pytest.mark.gpu
@pytest.mark.parametrize("fa,fb", FP8_PAIRS)
@pytest.mark.parametrize("shape,blocks,num_warps", FP8_GPU_CASES)
@pytest.mark.parametrize("b_k_major", [True, False])
@pytest.mark.parametrize("out", ["float32", "float16"])
def test_gpu_fp8_matches_float64(torch_cuda, fa, fb, shape, blocks, num_warps, b_k_major,
                                 out, rng):
    """Every finite code up to 8 in magnitude (subnormals included)."""
    _run_gpu_fp8(torch_cuda, rng, fa, fb, shape, blocks, num_warps, b_k_major, "float32",
                 out, integers=False)


@pytest.mark.gpu
@pytest.mark.parametrize("fa,fb", FP8_PAIRS)
@pytest.mark.parametrize("b_k_major", [True, False])
@pytest.mark.parametrize("integers", [True, False])
def test_gpu_fp8_float16_accumulator(torch_cuda, fa, fb, b_k_major, integers, rng):
    _run_gpu_fp8(torch_cuda, rng, fa, fb, (128, 128, 128), (64, 64, 32), 4, b_k_major,
                 "float16", "float16", integers)
