"""fp8 for the interpreter, exactly as the GPU converts (NumPy has no fp8).

Two formats, as `tl.float8e4nv` (MLIR f8E4M3FN: 4 exponent bits, bias 7, 3
mantissa bits, no infinities, NaN = S.1111.111, largest finite 448) and
`tl.float8e5` (f8E5M2: 5 exponent bits, bias 15, 2 mantissa bits, IEEE-like
with infinities, largest finite 57344).

In memory an fp8 value is its byte (the code); in the interpreter's
registers it is the float32 holding exactly its value. NaNs carry their code
in the low byte of a quiet float32 NaN (`0x7FC000cc`, with the code's sign),
so that loading and storing a NaN copies its byte as the GPU does.

Conversions to fp8 (`encode`) round to nearest, ties to even, and saturate
to the largest finite value, infinities included, as PTX's
`cvt.rn.satfinite` does; NaN becomes the canonical NaN 0x7F. Conversions
from fp8 (`decode`) are exact.
"""

from __future__ import annotations

from typing import Dict, NamedTuple

import numpy as np


class Format(NamedTuple):
    name: str
    exponent_bits: int
    mantissa_bits: int
    bias: int
    ieee_specials: bool  # all-ones exponent: infinities and NaNs (e5m2)


FORMATS: Dict[str, Format] = {
    "fp8e4nv": Format("fp8e4nv", 4, 3, 7, False),
    "fp8e5": Format("fp8e5", 5, 2, 15, True),
}

CANONICAL_NAN = 0x7F
_NAN_TAG = np.uint32(0x7FC00000)


def _format(name: str) -> Format:
    try:
        return FORMATS[name]
    except KeyError:
        raise ValueError(f"{name!r} is not an fp8 format") from None


def _code_value(fmt: Format, code: int) -> float:
    """The value of a code (NaN for NaN codes)."""
    sign = -1.0 if code & 0x80 else 1.0
    m_bits = fmt.mantissa_bits
    exponent = (code >> m_bits) & ((1 << fmt.exponent_bits) - 1)
    mantissa = code & ((1 << m_bits) - 1)
    top = (1 << fmt.exponent_bits) - 1
    if fmt.ieee_specials and exponent == top:
        return sign * float("inf") if mantissa == 0 else float("nan")
    if not fmt.ieee_specials and exponent == top and mantissa == (1 << m_bits) - 1:
        return float("nan")
    if exponent == 0:
        return sign * mantissa * 2.0 ** (1 - fmt.bias - m_bits)
    return sign * (1 + mantissa / (1 << m_bits)) * 2.0 ** (exponent - fmt.bias)


class _Tables:
    def __init__(self, fmt: Format):
        values = np.array([_code_value(fmt, c) for c in range(256)], dtype=np.float64)
        self.is_nan = np.isnan(values)
        f32 = values.astype(np.float32)
        # NaNs as tagged quiet float32 NaNs that remember their code.
        bits = f32.view(np.uint32).copy()
        codes = np.arange(256, dtype=np.uint32)
        tagged = _NAN_TAG | (codes & np.uint32(0x7F)) | ((codes & np.uint32(0x80)) << 24)
        bits[self.is_nan] = tagged[self.is_nan]
        self.decoded = bits.view(np.float32)
        # The finite non-negative values in code order (ascending).
        finite = np.isfinite(values[:128])
        self.positive = values[:128][finite]
        self.max_finite = float(self.positive[-1])
        self.min_exponent = 1 - fmt.bias


_TABLES: Dict[str, _Tables] = {}


def _tables(name: str) -> _Tables:
    t = _TABLES.get(name)
    if t is None:
        t = _TABLES[name] = _Tables(_format(name))
    return t


def decode(codes, name: str) -> np.ndarray:
    """float32 values of fp8 codes (uint8/int8 array), exactly."""
    codes = np.asarray(codes)
    return _tables(name).decoded[codes.astype(np.uint8).astype(np.intp)]


def encode(x, name: str) -> np.ndarray:
    """uint8 codes of float values (any NumPy float type): round to nearest
    even, saturate to the largest finite value; NaN gives its own code if it
    is a tagged fp8 NaN of this format, else the canonical NaN."""
    fmt, t = _format(name), _tables(name)
    x = np.asarray(x)
    shape = x.shape
    wide = x.astype(np.float64).reshape(-1)
    nan = np.isnan(wide)
    negative = np.signbit(wide)
    a = np.abs(np.where(nan, 0.0, wide))
    # The power of two of one unit in the last place at a's binade (the
    # subnormal spacing below the smallest normal), then a rounded to it:
    # a / ulp is exact in float64, and rint rounds half to even.
    _, e = np.frexp(a)
    binade = np.maximum(e.astype(np.int64) - 1, t.min_exponent)
    ulp_exp = binade - fmt.mantissa_bits
    with np.errstate(all="ignore"):
        scaled = np.ldexp(a, -ulp_exp)
        rounded = np.ldexp(np.rint(scaled), ulp_exp)
    rounded = np.where(np.isinf(a) | (rounded > t.max_finite), t.max_finite, rounded)
    rounded = np.where(np.isfinite(rounded), rounded, t.max_finite)
    codes = np.searchsorted(t.positive, rounded).astype(np.uint8)
    codes = codes | np.where(negative, np.uint8(0x80), np.uint8(0))
    if nan.any():
        nan_codes = np.full(wide.shape, CANONICAL_NAN, dtype=np.uint8)
        if x.dtype == np.float32:
            bits = np.ascontiguousarray(x).reshape(-1).view(np.uint32)
            own = ((bits & np.uint32(0x7FFFFF00)) == _NAN_TAG)
            code = ((bits & np.uint32(0x7F)) | ((bits >> 24) & np.uint32(0x80))).astype(np.uint8)
            own &= t.is_nan[code.astype(np.intp)]
            nan_codes = np.where(own, code, nan_codes)
        codes = np.where(nan, nan_codes, codes)
    return codes.astype(np.uint8).reshape(shape)


def quantize(x, name: str) -> np.ndarray:
    """float32 values of `x` converted to fp8 (see `encode`)."""
    return decode(encode(x, name), name)
