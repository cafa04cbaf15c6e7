"""`tl.extra.libdevice` (and `tl.extra.cuda`): every function, at every
signature of its table, in the interpreter against references written
here (NumPy and the math module, integral representations for the Bessel
functions, round trips for the inverse error functions, exact rational
checks for the functions with a rounding mode); the type rules and their
errors; the compile path (tile.extern_elementwise with the libdevice
symbol, a call of it in the LLVM dialect, PTX with libdevice linked); and,
on a GPU, every function compiled against the interpreter.
"""

from __future__ import annotations

import decimal
import math
import re
import subprocess
from fractions import Fraction

import numpy as np
import pytest

import terrazzo as triton
import terrazzo.language as tl
from terrazzo.errors import CompilationError
from terrazzo.language.extra import libdevice

F32, F64 = tl.float32, tl.float64
_NP = {"fp32": np.float32, "fp64": np.float64, "int32": np.int32, "uint32": np.uint32,
       "int64": np.int64, "uint64": np.uint64, "int1": np.bool_}

# ---------------------------------------------------------------------------
# The kernel: one libdevice function on up to four loaded arguments
# ---------------------------------------------------------------------------


@triton.jit
def call_kernel(a_ptr, b_ptr, c_ptr, d_ptr, out_ptr, n, FN: tl.constexpr,
                ARITY: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask)
    if ARITY == 1:
        r = getattr(libdevice, FN)(a)
    elif ARITY == 2:
        r = getattr(libdevice, FN)(a, tl.load(b_ptr + offs, mask=mask))
    elif ARITY == 3:
        r = getattr(libdevice, FN)(a, tl.load(b_ptr + offs, mask=mask),
                                   tl.load(c_ptr + offs, mask=mask))
    else:
        r = getattr(libdevice, FN)(a, tl.load(b_ptr + offs, mask=mask),
                                   tl.load(c_ptr + offs, mask=mask),
                                   tl.load(d_ptr + offs, mask=mask))
    tl.store(out_ptr + offs, r, mask=mask)


BLOCK = 128
N = 200  # two programs, the second one masked


def run_call(name, args, out_dtype, interpret=True, device=None):
    """libdevice.<name>(*args) elementwise through call_kernel; the result."""
    arrays = [np.ascontiguousarray(a) for a in args]
    pad = arrays + [arrays[0]] * (4 - len(arrays))
    sentinel = np.zeros(len(arrays[0]), dtype=out_dtype)
    if interpret:
        out = sentinel.copy()
        triton.jit(call_kernel.fn, interpret=True)[(triton.cdiv(len(out), BLOCK),)](
            *pad, out, len(out), FN=name, ARITY=len(arrays), BLOCK=BLOCK)
        return out
    torch = device
    tensors = [torch.from_numpy(a).cuda() for a in pad]
    out = torch.from_numpy(sentinel.copy()).cuda()
    triton.jit(call_kernel.fn)[(triton.cdiv(len(sentinel), BLOCK),)](
        *tensors, out, len(sentinel), FN=name, ARITY=len(arrays), BLOCK=BLOCK)
    torch.cuda.synchronize()
    return out.cpu().numpy()


# ---------------------------------------------------------------------------
# Inputs
# ---------------------------------------------------------------------------

_SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5]

# Float inputs per function: (low, high) of a uniform draw, optionally with
# the special values.
_DOMAIN = {
    "sqrt": (0, 100), "rsqrt": (0.01, 100), "sqrt_rn": (0, 100), "sqrt_rz": (0, 100),
    "sqrt_rd": (0, 100), "sqrt_ru": (0, 100), "rsqrt_rn": (0.01, 100),
    "log": (0.001, 100), "log2": (0.001, 100), "log10": (0.001, 100),
    "log1p": (-0.9, 100), "fast_logf": (0.01, 100), "fast_log2f": (0.01, 100),
    "fast_log10f": (0.01, 100), "asin": (-1, 1), "acos": (-1, 1), "atanh": (-0.99, 0.99),
    "acosh": (1, 100), "exp": (-20, 20), "exp2": (-20, 20), "exp10": (-10, 10),
    "expm1": (-20, 20), "fast_expf": (-20, 20), "fast_exp10f": (-8, 8),
    "sinh": (-20, 20), "cosh": (-20, 20), "tan": (-1.5, 1.5), "fast_tanf": (-1.5, 1.5),
    "fast_sinf": (-3, 3), "fast_cosf": (-3, 3), "lgamma": (0.1, 30), "tgamma": (0.1, 20),
    "erfinv": (-0.999, 0.999), "erfcinv": (0.001, 1.999), "normcdfinv": (0.001, 0.999),
    "erfcx": (-3, 40), "cyl_bessel_i0": (-20, 20), "cyl_bessel_i1": (-20, 20),
    "j0": (-40, 40), "j1": (-40, 40), "y0": (0.1, 40), "y1": (0.1, 40),
    "jn": (-30, 30), "yn": (0.5, 30), "rcp64h": (0.1, 100), "saturatef": (-0.5, 1.5),
    "pow": (0.1, 10), "fast_powf": (0.5, 4), "fast_dividef": (1, 10),
    "ldexp": (-10, 10), "scalbn": (-10, 10), "fast_tanhf": (-5, 5),
    "double2float_rn": (-1e5, 1e5), "double2float_rz": (-1e5, 1e5),
    "double2float_rd": (-1e5, 1e5), "double2float_ru": (-1e5, 1e5),
}
_WITH_SPECIALS = {"isnan", "isinf", "signbit", "finitef", "isfinited", "floor", "ceil",
                  "trunc", "copysign", "abs", "ilogb", "logb"}
_ROUNDED_OPS = ("add", "sub", "mul", "div", "fma", "rcp", "sqrt")


def _floats(name, dt, rng, index=0):
    if name.split("_")[0] in ("add", "sub", "mul", "div", "fma", "rcp"):
        # Signs and magnitudes within a few binades, so that the exact
        # results are rarely representable: the rounding mode matters.
        v = rng.uniform(0.5, 2.0, N) * rng.choice([-1.0, 1.0], N)
    elif re.match(r"(float|double)2u?(int|ll)_", name):
        v = rng.uniform(-1e10, 1e10, N) if "ll" in name else rng.uniform(-3e9, 5e9, N)
        v[:40] = rng.uniform(-100, 100, 40)
        # NaN and infinities only for the 32-bit results: what the 64-bit
        # conversions give for them is not documented.
        v[40:44] = [2.5, 1e12, -1e12, 3.5] if "ll" in name else [np.nan, np.inf, -np.inf, 2.5]
    else:
        lo, hi = _DOMAIN.get(name, (-10, 10))
        v = rng.uniform(lo, hi, N)
    v = v.astype(dt)
    if name in _WITH_SPECIALS:
        v[:len(_SPECIAL)] = _SPECIAL
    if name in ("floor", "ceil", "trunc", "rint", "nearbyint", "round", "llrint", "llround"):
        v[10:20] = np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 3.0, -3.0, 0.49999997, 7.5])
    return v


def _ints(name, dt, rng, index):
    info = np.iinfo(dt)
    if name in ("ldexp", "scalbn"):
        return rng.integers(-20, 21, N).astype(dt)
    if name == "pow":
        return rng.integers(-5, 6, N).astype(dt)
    if name in ("jn", "yn"):
        return rng.integers(0, 6, N).astype(dt)
    v = rng.integers(info.min, info.max, N, dtype=dt, endpoint=True)
    v[:6] = np.array([0, 1, info.max, info.min, 255, 1 << 20 if dt != np.int8 else 1],
                     dtype=object).astype(dt)
    if name in ("int2float_rn", "uint2float_rn", "int2float_rz", "uint2float_rz") or \
            "2float" in name or "2double" in name:
        v[6:12] = np.array([3, 16777217, 16777219, 2 ** 24 + 5, 12345, 7], dtype=object) \
            .astype(dt)
    return v


def make_inputs(name, key, rng):
    out = []
    for index, t in enumerate(key):
        dt = _NP[t.name]
        out.append(_floats(name, dt, rng, index) if t.is_floating() else
                   _ints(name, dt, rng, index))
    if name == "div_rn" or name.startswith("div_"):
        out[1][out[1] == 0] = 1
    return out


def all_signatures():
    cases = [(name, key) for name, sigs in libdevice.SIGNATURES.items() for key in sigs]
    return cases + [("fast_tanhf", (F32,))]


def result_type(name, key):
    if name == "fast_tanhf":
        return F32
    if name in ("isnan", "isinf"):
        return tl.int1
    return libdevice.SIGNATURES[name][key][1]


# ---------------------------------------------------------------------------
# References
# ---------------------------------------------------------------------------

def _f(x):
    return np.asarray(x, dtype=np.float64)


def _u(x, bits):
    """Integers as their unsigned bit patterns, in uint64."""
    return np.asarray(x).astype(np.int64 if np.asarray(x).dtype.kind == "i" else np.uint64) \
        .astype(np.uint64) & np.uint64((1 << bits) - 1)


def _trapezoid_bessel(n, x, modified=False):
    """J_n(x) (I_n(x) with `modified`) by the trapezoidal rule on its
    periodic integral, exact to rounding for these sizes."""
    m = 512
    tau = 2 * np.pi * np.arange(m) / m
    x = _f(x)[:, None]
    if modified:
        return np.mean(np.exp(x * np.cos(tau)) * np.cos(n * tau), axis=1)
    return np.mean(np.cos(n * tau - x * np.sin(tau)), axis=1)


def _quadrature_y(n, x):
    """Y_n(x), x > 0: (1/pi) int_0^pi sin(x sin t - n t) dt -
    (1/pi) int_0^inf (e^{nt} + (-1)^n e^{-nt}) e^{-x sinh t} dt, by
    Gauss-Legendre quadrature."""
    nodes, weights = np.polynomial.legendre.leggauss(400)
    x = _f(x)[:, None]
    t1 = (nodes + 1) * np.pi / 2
    first = np.sum(weights * np.sin(x * np.sin(t1) - n * t1), axis=1) / 2
    top = np.arcsinh(60.0 / x) + 1
    t2 = (nodes + 1) * top / 2
    integrand = (np.exp(n * t2) + (-1) ** n * np.exp(-n * t2)) * np.exp(-x * np.sinh(t2))
    second = np.sum(weights * integrand, axis=1) * top[:, 0] / 2 / np.pi
    return first - second


_erf = np.vectorize(math.erf)
_erfc = np.vectorize(math.erfc)
_lgamma = np.vectorize(math.lgamma)
_gamma = np.vectorize(math.gamma)


def _round_half_away(x):
    t = np.trunc(x)
    return np.where(np.abs(x - t) >= 0.5, t + np.sign(x), t)


def _to_int_ref(x, mode, bits, signed, nan=0):
    r = {"rn": np.rint, "rz": np.trunc, "rd": np.floor, "ru": np.ceil}[mode](_f(x))
    lo, hi = (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1) if signed else (0, 2 ** bits - 1)
    vals = [nan if v != v else lo if v <= lo else hi if v >= hi else int(v)
            for v in r.tolist()]
    return vals


def _ints_to(values, out_dtype):
    bits = np.dtype(out_dtype).itemsize * 8
    return np.array([v % (1 << bits) for v in values], dtype=object) \
        .astype(np.uint64).astype(np.dtype(out_dtype).str.replace("i", "u")).view(out_dtype)


def _byte_perm_ref(x, y, s):
    words = np.stack([np.asarray(x).astype(np.uint32), np.asarray(y).astype(np.uint32)],
                     axis=1).view(np.uint8).reshape(-1, 8)
    sel = np.asarray(s).astype(np.uint32)
    out = np.zeros(len(sel), dtype=np.uint32)
    for i in range(4):
        idx = (sel >> np.uint32(4 * i)) & np.uint32(7)
        out |= words[np.arange(len(sel)), idx].astype(np.uint32) << np.uint32(8 * i)
    return out.view(np.int32)


def _bit_count_ref(name, x):
    bits = np.asarray(x).dtype.itemsize * 8
    u = _u(x, bits)
    shifts = [(u >> np.uint64(k)) for k in range(bits)]
    if name == "popc":
        return sum((s & np.uint64(1)).astype(np.int64) for s in shifts)
    if name == "clz":
        return bits - sum((s != 0).astype(np.int64) for s in shifts)
    if name == "ffs":
        first = np.zeros(len(u), dtype=np.int64)
        for k in reversed(range(bits)):
            first = np.where((shifts[k] & np.uint64(1)) == 1, k + 1, first)
        return first
    rev = np.zeros(len(u), dtype=np.uint64)
    for k in range(bits):
        rev |= (shifts[k] & np.uint64(1)) << np.uint64(bits - 1 - k)
    return rev.astype(np.asarray(x).dtype.str.replace("i", "u")).view(np.asarray(x).dtype)


def _mul24_ref(a, b):
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype == np.int32:
        a24 = (a << 8) >> 8
        b24 = (b << 8) >> 8
        return (a24.astype(np.int64) * b24).astype(np.int32)
    a24 = a & np.uint32(0xFFFFFF)
    b24 = b & np.uint32(0xFFFFFF)
    return (a24.astype(np.uint64) * b24).astype(np.uint32)


def _mulhi_ref(a, b):
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype.itemsize == 4:
        wide = np.int64 if a.dtype == np.int32 else np.uint64
        return ((a.astype(wide) * b.astype(wide)) >> 32).astype(a.dtype)
    # 64 bits: from 32-bit halves.
    signed = a.dtype == np.int64
    vals = []
    for x, y in zip(a.tolist(), b.tolist()):
        vals.append((x * y) >> 64)
    return _ints_to(vals, a.dtype) if signed else np.array(
        [v % (1 << 64) for v in vals], dtype=object).astype(np.uint64)


# name -> reference(*float64-or-int arrays, key) giving the expected values,
# compared with a tolerance from _TOLERANCE (exact where absent).
def _np1(fn):
    return lambda key, x: fn(_f(x))


def _sinpi(x):
    """sin(pi x) in float64 to its last bits also next to the integers, where
    np.sin(np.pi * x) keeps only an absolute accuracy (the rounding of
    pi * x) and so, relative to a result near zero, none: x is reduced
    exactly to r = x - 2 round(x / 2) in [-1, 1], and |r| past 1/2 to its
    (exact) distance from 1, before the sine."""
    r = x - 2.0 * np.round(x / 2.0)
    a = np.abs(r)
    return np.sign(r) * np.sin(np.pi * np.where(a > 0.5, 1.0 - a, a))


def _cospi(x):
    """cos(pi x) = sin(pi (1/2 - |r|)), r as in _sinpi: 1/2 - |r| is exact
    where the result is near zero (|r| from 1/4 to 1)."""
    return _sinpi(0.5 - np.abs(x - 2.0 * np.round(x / 2.0)))


def _np2(fn):
    return lambda key, x, y: fn(_f(x), _f(y))


REFERENCE = {
    "floor": _np1(np.floor), "ceil": _np1(np.ceil), "trunc": _np1(np.trunc),
    "rint": _np1(np.rint), "nearbyint": _np1(np.rint), "round": _np1(_round_half_away),
    "sqrt": _np1(np.sqrt), "rsqrt": _np1(lambda x: 1 / np.sqrt(x)),
    "rsqrt_rn": _np1(lambda x: 1 / np.sqrt(x)),
    "exp": _np1(np.exp), "exp2": _np1(np.exp2), "exp10": _np1(lambda x: np.power(10.0, x)),
    "expm1": _np1(np.expm1), "log": _np1(np.log), "log2": _np1(np.log2),
    "log10": _np1(np.log10), "log1p": _np1(np.log1p), "sin": _np1(np.sin),
    "cos": _np1(np.cos), "tan": _np1(np.tan), "asin": _np1(np.arcsin),
    "acos": _np1(np.arccos), "atan": _np1(np.arctan), "sinh": _np1(np.sinh),
    "cosh": _np1(np.cosh), "tanh": _np1(np.tanh), "asinh": _np1(np.arcsinh),
    "acosh": _np1(np.arccosh), "atanh": _np1(np.arctanh),
    "sinpi": _np1(_sinpi), "cospi": _np1(_cospi),
    "cbrt": _np1(np.cbrt), "rcbrt": _np1(lambda x: 1 / np.cbrt(x)),
    "erf": _np1(_erf), "erfc": _np1(_erfc),
    "normcdf": _np1(lambda x: 0.5 * _erfc(-x / np.sqrt(2))),
    "erfcx": _np1(lambda x: np.where(
        x < 20, np.exp(np.minimum(x, 20) ** 2) * _erfc(x),
        (1 - 1 / (2 * x ** 2) + 3 / (4 * x ** 4) - 15 / (8 * x ** 6) + 105 / (16 * x ** 8))
        / (x * np.sqrt(np.pi)))),
    "lgamma": _np1(_lgamma), "tgamma": _np1(_gamma),
    "j0": _np1(lambda x: _trapezoid_bessel(0, x)), "j1": _np1(lambda x: _trapezoid_bessel(1, x)),
    "y0": _np1(lambda x: _quadrature_y(0, x)), "y1": _np1(lambda x: _quadrature_y(1, x)),
    "cyl_bessel_i0": _np1(np.i0),
    "cyl_bessel_i1": _np1(lambda x: _trapezoid_bessel(1, x, modified=True)),
    "jn": lambda key, n, x: np.array([_trapezoid_bessel(k, [v])[0] for k, v in zip(n, x)]),
    "yn": lambda key, n, x: np.array([_quadrature_y(k, [v])[0] for k, v in zip(n, x)]),
    "saturatef": _np1(lambda x: np.clip(x, 0, 1)),
    "rcp64h": _np1(lambda x: 1 / x), "logb": _np1(lambda x: np.floor(np.log2(np.abs(x)))),
    "ilogb": lambda key, x: np.where(x == 0, -2 ** 31, np.where(
        np.isnan(x), -2 ** 31, np.where(np.isinf(x), 2 ** 31 - 1, np.floor(np.log2(
            np.where(np.isfinite(x) & (x != 0), np.abs(_f(x)), 1.0)))))),
    "atan2": _np2(np.arctan2), "hypot": _np2(np.hypot),
    "rhypot": _np2(lambda x, y: 1 / np.hypot(x, y)), "copysign": _np2(np.copysign),
    "fmod": _np2(np.fmod), "remainder": _np2(np.vectorize(math.remainder)),
    "fdim": _np2(lambda x, y: np.where(x > y, x - y, 0.0)),
    "fast_dividef": _np2(np.divide), "fast_powf": _np2(np.power),
    "nextafter": lambda key, x, y: np.nextafter(x, y),
    "pow": lambda key, x, y: np.power(_f(x), _f(y)),
    "ldexp": lambda key, x, n: _f(x) * 2.0 ** _f(n),
    "scalbn": lambda key, x, n: _f(x) * 2.0 ** _f(n),
    "norm3d": lambda key, a, b, c: np.sqrt(_f(a) ** 2 + _f(b) ** 2 + _f(c) ** 2),
    "rnorm3d": lambda key, a, b, c: 1 / np.sqrt(_f(a) ** 2 + _f(b) ** 2 + _f(c) ** 2),
    "norm4d": lambda key, a, b, c, d: np.sqrt(_f(a) ** 2 + _f(b) ** 2 + _f(c) ** 2
                                              + _f(d) ** 2),
    "rnorm4d": lambda key, a, b, c, d: 1 / np.sqrt(_f(a) ** 2 + _f(b) ** 2 + _f(c) ** 2
                                                   + _f(d) ** 2),
    "fma": lambda key, a, b, c: np.array([float(Fraction(x) * Fraction(y) + Fraction(z))
                                          for x, y, z in zip(_f(a), _f(b), _f(c))]),
    "fast_sinf": _np1(np.sin), "fast_cosf": _np1(np.cos), "fast_tanf": _np1(np.tan),
    "fast_expf": _np1(np.exp), "fast_exp10f": _np1(lambda x: np.power(10.0, x)),
    "fast_logf": _np1(np.log), "fast_log2f": _np1(np.log2), "fast_log10f": _np1(np.log10),
    "fast_tanhf": _np1(np.tanh),
    "isnan": lambda key, x: np.isnan(x), "isinf": lambda key, x: np.isinf(x),
    "signbit": lambda key, x: np.signbit(x).astype(np.int32),
    "finitef": lambda key, x: np.isfinite(x).astype(np.int32),
    "isfinited": lambda key, x: np.isfinite(x).astype(np.int32),
    "llrint": lambda key, x: np.rint(_f(x)).astype(np.int64),
    "llround": lambda key, x: _round_half_away(_f(x)).astype(np.int64),
    "abs": lambda key, x: (np.abs(_f(x)) if key[0].is_floating()
                           else _ints_to([abs(int(v)) for v in x], np.asarray(x).dtype)),
    "popc": lambda key, x: _bit_count_ref("popc", x),
    "clz": lambda key, x: _bit_count_ref("clz", x),
    "ffs": lambda key, x: _bit_count_ref("ffs", x),
    "brev": lambda key, x: _bit_count_ref("brev", x),
    "byte_perm": lambda key, x, y, s: _byte_perm_ref(x, y, s),
    "mulhi": lambda key, a, b: _mulhi_ref(a, b),
    "mul24": lambda key, a, b: _mul24_ref(a, b),
    "sad": lambda key, a, b, c: ((np.abs(np.asarray(a).astype(np.int64) - b)
                                  + np.asarray(c).astype(np.int64)) % 2 ** 32)
    .astype(np.uint32).view(np.int32 if key[0] == tl.int32 else np.uint32),
    "hadd": lambda key, a, b: ((np.asarray(a).astype(np.int64) + b) >> 1)
    .astype(np.asarray(a).dtype),
    "rhadd": lambda key, a, b: ((np.asarray(a).astype(np.int64) + b + 1) >> 1)
    .astype(np.asarray(a).dtype),
    "int_as_float": lambda key, x: np.asarray(x).view(np.float32),
    "uint_as_float": lambda key, x: np.asarray(x).view(np.float32),
    "float_as_int": lambda key, x: np.asarray(x).view(np.int32),
    "float_as_uint": lambda key, x: np.asarray(x).view(np.int32),
    "longlong_as_double": lambda key, x: np.asarray(x).view(np.float64),
    "double_as_longlong": lambda key, x: np.asarray(x).view(np.int64),
    "hiloint2double": lambda key, hi, lo: np.stack([np.asarray(lo), np.asarray(hi)], axis=1)
    .reshape(-1).view(np.float64),
    "double2hiint": lambda key, x: np.asarray(x).view(np.int32).reshape(-1, 2)[:, 1],
    "double2loint": lambda key, x: np.asarray(x).view(np.int32).reshape(-1, 2)[:, 0],
}

_ROUND_TRIP = {
    # The inverse functions: the forward function of the result gives back
    # the argument (relative tolerance for float32 and float64 results).
    "erfinv": (_erf, 2e-6, 1e-13),
    "erfcinv": (_erfc, 4e-6, 1e-12),
    "normcdfinv": (lambda r: 0.5 * _erfc(-r / np.sqrt(2)), 4e-6, 1e-12),
}

# rtol for float32 and float64 results (the libdevice bounds, with room).
_TOLERANCE = {
    "sinpi": (2e-6, 1e-10), "cospi": (2e-6, 1e-10), "hypot": (2.4e-7, 1e-15),
    "rhypot": (2.4e-7, 1e-15), "norm3d": (2.4e-7, 1e-15), "rnorm3d": (2.4e-7, 1e-15),
    "norm4d": (2.4e-7, 1e-15), "rnorm4d": (2.4e-7, 1e-15), "erfcx": (4e-6, 1e-11), "lgamma": (4e-6, 1e-13),
    "tgamma": (4e-6, 1e-13), "rcp64h": (1e-5, 1e-5),
    "cyl_bessel_i0": (2e-6, 1e-13), "cyl_bessel_i1": (2e-6, 1e-12),
    "fast_tanhf": (2e-3, 2e-3), "exp10": (4e-7, 1e-14),
}
# Bessel J and Y: mostly absolute error (their zeros make relative error
# meaningless); (rtol, atol) for float32, then for float64 results.
_ABS = {"j0": (0, 2e-6, 0, 1e-12), "j1": (0, 2e-6, 0, 1e-12), "y0": (0, 2e-6, 0, 1e-11),
        "y1": (0, 2e-6, 0, 1e-11), "jn": (1e-6, 2e-6, 1e-10, 1e-11),
        "yn": (1e-6, 2e-6, 1e-10, 1e-10)}


def _bits(v, dt):
    return int(np.array([v], dtype=dt).view(np.uint32 if dt == np.float32 else np.uint64)[0])


def _check_rounded(result, exact, mode, dt, what):
    """result (floats of dt) is `exact` (Fractions) rounded in `mode`."""
    ft = np.dtype(dt).type
    for i, (r, q) in enumerate(zip(result.tolist(), exact)):
        if q is None:
            continue
        r = ft(r)
        up = np.nextafter(r, ft(np.inf))
        down = np.nextafter(r, ft(-np.inf))
        fr = Fraction(float(r))
        if mode == "rz":
            mode_i = "rd" if q >= 0 else "ru"
        else:
            mode_i = mode
        if mode_i == "rd":
            ok = fr <= q and (not np.isfinite(up) or Fraction(float(up)) > q)
        elif mode_i == "ru":
            ok = fr >= q and (not np.isfinite(down) or Fraction(float(down)) < q)
        else:
            err = abs(fr - q)
            ok = all(not np.isfinite(c) or abs(Fraction(float(c)) - q) > err or
                     (abs(Fraction(float(c)) - q) == err and _bits(r, dt) % 2 == 0)
                     for c in (up, down))
        assert ok, f"{what}: element {i}: got {float(r)!r} for the exact {float(q)!r} ({mode})"


def _exact_values(name, args):
    op = name.split("_")[0]
    fr = [[Fraction(float(v)) if not isinstance(v, (int, np.integer)) else Fraction(int(v))
           for v in np.asarray(a).tolist()] for a in args]
    if op == "add":
        return [a + b for a, b in zip(*fr)]
    if op == "sub":
        return [a - b for a, b in zip(*fr)]
    if op == "mul":
        return [a * b for a, b in zip(*fr)]
    if op == "div":
        return [a / b for a, b in zip(*fr)]
    if op == "fma":
        return [a * b + c for a, b, c in zip(*fr)]
    if op == "rcp":
        return [1 / a if a else None for a in fr[0]]
    return fr[0]  # conversions: the argument itself, exactly


def check_against_reference(name, key, args, got):
    """The values `got` from libdevice.<name> at the signature `key` on
    `args` are right (within the function's tolerance)."""
    with np.errstate(all="ignore"):
        _check_against_reference(name, key, args, got)


def _check_against_reference(name, key, args, got):
    rty = result_type(name, key)
    what = f"libdevice.{name}{tuple(str(t) for t in key)}"
    mode = name[-2:] if re.search(r"_r[nzdu]$", name) else None
    if mode and (name.split("_")[0] in _ROUNDED_OPS[:-1] or "2float" in name or
                 "2double" in name) and rty.is_floating():
        exact = _exact_values(name, args)
        _check_rounded(got, exact, mode, _NP[rty.name], what)
        return
    if mode and name.startswith("sqrt"):
        dt = _NP[rty.name]
        for i, (a, r) in enumerate(zip(args[0].tolist(), got.tolist())):
            qa, fr = Fraction(a), Fraction(r)
            ft = np.dtype(dt).type
            up = Fraction(float(np.nextafter(ft(r), ft(np.inf))))
            down = Fraction(float(np.nextafter(ft(r), ft(0))))
            if mode in ("rd", "rz"):
                ok = fr * fr <= qa < up * up
            elif mode == "ru":
                ok = down * down < qa <= fr * fr or (qa == 0 and r == 0)
            else:
                ok = ((fr + down) / 2) ** 2 <= qa <= ((fr + up) / 2) ** 2
            assert ok, f"{what}: element {i}: sqrt({a!r}) gave {r!r}"
        return
    if mode and re.match(r"(float|double)2u?(int|ll)_", name):
        bits = 64 if "ll" in name else 32
        # NaN: 0 from float32; 0x80000000 from float64 to 32 bits (an H200).
        nan = 1 << 31 if name.startswith("double2") and bits == 32 else 0
        values = _to_int_ref(args[0], mode, bits, "2u" not in name, nan)
        np.testing.assert_array_equal(got, _ints_to(values, _NP[rty.name]), err_msg=what)
        return
    if name in _ROUND_TRIP:
        forward, rt32, rt64 = _ROUND_TRIP[name]
        np.testing.assert_allclose(forward(_f(got)), _f(args[0]),
                                   rtol=rt32 if rty == F32 else rt64, atol=1e-30,
                                   err_msg=what)
        return
    want = REFERENCE[name](key, *args)
    if not rty.is_floating():
        np.testing.assert_array_equal(got, np.asarray(want).astype(got.dtype), err_msg=what)
        return
    if name in _ABS:
        rtol, atol = _ABS[name][:2] if rty == F32 else _ABS[name][2:]
        np.testing.assert_allclose(_f(got), _f(want), rtol=rtol, atol=atol, err_msg=what)
        return
    rt32, rt64 = _TOLERANCE.get(name, (2.4e-7, 4e-16))
    if name.startswith("fast_"):
        rt32 = max(rt32, 2e-6)
    want = _f(want).astype(_NP[rty.name]).astype(np.float64)
    np.testing.assert_allclose(_f(got), want, rtol=rt32 if rty == F32 else rt64,
                               atol=1e-38 if rty == F32 else 1e-300, equal_nan=True,
                               err_msg=what)


# ---------------------------------------------------------------------------
# Every function in the interpreter
# ---------------------------------------------------------------------------

def _case_id(case):
    name, key = case
    return f"{name}-{'-'.join(t.name for t in key)}"


CASES = all_signatures()


def test_the_table_is_triton_s_list():
    # 198 functions, each with a NumPy implementation (fast_tanhf is a
    # math.tanh, which the interpreter computes) and a reference here.
    assert len(libdevice.__all__) == 198
    from terrazzo.language.extra import libdevice_reference
    for name in libdevice.__all__:
        assert callable(getattr(libdevice, name))
        assert name in libdevice_reference.IMPLS or name == "fast_tanhf", name
        assert (name in REFERENCE or name in _ROUND_TRIP or re.search(r"_r[nzdu]$", name)), name
    assert tl.extra.cuda.libdevice.asin is libdevice.asin
    assert tl.extra.libdevice is libdevice


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_interpreter_matches_reference(case, rng):
    name, key = case
    args = make_inputs(name, key, rng)
    got = run_call(name, args, _NP[result_type(name, key).name])
    check_against_reference(name, key, args, got)


def test_bessel_known_values():
    # Tabulated values (Abramowitz and Stegun, table 9.1).
    x = np.array([1.0, 2.0, 5.0, 10.0])
    cases = {
        "j0": [0.7651976865579666, 0.2238907791412357, -0.1775967713143383,
               -0.2459357644513483],
        "j1": [0.4400505857449335, 0.5767248077568734, -0.3275791375914652,
               0.0434727461688614],
        "y0": [0.0882569642156769, 0.5103756726497451, -0.3085176252490338,
               0.0556711672835994],
        "y1": [-0.7812128213002887, -0.1070324315409375, 0.1478631433912268,
               0.2490154242069539],
    }
    for name, want in cases.items():
        got = run_call(name, [np.resize(x, N)], np.float64)[:4]
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-13, err_msg=name)


def test_rounding_modes_differ():
    # The same sums rounded four ways: rd <= rn <= ru, rz toward zero, and
    # inexact sums make rd and ru one ulp apart.
    a = np.full(N, 1.0, dtype=np.float32)
    b = np.full(N, 2.0 ** -30, dtype=np.float32)
    b[1::2] *= -1
    rd, rn, ru, rz = (run_call(f"add_{m}", [a, b], np.float32) for m in ("rd", "rn", "ru", "rz"))
    assert np.all(rn == 1.0)
    np.testing.assert_array_equal(ru[0::2], np.nextafter(np.float32(1), np.float32(2)))
    np.testing.assert_array_equal(rd[1::2], np.nextafter(np.float32(1), np.float32(0)))
    np.testing.assert_array_equal(rz, np.where(b > 0, 1.0, rd).astype(np.float32))


# ---------------------------------------------------------------------------
# Type rules and errors
# ---------------------------------------------------------------------------

@triton.jit
def rules_kernel(x_ptr, y_ptr, i_ptr, out_ptr, out64_ptr, outb_ptr, N_: tl.constexpr):
    offs = tl.arange(0, N_)
    x = tl.load(x_ptr + offs)              # float32
    y = tl.load(y_ptr + offs)              # float64
    i = tl.load(i_ptr + offs)              # int32
    tl.store(out_ptr + offs, libdevice.pow(x, 2))           # (fp32, int32): powif
    tl.store(out_ptr + N_ + offs, libdevice.pow(x, 0.5))    # (fp32, fp32): powf
    tl.store(out64_ptr + offs, libdevice.atan2(x, y))       # promoted to fp64
    tl.store(out_ptr + 2 * N_ + offs, libdevice.ldexp(x, i))
    tl.store(out_ptr + 3 * N_ + offs, libdevice.fmod(x, 1.5) + libdevice.cos(0.0))
    tl.store(outb_ptr + offs, libdevice.isnan(x / x))        # int1


def _rules_args(rng):
    n = 64
    x = rng.uniform(0.5, 4, n).astype(np.float32)
    x[3] = 0.0
    y = rng.uniform(-4, 4, n)
    i = rng.integers(-5, 6, n).astype(np.int32)
    return x, y, i, np.zeros(4 * n, np.float32), np.zeros(n), np.zeros(n, np.bool_)


def test_type_rules_interpreter(rng):
    x, y, i, out, out64, outb = _rules_args(rng)
    triton.jit(rules_kernel.fn, interpret=True)[(1,)](x, y, i, out, out64, outb, N_=64)
    n = 64
    np.testing.assert_allclose(out[:n], x.astype(np.float64) ** 2, rtol=2e-7)
    np.testing.assert_allclose(out[n:2 * n], np.sqrt(x.astype(np.float64)), rtol=2e-7)
    np.testing.assert_allclose(out64, np.arctan2(x.astype(np.float64), y), rtol=1e-15)
    np.testing.assert_allclose(out[2 * n:3 * n], x * 2.0 ** i, rtol=0)
    np.testing.assert_allclose(out[3 * n:], np.fmod(x, np.float32(1.5)) + 1, rtol=2e-7)
    np.testing.assert_array_equal(outb, np.arange(n) == 3)


def test_type_rules_ir(rng, tmp_path):
    text = rules_kernel.ir(*_rules_args(rng), N_=64)
    if _have_extension():
        # Scalar and block calls, promoted arguments and the int1 result
        # all lower; the PTX assembles.
        ptx = rules_kernel.compile(*_rules_args(rng), N_=64, stage="ptx")
        assert ".entry" in ptx and ".extern .func" not in ptx
        _assemble(ptx, tmp_path)
    for symbol, types in [("__nv_powif", r"\(tensor<64xf32>, tensor<64xi32>\) -> tensor<64xf32>"),
                          ("__nv_powf", r"\(tensor<64xf32>, tensor<64xf32>\) -> tensor<64xf32>"),
                          ("__nv_atan2", r"\(tensor<64xf64>, tensor<64xf64>\) -> tensor<64xf64>"),
                          ("__nv_ldexpf", r"\(tensor<64xf32>, tensor<64xi32>\) -> tensor<64xf32>"),
                          ("__nv_fmodf", r"\(tensor<64xf32>, tensor<64xf32>\) -> tensor<64xf32>"),
                          ("__nv_cosf", r"\(f32\) -> f32"),
                          ("__nv_isnanf", r"\(tensor<64xf32>\) -> tensor<64xi32>")]:
        assert re.search(rf'tile\.extern_elementwise "{symbol}"\(%[^)]*\) \{{libname = "", '
                         rf'libpath = "", pure = true\}} : {types} loc\(', text), (symbol, text)


@triton.jit
def k_half(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    tl.store(x_ptr + tl.arange(0, 16), libdevice.asin(x))  # <-


@triton.jit
def k_bf16(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16)).to(tl.bfloat16)
    tl.store(x_ptr + tl.arange(0, 16), libdevice.exp(x))  # <-


@triton.jit
def k_int(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    tl.store(x_ptr + tl.arange(0, 16), libdevice.sin(x))  # <-


@triton.jit
def k_float_to_bits(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    tl.store(x_ptr + tl.arange(0, 16), libdevice.popc(x).to(tl.float32))  # <-


@triton.jit
def k_arity(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    tl.store(x_ptr + tl.arange(0, 16), libdevice.atan2(x))  # <-


@triton.jit
def k_tanhf(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    tl.store(x_ptr + tl.arange(0, 16), libdevice.fast_tanhf(x))  # <-


ERROR_CASES = [
    (k_half, np.float16, r"libdevice\.asin does not accept arguments of types \(fp16\): it "
                         r"takes \(fp32\), \(fp64\); convert float16/bfloat16 values first"),
    (k_bf16, np.float32, r"libdevice\.exp does not accept arguments of types \(bf16\)"),
    (k_int, np.int32, r"libdevice\.sin does not accept arguments of types \(int32\)"),
    (k_float_to_bits, np.float32, r"libdevice\.popc does not accept arguments of types "
                                  r"\(fp32\): it takes \(int32\), \(int64\)"),
    (k_arity, np.float32, r"missing a required argument: 'arg1'"),
    (k_tanhf, np.float64, r"libdevice\.fast_tanhf takes float32 values, got fp64"),
]


@pytest.mark.parametrize("interpret", [False, True])
@pytest.mark.parametrize("kernel,dt,pattern", ERROR_CASES,
                         ids=[k.fn.__name__ for k, _, _ in ERROR_CASES])
def test_errors_name_the_line(kernel, dt, pattern, interpret):
    arg = np.zeros(16, dt)
    with pytest.raises(CompilationError) as ei:
        if interpret:
            triton.jit(kernel.fn, interpret=True)[(1,)](arg)
        else:
            kernel.ir(arg)
    e = ei.value
    assert re.search(pattern, str(e)), str(e)
    lines = [l for l, text in kernel.parsed.src_lines.items() if "# <-" in text]
    assert e.line == lines[0], str(e)


def test_called_outside_a_kernel():
    with pytest.raises(RuntimeError, match="inside a @terrazzo.jit function"):
        libdevice.asin(1.0)


# ---------------------------------------------------------------------------
# Compile path: IR, LLVM dialect, PTX
# ---------------------------------------------------------------------------

# A sample per argument type: function, its argument types, the symbol.
SAMPLES = [
    ("asin", (F32,), "__nv_asinf"), ("asin", (F64,), "__nv_asin"),
    ("j0", (F64,), "__nv_j0"), ("erfinv", (F32,), "__nv_erfinvf"),
    ("add_rd", (F32, F32), "__nv_fadd_rd"), ("div_ru", (F64, F64), "__nv_ddiv_ru"),
    ("popc", (tl.int64,), "__nv_popcll"), ("clz", (tl.int32,), "__nv_clz"),
    ("mulhi", (tl.uint32, tl.uint32), "__nv_umulhi"),
    ("byte_perm", (tl.int32, tl.int32, tl.int32), "__nv_byte_perm"),
    ("double2float_rz", (F64,), "__nv_double2float_rz"),
    ("ull2double_ru", (tl.uint64,), "__nv_ull2double_ru"),
    ("norm4d", (F32,) * 4, "__nv_norm4df"), ("yn", (tl.int32, F64), "__nv_yn"),
    ("isinf", (F64,), "__nv_isinfd"), ("float_as_uint", (F32,), "__nv_float_as_uint"),
]


def _have_extension():
    try:
        import terrazzo._C  # noqa: F401
        return True
    except ImportError:
        return False


def _assemble(ptx, tmp_path):
    """Assembles `ptx` with ptxas for sm_90 where ptxas is installed."""
    from conftest import assemble_ptx
    assemble_ptx(ptx)


def _sample_args(key, rng):
    arrays = [np.zeros(N, _NP[t.name]) for t in key]
    return arrays + [arrays[0]] * (4 - len(arrays))


def _out_for(name, key):
    return np.zeros(N, _NP[result_type(name, key).name])


@pytest.mark.parametrize("name,key,symbol", SAMPLES, ids=lambda v: v if isinstance(v, str)
                         else None)
def test_compiles_to_a_libdevice_call(name, key, symbol, rng, tmp_path):
    pytest.importorskip("terrazzo._C")
    args = _sample_args(key, rng) + [_out_for(name, key), N]
    meta = dict(FN=name, ARITY=len(key), BLOCK=BLOCK)
    tile_ir = call_kernel.compile(*args, stage="tile", **meta)
    assert f'tile.extern_elementwise "{symbol}"' in tile_ir
    llvm = call_kernel.compile(*args, stage="llvm", **meta)
    assert re.search(rf"llvm\.func @{symbol}\(", llvm), llvm
    assert re.search(rf"llvm\.call @{symbol}\(", llvm), llvm
    ptx = call_kernel.compile(*args, stage="ptx", **meta)
    # libdevice is linked: no call of an external function is left, and
    # the PTX assembles.
    assert ".entry" in ptx and ".extern .func" not in ptx
    _assemble(ptx, tmp_path)


def test_every_signature_lowers_to_llvm(rng):
    # All 198 functions at each signature reach the LLVM dialect as calls of
    # their symbol (one kernel per signature; the PTX of a sample is above).
    pytest.importorskip("terrazzo._C")
    from terrazzo.runtime import driver
    C = driver.get_C()
    for name, key in CASES:
        if name == "fast_tanhf":
            continue
        args = _sample_args(key, rng) + [_out_for(name, key), N]
        meta = dict(FN=name, ARITY=len(key), BLOCK=BLOCK)
        kir = call_kernel.ir_for_key(call_kernel.key_for(*args, **meta))
        res = C.compile(kir.text, f"{kir.name}.mlir", "cuda:90", 4, "llvm", num_stages=3)
        assert res.success, (name, key, res.diagnostics)
        symbol = libdevice.SIGNATURES[name][key][0]
        out = res.output if isinstance(res.output, str) else bytes(res.output).decode()
        assert f"llvm.call @{symbol}(" in out, (name, key)


def _compiled_ptx(ptx):
    """`ptx` without its inline assembly (the predicated stores')."""
    return re.sub(r"// begin inline asm.*?// end inline asm", "", ptx, flags=re.S)


def test_fast_tanhf_is_the_hardware_approximation(rng, tmp_path):
    # A float32 math.tanh marked afn: NVIDIA's tanh.approx.f32 (no inline
    # assembly), libdevice's tanhf before sm_75, ocml's tanh on AMD.
    pytest.importorskip("terrazzo._C")
    args = _sample_args((F32,), rng) + [_out_for("fast_tanhf", (F32,)), N]
    meta = dict(FN="fast_tanhf", ARITY=1, BLOCK=BLOCK)
    tile_ir = call_kernel.compile(*args, stage="tile", **meta)
    assert re.search(r"math\.tanh %\w+ fastmath<afn> : tensor<\d+xf32>", tile_ir), tile_ir
    ptx = call_kernel.compile(*args, stage="ptx", **meta)
    assert len(re.findall(r"tanh\.approx\.f32\s+%r\d+, %r\d+;", _compiled_ptx(ptx))) == 1, ptx
    _assemble(ptx, tmp_path)
    sm70 = call_kernel.compile(*args, stage="ptx", target="cuda:70", **meta)
    assert "tanh.approx" not in sm70 and "ex2.approx" in sm70
    llvm = call_kernel.compile(*args, stage="llvm", target="hip:gfx942", **meta)
    assert re.search(r"llvm\.call @__ocml_tanh_f32\(", llvm), llvm


def test_fast_tanhf_on_amd_is_accurate(rng):
    # ocml's tanh, as hip:gfx942's LLVM IR folds it (the chip's v_exp_f32
    # and v_rcp_f32 folded exactly), against float64 on random arguments
    # and edges: within 2^-22 relative (2^-23 seen), far inside
    # tanh.approx.f32's 2^-11; signed zeros, saturation, infinities and NaN
    # as tanh has them.
    pytest.importorskip("terrazzo._C")
    edges = [0.0, -0.0, 1e-30, -(2.0 ** -126), 1e-40, 0.5, 0.5625, -0.625, 1.0, 9.0, -9.01,
             10.0, 88.0, 1e30, np.inf, -np.inf, np.nan]
    x = np.concatenate([rng.uniform(-5, 5, 64), rng.uniform(-0.7, 0.7, 32),
                        rng.uniform(-20, 20, 32), edges]).astype(np.float32)
    got = np.concatenate([_amd_folded("fast_tanhf", (F32,), [x[i:i + 64]])
                          for i in range(0, len(x), 64)]).astype(np.float64)
    want = np.tanh(x.astype(np.float64))
    finite = ~np.isnan(want)
    relative = np.abs(got[finite] - want[finite]) / np.maximum(np.abs(want[finite]), 2.0 ** -149)
    assert relative.max() <= 2.0 ** -22, (x[finite][relative.argmax()], relative.max())
    assert np.isnan(got[~finite]).all()
    zeros = len(x) - len(edges)
    assert got[zeros] == 0 and got[zeros + 1] == 0
    assert np.array_equal(np.signbit(got[zeros:zeros + 2]), [False, True])


# ---------------------------------------------------------------------------
# tl.extra.cuda
# ---------------------------------------------------------------------------

@triton.jit
def cuda_kernel(out_ptr, t_ptr):
    tl.extra.cuda.gdc_wait()
    start = tl.extra.cuda.globaltimer()
    tl.store(out_ptr + tl.program_id(0), tl.extra.cuda.smid())
    end = tl.extra.cuda.globaltimer()
    tl.store(t_ptr + tl.program_id(0), end - start)
    tl.extra.cuda.gdc_launch_dependents()


def test_cuda_registers_interpreter():
    out = np.full(4, -1, np.int32)
    t = np.full(4, -1, np.int64)
    triton.jit(cuda_kernel.fn, interpret=True)[(4,)](out, t)
    np.testing.assert_array_equal(out, 0)
    assert np.all(t >= 0)


def test_cuda_registers_ptx(tmp_path):
    # The tilegpu ops give the instructions Triton's inline assembly has,
    # with no inline assembly; before sm_90 (no programmatic dependent
    # launch) the grid dependency controls are nothing.
    pytest.importorskip("terrazzo._C")
    args = (np.zeros(4, np.int32), np.zeros(4, np.int64))
    tile_ir = cuda_kernel.compile(*args, stage="tile")
    for op, count in (("tilegpu.global_timer : i64", 2), ("tilegpu.processor_id : i32", 1),
                      ("tilegpu.grid_dependency_wait", 1), ("tilegpu.grid_dependency_launch", 1)):
        assert tile_ir.count(op) == count, (op, tile_ir)
    ptx = cuda_kernel.compile(*args, stage="ptx")
    compiled = _compiled_ptx(ptx)
    assert len(re.findall(r"mov\.u64\s+%rd\d+, %globaltimer;", compiled)) == 2
    assert len(re.findall(r"mov\.u32\s+%r\d+, %smid;", compiled)) == 1
    assert compiled.count("griddepcontrol.wait;") == 1
    assert compiled.count("griddepcontrol.launch_dependents;") == 1
    assert ptx.count("griddepcontrol") == 2 and ptx.count("%globaltimer") == 2
    _assemble(ptx, tmp_path)
    sm80 = cuda_kernel.compile(*args, stage="ptx", target="cuda:80")
    assert "griddepcontrol" not in sm80 and sm80.count("%globaltimer;") == 2


@pytest.mark.parametrize("target", ["hip:gfx90a", "hip:gfx942", "hip:gfx950"])
def test_cuda_registers_amdgcn(target):
    # The timer is the 100 MHz constant counter (s_memrealtime) in
    # nanoseconds, smid the compute unit (HW_ID; XCC_ID, the die, on the
    # chips that have several), the grid dependency controls nothing.
    pytest.importorskip("terrazzo._C")
    args = (np.zeros(4, np.int32), np.zeros(4, np.int64))
    asm = cuda_kernel.compile(*args, stage="amdgcn", target=target)
    body = asm[asm.index("cuda_kernel:"):asm.index(".Lfunc_end0")]
    assert "s_memrealtime" in body and re.search(r"s_mul_i32 s\d+, s\d+, 10", body)
    assert "s_getreg_b32" in body and "hwreg(HW_REG_HW_ID, 8, 8)" in body
    assert ("hwreg(HW_REG_XCC_ID, 0, 4)" in body) == (target != "hip:gfx90a")


@triton.jit
def threads_kernel(out_ptr):
    n: tl.constexpr = tl.extra.cuda.num_threads()
    w: tl.constexpr = tl.extra.cuda.num_warps()
    offs = tl.arange(0, n)
    tl.store(out_ptr + offs, offs * 0 + w)


@pytest.mark.parametrize("num_warps", [1, 4, 8])
def test_cuda_num_warps_and_threads(num_warps):
    # Compile-time constants of the launch's num_warps: a block of
    # num_threads elements, each num_warps; nothing past them written.
    out = np.full(512, -1, np.int32)
    triton.jit(threads_kernel.fn, interpret=True)[(1,)](out, num_warps=num_warps)
    n = 32 * num_warps
    np.testing.assert_array_equal(out[:n], num_warps)
    np.testing.assert_array_equal(out[n:], -1)
    text = threads_kernel.ir(out, num_warps=num_warps)
    assert f"tile.make_range 0 to {n}" in text


def test_cuda_num_warps_needs_a_launch():
    from terrazzo.compiler.kernel import generate_kernel_ir, specs_from_key, split_key
    key = threads_kernel.key_for(np.zeros(32, np.int32))
    specs = specs_from_key(threads_kernel.parsed, split_key(key, 1)[0])
    with pytest.raises(CompilationError, match=r"num_warps\(\) is known only for a launch"):
        generate_kernel_ir(threads_kernel.parsed, specs)


@pytest.mark.gpu
def test_gpu_num_threads(torch_cuda):
    torch = torch_cuda
    out = torch.full((512,), -1, dtype=torch.int32, device="cuda")
    threads_kernel[(1,)](out, num_warps=8)
    torch.cuda.synchronize()
    assert bool((out[:256] == 8).all()) and bool((out[256:] == -1).all())


@triton.jit
def custom_fp8_kernel(x_ptr, y_ptr, z_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    e4b15 = tl.extra.cuda.convert_custom_float8_sm80(x, tl.float8e4b15)
    tl.store(y_ptr + offs, tl.extra.cuda.convert_custom_float8_sm90(e4b15, tl.float32))
    tl.store(z_ptr + offs, x.to(tl.float8e4b15).to(tl.float32))


def test_cuda_convert_custom_float8(rng):
    # Triton's software conversions to and from float8e4b15 are the casts.
    x = (rng.standard_normal(64) * 0.7).astype(np.float32)
    y = np.full(64, np.nan, np.float32)
    z = np.full(64, np.nan, np.float32)
    triton.jit(custom_fp8_kernel.fn, interpret=True)[(1,)](x, y, z, N=64)
    np.testing.assert_array_equal(y, z)
    assert np.all(np.abs(y - np.clip(x, -1.75, 1.75)) <= 2.0 ** -4 * np.maximum(np.abs(y), 2 ** -11))


@pytest.mark.gpu
def test_gpu_cuda_registers(torch_cuda):
    torch = torch_cuda
    out = torch.full((1024,), -1, dtype=torch.int32, device="cuda")
    t = torch.full((1024,), -1, dtype=torch.int64, device="cuda")
    triton.jit(cuda_kernel.fn)[(1024,)](out, t)
    torch.cuda.synchronize()
    # %smid is below %nsmid, which may exceed the number of SMs.
    assert bool(((out >= 0) & (out < 1024)).all())
    assert len(torch.unique(out)) > 1
    assert bool((t >= 0).all())


# ---------------------------------------------------------------------------
# GPU: every function compiled, against the interpreter
# ---------------------------------------------------------------------------

# Functions whose GPU results may differ from the (exact or float64-based)
# interpreter: rtol/atol for float32 and float64.
_GPU_TOLERANCE = {
    "fast_sinf": (0, 2e-6), "fast_cosf": (0, 2e-6), "fast_tanf": (1e-4, 1e-5),
    "fast_expf": (4e-6, 0), "fast_exp10f": (4e-6, 0), "fast_logf": (2e-6, 2e-6),
    "fast_log2f": (2e-6, 2e-6), "fast_log10f": (2e-6, 2e-6), "fast_powf": (1e-5, 0),
    "fast_dividef": (1e-6, 0), "fast_tanhf": (0, 2e-3), "rcp64h": (1e-5, 0),
    "j0": (0, 1e-5), "j1": (0, 1e-5), "y0": (0, 1e-5), "y1": (0, 1e-5), "jn": (1e-5, 1e-4),
    "yn": (1e-5, 1e-4), "tgamma": (2e-6, 0), "pow": (2e-6, 0), "lgamma": (1.2e-6, 1e-6),
}


@pytest.mark.gpu
@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_gpu_matches_interpreter(torch_cuda, case, rng):
    name, key = case
    args = make_inputs(name, key, rng)
    rty = result_type(name, key)
    want = run_call(name, args, _NP[rty.name])
    got = run_call(name, args, _NP[rty.name], interpret=False, device=torch_cuda)
    what = _case_id(case)
    if not rty.is_floating():
        if name in ("signbit", "finitef", "isfinited"):  # libdevice: any non-zero value
            np.testing.assert_array_equal(got != 0, want != 0, err_msg=what)
        else:
            np.testing.assert_array_equal(got, want, err_msg=what)
        return
    if name in _GPU_TOLERANCE:
        rtol, atol = _GPU_TOLERANCE[name]
    elif rty == F32:
        # libdevice's float32 functions: within 10 ulp, which below 2^-126
        # (subnormal results: erfc near 10 gave 1.8435e-40 against
        # 1.84351e-40 on the H100, one subnormal ulp apart) is 10 * 2^-149.
        rtol, atol = 1.2e-6, 10 * 2.0 ** -149
    else:
        rtol, atol = 2.3e-15, 10 * 2.0 ** -1074
    if rty == F64 and name in ("tgamma", "lgamma", "pow", "erfcinv", "erfcx", "y0", "y1",
                               "yn", "j0", "j1", "jn", "normcdf"):
        rtol, atol = max(rtol, 1e-14), max(atol, 1e-14 if name == "lgamma" else atol)
    if rty == F64 and name in ("erfcx", "normcdf"):
        # On an H200, 2.8e-14 (erfcx, x near 20) and 1.1e-14 (normcdf, far
        # tails) from the float64 references here.
        rtol = 5e-14
    if re.search(r"_r[nzdu]$", name) or name in ("floor", "ceil", "trunc", "rint",
                                                 "nearbyint", "round", "copysign", "abs",
                                                 "fma", "sqrt", "saturatef", "ldexp", "scalbn",
                                                 "fmod", "nextafter", "fdim",
                                                 "remainder"):
        rtol, atol = 0, 0  # correctly rounded or exact in libdevice
        if name == "sqrt" and rty == F32:
            # __nv_sqrtf under the default reflection (no __CUDA_PREC_SQRT)
            # is sqrt.approx.f32: within 1 ulp (seen on an H200), as Triton.
            rtol = 2.0 ** -23
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol,
                               atol=atol, equal_nan=True, err_msg=what)


def test_every_signature_on_amd(rng):
    # For hip targets the functions ocml has call it (linked in, with the
    # signature libdevice's has: the code generator checks both); the others
    # are located errors that name the function.
    pytest.importorskip("terrazzo._C")
    from terrazzo.runtime import driver
    C = driver.get_C()
    compiled, refused = set(), set()
    for name, key in CASES:
        if name == "fast_tanhf":
            continue
        args = _sample_args(key, rng) + [_out_for(name, key), N]
        meta = dict(FN=name, ARITY=len(key), BLOCK=BLOCK)
        kir = call_kernel.ir_for_key(call_kernel.key_for(*args, **meta))
        res = C.compile(kir.text, f"{kir.name}.mlir", "hip:gfx942", 4, "amdgcn", num_stages=3)
        symbol = libdevice.SIGNATURES[name][key][0]
        if res.success:
            compiled.add(symbol)
            continue
        messages = [d.message for d in res.diagnostics]
        assert len(messages) == 1 and messages[0].startswith(
            f"'tile.extern_elementwise' op calls libdevice's '{symbol}', which the ROCm "
            "device libraries have no counterpart of for hip:gfx942: "), (name, key, messages)
        assert all(d.line > 0 for d in res.diagnostics)
        refused.add(symbol)
    assert {"__nv_sinf", "__nv_sin", "__nv_asinf", "__nv_erfinvf", "__nv_powf", "__nv_powif",
            "__nv_ldexpf", "__nv_ilogb", "__nv_isnanf", "__nv_normcdfinv", "__nv_fast_expf",
            "__nv_fsqrt_rn", "__nv_cyl_bessel_i0f", "__nv_brev", "__nv_byte_perm",
            "__nv_fsqrt_rz", "__nv_double2float_rd", "__nv_dadd_ru", "__nv_fma_rd",
            "__nv_saturatef", "__nv_ull2float_rz"} <= compiled
    # Every libdevice function has an AMD counterpart (the Bessel functions
    # of order n and rcp64h are defined in backends/amd/DeviceLibraries.cpp).
    assert refused == set()
    assert {"__nv_jnf", "__nv_jn", "__nv_ynf", "__nv_yn", "__nv_rcp64h"} <= compiled


# ---------------------------------------------------------------------------
# The functions the AMD side defines itself, checked through constant
# folding: a kernel of scalar calls on constant arguments, compiled for
# hip:gfx942 to LLVM IR (O3, fusion off, as the definitions are built for
# it), stores each folded result; the values are checked against the
# references above (exact for the rounding modes and conversions). The
# loops of jn and yn do not fold: that IR, its library calls folded, runs
# on the host with lli (_run_on_host).
# ---------------------------------------------------------------------------

_DEFINED = re.compile(r"(.*_r[nzdu]$|.*_as_.*|brev|byte_perm|clz|popc|ffs|r?hadd|sad|abs|"
                      r"saturatef|llrint|llround|hiloint2double|double2(lo|hi)int|jn|yn|rcp64h)$")
_MLIR_TYPES = {"fp32": "f32", "fp64": "f64", "int32": "i32", "uint32": "i32",
               "int64": "i64", "uint64": "i64"}
# Operands where rounding needs care: denormal results, exact zeros of
# either sign, cancellation, products and quotients near the limits.
_EDGES = {
    "add": [(1.0, 2.0 ** -60), (-1.0, 2.0 ** -60), (3.0, -3.0), (2.0 ** -140, 2.0 ** -149),
            (1e38, 2e38), (-0.0, -0.0), (1.5, 2.0 ** -24)],
    "sub": [(1.0, -(2.0 ** -60)), (3.0, 3.0), (2.0 ** -140, -(2.0 ** -149)), (1.0, 2.0 ** -60)],
    "mul": [(2.0 ** -75, 2.0 ** -74 * 1.5), (1.0 + 2.0 ** -20, 1.0 + 2.0 ** -20),
            (-(2.0 ** -100), 3.0 * 2.0 ** -49), (1e19, 3e19)],
    "div": [(1.0, 3.0), (-2.0, 3.0), (2.0 ** -140, 3.0), (1e-30, 7e15), (1e30, 3e-9)],
    "rcp": [(3.0,), (-7.0,), (1e38,), (1.5 * 2.0 ** -126,)],
    "sqrt": [(2.0,), (2.0 ** -149,), (3e-42,), (1e38,)],
    "fma": [(1.0 + 2.0 ** -20, 1.0 - 2.0 ** -20, -1.0), (3.0, 5.0, -15.0), (2.0 ** -80, 2.0 ** -70, 1.0),
            (2.0 ** -75, 2.0 ** -75, -(2.0 ** -149))],
}


def _amd_folded(name, key, args):
    """libdevice.<name> at `key` on the columns `args`, as the LLVM IR of
    hip:gfx942 folds it."""
    from terrazzo.runtime import driver
    types = [_MLIR_TYPES[t.name] for t in key]
    if name == "fast_tanhf":
        # Not a library call: a float32 math.tanh marked approximate.
        rty = F32

        def call(operands):
            return f"math.tanh {operands[0]} fastmath<afn> : f32"
    else:
        symbol, rty = libdevice.SIGNATURES[name][key]

        def call(operands):
            return (f'tile.extern_elementwise "{symbol}"({", ".join(operands)}) '
                    '{libname = "libdevice", libpath = "", pure = true} : '
                    f'({", ".join(types)}) -> {_MLIR_TYPES[rty.name]}')
    rtype = _MLIR_TYPES[rty.name]
    lines = []
    for i, row in enumerate(zip(*args)):
        operands = []
        for j, (value, ty) in enumerate(zip(row, types)):
            if ty.startswith("f"):
                bits = int(np.array([value], dtype=_NP[key[j].name]).view(
                    np.uint32 if ty == "f32" else np.uint64)[0])
                literal = f"0x{bits:0{8 if ty == 'f32' else 16}X}"
            else:
                literal = str(int(np.array([value], dtype=_NP[key[j].name])
                                  .astype(np.int64 if ty == "i64" else np.int32)[0]))
            lines.append(f"  %a{i}_{j} = arith.constant {literal} : {ty}")
            operands.append(f"%a{i}_{j}")
        lines.append(f"  %r{i} = {call(operands)}")
        lines.append(f"  tile.store %o{i}, %r{i} : !tile.ptr<{rtype}>")
    params = ", ".join(f"%o{i}: !tile.ptr<{rtype}>" for i in range(len(args[0])))
    text = f"func.func @fold({params}) {{\n" + "\n".join(lines) + "\n  return\n}\n"
    res = driver.get_C().compile(text, "fold.mlir", "hip:gfx942", 1, "llvmir",
                                 enable_fp_fusion=False)
    assert res.success, [d.message for d in res.diagnostics]
    ir = res.output if isinstance(res.output, str) else res.output.decode()
    stores = dict((int(m.group(3)), (m.group(1), m.group(2))) for m in re.finditer(
        r"store (\w+) ([^,]+), ptr addrspace\(1\) %(\d+)", ir))
    assert len(stores) == len(args[0]), ir
    dt = _NP[rty.name]
    if not all(re.fullmatch(r"-?[\d.e+-]+|0x[0-9A-F]+|-?inf|nan", literal)
               for _, literal in stores.values()):
        # The recurrences of jn and yn stay loops (over constants: ocml's
        # functions of constants fold): the IR run on the host instead.
        bits = _run_on_host(ir, len(args[0]))
        if rty.is_floating():
            return np.array(bits, dtype=np.uint64).astype(
                np.uint32 if dt == np.float32 else np.uint64).view(dt)
        return _ints_to(bits, dt)
    values = []
    for i in range(len(args[0])):
        ty, literal = stores[i]
        if ty in ("float", "double"):
            v = float(literal) if not literal.startswith("0x") else \
                np.array([int(literal, 16)], dtype=np.uint64).view(np.float64)[0]
            values.append(v)
        else:
            values.append(int(literal))
    if rty.is_floating():
        return np.array(values, dtype=np.float64).astype(dt)
    return _ints_to(values, dt)


def _run_on_host(ir, count):
    """Runs the `fold` kernel of hip:gfx942's LLVM IR `ir` (its calls of
    the device libraries folded away, one thread) on the host with lli:
    the bits each of its `count` outputs gets (an i64 slot each)."""
    lines = []
    for line in ir.splitlines():
        if line.startswith("target ") or (line.startswith("declare") and
                                          re.search(r"@llvm\.amdgcn\.(workitem|rsq)", line)):
            continue
        # ocml's asymptotic forms (x > 25 or so) keep the chip's reciprocal
        # square root, which ocml then refines: the host's stands in.
        line = line.replace("@llvm.amdgcn.rsq.f64", "@host.rsq")
        line = re.sub(r"(tail )?call i32 @llvm\.amdgcn\.workitem\.id\.[xyz]\(\)", "add i32 0, 0",
                      line)
        line = re.sub(r"!reqd_work_group_size !\d+", "", line)
        lines.append(line.replace("amdgpu_kernel ", "").replace("ptr addrspace(1)", "ptr"))
    slots = [f"ptr getelementptr (i64, ptr @slots, i64 {i})" for i in range(count)]
    lines += ["declare double @sqrt(double)",
              "define internal double @host.rsq(double %x) {",
              "  %s = call double @sqrt(double %x)", "  %r = fdiv double 1.0, %s",
              "  ret double %r", "}",
              f"@slots = global [{count} x i64] zeroinitializer",
              '@format = private constant [6 x i8] c"%llx\\0A\\00"',
              "declare i32 @printf(ptr, ...)", "define i32 @main() {",
              f"  call void @fold({', '.join(slots)})"]
    for i, slot in enumerate(slots):
        lines += [f"  %v{i} = load i64, {slot}",
                  f"  call i32 (ptr, ...) @printf(ptr @format, i64 %v{i})"]
    lines += ["  ret i32 0", "}"]
    run = subprocess.run(["/usr/lib/llvm-22/bin/lli", "-"], input="\n".join(lines) + "\n",
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    return [int(v, 16) for v in run.stdout.split()]


# (sqrt_rn and fma_rn are ocml's; float64 fma with a rounding direction
# sets the chip's rounding mode, which no folding sees: amdgcn-libdevice.mlir
# checks its code.)
AMD_DEFINED = [case for case in CASES if _DEFINED.match(case[0]) and
               case[0] not in ("sqrt_rn", "fma_rn") and
               not (case[0] == "abs" and case[1][0].is_floating()) and
               not (case[0].startswith("fma_") and case[1][0] == F64)]


@pytest.mark.parametrize("case", AMD_DEFINED, ids=_case_id)
def test_amd_definitions_match_reference(case, rng):
    pytest.importorskip("terrazzo._C")
    name, key = case
    args = [a[:48] for a in make_inputs(name, key, rng)]
    edges = _EDGES.get(name.split("_")[0]) if name[-3:-2] == "_" else None
    if edges and all(t.is_floating() for t in key):
        dt = _NP[key[0].name]
        with np.errstate(all="ignore"):
            extra = [np.array(column, dtype=dt) for column in zip(*edges)]
        args = [np.concatenate([a, e]) for a, e in zip(args, extra)]
    got = _amd_folded(name, key, args)
    check_against_reference(name, key, args, got)
    op, mode = name.split("_")[0], name[-2:]
    if op in ("add", "sub", "fma") and key[0].is_floating():
        # The sign of an exact zero (IEEE 754 6.3): the operands' where
        # they agree, else -0 rounding down and +0 otherwise.
        for row, r in zip(zip(*args), got.tolist()):
            x, y = (row[0] * row[1], row[2]) if op == "fma" else \
                (row[0], -row[1] if op == "sub" else row[1])
            if r != 0 or x + y != 0:
                continue
            same = math.copysign(1, x) == math.copysign(1, y)
            negative = math.copysign(1, x) < 0 if same else mode == "rd"
            assert math.copysign(1, r) == (-1 if negative else 1), (name, row, r)


# ---------------------------------------------------------------------------
# Bessel functions of integer order on AMD (recurrences over ocml's orders
# 0 and 1: backends/amd/DeviceLibraries.cpp), against their power series
# summed in 120-digit decimal arithmetic, at orders and arguments that
# take each path: upward (n <= |x|), Miller's downward (n > |x|, near
# J_0's zero too), the series' leading term (tiny x), an underflowing
# bound, negative orders and arguments, zeros, infinities and NaN.
# ---------------------------------------------------------------------------

_DIGITS = decimal.Context(prec=120)
_PI = decimal.Decimal("3.14159265358979323846264338327950288419716939937510"
                      "58209749445923078164062862089986280348253421170679")
_EULER_GAMMA = decimal.Decimal("0.5772156649015328606065120900824024310421593359399"
                               "2359880576723488486772677766467093694706329174674951")


def _series_j(n, x):
    """J_n(x) for n >= 0 from sum_k (-1)^k (x/2)^(2k+n) / (k! (n+k)!)."""
    with decimal.localcontext(_DIGITS):
        half = x / 2
        term = half ** n / math.factorial(n)
        total, k = term, 0
        while True:
            k += 1
            term = -term * half * half / (k * (n + k))
            total += term
            if k > abs(x) and abs(term) <= abs(total) * decimal.Decimal(10) ** -100:
                return +total


def _series_y(n, x):
    """Y_n(x) for n >= 0, x > 0: (2/pi) J_n(x) log(x/2) minus (1/pi) times
    sum_{k<n} (n-k-1)!/k! (x/2)^(2k-n) and sum_k (psi(k+1) + psi(n+k+1))
    (-1)^k (x/2)^(2k+n) / (k! (n+k)!), psi(m+1) = H_m - gamma."""
    with decimal.localcontext(_DIGITS):
        half = x / 2
        finite = sum((decimal.Decimal(math.factorial(n - k - 1)) / math.factorial(k) *
                      half ** (2 * k - n) for k in range(n)), decimal.Decimal(0))
        harmonic = [decimal.Decimal(0)]
        term = half ** n / math.factorial(n)
        k, total = 0, decimal.Decimal(0)
        while True:
            while len(harmonic) <= n + k:
                harmonic.append(harmonic[-1] + decimal.Decimal(1) / len(harmonic))
            psi = harmonic[k] + harmonic[n + k] - 2 * _EULER_GAMMA
            total += psi * term
            k += 1
            term = -term * half * half / (k * (n + k))
            if k > abs(x) and abs(psi * term) <= abs(total) * decimal.Decimal(10) ** -100:
                break
        return (2 * _series_j(n, x) * half.ln() - finite - total) / _PI


def _bessel_reference(name, n, x):
    """float64 nearest to J_n(x) or Y_n(x), with the symmetries for n < 0
    and x < 0 and the values at 0, infinity and NaN."""
    sign = -1 if n < 0 and n % 2 else 1
    n = abs(n)
    if math.isnan(x) or (name == "yn" and x < 0):
        return math.nan
    if name == "jn":
        if math.copysign(1, x) < 0:
            sign *= -1 if n % 2 else 1
            x = -x
        if math.isinf(x):
            return sign * 0.0
        if x == 0:
            return sign * (1.0 if n == 0 else 0.0)
        if n > 1000:
            return sign * 0.0  # below (x/2)^n / n!, far under the smallest denormal
        return sign * float(_series_j(n, decimal.Decimal(x)))
    if math.isinf(x):
        return 0.0
    if x == 0:
        return -sign * math.inf
    value = _series_y(n, decimal.Decimal(x))
    return sign * (float(value) if abs(value) < decimal.Decimal("1.7976931348623157e308")
                   else -math.inf)


_BESSEL_CASES = {
    "jn": [(2, 1.5), (3, 0.3), (5, 7.0), (10, 12.0), (20, 5.0), (50, 30.0), (50, 49.5),
           (100, 1.0), (128, 10.0), (128, 127.0), (30, 29.0), (5, 25.0), (12, 40.0),
           (2, 2.404825557695773), (3, 2.404825557695773), (-3, 2.5), (7, -4.0), (-6, -9.0),
           (2, 1e-10), (9, 3e-9), (40, 1e-8), (3, 1e-3), (1000, 3.0), (0, 5.0), (1, -5.0),
           (2, 0.0), (0, 0.0), (-1, 0.0), (3, math.inf), (4, -math.inf), (3, math.nan),
           (2 ** 31 - 1, 1.0), (-2 ** 31, 1.0), (17, 17.0), (64, 60.0), (1, -0.0),
           (-3, -0.0), (3, -1e-300)],
    "yn": [(2, 1.5), (3, 0.3), (5, 7.0), (10, 12.0), (20, 5.0), (50, 30.0), (-3, 2.5),
           (-4, 2.5), (30, 1.0), (200, 1.0), (128, 130.0), (128, 100.0), (3, 0.0),
           (-3, 0.0), (3, -1.0), (3, math.inf), (2, 1e-10), (3, math.nan), (2, 2.0),
           (6, 40.0), (64, 60.0)],
}


@pytest.mark.parametrize("name", ["jn", "yn"])
@pytest.mark.parametrize("dtype", [F64, F32])
def test_amd_bessel_order_n_matches_series(name, dtype):
    # Tolerances: float64 within 1e-14 absolute plus 2e-13 relative (a
    # recurrence's growth of ocml's J_0, J_1, Y_0, Y_1 errors; CUDA documents
    # 5e-12 absolute for jn and yn at n = 128); float32 (the float64 result
    # rounded once) within 1 float32 ulp, or 2^-149 absolute.
    pytest.importorskip("terrazzo._C")
    cases = _BESSEL_CASES[name]
    dt = _NP[dtype.name]
    with np.errstate(all="ignore"):
        xs = np.array([x for _, x in cases]).astype(dt)
    ns = np.array([n for n, _ in cases], dtype=np.int32)
    got = _amd_folded(name, (tl.int32, dtype), [ns, xs]).astype(np.float64)
    for (n, _), x, r in zip(cases, xs.tolist(), got.tolist()):
        want = _bessel_reference(name, n, x)
        what = f"{name}({n}, {x!r}) as {dtype}: {r!r} against {want!r}"
        if dt == np.float32:
            with np.errstate(over="ignore"):  # Y_30(1) ~ -3e39: -inf in float32
                want = float(np.float32(want))
        if math.isnan(want) or math.isinf(want) or want == 0:
            assert r == want or (math.isnan(r) and math.isnan(want)), what
            if want == 0:  # the sign of a zero: (-1)^n for n < 0 or x < 0
                assert math.copysign(1, r) == math.copysign(1, want), what
            continue
        if dt == np.float64:
            assert abs(r - want) <= 1e-14 + 2e-13 * abs(want), what
        else:
            ulp = float(np.spacing(np.float32(abs(want))))
            assert abs(r - want) <= max(ulp, 2.0 ** -149), what


def test_amd_rcp64h_is_the_reciprocals_high_word(rng):
    # __nv_rcp64h(x): the correctly rounded 1/x with its low 32 bits clear
    # (NVIDIA's MUFU.RCP64H approximates that high word; libdevice states
    # no bound), so within 2^-20 of 1/x.
    pytest.importorskip("terrazzo._C")
    x = np.concatenate([rng.uniform(0.1, 100, 40) * rng.choice([-1.0, 1.0], 40),
                        [3.0, 1e-310, -1e-310, 0.0, -0.0, np.inf, -np.inf, 1e308, 2.0 ** -1022]])
    got = _amd_folded("rcp64h", (F64,), [x])
    with np.errstate(all="ignore"):
        want = ((1 / x).view(np.uint64) & np.uint64(0xFFFFFFFF00000000)).view(np.float64)
    np.testing.assert_array_equal(got.view(np.uint64), want.view(np.uint64))
    normal = np.abs(want) >= 2.0 ** -1022
    finite = np.isfinite(want) & normal
    assert np.all(np.abs(got[finite] * x[finite] - 1) < 2.0 ** -20)
    nan = _amd_folded("rcp64h", (F64,), [np.array([np.nan])])
    assert np.isnan(nan[0])
