"""The type rules of the language, as Triton's: what type a Python constant
takes in a kernel, and the type two operands are converted to before an
arithmetic operation (C's usual conversions for integers, the float order
fp64 > fp32 > fp16 > bf16, Python scalars not taking part where their kind
is no higher than the tensor's). The semantic layer applies them; nothing
here emits code."""

from __future__ import annotations

import numbers

from ..errors import SemanticError
from ..core import lang as tl
from ..core.lang import block_type, dtype, pointer_type, tensor


def _is_py_number(x) -> bool:
    return isinstance(x, (numbers.Number,)) and not isinstance(x, complex)


def _type_name(t) -> str:
    if isinstance(t, tensor):
        t = t.type
    if isinstance(t, block_type):
        return f"block of {t.element_ty} with shape {list(t.shape)}"
    if isinstance(t, pointer_type):
        return f"pointer to {t.element_ty}"
    return str(t)


def integer_promote(a: dtype, b: dtype) -> dtype:
    """C's usual arithmetic conversions for two integer types."""
    a_bits, b_bits = a.int_bitwidth, b.int_bitwidth
    a_signed, b_signed = a.is_int_signed(), b.is_int_signed()
    if a_signed == b_signed:
        return a if a_bits > b_bits else b
    if not a_signed:  # a unsigned, b signed
        return a if a_bits >= b_bits else b
    return b if b_bits >= a_bits else a


def computation_type(a: dtype, a_is_py: bool, b: dtype, b_is_py: bool,
                     div_or_mod: bool = False) -> dtype:
    """The type two operands are converted to before an arithmetic op.

    A Python scalar of a kind (bool < int < float) no higher than the
    tensor's does not take part in promotion; otherwise the usual order
    fp64 > fp32 > fp16 > bf16 > fp8 > integers applies, with / and % on
    16-bit floats computed in fp32; two values of one fp8 type stay that
    type and two fp8 types meet in fp16 (Triton 3.6's rules)."""
    if a_is_py != b_is_py:
        scalar_ty, tensor_ty = (a, b) if a_is_py else (b, a)
        if scalar_ty.kind() <= tensor_ty.kind():
            if div_or_mod and (tensor_ty.is_fp16() or tensor_ty.is_bf16()):
                return tl.float32
            return tensor_ty
    if a.is_fp64() or b.is_fp64():
        return tl.float64
    if a.is_fp32() or b.is_fp32():
        return tl.float32
    if a.is_fp16() or b.is_fp16():
        return tl.float32 if div_or_mod else tl.float16
    if a.is_bf16() and b.is_bf16():
        return tl.float32 if div_or_mod else tl.bfloat16
    if a.is_bf16() or b.is_bf16():
        return tl.float32
    if a.is_fp8() and b.is_fp8():
        # Triton's rule: one fp8 type stays itself, two different ones meet
        # in fp16. The semantic layer computes fp8 results in float32 and
        # rounds them once to the fp8 type (no fp8 arithmetic instructions).
        return a if a == b else tl.float16
    if not a.is_int() or not b.is_int():
        raise SemanticError(f"unexpected type {a} and {b}")
    if div_or_mod and a.is_int_signed() != b.is_int_signed():
        raise SemanticError(
            f"Cannot use / or % between {a} and {b} because they have different "
            "signedness; cast one of them first")
    return integer_promote(a, b)


def python_scalar_type(x) -> dtype:
    """The type a Python constant takes when it becomes a tensor."""
    if isinstance(x, bool):
        return tl.int1
    if isinstance(x, numbers.Integral):
        x = int(x)
        if -(1 << 31) <= x < (1 << 31):
            return tl.int32
        if -(1 << 63) <= x < (1 << 63):
            return tl.int64
        if 0 <= x < (1 << 64):
            return tl.uint64
        raise SemanticError(f"integer constant {x} does not fit in 64 bits")
    if isinstance(x, numbers.Real):
        x = float(x)
        ax = abs(x)
        if ax == 0.0 or ax != ax or ax == float("inf") or \
                2.0 ** -126 <= ax <= (2 - 2.0 ** -23) * 2.0 ** 127:
            return tl.float32
        return tl.float64
    raise SemanticError(f"cannot use {x!r} (of Python type {type(x).__name__}) as a "
                        "value in a kernel")
