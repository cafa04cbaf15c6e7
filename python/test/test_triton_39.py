"""Language additions of Triton 3.7-3.9 that kernels may rely on:

* operators on aggregate instances call the class's @jit operator methods
  (`__add__`, the reflected `__radd__` when the left operand is no such
  aggregate, comparisons, `__neg__`, ...);
* `tl.fdiv(x, y, approx=True)`: the hardware's fastest float32 division
  (PTX div.approx.f32), to within 2 ulp while |y| stays within 2**-126 ..
  2**126.

Each in the interpreter against float64 references on random inputs, in the
tile IR / PTX compiled here, and on a GPU.
"""

from __future__ import annotations

import numpy as np
import pytest

import terrazzo as triton
import terrazzo.language as tl
from terrazzo import CompilationError


@triton.aggregate
class Affine:
    """a * x + b, element-wise; operators combine two of them or apply one."""
    a: tl.tensor
    b: tl.tensor

    @triton.jit
    def __add__(self, other):
        return Affine(self.a + other.a, self.b + other.b)

    @triton.jit
    def __mul__(self, x):
        # Applying the map to a block.
        return self.a * x + self.b

    @triton.jit
    def __rmul__(self, k):
        # k * map: the map scaled.
        return Affine(self.a * k, self.b * k)

    @triton.jit
    def __neg__(self):
        return Affine(-self.a, -self.b)

    @triton.jit
    def __lt__(self, other):
        return self.a < other.a


@triton.jit
def affine_kernel(a_ptr, b_ptr, x_ptr, out_ptr, lt_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    f = Affine(tl.load(a_ptr + offs, mask=mask), tl.load(b_ptr + offs, mask=mask))
    g = -(f + f)            # __add__, __neg__: -2a, -2b
    h = 3.0 * g             # __rmul__: -6a, -6b
    y = h * tl.load(x_ptr + offs, mask=mask)  # __mul__: -6a x - 6b
    tl.store(out_ptr + offs, y, mask=mask)
    tl.store(lt_ptr + offs, (g < f).to(tl.int8), mask=mask)  # __lt__: -2a < a


@triton.jit
def divide_kernel(x_ptr, y_ptr, fast_ptr, full_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask, other=1.0)
    tl.store(fast_ptr + offs, tl.fdiv(x, y, approx=True), mask=mask)
    tl.store(full_ptr + offs, tl.fdiv(x, y), mask=mask)


def interp(kernel):
    return triton.jit(kernel.fn, interpret=True)


def _affine_inputs(rng, n):
    a, b, x = (rng.standard_normal(n).astype(np.float32) for _ in range(3))
    want = -6 * a.astype(np.float64) * x - 6 * b.astype(np.float64)
    return a, b, x, want, (-2 * a < a)


def _divide_inputs(rng, n):
    x = rng.standard_normal(n).astype(np.float32) * 1e3
    y = (rng.uniform(0.5, 2.0, n) * rng.choice([-1, 1], n) *
         2.0 ** rng.integers(-100, 100, n)).astype(np.float32)
    return x, y, x.astype(np.float64) / y.astype(np.float64)


def _within_ulps(got, want64, ulps):
    want = want64.astype(np.float32)
    spacing = np.spacing(np.abs(want)).astype(np.float64)
    return np.abs(got.astype(np.float64) - want64) <= ulps * spacing


@pytest.mark.parametrize("n", [64, 100])
def test_interpreter_aggregate_operators(rng, n):
    a, b, x, want, lt = _affine_inputs(rng, n)
    out = np.full(n, np.nan, np.float32)
    less = np.full(n, 7, np.int8)
    interp(affine_kernel)[(triton.cdiv(n, 64),)](a, b, x, out, less, n, BLOCK=64)
    np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(less, lt.astype(np.int8))


def test_aggregate_operators_in_the_ir(check_ir):
    z = np.zeros(64, np.float32)
    text = affine_kernel.ir(z, z, z, z, np.zeros(64, np.int8), 64, BLOCK=64)
    check_ir(text)
    assert "arith.cmpf olt" in text


def test_an_operator_the_aggregate_does_not_define_is_an_error():
    @triton.jit
    def k(a_ptr, BLOCK: tl.constexpr):
        f = Affine(tl.load(a_ptr + tl.arange(0, BLOCK)), 0.0)
        tl.store(a_ptr + tl.arange(0, BLOCK), (f - f).a)

    with pytest.raises(CompilationError):
        triton.jit(k.fn, interpret=True)[(1,)](np.zeros(16, np.float32), BLOCK=16)


@pytest.mark.parametrize("n", [128, 200])
def test_interpreter_fdiv_approx(rng, n):
    x, y, want = _divide_inputs(rng, n)
    fast, full = (np.full(n, np.nan, np.float32) for _ in range(2))
    interp(divide_kernel)[(triton.cdiv(n, 128),)](x, y, fast, full, n, BLOCK=128)
    assert _within_ulps(fast, want, 2).all()
    assert _within_ulps(full, want, 2).all()


def test_fdiv_approx_ir_and_ptx():
    z = np.zeros(128, np.float32)
    text = divide_kernel.ir(z, z, z, z, 128, BLOCK=128)
    assert "fastmath<arcp,afn>" in text and "fastmath<afn>" in text
    pytest.importorskip("terrazzo._C")
    ptx = divide_kernel.compile(z, z, z, z, 128, BLOCK=128, stage="ptx", target="cuda:90")
    assert "div.approx.f32" in ptx and "div.full.f32" in ptx


def test_fdiv_approx_and_ieee_rounding_contradict():
    @triton.jit
    def k(x_ptr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs)
        tl.store(x_ptr + offs, tl.fdiv(x, x, ieee_rounding=True, approx=True))

    with pytest.raises(CompilationError, match="contradict"):
        triton.jit(k.fn, interpret=True)[(1,)](np.ones(16, np.float32), BLOCK=16)


@pytest.mark.gpu
def test_gpu_aggregate_operators_and_fdiv_approx(torch_cuda, rng):
    torch = torch_cuda
    n = 1000
    a, b, x, want, lt = _affine_inputs(rng, n)
    cuda = [torch.from_numpy(v).cuda() for v in (a, b, x)]
    out = torch.full((n,), float("nan"), device="cuda")
    less = torch.full((n,), 7, dtype=torch.int8, device="cuda")
    affine_kernel[(triton.cdiv(n, 64),)](*cuda, out, less, n, BLOCK=64)
    torch.cuda.synchronize()
    np.testing.assert_allclose(out.cpu().numpy(), want, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(less.cpu().numpy(), lt.astype(np.int8))

    x, y, want = _divide_inputs(rng, n)
    fast, full = (torch.full((n,), float("nan"), device="cuda") for _ in range(2))
    divide_kernel[(triton.cdiv(n, 128),)](torch.from_numpy(x).cuda(),
                                          torch.from_numpy(y).cuda(), fast, full, n, BLOCK=128)
    torch.cuda.synchronize()
    assert _within_ulps(fast.cpu().numpy(), want, 2).all()
    assert _within_ulps(full.cpu().numpy(), want, 2).all()
