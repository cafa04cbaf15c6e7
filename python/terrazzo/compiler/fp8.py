"""fp8 for the interpreter, exactly as the GPU converts (NumPy has no fp8).

Five formats, each a sign bit, exponent bits of a bias, and mantissa bits:

* `tl.float8e4nv` (MLIR f8E4M3FN: 4 exponent bits, bias 7, 3 mantissa
  bits, no infinities, NaN = S.1111.111, largest finite 448) and
  `tl.float8e5` (f8E5M2: 5 exponent bits, bias 15, 2 mantissa bits,
  IEEE-like with infinities, largest finite 57344): converted by the GPU's
  instructions (sm_89 and newer).
* `tl.float8e4b15` (4 exponent bits, bias 15, 3 mantissa bits, no
  infinities or NaNs: every code is finite, largest 1.875), Triton's format
  for software conversion on GPUs without fp8 instructions. As Triton's
  conversion does, a value is rounded to nearest with ties away from zero
  and saturates at 1.75 (not 1.875), infinities and NaNs included (a NaN
  keeps its sign).
* `tl.float8e4b8` and `tl.float8e5b16` (f8E4M3FNUZ, bias 8, largest 240;
  f8E5M2FNUZ, bias 16, largest 57344): no infinities and no negative zero,
  the code 0x80 is the only NaN.

The last three are converted in software by the compiler (integer
operations; see `Semantic._cast_fp8`), with the rounding defined here.

In memory an fp8 value is its byte (the code); in the interpreter's
registers it is the float32 holding exactly its value. NaNs carry their code
in the low byte of a quiet float32 NaN (`0x7FC000cc`, with the code's sign),
so that loading and storing a NaN copies its byte as the GPU does.

Conversions to fp8 (`encode`) round to nearest, ties to even (away from
zero for float8e4b15), and saturate to the largest finite value,
infinities included, as PTX's `cvt.rn.satfinite` does; NaN becomes the
format's NaN (0x7F, or 0x80 for the formats without negative zero).
Conversions from fp8 (`decode`) are exact.
"""

from __future__ import annotations

from typing import Dict, NamedTuple

import numpy as np

from ..core import lang as tl


class Format(NamedTuple):
    name: str
    exponent_bits: int
    mantissa_bits: int
    bias: int
    # What the all-ones exponent and 0x80 mean: "ieee" (infinities and NaNs,
    # e5m2), "fn" (S.1111.111 is NaN, e4m3), "fnuz" (0x80 is the only NaN,
    # no negative zero) or "finite" (every code is a number).
    specials: str
    ties_away: bool = False  # round half away from zero (else to even)
    saturate: float = 0.0  # largest magnitude a conversion gives (0: the largest finite)


FORMATS: Dict[str, Format] = {
    "fp8e4nv": Format("fp8e4nv", 4, 3, 7, "fn"),
    "fp8e5": Format("fp8e5", 5, 2, 15, "ieee"),
    "fp8e4b15": Format("fp8e4b15", 4, 3, 15, "finite", ties_away=True, saturate=1.75),
    "fp8e4b8": Format("fp8e4b8", 4, 3, 8, "fnuz"),
    "fp8e5b16": Format("fp8e5b16", 5, 2, 16, "fnuz"),
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
    if fmt.specials == "ieee" and exponent == top:
        return sign * float("inf") if mantissa == 0 else float("nan")
    if fmt.specials == "fn" and exponent == top and mantissa == (1 << m_bits) - 1:
        return float("nan")
    if fmt.specials == "fnuz" and code == 0x80:
        return float("nan")
    if exponent == 0:
        return sign * mantissa * 2.0 ** (1 - fmt.bias - m_bits)
    return sign * (1 + mantissa / (1 << m_bits)) * 2.0 ** (exponent - fmt.bias)


def nan_code(fmt: Format, negative: bool = False) -> int:
    """The code a NaN converts to: the format's NaN, or for a format
    without NaNs its saturation value with the NaN's sign."""
    if fmt.specials == "fnuz":
        return 0x80
    if fmt.specials == "finite":
        code = int(encode(np.array([fmt.saturate]), fmt.name)[0])
        return code | (0x80 if negative else 0)
    return CANONICAL_NAN


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
        self.saturate = fmt.saturate or self.max_finite
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


def encode(x, name: str, keep_infinities: bool = False) -> np.ndarray:
    """uint8 codes of float values (any NumPy float type): round to nearest
    (ties to even, or away from zero for float8e4b15), saturate to the
    largest finite value; NaN gives its own code if it is a tagged fp8 NaN
    of this format, else the format's NaN (see `nan_code`). With
    `keep_infinities` (values that are already fp8, which a store or a
    bitcast copies), an infinity of float8e5 keeps its code."""
    fmt, t = _format(name), _tables(name)
    x = np.asarray(x)
    shape = x.shape
    wide = x.astype(np.float64).reshape(-1)
    nan = np.isnan(wide)
    negative = np.signbit(wide)
    a = np.abs(np.where(nan, 0.0, wide))
    # The power of two of one unit in the last place at a's binade (the
    # subnormal spacing below the smallest normal), then a rounded to it:
    # a / ulp is exact in float64; rint rounds half to even, floor(v + 0.5)
    # half away from zero (exact too: v < 2^52).
    _, e = np.frexp(a)
    binade = np.maximum(e.astype(np.int64) - 1, t.min_exponent)
    ulp_exp = binade - fmt.mantissa_bits
    with np.errstate(all="ignore"):
        scaled = np.ldexp(a, -ulp_exp)
        units = np.floor(scaled + 0.5) if fmt.ties_away else np.rint(scaled)
        rounded = np.ldexp(units, ulp_exp)
    # Exact values keep their code (float8e4b15's 1.875 too); others
    # saturate at the conversion's limit.
    limit = np.where(a == t.max_finite, t.max_finite, t.saturate)
    rounded = np.where(np.isinf(a) | (rounded > limit), limit, rounded)
    rounded = np.where(np.isfinite(rounded), rounded, t.saturate)
    codes = np.searchsorted(t.positive, rounded).astype(np.uint8)
    signed = negative & ((codes != 0) | (fmt.specials != "fnuz"))  # no -0 in fnuz
    codes = codes | np.where(signed, np.uint8(0x80), np.uint8(0))
    if keep_infinities and fmt.specials == "ieee":
        inf_code = ((1 << fmt.exponent_bits) - 1) << fmt.mantissa_bits
        codes = np.where(np.isinf(wide), np.where(negative, inf_code | 0x80, inf_code),
                         codes).astype(np.uint8)
    if nan.any():
        if fmt.specials == "finite":
            nan_codes = np.where(negative, nan_code(fmt, True), nan_code(fmt)).astype(np.uint8)
        else:
            nan_codes = np.full(wide.shape, nan_code(fmt), dtype=np.uint8)
        if x.dtype == np.float32 and t.is_nan.any():
            bits = np.ascontiguousarray(x).reshape(-1).view(np.uint32)
            own = ((bits & np.uint32(0x7FFFFF00)) == _NAN_TAG)
            code = ((bits & np.uint32(0x7F)) | ((bits >> 24) & np.uint32(0x80))).astype(np.uint8)
            own &= t.is_nan[code.astype(np.intp)]
            nan_codes = np.where(own, code, nan_codes)
        codes = np.where(nan, nan_codes, codes)
    return codes.astype(np.uint8).reshape(shape)


def quantize(x, name: str, keep_infinities: bool = False) -> np.ndarray:
    """float32 values of `x` converted to fp8 (see `encode`)."""
    return decode(encode(x, name, keep_infinities), name)


# ---------------------------------------------------------------------------
# Software conversions, emitted by the semantic layer
# ---------------------------------------------------------------------------
# No GPU instruction converts these formats: the compiler represents their
# values by their bytes (i8 in the tile IR) and converts with integer
# operations, through float32, with the rounding `encode` defines. The
# interpreter runs the same operations.

SOFTWARE = ("fp8e4b15", "fp8e4b8", "fp8e5b16")


def is_software(ty) -> bool:
    """Whether values of scalar type `ty` are converted in software."""
    return getattr(ty, "name", None) in SOFTWARE


def emit_decode(sem, x, name: str):
    """float32 values of `x` (a tensor of software fp8 format `name`),
    exactly: the sign bit, then for a normal code its exponent rebiased
    and mantissa moved into place, for a subnormal its mantissa times the
    smallest subnormal; 0x80 is NaN where the format says so."""
    fmt = _format(name)
    mb = fmt.mantissa_bits
    code = sem.cast(sem.bitcast(x, tl.uint8), tl.uint32)
    em = sem.and_(code, 0x7F)
    exponent = sem.shr(em, mb)
    mantissa = sem.and_(em, (1 << mb) - 1)
    normal_bits = sem.or_(sem.shl(sem.add(exponent, 127 - fmt.bias), 23),
                          sem.shl(mantissa, 23 - mb))
    subnormal = sem.mul(sem.cast(mantissa, tl.float32), 2.0 ** (1 - fmt.bias - mb))
    magnitude = sem.where(sem.compare("eq", exponent, 0), subnormal,
                          sem.bitcast(normal_bits, tl.float32))
    sign = sem.shl(sem.and_(code, 0x80), 24)
    value = sem.bitcast(sem.or_(sem.bitcast(magnitude, tl.uint32), sign), tl.float32)
    if fmt.specials == "fnuz":
        value = sem.where(sem.compare("eq", code, 0x80), float("nan"), value)
    return value


def emit_encode(sem, x, name: str, dst):
    """`x` (float32) converted to software fp8 format `name` (language type
    `dst`): rounded once from its bits (to nearest; ties to even, or away
    from zero for float8e4b15), subnormal results through an exact float32
    scaling and integer rounding, then saturated; NaN as `encode` says."""
    fmt = _format(name)
    mb = fmt.mantissa_bits
    shift = 23 - mb
    bits = sem.bitcast(x, tl.uint32)
    sign = sem.and_(sem.shr(bits, 24), 0x80)
    a = sem.and_(bits, 0x7FFFFFFF)
    # Normal results: round the float32 bits at the format's last mantissa
    # bit (a carry moves into the exponent), then rebias the exponent.
    half = 1 << (shift - 1)
    if fmt.ties_away:
        rounded = sem.add(a, half)
    else:
        odd = sem.and_(sem.shr(a, shift), 1)
        rounded = sem.add(sem.add(a, half - 1), odd)
    normal = sem.sub(sem.shr(rounded, shift), (127 - fmt.bias) << mb)
    # Subnormal results: |x| in units of the smallest subnormal (exact),
    # rounded to an integer (reaching 2^mb gives the smallest normal code).
    units = sem.mul(sem.bitcast(a, tl.float32), 2.0 ** (fmt.bias - 1 + mb))
    whole = sem.cast(units, tl.uint32)
    frac = sem.sub(units, sem.cast(whole, tl.float32))
    if fmt.ties_away:
        up = sem.compare("ge", frac, 0.5)
    else:
        tie_to_odd = sem.logical_and(sem.compare("eq", frac, 0.5),
                                     sem.compare("ne", sem.and_(whole, 1), 0))
        up = sem.logical_or(sem.compare("gt", frac, 0.5), tie_to_odd)
    subnormal = sem.add(whole, sem.cast(up, tl.uint32))
    min_normal_bits = (127 + 1 - fmt.bias) << 23
    code = sem.where(sem.compare("lt", a, min_normal_bits), subnormal, normal)
    # Saturation (infinities and, for float8e4b15, NaNs too: their bits
    # round past every finite code).
    limit = int(encode(np.array([_tables(name).saturate]), name)[0])
    code = sem.where(sem.compare("gt", code, limit), limit, code)
    if fmt.specials == "fnuz":
        sign = sem.where(sem.compare("eq", code, 0), 0, sign)  # no -0
    code = sem.or_(code, sign)
    if fmt.specials == "fnuz":
        code = sem.where(sem.compare("gt", a, 0x7F800000), 0x80, code)
    return sem.bitcast(sem.cast(code, tl.uint8), dst)
