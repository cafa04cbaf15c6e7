"""The abstract builder that the semantic layer emits operations through.

Two implementations exist: `ir_builder.IRBuilder` writes tile IR as MLIR
text, `interpreter.InterpreterBuilder` computes with NumPy. Handles are
opaque to everything but the builder that made them. Types are language
types (`tl.dtype`, `tl.pointer_type`, `tl.block_type`).

Operation vocabulary (`op` arguments):

* `binary`: addf subf mulf divf remf powf minnumf maxnumf minimumf maximumf
  addi subi muli divsi divui remsi remui andi ori xori shli shrsi shrui
  minsi minui maxsi maxui
* `compare` predicates: olt ole ogt oge oeq une (floats), slt sle sgt sge ult
  ule ugt uge eq ne (integers)
* `unary`: negf absf absi and the math functions of `semantic.MATH_UNARY`
* `cast`: extf truncf fp_to_fp extsi extui trunci sitofp uitofp fptosi fptoui
  bitcast ptr_to_int int_to_ptr int_sign (same-width change of signedness:
  nothing in IR)

Control flow is not part of this interface: the code generator asks
`builder.concrete` and either evaluates conditions (interpreter) or builds
regions through the IR builder's region API.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence, Tuple


class Builder:
    #: True when values are computed on the spot (the interpreter), so that
    #: `if`/`for` conditions can be evaluated in Python.
    concrete = False

    def set_loc(self, loc) -> None:
        """The source position (errors.SourceLocation) of the following ops."""
        self.loc = loc

    # Values and shapes
    def constant(self, value, ty): raise NotImplementedError
    def program_id(self, axis: int): raise NotImplementedError
    def num_programs(self, axis: int): raise NotImplementedError
    def make_range(self, start: int, end: int, ty): raise NotImplementedError
    def splat(self, h, src_ty, dst_ty): raise NotImplementedError
    def broadcast(self, h, src_ty, dst_ty): raise NotImplementedError
    def expand_dims(self, h, axis: int, src_ty, dst_ty): raise NotImplementedError

    # Arithmetic
    def binary(self, op: str, a, b, ty): raise NotImplementedError
    def compare(self, pred: str, a, b, operand_ty, result_ty): raise NotImplementedError
    def unary(self, op: str, x, ty): raise NotImplementedError
    def fma(self, a, b, c, ty): raise NotImplementedError
    def select(self, cond, a, b, cond_ty, ty): raise NotImplementedError
    def cast(self, op: str, x, src_ty, dst_ty, rounding: Optional[str] = None):
        raise NotImplementedError

    # Memory
    def addptr(self, ptr, offset, ptr_ty, offset_ty): raise NotImplementedError
    def load(self, ptr, mask, other, ptr_ty, result_ty, cache, evict, volatile):
        raise NotImplementedError
    def store(self, ptr, value, mask, ptr_ty, cache, evict): raise NotImplementedError

    # Debugging
    def print(self, prefix: str, hex: bool, args: Sequence[Tuple[Any, Any]]):
        raise NotImplementedError
    def assert_(self, cond, cond_ty, message: str): raise NotImplementedError
