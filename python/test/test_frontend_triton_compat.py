"""Kernels written for Triton, unchanged but for the import, through both
builders: the interpreter (against float64 NumPy) and tile IR (validated by
the compiler binaries)."""

from __future__ import annotations

import numpy as np
import pytest

import terrazzo as triton
import terrazzo.language as tl

GLOBAL_SCALE: tl.constexpr = tl.constexpr(3)
LIMIT = 0.25  # a plain global number


@pytest.fixture
def interpret(monkeypatch):
    monkeypatch.setenv("TERRAZZO_INTERPRET", "1")


# The first kernel of Triton's low-memory dropout tutorial.
@triton.jit
def _dropout(
    x_ptr,  # pointer to the input
    x_keep_ptr,  # pointer to a mask of 0s and 1s
    output_ptr,  # pointer to the output
    n_elements,  # number of elements in the `x` tensor
    p,  # probability that an element of `x` is changed to zero
    BLOCK_SIZE: tl.constexpr,
):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    x_keep = tl.load(x_keep_ptr + offsets, mask=mask)
    output = tl.where(x_keep, x / (1 - p), 0.0)
    tl.store(output_ptr + offsets, output, mask=mask)


@triton.jit
def _leaky_relu(x, alpha: tl.constexpr = 0.01):
    return tl.where(x >= 0, x, alpha * x)


@triton.jit
def _gelu_tanh(x):
    # tanh through exp, as kernels without libdevice do
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    t = 2.0 / (1.0 + tl.exp(-2.0 * inner)) - 1.0
    return 0.5 * x * (1.0 + t)


@triton.heuristics({"EVEN_N": lambda args: args["n"] % args["BLOCK"] == 0})
@triton.jit
def activations_kernel(x_ptr, out_ptr, n, stride_out, BLOCK: tl.constexpr,
                       EVEN_N: tl.constexpr, ACT: tl.constexpr = "gelu"):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    offs = tl.max_contiguous(tl.multiple_of(offs, BLOCK), BLOCK)
    if EVEN_N:
        x = tl.load(x_ptr + offs)
    else:
        x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    x = x.to(tl.float32)
    if ACT == "gelu":
        y = _gelu_tanh(x)
    elif ACT == "leaky":
        y = _leaky_relu(x, alpha=0.1)
    else:
        y = _leaky_relu(x)
    y = tl.clamp(y, -LIMIT * 8, 8.0) * GLOBAL_SCALE
    if EVEN_N:
        tl.store(out_ptr + offs * stride_out, y.to(out_ptr.dtype.element_ty))
    else:
        tl.store(out_ptr + offs * stride_out, y.to(out_ptr.dtype.element_ty), mask=offs < n)


@triton.jit
def math_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=1.0)
    a = tl.math.exp2(x) + tl.math.log2(tl.abs(x) + 1) - tl.math.floor(x) + tl.math.ceil(x)
    b = tl.math.tanh(x) + tl.math.log1p(tl.abs(x)) + tl.erf(x) + tl.math.pow(tl.abs(x), 1.5)
    c = tl.cast(x * 4, tl.int32) % 3 - tl.cdiv(tl.cast(tl.abs(x) * 10, tl.int32), 4)
    tl.store(out_ptr + offs, a + b + c, mask=m)


@triton.autotune(configs=[triton.Config({"BLOCK": 64}), triton.Config({"BLOCK": 128})],
                 key=["n"])
@triton.jit
def autotuned_copy(src, dst, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(dst + offs, tl.load(src + offs, mask=offs < n), mask=offs < n)


def test_dropout_tutorial_kernel(interpret, rng):
    n, p = 1000, 0.3
    x = rng.standard_normal(n).astype(np.float32)
    keep = (rng.random(n) > p).astype(np.int32)
    out = np.full(n, np.nan, np.float32)
    _dropout[(triton.cdiv(n, 256),)](x, keep, out, n, p, BLOCK_SIZE=256)
    ref = np.where(keep != 0, x.astype(np.float64) / np.float32(1 - p), 0.0)
    np.testing.assert_allclose(out, ref, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("act", ["gelu", "leaky", "plain", "default"])
@pytest.mark.parametrize("n", [256, 300])
@pytest.mark.parametrize("out_dtype", [np.float32, np.float16])
def test_activations_heuristics_and_default_args(interpret, act, n, out_dtype, rng):
    x = (rng.standard_normal(n) * 3).astype(np.float32)
    out = np.full(2 * n, np.nan, out_dtype)
    kwargs = {} if act == "default" else {"ACT": act}
    activations_kernel[lambda m: (triton.cdiv(n, m["BLOCK"]),)](x, out, n, 2, BLOCK=128,
                                                                 **kwargs)
    X = x.astype(np.float64)
    if act in ("gelu", "default"):  # ACT defaults to "gelu"
        y = 0.5 * X * (1 + np.tanh(0.7978845608028654 * (X + 0.044715 * X ** 3)))
    else:
        alpha = 0.1 if act == "leaky" else 0.01  # _leaky_relu's default alpha
        y = np.where(X >= 0, X, alpha * X)
    y = np.clip(y, -2.0, 8.0) * 3
    tol = 2e-3 if out_dtype == np.float16 else 1e-5
    np.testing.assert_allclose(out[::2].astype(np.float64), y, rtol=tol, atol=tol)
    assert np.isnan(out[1::2]).all()


def test_math_functions(interpret, rng):
    n = 500
    x = (rng.standard_normal(n) * 2).astype(np.float32)
    out = np.full(n, np.nan, np.float32)
    math_kernel[(triton.cdiv(n, 128),)](x, out, n, BLOCK=128)
    import math
    X = x.astype(np.float64)
    erf = np.vectorize(math.erf)
    a = np.exp2(X) + np.log2(np.abs(X) + 1) - np.floor(X) + np.ceil(X)
    b = np.tanh(X) + np.log1p(np.abs(X)) + erf(X) + np.abs(X) ** 1.5
    q = np.trunc(X.astype(np.float32) * 4).astype(np.int64)
    t = np.trunc(np.abs(x) * np.float32(10)).astype(np.int64)
    c = np.fmod(q, 3) - (t + 3) // 4
    np.testing.assert_allclose(out, a + b + c, rtol=1e-5, atol=1e-4)


def test_autotune_in_the_interpreter_takes_the_first_config(interpret, rng):
    n = 300
    src = rng.standard_normal(n).astype(np.float32)
    dst = np.zeros(n, np.float32)
    autotuned_copy[lambda m: (triton.cdiv(n, m["BLOCK"]),)](src, dst, n)
    np.testing.assert_array_equal(src, dst)
    assert autotuned_copy.best_config.kwargs == {"BLOCK": 64}


@pytest.mark.parametrize("kernel,args,meta", [
    (_dropout, lambda: (np.zeros(8, np.float32), np.zeros(8, np.int32),
                        np.zeros(8, np.float32), 8, 0.5), dict(BLOCK_SIZE=1024)),
    (activations_kernel.fn, lambda: (np.zeros(8, np.float32), np.zeros(8, np.float16), 8, 1),
     dict(BLOCK=256, EVEN_N=False, ACT="gelu")),
    (activations_kernel.fn, lambda: (np.zeros(8, np.float32), np.zeros(8, np.float32), 256, 1),
     dict(BLOCK=256, EVEN_N=True, ACT="leaky")),
    (math_kernel, lambda: (np.zeros(8, np.float32), np.zeros(8, np.float32), 8),
     dict(BLOCK=256)),
    (autotuned_copy.fn, lambda: (np.zeros(8, np.float32), np.zeros(8, np.float32), 8),
     dict(BLOCK=128)),
])
def test_compat_kernels_lower_to_ptx(kernel, args, meta, check_ir):
    text = kernel.ir(*args(), **meta)
    check_ir(text)


def test_constexpr_value_and_dtype_introspection(check_ir, interpret):
    @triton.jit
    def k(x_ptr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK.value)
        x = tl.load(x_ptr + offs)
        if x.dtype == tl.float16:
            x = x.to(tl.float32)
        tl.static_assert(x.dtype.is_floating())
        tl.static_assert(len(x.shape) == 1 and x.shape[0] == BLOCK)
        tl.store(x_ptr + offs, (x * 2).to(x_ptr.dtype.element_ty))

    a = np.arange(16, dtype=np.float16)
    k[(1,)](a, BLOCK=16)
    np.testing.assert_array_equal(a, np.arange(16) * 2)
    check_ir(k.ir(np.zeros(16, np.float16), BLOCK=16))


def test_helpers_with_runtime_returns(check_ir, interpret, rng):
    @triton.jit
    def pick(x, flag):
        if flag > 0:
            return x * 2.0, flag
        return x - 1.0, -flag

    @triton.jit
    def k(x_ptr, out_ptr, flag, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        y, f = pick(tl.load(x_ptr + offs), flag)
        for i in range(0, 3):
            if i == 1:
                y = y + f
        tl.store(out_ptr + offs, y)

    x = rng.standard_normal(32).astype(np.float32)
    for flag in (3, -2):
        out = np.zeros(32, np.float32)
        k[(1,)](x, out, flag, BLOCK=32)
        ref = (x * 2 + 3) if flag > 0 else (x - 1 + 2)
        np.testing.assert_allclose(out, ref, rtol=1e-6)
    text = k.ir(x, x, 3, BLOCK=32)
    assert "scf.if" in text and "func.func private @pick" in text
    check_ir(text)


def test_torch_cpu_tensors_in_the_interpreter(interpret, rng):
    torch = pytest.importorskip("torch")

    @triton.jit
    def k(x_ptr, y_ptr, out_ptr, n, stride, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        x = tl.load(x_ptr + offs * stride, mask=m)  # bfloat16, strided view
        y = tl.load(y_ptr + offs, mask=m)  # int64
        tl.store(out_ptr + offs, (x * 2 + y).to(tl.bfloat16), mask=m)

    n = 300
    base = torch.from_numpy(rng.standard_normal(2 * n).astype(np.float32)).to(torch.bfloat16)
    x = base[::2]
    y = torch.from_numpy(rng.integers(-5, 5, n))
    out = torch.full((n,), float("nan"), dtype=torch.bfloat16)
    k[(triton.cdiv(n, 128),)](x, y, out, n, x.stride(0), BLOCK=128)
    ref = ((x.float() * 2).to(torch.bfloat16).float() + y.float()).to(torch.bfloat16)
    assert torch.equal(out, ref)


@triton.jit
def _double_block(x, BLOCK: tl.constexpr):
    return x * 2, BLOCK * 2, tl.float32


def test_helpers_returning_compile_time_values(check_ir, interpret, rng):
    @triton.jit
    def k(x_ptr, out_ptr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        y, WIDE, DT = _double_block(tl.load(x_ptr + offs), BLOCK)
        wide = tl.arange(0, WIDE)  # a constexpr result sizes a block
        tl.store(out_ptr + wide, tl.zeros([WIDE], dtype=DT) + 1.0)
        tl.store(out_ptr + offs, y.to(DT))

    x = rng.standard_normal(16).astype(np.float32)
    out = np.zeros(32, np.float32)
    k[(1,)](x, out, BLOCK=16)
    np.testing.assert_array_equal(out[:16], x * 2)
    np.testing.assert_array_equal(out[16:], 1.0)
    text = k.ir(x, out, BLOCK=16)
    assert "tile.make_range 0 to 32" in text
    assert "-> tensor<16xf32>" in text  # only the tensor is a result of the function
    check_ir(text)


def test_number_literal_assigned_is_a_tensor(interpret, rng):
    # As in Triton: `acc = 0` is an int32 scalar (it has .to and .dtype), so
    # a loop can carry it as int64; a value computed in Python stays one.
    @triton.jit
    def k(out_ptr, lo, hi, STEP: tl.constexpr):
        acc = 0
        acc = acc.to(tl.int64)
        for i in range(lo, hi, STEP):
            acc += i
        one = 1
        n = len([STEP, STEP])  # a Python value: sizes a block
        block = tl.full([n], one, dtype=one.dtype).to(tl.int64)
        tl.store(out_ptr + tl.arange(0, n), acc + block)

    lo = 2**35 + int(rng.integers(0, 1000))
    out = np.zeros(2, np.int64)
    k[(1,)](out, lo, lo + 20, 3)
    np.testing.assert_array_equal(out, sum(range(lo, lo + 20, 3)) + 1)


@triton.jit
def _shifted_rows(x_ptr, offs: tl.constexpr, SHIFT: tl.constexpr):
    return tl.load(x_ptr + offs + SHIFT)


def test_runtime_value_for_a_constexpr_parameter_of_a_helper(check_ir, interpret, rng):
    # Triton's tutorial 06 passes offsets (runtime blocks) to helper
    # parameters annotated tl.constexpr: only kernel parameters must be
    # compile-time, a helper takes the runtime value.
    @triton.jit
    def k(x_ptr, out_ptr, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(out_ptr + offs, _shifted_rows(x_ptr, offs, 1))

    x = rng.standard_normal(65).astype(np.float32)
    out = np.zeros(64, np.float32)
    k[(4,)](x, out, BLOCK=16)
    np.testing.assert_array_equal(out, x[1:])
    check_ir(k.ir(x, out, BLOCK=16))


@triton.jit
def _shift_right_kernel(x_ptr, y_ptr, z_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(z_ptr + offs, tl.load(x_ptr + offs) >> tl.load(y_ptr + offs))


@pytest.mark.parametrize("xt,yt", [(np.int8, np.uint8), (np.int16, np.uint32),
                                   (np.int32, np.uint8), (np.uint16, np.uint8)])
def test_signed_shifted_right_by_unsigned_is_arithmetic(xt, yt, rng, check_ir):
    # As Triton (test_shift_op): the operands meet in the usual conversions'
    # type, but a signed left operand shifts arithmetically; the result
    # stored as int{max bits} equals NumPy's shift there.
    bw = max(np.dtype(xt).itemsize, np.dtype(yt).itemsize) * 8
    zt = np.dtype(f"int{bw}") if np.dtype(xt).kind == "i" else np.dtype(f"uint{bw}")
    x = rng.integers(np.iinfo(xt).min, np.iinfo(xt).max, 64, dtype=xt, endpoint=True)
    y = rng.integers(0, bw, 64).astype(yt)
    z = np.zeros(64, zt)
    triton.jit(_shift_right_kernel.fn, interpret=True)[(1,)](x, y, z, N=64)
    np.testing.assert_array_equal(z, x.astype(zt) >> y.astype(zt))
    text = _shift_right_kernel.ir(x, y, z, N=64)
    assert ("arith.shrsi" in text) == (np.dtype(xt).kind == "i")
    check_ir(text)


@pytest.mark.parametrize("name", tl.dtype.SINT_TYPES + tl.dtype.UINT_TYPES +
                         tl.dtype.STANDARD_FP_TYPES)
def test_dtype_name_lists_make_blocks(name):
    # Triton's dtype name lists; a dtype made from each sizes a block.
    @triton.jit(interpret=True)
    def k(out_ptr, DT: tl.constexpr):
        tl.store(out_ptr + tl.arange(0, 4), tl.zeros((4,), DT).to(tl.float32) + 1)

    dt = tl.dtype(name)
    assert dt.is_standard_floating() == (name in ("fp16", "bf16", "fp32", "fp64"))
    out = np.zeros(4, np.float32)
    k[(1,)](out, dt)
    np.testing.assert_array_equal(out, 1.0)


@triton.jit
def _count_after_barrier(counts_ptr):
    # A helper holding an op of the GPU dialect (the barrier): inlined like
    # any helper, not left a call with its tensors in memory.
    tl.debug_barrier()
    return tl.atomic_add(counts_ptr + tl.program_id(0), 1, sem="acq_rel")


def test_helper_with_a_barrier_is_inlined():
    from terrazzo.runtime import driver
    if not driver.extension_available():
        pytest.skip("terrazzo._C is not built")

    @triton.jit
    def k(x_ptr, counts_ptr, out_ptr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(out_ptr + offs, tl.load(x_ptr + offs) * 2.0)
        if _count_after_barrier(counts_ptr) == 0:
            tl.store(out_ptr + offs, tl.load(x_ptr + offs))

    x = np.zeros(128, np.float32)
    counts = np.zeros(4, np.int32)
    ptx = k.compile(x, counts, x, BLOCK=128, stage="ptx", target="cuda:90")
    assert ".func" not in ptx and "call" not in ptx
    assert "bar.sync" in ptx or "barrier.sync" in ptx
    assert "atom.acq_rel.gpu.global.add" in ptx
