"""How the interpreter holds the language's numbers in NumPy: the array
type each element type computes in (STORAGE_DTYPES: bfloat16 in float32,
fp8 in float32 holding exactly an fp8 value) and lives in memory as
(MEMORY_DTYPES: bfloat16 as its 16 bits, fp8 as bytes), and bfloat16's
rounding (to nearest even, float64 inputs rounded once). The interpreter,
its atomics and the IR builder's constants share these."""

from __future__ import annotations

import numpy as np

from ..errors import CompilationError
from . import fp8

#: The NumPy type each element type computes in.
STORAGE_DTYPES = {
    "int1": np.bool_, "int8": np.int8, "int16": np.int16, "int32": np.int32,
    "int64": np.int64, "uint8": np.uint8, "uint16": np.uint16, "uint32": np.uint32,
    "uint64": np.uint64, "fp16": np.float16, "bf16": np.float32, "fp32": np.float32,
    "fp64": np.float64, "fp8e4nv": np.float32, "fp8e5": np.float32,
    "fp8e4b15": np.float32, "fp8e4b8": np.float32, "fp8e5b16": np.float32,
}
#: How each element type lives in memory.
MEMORY_DTYPES = dict(STORAGE_DTYPES, bf16=np.uint16, int1=np.int8,
                     **{name: np.uint8 for name in fp8.FORMATS})


def storage_dtype(ty) -> np.dtype:
    """The NumPy type values of `ty` compute in (pointers: int64)."""
    sca = ty.scalar
    if sca.is_ptr():
        return np.dtype(np.int64)
    try:
        return np.dtype(STORAGE_DTYPES[sca.name])
    except KeyError:
        raise CompilationError(f"the interpreter does not support {sca} values yet") from None


# ---------------------------------------------------------------------------
# bfloat16
# ---------------------------------------------------------------------------

def _f32_bits_to_bf16_rne(bits: np.ndarray, nan: np.ndarray) -> np.ndarray:
    bits = bits.astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) << 16
    rounded = rounded.astype(np.uint32)
    quiet = (bits.astype(np.uint32) & np.uint32(0xFFFF0000)) | np.uint32(0x00400000)
    return np.where(nan, quiet, rounded).view(np.float32)


def round_to_bf16(x) -> np.ndarray:
    """float32 storage of x rounded to the nearest bfloat16 (ties to even).
    float64 inputs are rounded once (through round-to-odd float32)."""
    x = np.asarray(x)
    shape = x.shape
    if x.dtype == np.float64:
        f = np.ascontiguousarray(x).reshape(-1)
        f32 = f.astype(np.float32)
        back = f32.astype(np.float64)
        inexact = (back != f) & np.isfinite(f32)
        toward0 = np.where(inexact & (np.abs(back) > np.abs(f)),
                           np.nextafter(f32, np.float32(0)), f32).astype(np.float32)
        bits = toward0.view(np.uint32) | inexact.astype(np.uint32)
        out = _f32_bits_to_bf16_rne(bits, np.isnan(f))
        return out.reshape(shape)
    f32 = np.ascontiguousarray(x, dtype=np.float32).reshape(-1)
    out = _f32_bits_to_bf16_rne(f32.view(np.uint32), np.isnan(f32))
    return out.reshape(shape)


def bf16_from_bits(u16: np.ndarray) -> np.ndarray:
    u = np.ascontiguousarray(u16).astype(np.uint32) << 16
    return u.view(np.float32)


def bf16_to_bits(f32: np.ndarray) -> np.ndarray:
    r = np.ascontiguousarray(round_to_bf16(f32)).view(np.uint32) >> 16
    return r.astype(np.uint16)
