"""fp8 (`tl.float8e4nv`, `tl.float8e5`): loads and stores of bytes, and
`.to()` between them and float16/bfloat16/float32 in both directions. To
fp8 rounds to nearest even and saturates to the largest finite value
(infinities too), as PTX's cvt.rn.satfinite; from fp8 is exact.

The interpreter is checked against a reference written here from the
formats' definitions (every value of the 256 codes, nearest value with
ties to the even code), on all codes, on every tie and its neighbours and
on fresh random inputs with masked tails; the tile IR against terrazzo-opt
and ptxas; on a GPU, the same kernels against torch's float8 conversions.
"""

from __future__ import annotations

import numpy as np
import pytest

import terrazzo as triton
import terrazzo.language as tl
from terrazzo import CompilationError, UnsupportedError

# name -> (exponent bits, mantissa bits, bias, has infinities)
FORMATS = {"float8e4nv": (4, 3, 7, False), "float8e5": (5, 2, 15, True)}
TL = {"float8e4nv": tl.float8e4nv, "float8e5": tl.float8e5, "float16": tl.float16,
      "bfloat16": tl.bfloat16, "float32": tl.float32}


def code_values(name):
    """float64 value of each of the 256 codes (NaN for NaN codes)."""
    ebits, mbits, bias, has_inf = FORMATS[name]
    out = np.empty(256)
    for c in range(256):
        s = -1.0 if c >> 7 else 1.0
        e = (c >> mbits) & ((1 << ebits) - 1)
        m = c & ((1 << mbits) - 1)
        if e == (1 << ebits) - 1 and (has_inf or m == (1 << mbits) - 1):
            out[c] = s * np.inf if has_inf and m == 0 else np.nan
        elif e == 0:
            out[c] = s * m * 2.0 ** (1 - bias - mbits)
        else:
            out[c] = s * (1 + m / 2 ** mbits) * 2.0 ** (e - bias)
    return out


def reference_encode(x, name):
    """Codes of float values: the nearest finite value, ties to the even
    code, saturating beyond the largest; NaN -> 0x7F."""
    values = code_values(name)
    positive = values[:128]
    finite = np.flatnonzero(np.isfinite(positive))
    pos = positive[finite]
    x = np.asarray(x, dtype=np.float64).reshape(-1)
    out = np.empty(x.shape, np.uint8)
    for i, v in enumerate(x):
        if np.isnan(v):
            out[i] = 0x7F
            continue
        a = abs(v)
        d = np.abs(pos - a) if np.isfinite(a) else None
        if d is None or a >= pos[-1]:
            k = finite[-1]
        else:
            best = np.flatnonzero(d == d.min())
            k = finite[best[0]] if len(best) == 1 else [finite[j] for j in best
                                                          if finite[j] % 2 == 0][0]
        out[i] = k | (0x80 if np.signbit(v) else 0)
    return out


def storage(name):
    """The NumPy array type that holds a language type's bits in memory."""
    return {"float8e4nv": np.uint8, "float8e5": np.uint8, "float8e4b15": np.uint8,
            "float8e4b8": np.uint8, "float8e5b16": np.uint8, "float16": np.float16,
            "bfloat16": np.uint16, "float32": np.float32}[name]


def to_bits(x64, name):
    """float64 values (exact in `name`) as that type's memory array."""
    if name == "bfloat16":
        return (np.asarray(x64, np.float32).view(np.uint32) >> 16).astype(np.uint16)
    return np.asarray(x64).astype(storage(name))


def from_bits(a, name):
    if name == "bfloat16":
        return (a.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return a.astype(np.float64)


@triton.jit
def convert_kernel(src_ptr, dst_ptr, n, SRC: tl.constexpr, DST: tl.constexpr,
                   BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    src = src_ptr.to(tl.pointer_type(SRC))
    dst = dst_ptr.to(tl.pointer_type(DST))
    x = tl.load(src + offs, mask=mask)
    tl.store(dst + offs, x.to(DST), mask=mask)


@triton.jit
def masked_other_kernel(src_ptr, dst_ptr, n, FP8: tl.constexpr, BLOCK: tl.constexpr):
    # Lanes past n load `other` (1.5, an fp8 constant) and are stored to
    # the second half of dst.
    offs = tl.arange(0, BLOCK)
    src = src_ptr.to(tl.pointer_type(FP8))
    x = tl.load(src + offs, mask=offs < n, other=1.5)
    tl.store(dst_ptr + offs, x.to(tl.float32))
    zeros = tl.zeros((BLOCK,), dtype=FP8)
    tl.store(dst_ptr + BLOCK + offs, tl.where(offs < n, x, zeros).to(tl.float32))


@triton.jit
def bitcast_kernel(src_ptr, dst_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    codes = tl.load(src_ptr + offs)
    values = codes.to(tl.float8e5, bitcast=True)
    wide = values.to(tl.float32)
    back = wide.to(tl.float8e5).to(tl.uint8, bitcast=True)
    tl.store(dst_ptr + offs, back)


def interp(kernel):
    return triton.jit(kernel.fn, interpret=True)


def run_convert(x_bits, src, dst, block=128):
    n = x_bits.size
    out = np.zeros(n + 5, storage(dst))  # beyond n: must stay untouched
    sentinel = out.copy()
    interp(convert_kernel)[(triton.cdiv(n, block),)](x_bits, out, n, SRC=TL[src],
                                                      DST=TL[dst], BLOCK=block)
    np.testing.assert_array_equal(out[n:], sentinel[n:])
    return out[:n]


# ---------------------------------------------------------------------------
# The interpreter
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", list(FORMATS))
@pytest.mark.parametrize("wide", ["float16", "bfloat16", "float32"])
def test_every_code_round_trips(fmt, wide):
    codes = np.arange(256, dtype=np.uint8)
    values = code_values(fmt)
    out = from_bits(run_convert(codes, fmt, wide), wide)
    nan = np.isnan(values)
    np.testing.assert_array_equal(out[~nan], values[~nan])
    np.testing.assert_array_equal(np.signbit(out[~nan]), np.signbit(values[~nan]))
    assert np.isnan(out[nan]).all()
    back = run_convert(to_bits(out, wide), wide, fmt)
    finite = np.isfinite(values)
    np.testing.assert_array_equal(back[finite], codes[finite])
    assert (back[nan] == 0x7F).all()  # the canonical NaN
    inf = np.isinf(values)
    # Infinities saturate to the largest finite value, keeping the sign.
    np.testing.assert_array_equal(back[inf], reference_encode(values[inf], fmt))
    if inf.any():
        assert set(back[inf]) == {0x7B, 0xFB}


def _ties_and_neighbours(fmt):
    """Every midpoint between adjacent finite values of `fmt` (and beyond
    the largest), its float32 neighbours, and both signs."""
    values = code_values(fmt)[:128]
    pos = values[np.isfinite(values)]
    step = pos[-1] - pos[-2]
    mids = np.concatenate([(pos[:-1] + pos[1:]) / 2, [pos[-1] + step / 2, pos[-1] + step,
                                                       1e30, np.inf]])
    m32 = mids.astype(np.float32)
    x = np.concatenate([m32, np.nextafter(m32, np.float32(0)),
                        np.nextafter(m32, np.float32(np.inf)), pos.astype(np.float32)])
    x = x[np.isfinite(x) | np.isinf(x)]
    return np.concatenate([x, -x, [np.nan]]).astype(np.float64)


@pytest.mark.parametrize("fmt", list(FORMATS))
@pytest.mark.parametrize("wide", ["float32", "float16", "bfloat16"])
def test_round_to_nearest_even_and_saturate(fmt, wide):
    x = _ties_and_neighbours(fmt)
    if wide == "float16":
        x = x[np.abs(x) <= 65504]
        x = x[x.astype(np.float16).astype(np.float64) == x]  # exact in f16 only
    elif wide == "bfloat16":
        bits = x.astype(np.float32).view(np.uint32)
        x = x[(bits & 0xFFFF) == 0]
    x = np.concatenate([x, [np.nan]])
    got = run_convert(to_bits(x, wide), wide, fmt)
    np.testing.assert_array_equal(got, reference_encode(x, fmt))


@pytest.mark.parametrize("src,dst", [("float8e4nv", "float8e5"), ("float8e5", "float8e4nv")])
def test_fp8_to_fp8(src, dst):
    codes = np.arange(256, dtype=np.uint8)
    got = run_convert(codes, src, dst)
    np.testing.assert_array_equal(got, reference_encode(code_values(src), dst))


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_random_values_with_tails(fmt, rng):
    n = int(rng.integers(300, 700))
    scale = np.exp2(rng.uniform(-20, 18, n))
    x = (rng.standard_normal(n) * scale).astype(np.float32)
    got = run_convert(x, "float32", fmt, block=256)
    np.testing.assert_array_equal(got, reference_encode(x, fmt))
    back = from_bits(run_convert(got, fmt, "float32", block=64), "float32")
    want = code_values(fmt)[got]
    np.testing.assert_array_equal(back, want)


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_masked_load_other_and_where(fmt, rng):
    n = int(rng.integers(1, 64))
    codes = rng.integers(0, 256, 64).astype(np.uint8)
    codes[(codes & 0x7F) >= 0x7C] = 0x10  # finite values only
    out = np.full(128, np.nan, np.float32)
    interp(masked_other_kernel)[(1,)](codes, out, n, FP8=TL[fmt], BLOCK=64)
    values = code_values(fmt)[codes]
    want = np.where(np.arange(64) < n, values, 1.5)
    np.testing.assert_array_equal(out[:64], want)
    np.testing.assert_array_equal(out[64:], np.where(np.arange(64) < n, values, 0.0))


def test_bitcast_keeps_every_code():
    codes = np.arange(256, dtype=np.uint8)
    out = np.zeros(256, np.uint8)
    interp(bitcast_kernel)[(1,)](codes, out, BLOCK=256)
    values = code_values("float8e5")
    finite = np.isfinite(values)
    np.testing.assert_array_equal(out[finite], codes[finite])
    assert (out[np.isnan(values)] == 0x7F).all()
    np.testing.assert_array_equal(out[np.isinf(values)], [0x7B, 0xFB])


# ---------------------------------------------------------------------------
# Arithmetic on fp8 values, with Triton's type rules: two values of one fp8
# type give that type, two fp8 types meet in float16, fp8 with float16 is
# float16, with bfloat16 or float32 float32, a Python number takes the fp8
# type; fp8 with an integer tensor is Triton's TypeError. There are no fp8
# arithmetic instructions: an fp8 result is computed in float32 and rounded
# once to the fp8 type (Triton 3.6 accepts these types and then fails in its
# LLVM lowering; Terrazzo computes them).
# ---------------------------------------------------------------------------

ARITH_OPS = ["add", "sub", "mul", "div", "neg", "max", "min", "scalar", "fma", "mod"]
CMP_OPS = ["lt", "le", "gt", "ge", "eq", "ne"]


@triton.jit
def fp8_arith_kernel(x_ptr, y_ptr, out_ptr, cmp_ptr, n, F: tl.constexpr, OP: tl.constexpr,
                     BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr.to(tl.pointer_type(F)) + offs, mask=mask)
    y = tl.load(y_ptr.to(tl.pointer_type(F)) + offs, mask=mask)
    if OP == "add":
        z = x + y
    elif OP == "sub":
        z = x - y
    elif OP == "mul":
        z = x * y
    elif OP == "div":
        z = x / y
    elif OP == "mod":
        z = x % y
    elif OP == "neg":
        z = -x
    elif OP == "max":
        z = tl.maximum(x, y)
    elif OP == "min":
        z = tl.minimum(x, y)
    elif OP == "scalar":
        z = x * 2
    else:
        z = tl.fma(x, y, x)
    tl.static_assert(z.dtype == F)
    tl.store(out_ptr.to(tl.pointer_type(F)) + offs, z, mask=mask)
    cmp = cmp_ptr + offs * 6
    tl.store(cmp + 0, x < y, mask=mask)
    tl.store(cmp + 1, x <= y, mask=mask)
    tl.store(cmp + 2, x > y, mask=mask)
    tl.store(cmp + 3, x >= y, mask=mask)
    tl.store(cmp + 4, x == y, mask=mask)
    tl.store(cmp + 5, x != y, mask=mask)


def _finite_codes(rng, fmt, shape, nonzero=False):
    """(random codes of finite values of `fmt`, not zero if asked; their
    float64 values)."""
    values = soft_code_values(fmt) if fmt in SOFT else code_values(fmt)
    allowed = np.flatnonzero(np.isfinite(values) & ((values != 0) if nonzero else True))
    codes = rng.choice(allowed, size=shape).astype(np.uint8)
    return codes, values[codes]


def _arith_reference(op, x, y, fmt):
    """Codes of op(x, y): the exact float64 result, rounded to float32 (the
    type the kernel computes in) and then to `fmt`. The number in `x * 2`
    takes the fp8 type first (float8e4b15 saturates it to 1.75)."""
    def encode(v):
        return soft_reference_encode(v, fmt) if fmt in SOFT else reference_encode(v, fmt)
    values = soft_code_values(fmt) if fmt in SOFT else code_values(fmt)
    two = values[encode(2.0)[0]]
    exact = {"add": lambda: x + y, "sub": lambda: x - y, "mul": lambda: x * y,
             "div": lambda: x / y, "mod": lambda: np.fmod(x, y), "neg": lambda: -x,
             "max": lambda: np.maximum(x, y), "min": lambda: np.minimum(x, y),
             "scalar": lambda: x * two, "fma": lambda: x * y + x}[op]()
    # 0 / 0 and fmod(0, 0) (the equal pairs may be zeros): the GPU's NaN is
    # positive, which float8e4b15 saturates to +1.75 (numpy's is negative).
    exact = np.where(np.isnan(exact), np.nan, exact)
    return encode(exact.astype(np.float32).astype(np.float64))


def _compare_reference(x, y):
    return np.stack([x < y, x <= y, x > y, x >= y, x == y, x != y], axis=1).reshape(-1)


def _arith_inputs(rng, fmt, op):
    n = int(rng.integers(200, 600))
    x, xv = _finite_codes(rng, fmt, n)
    y, yv = _finite_codes(rng, fmt, n, nonzero=op in ("div", "mod"))
    y[:5] = x[:5]  # some equal pairs for the comparisons
    if op == "mod":
        # Quotients below 2^20: a float32 remainder is exact there (the GPU
        # computes x - trunc(x / y) * y).
        far = np.abs(xv) >= np.abs(yv) * 2.0 ** 20
        y[far] = x[far]
    return n, x, y


def _check_arith(op, fmt, x, y, out, cmp, n):
    values = soft_code_values(fmt) if fmt in SOFT else code_values(fmt)
    xv, yv = values[x], values[y]
    want = _arith_reference(op, xv, yv, fmt)
    # -0 and +0 are equal values; compare the codes of everything else.
    zero = (values[want] == 0) & (values[out[:n]] == 0)
    np.testing.assert_array_equal(out[:n][~zero], want[~zero])
    np.testing.assert_array_equal(cmp[:6 * n].astype(bool), _compare_reference(xv, yv))


def test_fp8_zero_by_zero_is_a_positive_nan():
    # 0 / 0 and fmod(0, 0) in float8e4b15 (every code finite, NaNs saturate
    # with their sign): +1.75 (0x7e), as on the GPU, whose NaN is positive.
    x = np.array([0x00, 0x80, 0x00, 0x80], np.uint8)
    y = np.array([0x00, 0x00, 0x80, 0x80], np.uint8)
    for op in ("div", "mod"):
        out = np.full(4 + 7, 0x55, np.uint8)
        cmp = np.full(6 * 4 + 7, 7, np.int8)
        interp(fp8_arith_kernel)[(1,)](x, y, out, cmp, 4, F=tl.float8e4b15, OP=op, BLOCK=128)
        assert (out[:4] == 0x7e).all(), (op, out[:4])
        assert (_arith_reference(op, np.zeros(4), np.zeros(4), "float8e4b15") == 0x7e).all()


@pytest.mark.parametrize("fmt", ["float8e4nv", "float8e5", "float8e4b15", "float8e4b8",
                                 "float8e5b16"])
@pytest.mark.parametrize("op", ARITH_OPS)
def test_fp8_arithmetic(fmt, op, rng):
    n, x, y = _arith_inputs(rng, fmt, op)
    out = np.full(n + 7, 0x55, np.uint8)
    cmp = np.full(6 * n + 7, 7, np.int8)
    interp(fp8_arith_kernel)[(triton.cdiv(n, 128),)](x, y, out, cmp, n, F=TL[fmt], OP=op,
                                                      BLOCK=128)
    assert (out[n:] == 0x55).all() and (cmp[6 * n:] == 7).all()  # masked tails
    _check_arith(op, fmt, x, y, out, cmp, n)


@triton.jit
def fp8_mixed_kernel(x_ptr, y_ptr, out_ptr, A: tl.constexpr, B: tl.constexpr,
                     R: tl.constexpr, OP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr.to(tl.pointer_type(A)) + offs)
    y = tl.load(y_ptr.to(tl.pointer_type(B)) + offs)
    if OP == "add":
        z = x + y
    elif OP == "mul":
        z = x * y
    else:
        z = x / y
    tl.static_assert(z.dtype == R)
    tl.store(out_ptr + offs, z.to(tl.float32))


@pytest.mark.parametrize("a,b,result,op", [
    ("float8e4nv", "float8e5", "float16", "add"),
    ("float8e5", "float8e4nv", "float16", "mul"),
    ("float8e4nv", "float16", "float16", "mul"),
    ("float8e5", "float16", "float32", "div"),
    ("float8e4nv", "bfloat16", "float32", "add"),
    ("float8e5", "float32", "float32", "mul"),
])
def test_fp8_mixed_promotion(a, b, result, op, rng):
    """The other operand's type decides, as in Triton 3.6; the fp8 values
    convert exactly and the result is computed once in the result type."""
    block = 128
    x, xv = _finite_codes(rng, a, block)
    if b in FORMATS:
        y, yv = _finite_codes(rng, b, block, nonzero=True)
    else:
        yv = rng.standard_normal(block) * 4
        yv[yv == 0] = 1.0
        y = to_bits(yv.astype(np.float32).astype(np.float64)
                    if b != "float16" else yv.astype(np.float16).astype(np.float64), b)
        yv = from_bits(y, b)
    out = np.zeros(block, np.float32)
    interp(fp8_mixed_kernel)[(1,)](x, y, out, A=TL[a], B=TL[b], R=TL[result], OP=op,
                                   BLOCK=block)
    exact = {"add": xv + yv, "mul": xv * yv, "div": xv / yv}[op]
    with np.errstate(over="ignore"):  # float16 products beyond 65504 are inf, as on the device
        want = exact.astype(np.float16 if result == "float16" else np.float32)
    np.testing.assert_array_equal(out, want.astype(np.float32))


@triton.jit
def fp8_math_kernel(x_ptr, out_ptr, F: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr.to(tl.pointer_type(F)) + offs)
    e = tl.exp(x)
    tl.static_assert(e.dtype == F)
    tl.store(out_ptr.to(tl.pointer_type(F)) + offs, e)
    tl.store(out_ptr.to(tl.pointer_type(F)) + BLOCK + offs, tl.abs(x) + x)


def test_fp8_math_rounds_back(rng):
    """tl.exp on fp8 computes in float32 and rounds back to the fp8 type
    (as for float16), and tl.abs stays exact."""
    fmt = "float8e4nv"
    x, xv = _finite_codes(rng, fmt, 128)
    x[np.abs(xv) > 4] = 0x38  # 1.0: exp stays in range
    xv = code_values(fmt)[x]
    out = np.zeros(256, np.uint8)
    interp(fp8_math_kernel)[(1,)](x, out, F=TL[fmt], BLOCK=128)
    got = code_values(fmt)[out[:128]]
    np.testing.assert_allclose(got, np.exp(xv), rtol=2.0 ** -3)
    np.testing.assert_array_equal(code_values(fmt)[out[128:]], np.abs(xv) + xv)


def test_fp8_arithmetic_ir(check_ir):
    """The tile IR converts to float32, computes there and rounds back."""
    z = np.zeros(64, np.uint8)
    ir = fp8_arith_kernel.ir(z, z, z, z, 64, F=tl.float8e4nv, OP="add", BLOCK=64)
    assert "arith.addf" in ir and "tensor<64xf32>" in ir
    assert "tile.fp_to_fp" in ir and "rounding = rtne : tensor<64xf32> -> tensor<64xf8E4M3FN>" in ir
    assert "arith.cmpf olt" in ir
    arith_on_fp8 = [ln for ln in ir.splitlines() if "arith." in ln and "f8E4M3FN" in ln]
    assert not arith_on_fp8, arith_on_fp8
    check_ir(ir)


# ---------------------------------------------------------------------------
# Tile IR and PTX
# ---------------------------------------------------------------------------

def _ir(src, dst):
    z = np.zeros(64, np.uint8)
    return convert_kernel.ir(z, z, 64, SRC=TL[src], DST=TL[dst], BLOCK=64)


def test_ir_and_ptx(check_ir):
    down = _ir("float32", "float8e4nv")
    assert "tile.fp_to_fp" in down and "rounding = rtne" in down
    assert "tensor<64xf32> -> tensor<64xf8E4M3FN>" in down
    ptx = check_ir(down)
    assert "cvt.rn.satfinite.e4m3x2.f32" in ptx
    up = _ir("float8e5", "bfloat16")
    assert "tensor<64xf8E5M2> -> tensor<64xbf16>" in up
    assert "rounding" not in up.split("tile.fp_to_fp")[1].split("\n")[0]
    assert "cvt.rn.f16x2.e5m2x2" in check_ir(up)
    assert "cvt.rn.satfinite.e5m2x2.f16x2" in check_ir(_ir("float16", "float8e5"))


@triton.jit
def bad_fp8_kernel(x_ptr, CASE: tl.constexpr):
    offs = tl.arange(0, 16)
    p = x_ptr.to(tl.pointer_type(tl.float8e4nv))
    v = tl.load(p + offs)
    if CASE == 0:
        w = v + offs  # <- 0
    elif CASE == 1:
        w = tl.load(x_ptr.to(tl.pointer_type(tl.float64)) + offs).to(tl.float8e4nv)  # <- 1
    else:
        w = v.to(tl.float32).to(tl.float8e4nv, fp_downcast_rounding="rtz")  # <- 2
    tl.store(p + offs, w)


@pytest.mark.parametrize("case,message", [
    (0, "unexpected type fp8e4nv and int32"),
    (1, "conversions from float64 to float8e4nv are not supported"),
    (2, "round to nearest even only"),
])
def test_errors_name_the_line(case, message):
    with pytest.raises(CompilationError) as e:
        bad_fp8_kernel.ir(np.zeros(64, np.uint8), CASE=case)
    text = str(e.value)
    assert message in text, text
    line = [ln for ln, src in bad_fp8_kernel.parsed.src_lines.items()
            if f"# <- {case}" in src][0]
    assert f":{line}:" in text.splitlines()[0], text


def test_before_sm89_is_a_located_error():
    pytest.importorskip("terrazzo._C")
    z = np.zeros(64, np.uint8)
    with pytest.raises(CompilationError) as e:
        convert_kernel.compile(z, z, 64, SRC=tl.float32, DST=tl.float8e4nv, BLOCK=64,
                               target="cuda:80")
    text = str(e.value)
    assert "fp8 conversions need sm_89 or newer, the target is sm_80" in text, text
    line = [ln for ln, src in convert_kernel.parsed.src_lines.items()
            if "x.to(DST)" in src][0]
    assert f":{line}:" in text.splitlines()[0], text


# ---------------------------------------------------------------------------
# GPU: against torch's conversions
# ---------------------------------------------------------------------------

def _torch_dtype(torch, name):
    return {"float8e4nv": torch.float8_e4m3fn, "float8e5": torch.float8_e5m2,
            "float16": torch.float16, "bfloat16": torch.bfloat16,
            "float32": torch.float32}[name]


@pytest.mark.gpu
@pytest.mark.parametrize("fmt", list(FORMATS))
@pytest.mark.parametrize("wide", ["float16", "bfloat16", "float32"])
def test_gpu_from_fp8_every_code(torch_cuda, fmt, wide):
    torch = torch_cuda
    codes = torch.arange(256, dtype=torch.int32).to(torch.uint8).cuda()
    src = codes.view(_torch_dtype(torch, fmt))
    out = torch.full((256 + 5,), 7.0, dtype=_torch_dtype(torch, wide), device="cuda")
    convert_kernel[(2,)](src, out, 256, SRC=TL[fmt], DST=TL[wide], BLOCK=128)
    torch.cuda.synchronize()
    got = out[:256].double().cpu().numpy()
    want = src.double().cpu().numpy()  # torch's (exact) decoding
    nan = np.isnan(want)
    np.testing.assert_array_equal(got[~nan], want[~nan])
    np.testing.assert_array_equal(np.signbit(got[~nan]), np.signbit(want[~nan]))
    assert np.isnan(got[nan]).all()
    assert (out[256:].double().cpu() == 7.0).all()


@pytest.mark.gpu
@pytest.mark.parametrize("fmt", list(FORMATS))
@pytest.mark.parametrize("wide", ["float16", "bfloat16", "float32"])
def test_gpu_to_fp8_matches_torch(torch_cuda, fmt, wide, rng):
    torch = torch_cuda
    tdt = _torch_dtype(torch, fmt)
    maxv = float(torch.finfo(tdt).max)
    ties = _ties_and_neighbours(fmt)
    n = int(rng.integers(1000, 3000))
    rand = rng.standard_normal(n) * np.exp2(rng.uniform(-20, 18, n))
    x64 = np.concatenate([ties, rand])
    x = torch.from_numpy(x64).to(_torch_dtype(torch, wide)).cuda()
    n = x.numel()
    out = torch.full((n + 5,), 0x55, dtype=torch.uint8, device="cuda").view(tdt)
    convert_kernel[(triton.cdiv(n, 256),)](x, out, n, SRC=TL[wide], DST=TL[fmt],
                                           BLOCK=256)
    torch.cuda.synchronize()
    got = out[:n].view(torch.uint8).cpu().numpy()
    # torch rounds to nearest even too but does not saturate: clamp first.
    xf = x.float()
    nan = torch.isnan(xf).cpu().numpy()
    want = xf.clamp(-maxv, maxv).to(tdt).view(torch.uint8).cpu().numpy()
    np.testing.assert_array_equal(got[~nan], want[~nan])
    # A NaN code of the format (which one the hardware picks is not checked).
    assert ((got[nan] & 0x7F) > 0x7C).all() if fmt == "float8e5" else \
        ((got[nan] & 0x7F) == 0x7F).all()
    assert (out[n:].view(torch.uint8).cpu() == 0x55).all()
    # And the interpreter agrees bit for bit.
    np.testing.assert_array_equal(got[~nan],
                                  reference_encode(xf.cpu().double().numpy(), fmt)[~nan])


@pytest.mark.gpu
def test_gpu_fp8_zero_by_zero_is_a_positive_nan(torch_cuda):
    # test_fp8_zero_by_zero_is_a_positive_nan on the GPU.
    torch = torch_cuda
    x = torch.tensor([0x00, 0x80, 0x00, 0x80], dtype=torch.uint8, device="cuda")
    y = torch.tensor([0x00, 0x00, 0x80, 0x80], dtype=torch.uint8, device="cuda")
    for op in ("div", "mod"):
        out = torch.full((4 + 7,), 0x55, dtype=torch.uint8, device="cuda")
        cmp = torch.full((6 * 4 + 7,), 7, dtype=torch.int8, device="cuda")
        fp8_arith_kernel[(1,)](x, y, out, cmp, 4, F=tl.float8e4b15, OP=op, BLOCK=128)
        assert (out[:4].cpu().numpy() == 0x7e).all(), (op, out[:4])


@pytest.mark.gpu
@pytest.mark.parametrize("fmt", ["float8e4nv", "float8e5", "float8e4b15", "float8e4b8",
                                 "float8e5b16"])
@pytest.mark.parametrize("op", ARITH_OPS)
def test_gpu_fp8_arithmetic(torch_cuda, fmt, op, rng):
    torch = torch_cuda
    n, x, y = _arith_inputs(rng, fmt, op)
    xd = torch.from_numpy(x).cuda()  # the kernel reads the bytes as F
    yd = torch.from_numpy(y).cuda()
    out = torch.full((n + 7,), 0x55, dtype=torch.uint8, device="cuda")
    cmp = torch.full((6 * n + 7,), 7, dtype=torch.int8, device="cuda")
    fp8_arith_kernel[(triton.cdiv(n, 128),)](xd, yd, out, cmp, n, F=TL[fmt], OP=op,
                                             BLOCK=128)
    torch.cuda.synchronize()
    out, cmp = out.cpu().numpy(), cmp.cpu().numpy()
    assert (out[n:] == 0x55).all() and (cmp[6 * n:] == 7).all()
    _check_arith(op, fmt, x, y, out, cmp, n)


# ---------------------------------------------------------------------------
# The formats no instruction converts: tl.float8e4b15 (bias 15, every code
# finite; conversions round half away from zero and saturate at 1.75, NaNs
# too, as Triton's software conversion does), tl.float8e4b8 and
# tl.float8e5b16 (bias 8 / 16, no infinities, no negative zero, 0x80 the
# only NaN; conversions round to nearest even and saturate). The compiler
# keeps their bytes (i8 in the tile IR) and converts with integer
# operations through float32; the interpreter runs the same operations.
# ---------------------------------------------------------------------------

# name -> (exponent bits, mantissa bits, bias, NaN convention)
SOFT = {"float8e4b15": (4, 3, 15, "finite"), "float8e4b8": (4, 3, 8, "fnuz"),
        "float8e5b16": (5, 2, 16, "fnuz")}
SOFT_TL = {"float8e4b15": tl.float8e4b15, "float8e4b8": tl.float8e4b8,
           "float8e5b16": tl.float8e5b16}
TL.update(SOFT_TL)


def soft_code_values(name):
    """float64 value of each of the 256 codes (NaN for 0x80 where the
    format has no negative zero)."""
    ebits, mbits, bias, nans = SOFT[name]
    out = np.empty(256)
    for c in range(256):
        s = -1.0 if c >> 7 else 1.0
        e = (c >> mbits) & ((1 << ebits) - 1)
        m = c & ((1 << mbits) - 1)
        if nans == "fnuz" and c == 0x80:
            out[c] = np.nan
        elif e == 0:
            out[c] = s * m * 2.0 ** (1 - bias - mbits)
        else:
            out[c] = s * (1 + m / 2 ** mbits) * 2.0 ** (e - bias)
    return out


def soft_saturation(name):
    return 1.75 if name == "float8e4b15" else np.nanmax(soft_code_values(name))


def soft_reference_encode(x, name):
    """Codes a conversion gives: |x| clamped to the saturation value, then
    the nearest value, ties away from zero (float8e4b15) or to the even
    code; NaN gives 0x80 (fnuz) or the saturation value with its sign."""
    values = soft_code_values(name)
    pos = values[:128]
    sat = soft_saturation(name)
    sat_code = int(np.flatnonzero(pos == sat)[0])
    out = np.empty(np.size(x), np.uint8)
    for i, v in enumerate(np.asarray(x, dtype=np.float64).reshape(-1)):
        neg = bool(np.signbit(v))
        if np.isnan(v):
            out[i] = 0x80 if SOFT[name][3] == "fnuz" else sat_code | (0x80 if neg else 0)
            continue
        a = min(abs(v), sat)
        d = np.abs(pos - a)
        best = np.flatnonzero(d == d.min())
        if len(best) == 1:
            k = best[0]
        elif name == "float8e4b15":
            k = best[-1]  # away from zero
        else:
            k = [j for j in best if j % 2 == 0][0]
        if SOFT[name][3] == "fnuz" and k == 0:
            neg = False  # no negative zero
        out[i] = k | (0x80 if neg else 0)
    return out


@pytest.mark.parametrize("fmt", list(SOFT))
def test_soft_dtypes(fmt):
    ebits, mbits, bias, _ = SOFT[fmt]
    t = SOFT_TL[fmt]
    assert t.primitive_bitwidth == 8 and t.fp_mantissa_width == mbits
    assert t.exponent_bias == bias and t.is_fp8() and t.is_floating()
    assert getattr(t, f"is_fp8{fmt[len('float8'):]}")()
    assert not tl.float8e4nv.is_fp8e4b15() and tl.float8e4nv.is_fp8e4nv()
    assert tl.dtype(fmt) == t and repr(t) == f"triton.language.{fmt}"
    assert tl.dtype_from_name("torch.float8_e4m3fnuz") == tl.float8e4b8
    assert tl.dtype_from_name("float8_e5m2fnuz") == tl.float8e5b16


@pytest.mark.parametrize("name,ty", [("float16", tl.float16), ("bfloat16", tl.bfloat16),
                                     ("float32", tl.float32)])
def test_exponent_bias_decodes_every_code(name, ty):
    """`exponent_bias` and `fp_mantissa_width` describe the 16-bit formats
    exactly (Triton's tests decode them with these attributes)."""
    bits = np.arange(1 << 16, dtype=np.uint32)
    if name == "float32":
        bits = bits << 16 | 0x1234
    width = ty.primitive_bitwidth
    mb, bias = ty.fp_mantissa_width, ty.exponent_bias
    eb = width - mb - 1
    e = (bits >> mb) & ((1 << eb) - 1)
    m = bits & ((1 << mb) - 1)
    s = np.where(bits >> (width - 1) & 1, -1.0, 1.0)
    mine = np.where(e == 0, s * m * 2.0 ** (1 - bias - mb), s * (1 + m / 2.0 ** mb)
                    * 2.0 ** (e.astype(np.int64) - bias))
    finite = e != (1 << eb) - 1
    with np.errstate(invalid="ignore"):  # NaN payloads (not compared)
        if name == "float16":
            want = bits.astype(np.uint16).view(np.float16).astype(np.float64)
        elif name == "bfloat16":
            want = (bits << 16).view(np.float32).astype(np.float64)
        else:
            want = bits.view(np.float32).astype(np.float64)
    np.testing.assert_array_equal(mine[finite], want[finite])


@pytest.mark.parametrize("fmt", list(SOFT))
@pytest.mark.parametrize("wide", ["float16", "bfloat16", "float32"])
def test_soft_every_code(fmt, wide):
    codes = np.arange(256, dtype=np.uint8)
    values = soft_code_values(fmt)
    out = from_bits(run_convert(codes, fmt, wide), wide)
    nan = np.isnan(values)
    np.testing.assert_array_equal(out[~nan], values[~nan])
    np.testing.assert_array_equal(np.signbit(out[~nan]), np.signbit(values[~nan]))
    assert np.isnan(out[nan]).all()
    back = run_convert(to_bits(out, wide), wide, fmt)
    want = codes.copy()
    if fmt == "float8e4b15":
        want[[0x7F, 0xFF]] = [0x7E, 0xFE]  # 1.875 saturates to 1.75
    np.testing.assert_array_equal(back, want)


def _soft_ties_and_neighbours(fmt):
    values = soft_code_values(fmt)[:128]
    pos = values[np.isfinite(values)]
    step = pos[-1] - pos[-2]
    mids = np.concatenate([(pos[:-1] + pos[1:]) / 2, [pos[-1] + step / 2, pos[-1] + step,
                                                       1e30, np.inf]])
    m32 = mids.astype(np.float32)
    x = np.concatenate([m32, np.nextafter(m32, np.float32(0)),
                        np.nextafter(m32, np.float32(np.inf)), pos.astype(np.float32),
                        [2.0 ** -40, 1e-30]])
    return np.concatenate([x, -x, [np.nan, -np.nan]]).astype(np.float64)


@pytest.mark.parametrize("fmt", list(SOFT))
@pytest.mark.parametrize("wide", ["float32", "float16", "bfloat16"])
def test_soft_rounding_and_saturation(fmt, wide):
    x = _soft_ties_and_neighbours(fmt)
    if wide == "float16":
        with np.errstate(over="ignore"):
            x = x[(x.astype(np.float16).astype(np.float64) == x) | np.isnan(x) | np.isinf(x)]
    elif wide == "bfloat16":
        bits = x.astype(np.float32).view(np.uint32)
        x = x[((bits & 0xFFFF) == 0) | np.isnan(x)]
    got = run_convert(to_bits(x, wide), wide, fmt)
    np.testing.assert_array_equal(got, soft_reference_encode(x, fmt))


@pytest.mark.parametrize("fmt", list(SOFT))
def test_soft_random_values_with_tails(fmt, rng):
    n = int(rng.integers(300, 700))
    scale = np.exp2(rng.uniform(-22, 18, n))
    x = (rng.standard_normal(n) * scale).astype(np.float32)
    got = run_convert(x, "float32", fmt, block=256)
    np.testing.assert_array_equal(got, soft_reference_encode(x, fmt))
    back = from_bits(run_convert(got, fmt, "float32", block=64), "float32")
    np.testing.assert_array_equal(back, soft_code_values(fmt)[got])


@pytest.mark.parametrize("src,dst", [("float8e4b15", "float8e4nv"), ("float8e4nv", "float8e4b15"),
                                     ("float8e5b16", "float8e5"), ("float8e4b8", "float8e5b16"),
                                     ("float8e5", "float8e4b8")])
def test_soft_to_and_from_other_fp8(src, dst):
    codes = np.arange(256, dtype=np.uint8)
    got = run_convert(codes, src, dst)
    values = soft_code_values(src) if src in SOFT else code_values(src)
    want = soft_reference_encode(values, dst) if dst in SOFT else reference_encode(values, dst)
    np.testing.assert_array_equal(got, want)


@triton.jit
def copy_kernel(src_ptr, dst_ptr, bits_ptr, FP8: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(src_ptr.to(tl.pointer_type(FP8)) + offs)
    tl.store(dst_ptr.to(tl.pointer_type(FP8)) + offs, tl.where(offs >= 0, x, x))
    tl.store(bits_ptr + offs, x.to(tl.uint8, bitcast=True))


@pytest.mark.parametrize("fmt", list(SOFT))
def test_soft_copy_and_bitcast_keep_every_code(fmt):
    codes = np.arange(256, dtype=np.uint8)
    out = np.zeros(256, np.uint8)
    bits = np.zeros(256, np.uint8)
    interp(copy_kernel)[(1,)](codes, out, bits, FP8=SOFT_TL[fmt], BLOCK=256)
    np.testing.assert_array_equal(out, codes)
    np.testing.assert_array_equal(bits, codes)


@triton.jit
def soft_dot_kernel(a_ptr, b_ptr, c_ptr, A: tl.constexpr, B: tl.constexpr, M: tl.constexpr,
                    N: tl.constexpr, K: tl.constexpr):
    a = tl.load(a_ptr.to(tl.pointer_type(A)) + tl.arange(0, M)[:, None] * K
                + tl.arange(0, K)[None, :])
    b = tl.load(b_ptr.to(tl.pointer_type(B)) + tl.arange(0, K)[:, None] * N
                + tl.arange(0, N)[None, :])
    tl.store(c_ptr + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :], tl.dot(a, b))


@pytest.mark.parametrize("fa,fb", [("float8e4b15", "float8e4b15"), ("float8e4b8", "float8e5b16"),
                                   ("float8e4b15", "float8e5")])
def test_soft_dot_interpreter(fa, fb, rng):
    """A dot of these formats multiplies their (exact) float16 values."""
    a, a64 = _finite_codes(rng, fa, (32, 64))
    b, b64 = _finite_codes(rng, fb, (64, 16))
    c = np.full((32, 16), np.nan, np.float32)
    interp(soft_dot_kernel)[(1,)](a, b, c, A=TL[fa], B=TL[fb], M=32, N=16, K=64)
    want = a64 @ b64
    assert np.all(np.abs(c - want) <= 2.0 ** -24 * (np.abs(a64) @ np.abs(b64)))


def _soft_ir(src, dst):
    z = np.zeros(64, np.uint8)
    return convert_kernel.ir(z, z, 64, SRC=TL[src], DST=TL[dst], BLOCK=64)


@pytest.mark.parametrize("src,dst", [("float8e4b15", "float32"), ("float32", "float8e4b15"),
                                     ("float16", "float8e4b8"), ("float8e5b16", "bfloat16"),
                                     ("bfloat16", "float8e5b16"), ("float8e4b8", "float16")])
@pytest.mark.parametrize("target", ["cuda:90", "cuda:80"])
def test_soft_ir_and_ptx(check_ir, src, dst, target):
    """The bytes are i8 in the tile IR, converted with integer operations:
    no fp8 type, no fp_to_fp from or to them, and the PTX (sm_80 too, which
    has no fp8 instruction) assembles without fp8 conversions."""
    text = _soft_ir(src, dst)
    assert "f8E" not in text and "!tile.ptr<i8>" in text
    assert "arith.shrui" in text and "arith.select" in text
    check_ir.opt(text)
    ptx = check_ir.compile(text, target=target)
    assert "e4m3" not in ptx and "e5m2" not in ptx


@pytest.mark.parametrize("target,instruction", [
    ("cuda:90", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"),
    ("cuda:80", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"),
])
def test_soft_dot_ptx(check_ir, target, instruction):
    z = np.zeros(16, np.uint8)
    text = soft_dot_kernel.ir(z, z, np.zeros(16, np.float32), A=tl.float8e4b15,
                              B=tl.float8e4b15, M=32, N=16, K=64)
    assert "tensor<32x64xf16> * tensor<64x16xf16> -> tensor<32x16xf32>" in text
    assert instruction in check_ir.compile(text, target=target)


@triton.jit
def bad_soft_kernel(x_ptr, CASE: tl.constexpr):
    offs = tl.arange(0, 16)
    p = x_ptr.to(tl.pointer_type(tl.float8e4b15))
    v = tl.load(p + offs)
    if CASE == 0:
        w = v * offs  # <- 0
    else:
        w = tl.load(x_ptr.to(tl.pointer_type(tl.float64)) + offs).to(tl.float8e4b15)  # <- 1
    tl.store(p + offs, w)


@pytest.mark.parametrize("case,message", [
    (0, "unexpected type fp8e4b15 and int32"),
    (1, "conversions from float64 to float8e4b15 are not supported"),
])
def test_soft_errors_name_the_line(case, message):
    for kernel in (bad_soft_kernel, interp(bad_soft_kernel)):
        with pytest.raises(CompilationError) as e:
            if kernel is bad_soft_kernel:
                kernel.ir(np.zeros(128, np.uint8), CASE=case)
            else:
                kernel[(1,)](np.zeros(128, np.uint8), CASE=case)
        text = str(e.value)
        assert message in text, text
        line = [ln for ln, src in bad_soft_kernel.parsed.src_lines.items()
                if f"# <- {case}" in src][0]
        assert f":{line}:" in text.splitlines()[0], text


@pytest.mark.gpu
@pytest.mark.parametrize("fmt", list(SOFT))
@pytest.mark.parametrize("wide", ["float16", "bfloat16", "float32"])
def test_gpu_soft_conversions(torch_cuda, fmt, wide, rng):
    """Every code decoded, and ties, neighbours and random values encoded,
    on the GPU exactly as the reference (and so as the interpreter)."""
    torch = torch_cuda
    codes = torch.arange(256, dtype=torch.int32).to(torch.uint8).cuda()
    out = torch.full((256 + 5,), 7.0, dtype=_torch_dtype(torch, wide), device="cuda")
    convert_kernel[(2,)](codes, out, 256, SRC=SOFT_TL[fmt], DST=TL[wide], BLOCK=128)
    torch.cuda.synchronize()
    got = out[:256].double().cpu().numpy()
    values = soft_code_values(fmt)
    nan = np.isnan(values)
    np.testing.assert_array_equal(got[~nan], values[~nan])
    np.testing.assert_array_equal(np.signbit(got[~nan]), np.signbit(values[~nan]))
    assert np.isnan(got[nan]).all() and (out[256:].double().cpu() == 7.0).all()
    n = int(rng.integers(1000, 3000))
    x64 = np.concatenate([_soft_ties_and_neighbours(fmt),
                          rng.standard_normal(n) * np.exp2(rng.uniform(-22, 18, n))])
    x = torch.from_numpy(x64).to(_torch_dtype(torch, wide)).cuda()
    n = x.numel()
    codes_out = torch.full((n + 5,), 0x55, dtype=torch.uint8, device="cuda")
    convert_kernel[(triton.cdiv(n, 256),)](x, codes_out, n, SRC=TL[wide], DST=SOFT_TL[fmt],
                                           BLOCK=256)
    torch.cuda.synchronize()
    got = codes_out[:n].cpu().numpy()
    np.testing.assert_array_equal(got, soft_reference_encode(x.double().cpu().numpy(), fmt))
    assert (codes_out[n:].cpu() == 0x55).all()


@pytest.mark.gpu
@pytest.mark.parametrize("fa,fb", [("float8e4b15", "float8e4b15"), ("float8e4b8", "float8e5b16")])
def test_gpu_soft_dot(torch_cuda, fa, fb, rng):
    torch = torch_cuda
    a, a64 = _finite_codes(rng, fa, (64, 64))
    b, b64 = _finite_codes(rng, fb, (64, 64))
    c = torch.full((64, 64), float("nan"), dtype=torch.float32, device="cuda")
    soft_dot_kernel[(1,)](torch.from_numpy(a).cuda(), torch.from_numpy(b).cuda(), c,
                          A=TL[fa], B=TL[fb], M=64, N=64, K=64)
    torch.cuda.synchronize()
    want = a64 @ b64
    assert np.all(np.abs(c.cpu().numpy() - want) <= 1e-5 * (np.abs(a64) @ np.abs(b64)))


@triton.jit
def abs_kernel(src_ptr, dst_ptr, FP8: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(src_ptr.to(tl.pointer_type(FP8)) + offs)
    tl.store(dst_ptr.to(tl.pointer_type(FP8)) + offs, tl.abs(x))


@pytest.mark.parametrize("fmt", list(FORMATS) + list(SOFT))
def test_abs_every_code(fmt, check_ir):
    """tl.abs clears the sign bit of every code (NaNs stay NaNs; 0x80, the
    only NaN of float8e4b8 / float8e5b16, stays); it compiles to integer
    operations on the bytes."""
    codes = np.arange(256, dtype=np.uint8)
    out = np.zeros(256, np.uint8)
    interp(abs_kernel)[(1,)](codes, out, FP8=TL[fmt], BLOCK=256)
    want = codes & 0x7F
    if fmt in ("float8e4b8", "float8e5b16"):
        want[0x80] = 0x80
    np.testing.assert_array_equal(out, want)
    text = abs_kernel.ir(codes, out, FP8=TL[fmt], BLOCK=256)
    assert "math.absf" not in text and "arith.andi" in text
    check_ir(text)


@pytest.mark.gpu
@pytest.mark.parametrize("fmt", list(FORMATS) + list(SOFT))
def test_gpu_abs_every_code(torch_cuda, fmt):
    torch = torch_cuda
    codes = torch.arange(256, dtype=torch.int32).to(torch.uint8).cuda()
    out = torch.zeros(256, dtype=torch.uint8, device="cuda")
    abs_kernel[(1,)](codes, out, FP8=TL[fmt], BLOCK=256)
    torch.cuda.synchronize()
    want = np.arange(256, dtype=np.uint8) & 0x7F
    if fmt in ("float8e4b8", "float8e5b16"):
        want[0x80] = 0x80
    np.testing.assert_array_equal(out.cpu().numpy(), want)
