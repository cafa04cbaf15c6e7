"""tl.dot_scaled: the product of two blocks in microscaling formats ("e2m1"
packed two a byte along K or along M / N, "e4m3", "e5m2", "bf16", "fp16"),
each with an optional uint8 e8m0 scale per 32 elements of K, plus a float32
accumulator. As Triton does where no instruction takes these formats, the
operands are upcast to bfloat16 (float16 if either format is "fp16"),
multiplied there by their scales (0xFF gives NaN unless fast_math) and
multiplied by tl.dot.

The interpreter is checked against a float64 NumPy reference written here
from the formats' definitions: the decoded operands, the scale factors made
as Triton makes them, and each scaled element rounded to the compute type;
the product is then within float32 rounding. The tile IR is checked against
terrazzo-opt and its PTX (wgmma on sm_90a, mma.sync on sm_80); on a GPU the
same kernels against the same reference.
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import terrazzo as triton
import terrazzo.language as tl
from terrazzo.errors import CompilationError

MX = ("e2m1", "e4m3", "e5m2")
FORMATS = MX + ("bf16", "fp16")
GROUP = 32  # elements of K per scale


@triton.jit
def scaled_kernel(a_ptr, sa_ptr, b_ptr, sb_ptr, c_ptr, d_ptr, M: tl.constexpr,
                  N: tl.constexpr, K: tl.constexpr, FA: tl.constexpr, FB: tl.constexpr,
                  KPACK_A: tl.constexpr, KPACK_B: tl.constexpr, USE_ACC: tl.constexpr,
                  FAST_MATH: tl.constexpr):
    # A and B as stored (row-major): e2m1 holds half as many bytes along
    # the packed dimension. A missing scale is passed as None.
    AM: tl.constexpr = M // 2 if FA == "e2m1" and not KPACK_A else M
    AK: tl.constexpr = K // 2 if FA == "e2m1" and KPACK_A else K
    BK: tl.constexpr = K // 2 if FB == "e2m1" and KPACK_B else K
    BN: tl.constexpr = N // 2 if FB == "e2m1" and not KPACK_B else N
    G: tl.constexpr = K // 32
    a = tl.load(a_ptr + tl.arange(0, AM)[:, None] * AK + tl.arange(0, AK)[None, :])
    b = tl.load(b_ptr + tl.arange(0, BK)[:, None] * BN + tl.arange(0, BN)[None, :])
    sa = sa_ptr
    if sa_ptr is not None:
        sa = tl.load(sa_ptr + tl.arange(0, M)[:, None] * G + tl.arange(0, G)[None, :])
    sb = sb_ptr
    if sb_ptr is not None:
        sb = tl.load(sb_ptr + tl.arange(0, N)[:, None] * G + tl.arange(0, G)[None, :])
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    if USE_ACC:
        d = tl.dot_scaled(a, sa, FA, b, sb, FB, acc=tl.load(c_ptr + offs),
                          fast_math=FAST_MATH, lhs_k_pack=KPACK_A, rhs_k_pack=KPACK_B)
    else:
        d = tl.dot_scaled(a, sa, FA, b, sb, FB, fast_math=FAST_MATH, lhs_k_pack=KPACK_A,
                          rhs_k_pack=KPACK_B)
    tl.store(d_ptr + offs, d)


@triton.jit
def batched_kernel(a_ptr, sa_ptr, b_ptr, sb_ptr, d_ptr, B: tl.constexpr, M: tl.constexpr,
                   N: tl.constexpr, K: tl.constexpr):
    # e2m1 A (packed along K) times e4m3 B, both scaled, batched.
    rb = tl.arange(0, B)[:, None, None]
    G: tl.constexpr = K // 32
    a = tl.load(a_ptr + rb * (M * K // 2) + tl.arange(0, M)[None, :, None] * (K // 2)
                + tl.arange(0, K // 2)[None, None, :])
    b = tl.load(b_ptr + rb * (K * N) + tl.arange(0, K)[None, :, None] * N
                + tl.arange(0, N)[None, None, :])
    sa = tl.load(sa_ptr + rb * (M * G) + tl.arange(0, M)[None, :, None] * G
                 + tl.arange(0, G)[None, None, :])
    sb = tl.load(sb_ptr + rb * (N * G) + tl.arange(0, N)[None, :, None] * G
                 + tl.arange(0, G)[None, None, :])
    d = tl.dot_scaled(a, sa, "e2m1", b, sb, "e4m3")
    tl.store(d_ptr + rb * (M * N) + tl.arange(0, M)[None, :, None] * N
             + tl.arange(0, N)[None, None, :], d)


@triton.jit
def typed_kernel(a_ptr, b_ptr, sb_ptr, d_ptr, M: tl.constexpr, N: tl.constexpr,
                 K: tl.constexpr, FA: tl.constexpr, FB: tl.constexpr, TA: tl.constexpr,
                 TB: tl.constexpr):
    # The operands loaded as their float types (not as unsigned integers).
    a_ptr = a_ptr.to(tl.pointer_type(TA))
    b_ptr = b_ptr.to(tl.pointer_type(TB))
    a = tl.load(a_ptr + tl.arange(0, M)[:, None] * K + tl.arange(0, K)[None, :])
    b = tl.load(b_ptr + tl.arange(0, K)[:, None] * N + tl.arange(0, N)[None, :])
    G: tl.constexpr = K // 32
    sb = tl.load(sb_ptr + tl.arange(0, N)[:, None] * G + tl.arange(0, G)[None, :])
    d = tl.dot_scaled(a, None, FA, b, sb, FB)
    tl.store(d_ptr + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :], d)


def interp(kernel):
    return triton.jit(kernel.fn, interpret=True)


# ---------------------------------------------------------------------------
# The reference, from the formats' definitions
# ---------------------------------------------------------------------------

def e2m1_values(codes):
    """float64 values of e2m1 codes (0..15): sign, 2 exponent bits (bias 1),
    1 mantissa bit; the code with exponent 0 and mantissa 1 is 0.5."""
    codes = np.asarray(codes)
    e = (codes >> 1) & 3
    m = codes & 1
    mag = np.where(e == 0, m * 0.5, (1 + m / 2) * 2.0 ** (e - 1))
    return np.where(codes & 8, -mag, mag)


def fp8_values(codes, fmt):
    """float64 values of e4m3 (bias 7, no infinities, S.1111.111 NaN) or
    e5m2 (bias 15, IEEE infinities and NaNs) codes."""
    ebits, mbits, bias = (4, 3, 7) if fmt == "e4m3" else (5, 2, 15)
    codes = np.asarray(codes).astype(np.int64)
    e = (codes >> mbits) & ((1 << ebits) - 1)
    m = codes & ((1 << mbits) - 1)
    mag = np.where(e == 0, m * 2.0 ** (1 - bias - mbits),
                   (1 + m / 2 ** mbits) * 2.0 ** (e - bias))
    top = (1 << ebits) - 1
    if fmt == "e4m3":
        mag = np.where((e == top) & (m == 7), np.nan, mag)
    else:
        mag = np.where(e == top, np.where(m == 0, np.inf, np.nan), mag)
    return np.where(codes & 0x80, -mag, mag)


def unpack_nibbles(stored, axis):
    """Each byte's low nibble then its high nibble, along `axis`."""
    stored = np.asarray(stored)
    axis = axis % stored.ndim
    pairs = np.stack([stored & 0xF, stored >> 4], axis=axis + 1)
    shape = list(stored.shape)
    shape[axis] *= 2
    return pairs.reshape(shape)


def round_bf16(x):
    """float64 values (exact in float32) rounded to bfloat16, ties to even."""
    f = np.asarray(x, dtype=np.float32)
    bits = f.view(np.uint32).astype(np.uint64)
    rounded = (((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) << 16).astype(np.uint32)
    out = rounded.view(np.float32).astype(np.float64)
    return np.where(np.isnan(f), np.nan, out)


def round_to(x, compute):
    with np.errstate(all="ignore"):
        if compute == "fp16":
            return np.asarray(x, dtype=np.float64).astype(np.float16).astype(np.float64)
        return round_bf16(x)


def decode(stored, fmt, packed_axis, compute):
    """The operand's values in the compute type (float64)."""
    if fmt == "e2m1":
        return e2m1_values(unpack_nibbles(stored, packed_axis))
    if fmt in ("e4m3", "e5m2"):
        return fp8_values(stored, fmt)
    bits = np.asarray(stored, dtype=np.uint16)
    if fmt == "bf16":
        values = (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    else:
        values = bits.view(np.float16).astype(np.float64)
    return round_to(values, compute)  # bf16 -> fp16 rounds


def scale_factors(scale, compute, fast_math):
    """2^(scale - 127) made in the compute type from the exponent's bits, as
    Triton does: an exponent of 0 gives 0; in float16 it goes through
    float32 and rounds (overflowing to infinity, underflowing to 0); 0xFF
    gives NaN, or with fast_math the infinity its bits make."""
    s = np.asarray(scale).astype(np.int64)
    f = np.where(s == 0, 0.0, np.ldexp(1.0, s - 127))
    f = np.where(s == 255, np.inf, f)
    if compute == "fp16":
        f = round_to(f, "fp16")
    if not fast_math:
        f = np.where(s == 255, np.nan, f)
    return f


def reference(a, sa, fa, b, sb, fb, kpack_a=True, kpack_b=True, c=None, fast_math=False,
              rel=2.0 ** -23):
    """(A B + C in float64, the bound on the error of the float32 result:
    `rel` times |A| |B| + |C|; the default covers one rounding)."""
    compute = "fp16" if "fp16" in (fa, fb) else "bf16"
    av = decode(a, fa, -1 if kpack_a else -2, compute)
    bv = decode(b, fb, -2 if kpack_b else -1, compute)
    with np.errstate(all="ignore"):
        if sa is not None:
            fa_ = np.repeat(scale_factors(sa, compute, fast_math), GROUP, axis=-1)
            av = round_to(av * fa_, compute)
        if sb is not None:
            fb_ = np.repeat(scale_factors(sb, compute, fast_math), GROUP, axis=-1)
            bv = round_to(bv * np.swapaxes(fb_, -1, -2), compute)
        want = np.matmul(av, bv)
        size = np.matmul(np.abs(av), np.abs(bv))
    if c is not None:
        want = want + c
        size = size + np.abs(c)
    return want, rel * size + 2.0 ** -140


def assert_matches(got, want, tol):
    got = np.asarray(got, dtype=np.float64)
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), nan)
    inf = np.isinf(want)
    np.testing.assert_array_equal(got[inf], want[inf])
    # Sums beyond float32's range may overflow the float32 result.
    overflow = ~nan & ~inf & (np.abs(want) >= 2.0 ** 127) & np.isinf(got)
    np.testing.assert_array_equal(np.sign(got[overflow]), np.sign(want[overflow]))
    finite = ~nan & ~inf & ~overflow
    err = np.abs(got[finite] - want[finite])
    assert np.all(err <= tol[finite]), (err - tol[finite]).max()


# ---------------------------------------------------------------------------
# Random operands
# ---------------------------------------------------------------------------

def random_operand(rng, fmt, shape):
    """Stored operand of `shape` (bytes for e2m1 / fp8, uint16 bits for the
    16-bit formats), finite values only."""
    if fmt == "e2m1":
        return rng.integers(0, 256, shape).astype(np.uint8)
    if fmt in ("e4m3", "e5m2"):
        codes = rng.integers(0, 256, shape).astype(np.uint8)
        bad = ~np.isfinite(fp8_values(codes, fmt))
        codes[bad] &= 0xC7  # a finite code of the same sign
        return codes
    x = rng.standard_normal(shape) * np.exp2(rng.integers(-6, 6, shape))
    if fmt == "fp16":
        return x.astype(np.float16).view(np.uint16)
    return (x.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)


def stored_shape(fmt, rows, cols, packed_axis):
    if fmt != "e2m1":
        return (rows, cols)
    return (rows, cols // 2) if packed_axis == 1 else (rows // 2, cols)


def random_scale(rng, rows, k, compute, low=None, high=None):
    # Exponents that keep every scaled value finite in the compute type.
    if low is None:
        low, high = (112, 140) if compute == "bf16" else (122, 131)
    return rng.integers(low, high + 1, (rows, k // GROUP)).astype(np.uint8)


def make_case(rng, fa, fb, m, n, k, scale_a, scale_b, kpack_a=True, kpack_b=True):
    compute = "fp16" if "fp16" in (fa, fb) else "bf16"
    a = random_operand(rng, fa, stored_shape(fa, m, k, 1 if kpack_a else 0))
    b = random_operand(rng, fb, stored_shape(fb, k, n, 0 if kpack_b else 1))
    sa = random_scale(rng, m, k, compute) if scale_a else None
    sb = random_scale(rng, n, k, compute) if scale_b else None
    return a, sa, b, sb


def run_interpreter(a, sa, fa, b, sb, fb, m, n, k, kpack_a=True, kpack_b=True, c=None,
                    fast_math=False):
    d = np.full((m, n), np.nan, np.float32)
    c_arg = c if c is not None else np.zeros((m, n), np.float32)
    interp(scaled_kernel)[(1,)](a, sa, b, sb, c_arg, d, M=m, N=n, K=k, FA=fa, FB=fb,
                                KPACK_A=kpack_a, KPACK_B=kpack_b, USE_ACC=c is not None,
                                FAST_MATH=fast_math)
    return d


# ---------------------------------------------------------------------------
# The interpreter
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("fa", FORMATS)
@pytest.mark.parametrize("fb", FORMATS)
def test_format_pairs_with_scales(fa, fb, rng):
    """Every pair of formats; the microscaled operands have scales."""
    m, n, k = 32, 16, 64
    a, sa, b, sb = make_case(rng, fa, fb, m, n, k, fa in MX, fb in MX)
    d = run_interpreter(a, sa, fa, b, sb, fb, m, n, k)
    assert_matches(d, *reference(a, sa, fa, b, sb, fb))


@pytest.mark.parametrize("fa,fb", [("e2m1", "bf16"), ("fp16", "e2m1"), ("e4m3", "e5m2"),
                                   ("e5m2", "fp16"), ("e2m1", "e2m1")])
@pytest.mark.parametrize("scales", ["none", "lhs", "rhs", "both"])
def test_with_and_without_scales(fa, fb, scales, rng):
    m, n, k = 16, 32, 128
    a, sa, b, sb = make_case(rng, fa, fb, m, n, k, scales in ("lhs", "both"),
                             scales in ("rhs", "both"))
    d = run_interpreter(a, sa, fa, b, sb, fb, m, n, k)
    want, tol = reference(a, sa, fa, b, sb, fb)
    assert_matches(d, want, tol)
    if scales != "none":  # the scales change the result
        unscaled, _ = reference(a, None, fa, b, None, fb)
        assert not np.allclose(want, unscaled)


@pytest.mark.parametrize("kpack_a", [True, False])
@pytest.mark.parametrize("kpack_b", [True, False])
@pytest.mark.parametrize("other", ["e2m1", "bf16", "fp16"])
def test_e2m1_packed_along_m_or_n(kpack_a, kpack_b, other, rng):
    """e2m1 packed along K, or along M (lhs) / N (rhs) without k_pack; the
    element from a byte's low nibble comes first."""
    m, n, k = 32, 64, 64
    for fa, fb in (("e2m1", other), (other, "e2m1")):
        ka = kpack_a or fa != "e2m1"
        kb = kpack_b or fb != "e2m1"
        a, sa, b, sb = make_case(rng, fa, fb, m, n, k, fa == "e2m1", fb == "e2m1", ka, kb)
        d = run_interpreter(a, sa, fa, b, sb, fb, m, n, k, kpack_a=ka, kpack_b=kb)
        assert_matches(d, *reference(a, sa, fa, b, sb, fb, ka, kb))


def test_nibble_order(rng):
    """One byte per row of A (0x31: 0.5 then 1.5) against B = identity
    (e4m3 1.0 = 0x38 on the diagonal): D is A itself."""
    a = np.full((16, 8), 0x00, np.uint8)
    a[:, 0] = 0x31
    b = np.where(np.eye(16, dtype=bool), 0x38, 0).astype(np.uint8)
    d = run_interpreter(a, None, "e2m1", b, None, "e4m3", 16, 16, 16)
    want = np.zeros((16, 16))
    want[:, 0], want[:, 1] = 0.5, 1.5
    np.testing.assert_array_equal(d, want)
    # Packed along M: byte (i, j) holds rows 2i and 2i + 1 of column j.
    a_m = np.zeros((8, 16), np.uint8)
    a_m[0, 0] = 0x31
    d = run_interpreter(a_m, None, "e2m1", b, None, "e4m3", 16, 16, 16, kpack_a=False)
    want = np.zeros((16, 16))
    want[0, 0], want[1, 0] = 0.5, 1.5
    np.testing.assert_array_equal(d, want)


@pytest.mark.parametrize("fa,fb", [("e2m1", "e4m3"), ("bf16", "e5m2"), ("fp16", "e2m1")])
def test_accumulator(fa, fb, rng):
    m, n, k = 32, 32, 64
    a, sa, b, sb = make_case(rng, fa, fb, m, n, k, fa in MX, fb in MX)
    c = (rng.standard_normal((m, n)) * 100).astype(np.float32)
    d = run_interpreter(a, sa, fa, b, sb, fb, m, n, k, c=c)
    assert_matches(d, *reference(a, sa, fa, b, sb, fb, c=c))


@pytest.mark.parametrize("compute_fmt", ["bf16", "fp16"])
@pytest.mark.parametrize("fast_math", [False, True])
def test_nan_scale(compute_fmt, fast_math, rng):
    """A scale of 0xFF makes its group NaN; with fast_math the factor is the
    infinity its bits make: a group of positive values against a positive
    B gives +inf, a group of zeros NaN."""
    m, n, k = 16, 16, 64
    a, sa, b, sb = make_case(rng, "e2m1", compute_fmt, m, n, k, True, False)
    b &= 0x7FFF  # B positive
    sa[3, 1] = 0xFF
    a[3, 16:32] = 0x22  # group 1 of row 3: all 1.0
    sa[7, 0] = 0xFF
    a[7, :16] = 0x00  # group 0 of row 7: all 0.0
    d = run_interpreter(a, sa, "e2m1", b, sb, compute_fmt, m, n, k, fast_math=fast_math)
    want, tol = reference(a, sa, "e2m1", b, sb, compute_fmt, fast_math=fast_math)
    assert_matches(d, want, tol)
    assert np.isnan(d[7]).all()
    if fast_math:
        assert (d[3] == np.inf).all()
    else:
        assert np.isnan(d[3]).all()
    assert np.isfinite(np.delete(d, [3, 7], axis=0)).all()


@pytest.mark.parametrize("compute_fmt", ["bf16", "fp16"])
def test_scales_over_the_whole_range(compute_fmt, rng):
    """Every exponent 0..254: factors past the compute type's range become
    infinities or zeros (and subnormals) exactly as they are made from the
    exponent's bits, 0 gives 0."""
    m, n, k = 16, 16, 256
    a, _, b, sb = make_case(rng, "e4m3", compute_fmt, m, n, k, False, False)
    sa = rng.integers(0, 255, (m, k // GROUP)).astype(np.uint8)
    sa[0, :] = 0
    sa[1, :] = np.arange(k // GROUP) + 1  # the smallest
    sa[2, :] = 254
    d = run_interpreter(a, sa, "e4m3", b, sb, compute_fmt, m, n, k)
    want, tol = reference(a, sa, "e4m3", b, sb, compute_fmt)
    assert_matches(d, want, tol)
    assert (d[0] == 0).all()


def test_batched(rng):
    bsz, m, n, k = 2, 16, 32, 64
    a = rng.integers(0, 256, (bsz, m, k // 2)).astype(np.uint8)
    b = random_operand(rng, "e4m3", (bsz, k, n))
    sa = rng.integers(115, 140, (bsz, m, k // GROUP)).astype(np.uint8)
    sb = rng.integers(115, 140, (bsz, n, k // GROUP)).astype(np.uint8)
    d = np.full((bsz, m, n), np.nan, np.float32)
    interp(batched_kernel)[(1,)](a, sa, b, sb, d, B=bsz, M=m, N=n, K=k)
    assert_matches(d, *reference(a, sa, "e2m1", b, sb, "e4m3"))


@pytest.mark.parametrize("fa,fb,ta,tb", [
    ("e4m3", "e5m2", tl.float8e4nv, tl.float8e5),
    ("bf16", "e4m3", tl.bfloat16, tl.float8e4nv),
    ("fp16", "e5m2", tl.float16, tl.float8e5),
])
def test_float_typed_operands(fa, fb, ta, tb, rng):
    """fp8 and 16-bit operands given as their float types, not as bits."""
    m, n, k = 16, 32, 64
    a, _, b, sb = make_case(rng, fa, fb, m, n, k, False, True)
    d = np.full((m, n), np.nan, np.float32)
    interp(typed_kernel)[(1,)](a, b, sb, d, M=m, N=n, K=k, FA=fa, FB=fb, TA=ta, TB=tb)
    assert_matches(d, *reference(a, None, fa, b, sb, fb))


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------

@triton.jit
def bad_kernel(x_ptr, CASE: tl.constexpr):
    r32 = tl.arange(0, 32)
    r16 = tl.arange(0, 16)
    a = tl.load(x_ptr + r32[:, None] * 32 + r32[None, :])  # 32 x 32 uint8
    s = tl.load(x_ptr + r32[:, None] + tl.arange(0, 1)[None, :])  # 32 x 1 uint8
    if CASE == 0:
        d = tl.dot_scaled(a, None, "e3m2", a, None, "e4m3")  # unknown format
    elif CASE == 1:
        d = tl.dot_scaled(a, None, "e4m3", a, None, "e4m3", lhs_k_pack=False)  # fp8 along M
    elif CASE == 2:
        d = tl.dot_scaled(a.to(tl.int8), None, "e2m1", a, None, "e4m3")  # int8 e2m1
    elif CASE == 3:
        d = tl.dot_scaled(a, s, "e2m1", a, None, "e2m1")  # scale for K = 32, K is 64
    elif CASE == 4:
        d = tl.dot_scaled(a, None, "e4m3", a, s.to(tl.int8), "e4m3")  # int8 scale
    elif CASE == 5:
        d = tl.dot_scaled(a, None, "e2m1", a, None, "e4m3")  # K 64 against K 32
    elif CASE == 6:
        d = tl.dot_scaled(a, None, "e4m3", a, None, "e4m3", out_dtype=tl.float16)  # fp16 out
    elif CASE == 7:
        acc = tl.zeros((32, 16), tl.float32)
        d = tl.dot_scaled(a, None, "e4m3", a, None, "e4m3", acc=acc)  # accumulator shape
    else:
        b = tl.load(x_ptr + r16[:, None] * 32 + r32[None, :])  # 16 x 32: K = 16
        c = tl.load(x_ptr + r32[:, None] * 16 + r16[None, :])  # 32 x 16
        d = tl.dot_scaled(c, None, "e4m3", b, s, "e4m3")  # K = 16 scaled
    tl.store(x_ptr.to(tl.pointer_type(tl.float32)) + tl.arange(0, 1), tl.sum(tl.sum(d, 1), 0))


def _line_of(kernel, text):
    src, start = inspect.getsourcelines(kernel.fn)
    for i, line in enumerate(src):
        if text in line:
            return start + i
    raise AssertionError(text)


@pytest.mark.parametrize("case,message,marker", [
    (0, "lhs_format must be one of 'e2m1', 'e4m3', 'e5m2', 'bf16', 'fp16', got 'e3m2'",
     "unknown format"),
    (1, "only e2m1 operands can be packed along a dimension other than K", "fp8 along M"),
    (2, "a e2m1 lhs must be a block of uint8, got int8", "int8 e2m1"),
    (3, "lhs_scale must be a uint8 block of shape [32, 2]", "scale for K = 32"),
    (4, "rhs_scale must be a uint8 block of shape [32, 1]", "int8 scale"),
    (5, "different numbers of elements along K: 64", "K 64 against K 32"),
    (6, "accumulates in float32 only, not fp16", "fp16 out"),
    (7, "the accumulator must be a fp32 block of shape [32, 32]", "accumulator shape"),
    (8, "K (16) must be a multiple of 32 to be scaled", "K = 16 scaled"),
])
def test_errors_name_the_line(case, message, marker):
    for kernel in (bad_kernel, interp(bad_kernel)):
        with pytest.raises(CompilationError) as e:
            if kernel is bad_kernel:
                kernel.ir(np.zeros(4096, np.uint8), CASE=case)
            else:
                kernel[(1,)](np.zeros(4096, np.uint8), CASE=case)
        text = str(e.value)
        assert message in text, text
        assert f":{_line_of(bad_kernel, marker)}:" in text, text


# ---------------------------------------------------------------------------
# Tile IR and PTX
# ---------------------------------------------------------------------------

def _ir(fa, fb, m=64, n=64, k=128, scale_a=True, scale_b=True, kpack_a=True, kpack_b=True,
        use_acc=False):
    def operand(fmt):
        return np.zeros(16, np.uint16 if fmt in ("bf16", "fp16") else np.uint8)
    s = np.zeros(16, np.uint8)
    f = np.zeros(16, np.float32)
    return scaled_kernel.ir(operand(fa), s if scale_a else None, operand(fb),
                            s if scale_b else None, f, f, M=m, N=n, K=k, FA=fa, FB=fb,
                            KPACK_A=kpack_a, KPACK_B=kpack_b, USE_ACC=use_acc,
                            FAST_MATH=False)


def test_ir_is_a_dot_of_upcast_operands(check_ir):
    text = _ir("e2m1", "e4m3")
    # e2m1 unpacked (join + reshape) and decoded, e4m3 converted; both
    # scaled in bfloat16, then one dot on bfloat16 with float32 results.
    assert "tile.join" in text and "tile.reshape" in text
    assert "tile.fp_to_fp" in text and "tensor<128x64xf8E4M3FN> -> tensor<128x64xbf16>" in text
    assert "tile.dot" in text
    assert "tensor<64x128xbf16> * tensor<128x64xbf16> -> tensor<64x64xf32>" in text
    check_ir.opt(text)
    text = _ir("fp16", "e5m2", scale_a=False)
    assert "tensor<64x128xf16> * tensor<128x64xf16> -> tensor<64x64xf32>" in text
    check_ir.opt(text)


# (lhs format, rhs format, instruction types): the compute type is float16
# when either format is "fp16", else bfloat16.
PTX_PAIRS = [("e2m1", "e4m3", "bf16"), ("e5m2", "e2m1", "bf16"), ("e2m1", "e2m1", "bf16"),
             ("bf16", "e5m2", "bf16"), ("e4m3", "fp16", "f16"), ("fp16", "e2m1", "f16")]


@pytest.mark.parametrize("fa,fb,ty", PTX_PAIRS)
def test_lowers_to_wgmma_on_sm90(check_ir, fa, fb, ty):
    ptx = check_ir.compile(_ir(fa, fb, use_acc=True), target="cuda:90", num_warps=4)
    assert f"wgmma.mma_async.sync.aligned.m64n64k16.f32.{ty}.{ty}" in ptx, \
        [line for line in ptx.splitlines() if "mma" in line][:3]


@pytest.mark.parametrize("fa,fb", [("e2m1", "e2m1"), ("e2m1", "bf16"), ("fp16", "e2m1")])
@pytest.mark.parametrize("kpack_a,kpack_b", [(True, True), (False, True), (True, False),
                                             (False, False)])
def test_lowers_to_mma_sync_on_sm80(check_ir, fa, fb, kpack_a, kpack_b):
    """e2m1 (packed along K or along M / N) and the 16-bit formats need no
    fp8 conversion: on sm_80 they are mma.sync instructions."""
    kpack_a = kpack_a or fa != "e2m1"
    kpack_b = kpack_b or fb != "e2m1"
    ty = "f16" if "fp16" in (fa, fb) else "bf16"
    ptx = check_ir.compile(_ir(fa, fb, m=32, n=64, k=64, kpack_a=kpack_a, kpack_b=kpack_b),
                           target="cuda:80", num_warps=4)
    assert f"mma.sync.aligned.m16n8k16.row.col.f32.{ty}.{ty}.f32" in ptx
    assert "wgmma" not in ptx


@pytest.mark.parametrize("kpack_a,kpack_b", [(False, True), (True, False), (False, False)])
def test_packed_along_m_and_n_on_sm90(check_ir, kpack_a, kpack_b):
    ptx = check_ir.compile(_ir("e2m1", "e2m1", kpack_a=kpack_a, kpack_b=kpack_b),
                           target="cuda:90", num_warps=4)
    assert "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16" in ptx


def test_fp8_formats_before_sm89_are_a_located_error():
    pytest.importorskip("terrazzo._C")
    s = np.zeros(16, np.uint8)
    f = np.zeros(16, np.float32)
    with pytest.raises(CompilationError) as e:
        scaled_kernel.compile(s, s, s, s, f, f, M=32, N=32, K=64, FA="e2m1", FB="e5m2",
                              KPACK_A=True, KPACK_B=True, USE_ACC=False, FAST_MATH=False,
                              target="cuda:80")
    text = str(e.value)
    assert "fp8 conversions need sm_89 or newer" in text, text
    assert f":{_line_of(scaled_kernel, 'd = tl.dot_scaled(a, sa, FA, b, sb, FB, fast_math')}:" \
        in text, text


# ---------------------------------------------------------------------------
# On a GPU
# ---------------------------------------------------------------------------

def run_gpu(torch, a, sa, fa, b, sb, fb, m, n, k, kpack_a=True, kpack_b=True, c=None,
            fast_math=False, num_warps=4):
    """D from scaled_kernel on the GPU: bytes as uint8 tensors, the 16-bit
    formats as bfloat16 / float16 tensors (so the kernel loads them typed)."""
    def dev(x, fmt=None):
        if x is None:
            return None
        x = np.ascontiguousarray(x)
        if x.dtype == np.uint16:
            t = torch.from_numpy(x.view(np.int16)).cuda()
            return t.view(torch.bfloat16 if fmt == "bf16" else torch.float16)
        return torch.from_numpy(x).cuda()
    d = torch.full((m, n), float("nan"), dtype=torch.float32, device="cuda")
    c_arg = dev(c) if c is not None else torch.zeros((m, n), dtype=torch.float32,
                                                      device="cuda")
    scaled_kernel[(1,)](dev(a, fa), dev(sa), dev(b, fb), dev(sb), c_arg, d, M=m, N=n, K=k,
                        FA=fa, FB=fb, KPACK_A=kpack_a, KPACK_B=kpack_b,
                        USE_ACC=c is not None, FAST_MATH=fast_math, num_warps=num_warps)
    torch.cuda.synchronize()
    return d.cpu().numpy()


# Products of the upcast operands are exact; the tensor cores sum them in
# float32, within 1e-5 of |A| |B| + |C| at these K.
GPU_REL = 1e-5


@pytest.mark.gpu
@pytest.mark.parametrize("fa", FORMATS)
@pytest.mark.parametrize("fb", FORMATS)
@pytest.mark.parametrize("shape,num_warps", [((64, 64, 128), 4), ((32, 32, 64), 4),
                                             ((128, 64, 64), 8)],
                         ids=["64x64x128", "32x32x64", "128x64x64-w8"])
def test_gpu_format_pairs(torch_cuda, fa, fb, shape, num_warps, rng):
    m, n, k = shape
    a, sa, b, sb = make_case(rng, fa, fb, m, n, k, fa in MX, fb in MX)
    d = run_gpu(torch_cuda, a, sa, fa, b, sb, fb, m, n, k, num_warps=num_warps)
    assert_matches(d, *reference(a, sa, fa, b, sb, fb, rel=GPU_REL))


@pytest.mark.gpu
@pytest.mark.parametrize("kpack_a,kpack_b", [(True, True), (False, True), (True, False),
                                             (False, False)])
@pytest.mark.parametrize("fa,fb", [("e2m1", "e2m1"), ("e2m1", "bf16"), ("fp16", "e2m1"),
                                   ("e2m1", "e5m2")])
@pytest.mark.parametrize("use_acc", [False, True])
def test_gpu_packing_and_accumulator(torch_cuda, kpack_a, kpack_b, fa, fb, use_acc, rng):
    m, n, k = 64, 64, 128
    kpack_a = kpack_a or fa != "e2m1"
    kpack_b = kpack_b or fb != "e2m1"
    a, sa, b, sb = make_case(rng, fa, fb, m, n, k, fa in MX, fb in MX, kpack_a, kpack_b)
    c = (rng.standard_normal((m, n)) * 10).astype(np.float32) if use_acc else None
    d = run_gpu(torch_cuda, a, sa, fa, b, sb, fb, m, n, k, kpack_a, kpack_b, c)
    assert_matches(d, *reference(a, sa, fa, b, sb, fb, kpack_a, kpack_b, c, rel=GPU_REL))


@pytest.mark.gpu
@pytest.mark.parametrize("other", ["bf16", "fp16"])
@pytest.mark.parametrize("fast_math", [False, True])
def test_gpu_nan_scale_and_wide_range(torch_cuda, other, fast_math, rng):
    """Scales from 0 (zero) to past the compute type's range; NaN scales;
    a group that overflows the compute type. Float32 partial sums must not
    overflow (their order on the GPU is unknown): in bfloat16 the random
    exponents stay at most 200; in float16 the factors past its range are
    infinities already."""
    m, n, k = 64, 64, 256
    a, sa, b, sb = make_case(rng, "e2m1", other, m, n, k, True, False)
    b &= 0x7FFF  # B positive
    sa[:] = rng.integers(0, 201, sa.shape) if other == "bf16" else \
        rng.integers(95, 151, sa.shape)
    sa[2], sa[3], sa[7] = 127, 127, 127  # rows 2, 3 and 7 finite but for one group
    sa[2, 2] = 254
    a[2, 32:48] = 0x77  # group 2 of row 2: all 6.0, past the compute type's range
    sa[3, 1] = 0xFF
    a[3, 16:32] = 0x22  # group 1 of row 3: all 1.0
    sa[7, 0] = 0xFF
    a[7, :16] = 0x00  # group 0 of row 7: all 0.0
    d = run_gpu(torch_cuda, a, sa, "e2m1", b, sb, other, m, n, k, fast_math=fast_math)
    assert_matches(d, *reference(a, sa, "e2m1", b, sb, other, fast_math=fast_math,
                                 rel=GPU_REL))
    assert (d[2] == np.inf).all() and np.isnan(d[7]).all()
    assert (d[3] == np.inf).all() if fast_math else np.isnan(d[3]).all()


# ---------------------------------------------------------------------------
# Hand-written upcasts, as microscaling kernels write them
# ---------------------------------------------------------------------------

@triton.jit
def manual_factor_kernel(s_ptr, bf16_ptr, f16_ptr, lo_ptr, BLOCK: tl.constexpr):
    # A Python integer takes the other operand's type in bitwise ops (as in
    # Triton): uint16 << 7 is uint16, uint8 & 0x7 is uint8.
    offs = tl.arange(0, BLOCK)
    s = tl.load(s_ptr + offs)
    tl.static_assert((s & 0x7).dtype == tl.uint8)
    tl.static_assert((s.to(tl.uint16) << 7).dtype == tl.uint16)
    factor = (s.to(tl.uint16) << 7).to(tl.bfloat16, bitcast=True)
    tl.store(bf16_ptr + offs, factor.to(tl.float32))
    wide = (s.to(tl.uint32) << 23).to(tl.float32, bitcast=True)
    tl.store(f16_ptr + offs, wide.to(tl.float16).to(tl.float32))
    tl.store(lo_ptr + offs, (s & 0x7) | (s >> 4))


def test_hand_written_factors_match_dot_scaled():
    """The e8m0 factors made by hand from the exponent's bits equal the ones
    tl.dot_scaled uses (the reference's); the IR keeps 16-bit shifts."""
    s = np.arange(256, dtype=np.uint8)
    bf, hf = np.zeros(256, np.float32), np.zeros(256, np.float32)
    lo = np.zeros(256, np.uint8)
    interp(manual_factor_kernel)[(1,)](s, bf, hf, lo, BLOCK=256)
    finite = s != 255
    np.testing.assert_array_equal(bf[finite], scale_factors(s, "bf16", False)[finite])
    np.testing.assert_array_equal(hf[finite], scale_factors(s, "fp16", False)[finite])
    assert np.isinf(bf[255]) and np.isinf(hf[255])
    np.testing.assert_array_equal(lo, (s & 7) | (s >> 4))
    text = manual_factor_kernel.ir(s, bf, hf, lo, BLOCK=256)
    assert "arith.shli" in text and "tensor<256xi16>" in text
    assert "arith.andi" in text and "tensor<256xi8>" in text
