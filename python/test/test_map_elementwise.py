"""tl.map_elementwise with runtime control flow in its function (Triton
3.6+): if/elif/else, early returns, `for` loops whose bounds depend on the
element, `while` loops, calls of other @jit functions, and `pack`.

Terrazzo calls the function once on whole blocks and runs that control
flow element-wise (compiler/elementwise_flow.py). Each kernel runs in the
interpreter against NumPy (per element, in float64 or exact integers) on
fresh random inputs with masked tails, compiles to tile IR that
terrazzo-opt verifies and lowers to PTX (assembled by ptxas when present),
and runs on a GPU against the same references.
"""

from __future__ import annotations

import numpy as np
import pytest

import terrazzo as triton
import terrazzo.language as tl
from terrazzo.errors import CompilationError


def interp(kernel):
    return triton.jit(kernel.fn, interpret=True)


# ---------------------------------------------------------------------------
# Scalar functions and their NumPy references (one element at a time)
# ---------------------------------------------------------------------------

@triton.jit
def _compare(x, y):
    if x < y:
        return -1
    elif x == y:
        return 0
    else:
        return 1


def _compare_ref(x, y):
    return np.sign(x.astype(np.int64) - y).astype(np.int32)


@triton.jit
def _collatz_steps(n):
    # A while loop on the element's value, an if/else inside it.
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def _collatz_ref(n):
    out = []
    for v in n:
        v, k = int(v), 0
        while v != 1:
            v = v // 2 if v % 2 == 0 else 3 * v + 1
            k += 1
        out.append(k)
    return np.array(out, np.int32)


@triton.jit
def _power_sum(x, k):
    # A for loop of a per-element trip count (k may be 0 or negative).
    acc = 0.0
    p = 1.0
    for i in range(k):
        p = p * x
        acc += p
    return acc


def _power_sum_ref(x, k):
    out = np.zeros(len(x))
    for j, (v, n) in enumerate(zip(x.astype(np.float64), k)):
        out[j] = sum(v ** i for i in range(1, max(int(n), 0) + 1))
    return out


@triton.jit
def _clamp_or_countdown(x, lo, hi):
    # A loop with a per-element start and a negative step inside a branch
    # (the branch's elements bound its trip count), an early return.
    if x < lo:
        return lo
    if x > hi:
        t = 0
        for i in range(x, hi, -3):
            t += 1
        return hi - t
    return x


def _clamp_or_countdown_ref(x, lo, hi):
    out = []
    for v, a, b in zip(x, lo, hi):
        v, a, b = int(v), int(a), int(b)
        out.append(a if v < a else (b - len(range(v, b, -3)) if v > b else v))
    return np.array(out, np.int32)


@triton.jit
def _halve_until_small(x):
    return _shrink(x, 1.0)


@triton.jit
def _shrink(x, limit):
    # Called from the mapped function: its control flow runs element-wise too.
    y = x
    while tl.abs(y) > limit:
        y = y * 0.5
    return y if y >= 0 else -y


def _halve_until_small_ref(x):
    out = []
    for v in x.astype(np.float64):
        while abs(v) > 1.0:
            v *= 0.5
        out.append(abs(v))
    return np.array(out)


@triton.jit
def _divmod_pack2(a0, a1, b0, b1):
    return a0 // b0, a1 // b1, a0 % b0, a1 % b1


@triton.jit
def _pack4_offsets(a0, a1, a2, a3):
    # Each pack holds four consecutive elements, and the four values
    # returned are the result's four elements of that pack.
    return a1 - a0, a2 - a0, a3 - a0, a0


CASES = ["compare", "collatz", "power_sum", "clamp", "shrink", "divmod", "pack4"]


@triton.jit
def map_kernel(x_ptr, y_ptr, z_ptr, out_ptr, out2_ptr, n, CASE: tl.constexpr,
               BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1)
    y = tl.load(y_ptr + offs, mask=mask, other=1)
    z = tl.load(z_ptr + offs, mask=mask, other=1)
    if CASE == "compare":
        tl.store(out_ptr + offs, tl.map_elementwise(_compare, x, y), mask=mask)
    elif CASE == "collatz":
        tl.store(out_ptr + offs, tl.map_elementwise(_collatz_steps, x), mask=mask)
    elif CASE == "power_sum":
        r = tl.map_elementwise(_power_sum, x.to(tl.float32) * 0.125, y)
        tl.store(out_ptr.to(tl.pointer_type(tl.float32)) + offs, r, mask=mask)
    elif CASE == "clamp":
        tl.store(out_ptr + offs, tl.map_elementwise(_clamp_or_countdown, x, y, z), mask=mask)
    elif CASE == "shrink":
        r = tl.map_elementwise(_halve_until_small, x.to(tl.float32) * 1.5)
        tl.store(out_ptr.to(tl.pointer_type(tl.float32)) + offs, r, mask=mask)
    elif CASE == "divmod":
        q, r = tl.map_elementwise(_divmod_pack2, x, y, pack=2)
        tl.store(out_ptr + offs, q, mask=mask)
        tl.store(out2_ptr + offs, r, mask=mask)
    else:
        r = tl.map_elementwise(_pack4_offsets, offs, pack=4)
        tl.store(out_ptr + offs, r, mask=mask)


def _inputs(case, rng, n):
    if case == "collatz":
        x = rng.integers(1, 60, n)
        y = z = np.ones(n)
    elif case == "power_sum":
        x = rng.integers(-12, 12, n)
        y = rng.integers(-2, 7, n)
        z = np.ones(n)
    elif case == "clamp":
        lo = rng.integers(-20, 0, n)
        hi = rng.integers(1, 20, n)
        return [rng.integers(-40, 40, n).astype(np.int32), lo.astype(np.int32),
                hi.astype(np.int32)]
    elif case == "divmod":
        x = rng.integers(0, 1000, n)
        y = rng.integers(1, 40, n)
        z = np.ones(n)
    else:
        x = rng.integers(-5, 5, n)
        y = rng.integers(-5, 5, n)
        y[:4] = x[:4]  # some equal pairs
        z = np.ones(n)
    return [a.astype(np.int32) for a in (x, y, z)]


def _check(case, args, out, out2, n):
    x, y, z = args
    if case == "compare":
        np.testing.assert_array_equal(out[:n], _compare_ref(x, y))
    elif case == "collatz":
        np.testing.assert_array_equal(out[:n], _collatz_ref(x))
    elif case == "power_sum":
        got = out[:n].view(np.float32).astype(np.float64)
        want = _power_sum_ref(np.float32(0.125) * x.astype(np.float32), y)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    elif case == "clamp":
        np.testing.assert_array_equal(out[:n], _clamp_or_countdown_ref(x, y, z))
    elif case == "shrink":
        got = out[:n].view(np.float32).astype(np.float64)
        np.testing.assert_array_equal(got, _halve_until_small_ref(
            np.float32(1.5) * x.astype(np.float32)))
    elif case == "divmod":
        np.testing.assert_array_equal(out[:n], x // y)
        np.testing.assert_array_equal(out2[:n], x % y)
    else:
        i = np.arange(n)
        np.testing.assert_array_equal(out[:n], np.where(i % 4 == 3, i - 3, i % 4 + 1))


def _run(case, rng, launch):
    block = 64
    n = int(rng.integers(block + 1, 4 * block))
    args = _inputs(case, rng, n)
    out = np.full(n + 9, -7, np.int32)
    out2 = np.full(n + 9, -7, np.int32)
    out, out2 = launch(args, out, out2, n, block)
    assert (out[n:] == -7).all() and (out2[n:] == -7).all()  # masked tails
    _check(case, args, out, out2, n)


@pytest.mark.parametrize("case", CASES)
def test_interpreter(case, rng):
    def launch(args, out, out2, n, block):
        interp(map_kernel)[(triton.cdiv(n, block),)](*args, out, out2, n, CASE=case,
                                                      BLOCK=block)
        return out, out2
    _run(case, rng, launch)


@pytest.mark.parametrize("case", CASES)
def test_ir_compiles(case, check_ir):
    z = np.zeros(64, np.int32)
    text = map_kernel.ir(z, z, z, z, z, 64, CASE=case, BLOCK=64)
    if case in ("collatz", "shrink"):
        assert "scf.while" in text
    if case in ("power_sum", "clamp"):
        assert "scf.for" in text
    if case in ("compare", "clamp"):
        assert "arith.select" in text
    check_ir(text)


@triton.jit
def _gcd(a, b):
    while b != 0:
        a, b = b, a % b
    return a


@triton.jit
def gcd_2d_kernel(a_ptr, b_ptr, out_ptr, m, M: tl.constexpr, N: tl.constexpr):
    # A block of rows (masked past m) against one broadcast row.
    rows = tl.arange(0, M)[:, None]
    cols = tl.arange(0, N)[None, :]
    a = tl.load(a_ptr + rows * N + cols, mask=rows < m, other=1)
    b = tl.load(b_ptr + cols)
    tl.store(out_ptr + rows * N + cols, tl.map_elementwise(_gcd, a, b), mask=rows < m)


def _gcd_inputs(rng):
    m = int(rng.integers(1, 16))
    a = rng.integers(1, 10000, (16, 32)).astype(np.int32)
    b = rng.integers(0, 10000, 32).astype(np.int32)
    return m, a, b


def test_two_dimensional_broadcast_while(rng):
    m, a, b = _gcd_inputs(rng)
    out = np.full((16, 32), -1, np.int32)
    interp(gcd_2d_kernel)[(1,)](a, b, out, m, M=16, N=32)
    np.testing.assert_array_equal(out[:m], np.gcd(a[:m], b[None, :]))
    assert (out[m:] == -1).all()


def test_two_dimensional_ir(check_ir):
    z = np.zeros(16 * 32, np.int32)
    check_ir(gcd_2d_kernel.ir(z, z, z, 3, M=16, N=32))


@pytest.mark.gpu
def test_gpu_two_dimensional(torch_cuda, rng):
    torch = torch_cuda
    m, a, b = _gcd_inputs(rng)
    dev = [torch.from_numpy(x).cuda() for x in (a, b, np.full((16, 32), -1, np.int32))]
    gcd_2d_kernel[(1,)](*dev, m, M=16, N=32)
    out = dev[2].cpu().numpy()
    np.testing.assert_array_equal(out[:m], np.gcd(a[:m], b[None, :]))
    assert (out[m:] == -1).all()


@triton.jit
def _two_types(x):
    if x > 0:  # <- 0
        r = x
    else:
        r = x.to(tl.float32)
    return r


@triton.jit
def _tensor_step(x, s):
    t = 0
    for i in range(0, x, s):  # <- 1
        t += 1
    return t


@triton.jit
def _writes(p, v):
    tl.store(p, v)  # <- 2
    return v


@triton.jit
def bad_map_kernel(x_ptr, CASE: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    if CASE == 0:
        y = tl.map_elementwise(_two_types, x)
    elif CASE == 1:
        y = tl.map_elementwise(_tensor_step, x, x)
    else:
        y = tl.map_elementwise(_writes, x_ptr + tl.arange(0, 16), x)
    tl.store(x_ptr + tl.arange(0, 16), y)


@pytest.mark.parametrize("case,message", [
    (0, "'r' has type int32 on one path of an element-wise if but fp32"),
    (1, "needs a nonzero compile-time step"),
    (2, "tl.store cannot write memory in the function _writes() of tl.map_elementwise"),
])
def test_errors(case, message):
    for run in (lambda: bad_map_kernel.ir(np.zeros(16, np.int32), CASE=case),
                lambda: interp(bad_map_kernel)[(1,)](np.zeros(16, np.int32), CASE=case)):
        with pytest.raises(CompilationError) as e:
            run()
        assert message in str(e.value), str(e.value)
        # Located at the line of the mapped function.
        fn = (_two_types, _tensor_step, _writes)[case]
        line = [ln for ln, src in fn.parsed.src_lines.items() if f"# <- {case}" in src][0]
        assert f":{line}:" in str(e.value).splitlines()[0], str(e.value)


@pytest.mark.gpu
@pytest.mark.parametrize("case", CASES)
def test_gpu(torch_cuda, case, rng):
    torch = torch_cuda

    def launch(args, out, out2, n, block):
        dev = [torch.from_numpy(a).cuda() for a in (*args, out, out2)]
        map_kernel[(triton.cdiv(n, block),)](*dev, n, CASE=case, BLOCK=block)
        torch.cuda.synchronize()
        return dev[-2].cpu().numpy(), dev[-1].cpu().numpy()
    _run(case, rng, launch)
