"""The abstract builder that the semantic layer emits operations through.

Two implementations exist: `ir_builder.IRBuilder` writes tile IR as MLIR
text, `interpreter.InterpreterBuilder` computes with NumPy. Handles are
opaque to everything but the builder that made them. Types are language
types (`tl.dtype`, `tl.pointer_type`, `tl.block_type`).

Operation vocabulary (`op` arguments):

* `binary`: addf subf mulf divf divf_approx (float32 division to within
  2 ulp, as Triton's `/`; exact elsewhere) divf_fast (float32 division,
  the hardware's fastest: tl.fdiv(approx=True)) remf powf minnumf maxnumf minimumf maximumf
  addi subi muli divsi divui remsi remui andi ori xori shli shrsi shrui
  minsi minui maxsi maxui
* `compare` predicates: olt ole ogt oge oeq une (floats), slt sle sgt sge ult
  ule ugt uge eq ne (integers)
* `unary`: negf absf absi and the math functions of `semantic.MATH_UNARY`
* `cast`: extf truncf fp_to_fp extsi extui trunci sitofp uitofp fptosi fptoui
  bitcast ptr_to_int int_to_ptr int_sign (same-width change of signedness:
  nothing in IR)

`reduce(operands, axis, result_types, combine)` reduces the blocks
`operands` ((handle, block type) pairs of one shape) together along `axis`;
`combine(accumulators, new_values)` emits the combining ops on scalar
handles (element types of the operands) through this same builder and
returns the new accumulators. The IR builder calls it once to build the
region of `tile.reduce`; the interpreter calls it on whole slices.

`scan(operands, axis, reverse, result_types, combine)` is the inclusive scan
of the blocks `operands` ((handle, block type) pairs of one shape) together
along `axis`: element i of each result combines elements 0..i in order
(n-1..i with `reverse`, the accumulator then holding the later elements).
`combine` is as for `reduce`; the results have the operands' types. The IR
builder emits `tile.scan` with the region; the interpreter calls `combine`
on whole slices, one position of the axis after the other.

`atomic_rmw(op, ptr, val, mask, ptr_ty, result_ty, sem, scope)` updates
the memory at `ptr` (a pointer or block of pointers; `val` and the optional
i1 `mask` have its shape) atomically and returns the old values (0 where
the mask is false). `op` is a `tile.atomic_rmw` kind: add (integers) fadd
(floats) and or xor max min (signed integers, and floats in IEEE totalOrder)
umax umin (unsigned integers) xchg. `atomic_cas(ptr, cmp, val, ptr_ty,
result_ty, sem, scope)` stores `val` where the memory equals `cmp` bit for
bit and returns the old values. `sem` is relaxed, acquire, release or
acq_rel; `scope` gpu, cta or sys. Elements that point to the same address
are all applied, in some order (the interpreter: row-major order).
`atomic_load(ptr, mask, ptr_ty, result_ty, sem, scope)` (sem relaxed or
acquire) and `atomic_store(ptr, val, mask, ptr_ty, sem, scope)` (sem
relaxed or release) access each element in one atomic access (masked-off
elements are not accessed and load as 0); `atomic_poll(ptr, expected,
timeout, ptr_ty, result_ty, sem, scope)` (sem relaxed or acquire; timeout
an int64 scalar of nanoseconds or None) waits until memory equals
`expected` and returns int1 values, false where the timeout passed first.

Control flow is not part of this interface: the code generator asks
`builder.concrete` and either evaluates conditions (interpreter) or builds
regions through the IR builder's region API.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Optional, Sequence, Tuple


class Builder(ABC):
    #: True when values are computed on the spot (the interpreter), so that
    #: `if`/`for` conditions can be evaluated in Python.
    concrete = False

    def set_loc(self, loc) -> None:
        """The source position (errors.SourceLocation) of the following ops."""
        self.loc = loc

    # Values and shapes
    @abstractmethod
    def constant(self, value, ty): ...
    @abstractmethod
    def program_id(self, axis: int): ...
    @abstractmethod
    def num_programs(self, axis: int): ...
    @abstractmethod
    def make_range(self, start: int, end: int, ty): ...
    @abstractmethod
    def splat(self, h, src_ty, dst_ty): ...
    @abstractmethod
    def broadcast(self, h, src_ty, dst_ty): ...
    @abstractmethod
    def expand_dims(self, h, axis: int, src_ty, dst_ty): ...
    @abstractmethod
    def trans(self, h, order: Sequence[int], src_ty, dst_ty):
        """The block `h` with its dimensions permuted: result dimension i is
        dimension order[i] of `h` (order is a permutation, not the
        identity)."""
    @abstractmethod
    def reshape(self, h, allow_reorder: bool, src_ty, dst_ty):
        """The elements of `h` in row-major order, as a block of dst_ty's
        shape (same number of elements). With `allow_reorder` the elements
        may be placed in any order (tl.view, can_reorder=True); both
        builders keep row-major order."""
    @abstractmethod
    def join(self, a, b, src_ty, dst_ty):
        """Blocks `a` and `b` (of type src_ty) stacked along a new last
        dimension of size 2: result[..., 0] is a, result[..., 1] is b."""
    @abstractmethod
    def split(self, h, src_ty, dst_ty) -> Tuple[Any, Any]:
        """The halves h[..., 0] and h[..., 1] of a block whose last dimension
        has size 2 (rank 2 or more), each of type dst_ty."""
    # Arithmetic
    @abstractmethod
    def binary(self, op: str, a, b, ty): ...
    @abstractmethod
    def compare(self, pred: str, a, b, operand_ty, result_ty): ...
    @abstractmethod
    def unary(self, op: str, x, ty): ...
    @abstractmethod
    def fma(self, a, b, c, ty): ...
    @abstractmethod
    def select(self, cond, a, b, cond_ty, ty): ...
    @abstractmethod
    def cast(self, op: str, x, src_ty, dst_ty, rounding: Optional[str] = None): ...
    @abstractmethod
    def reduce(self, operands: Sequence[Tuple[Any, Any]], axis: int, result_types,
               combine): ...
    @abstractmethod
    def scan(self, operands: Sequence[Tuple[Any, Any]], axis: int, reverse: bool,
             result_types, combine): ...
    # Memory
    @abstractmethod
    def addptr(self, ptr, offset, ptr_ty, offset_ty): ...
    @abstractmethod
    def load(self, ptr, mask, other, ptr_ty, result_ty, cache, evict, volatile): ...
    @abstractmethod
    def store(self, ptr, value, mask, ptr_ty, cache, evict): ...
    @abstractmethod
    def atomic_rmw(self, op: str, ptr, val, mask, ptr_ty, result_ty, sem: str,
                   scope: str): ...
    @abstractmethod
    def atomic_cas(self, ptr, cmp, val, ptr_ty, result_ty, sem: str, scope: str): ...
    @abstractmethod
    def atomic_load(self, ptr, mask, ptr_ty, result_ty, sem: str, scope: str): ...
    @abstractmethod
    def atomic_store(self, ptr, val, mask, ptr_ty, sem: str, scope: str): ...
    @abstractmethod
    def atomic_poll(self, ptr, expected, timeout, ptr_ty, result_ty, sem: str,
                    scope: str): ...
    # Tensor descriptors
    @abstractmethod
    def make_tensor_desc(self, base, shape: Sequence[Any], strides: Sequence[Any], base_ty,
                         block_ty):
        """A descriptor of the tensor at `base` with `shape` (int32 values)
        and `strides` (int64, in elements), accessed in blocks of
        `block_ty`."""
    @abstractmethod
    def desc_load(self, desc, offsets: Sequence[Any], block_ty, result_ty):
        """The block at `offsets` (int32); elements outside the tensor are 0."""
    @abstractmethod
    def desc_store(self, desc, offsets: Sequence[Any], value, block_ty):
        """Stores the block at `offsets`; elements outside are not written."""
    # Matrix products
    @abstractmethod
    def dot(self, a, b, acc, input_precision: str, max_num_imprecise_acc: int,
            a_ty, b_ty, result_ty):
        """acc + a @ b over the last two dimensions (a leading batch
        dimension is shared); `input_precision` ("tf32", "tf32x3", "ieee")
        matters for float32 operands only."""

    # Hints
    @abstractmethod
    def hint(self, h, kind: str, values: Sequence[int]):
        """Triton's hint `kind` (divisibility, contiguity, constancy; one
        value per dimension) about the value `h`, for the compiler."""

    # Synchronisation
    @abstractmethod
    def barrier(self):
        """Every thread of the program instance waits here; memory writes
        before it are visible to all its threads after it."""
    @abstractmethod
    def grid_dependency_wait(self):
        """Waits for the grids this one depends on through a programmatic
        dependent launch (nothing without one)."""
    @abstractmethod
    def grid_dependency_launch(self):
        """Lets the grids launched as this one's programmatic dependents
        start (nothing without them)."""

    # Hardware registers
    @abstractmethod
    def global_timer(self):
        """The GPU's global timer in nanoseconds, an int64 scalar; two reads
        are two values."""
    @abstractmethod
    def processor_id(self):
        """The index of the processor (SM, CU) running the program, an
        int32 scalar."""

    # Debugging
    @abstractmethod
    def print(self, prefix: str, hex: bool, args: Sequence[Tuple[Any, Any]]): ...
    @abstractmethod
    def assert_(self, cond, cond_ty, message: str): ...