"""The semantic layer: types, promotion, broadcasting and checks.

`Semantic` implements every operation of the language on `tl.tensor` values
and Python constants, following Triton's rules, and emits the result through
an abstract builder (`builder.Builder`): the IR builder (tile IR text) or the
interpreter (NumPy). It never looks at handles; the builders never look at
language rules. Errors are raised as `SemanticError` without a position; the
code generator adds the position of the node being compiled.
"""

from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

from ..errors import SemanticError, SemanticUnsupported
from ..core import lang as tl
from ..core.lang import _unwrap, block_type, dtype, pointer_type, tensor
from ..core.shape_rules import MAX_BLOCK_NUMEL, broadcast_shapes, validate_block_shape
from . import fp8
from .semantic_atomics import AtomicSemantic
from .semantic_descriptors import DescriptorSemantic
from .semantic_dot import DotSemantic
from .semantic_extern import ExternSemantic
from .semantic_shapes import ShapeSemantic
from .type_rules import (_is_py_number, _type_name, computation_type,
                         integer_promote, python_scalar_type)

_LOAD_CACHE = {"": None, ".ca": "ca", ".cg": "cg", ".cv": "cv", ".cs": "cs"}
_STORE_CACHE = {"": None, ".wb": "wb", ".cg": "cg", ".cs": "cs", ".wt": "wt"}
_EVICTION = {"": None, "evict_normal": "evict_normal", "evict_first": "evict_first",
             "evict_last": "evict_last"}

# Transcendental functions and the math-dialect op that computes them.
MATH_UNARY = ("exp", "exp2", "log", "log2", "sqrt", "sqrt_rn", "rsqrt", "sin", "cos", "floor",
              "ceil", "erf", "tanh", "log1p", "expm1", "log10", "tan", "trunc", "round")


class Semantic(AtomicSemantic, DescriptorSemantic, DotSemantic, ExternSemantic,
               ShapeSemantic):
    """Language operations over an abstract builder."""

    def __init__(self, builder, debug: bool = False, num_warps: Optional[int] = None):
        self.builder = builder
        self.debug = debug
        # The warps per program the code is generated for, where known
        # (tl.extra.cuda.num_warps); None for IR not tied to a launch.
        self.num_warps = num_warps

    # ------------------------------------------------------------------
    # Values
    # ------------------------------------------------------------------
    def _ty(self, scalar: dtype, shape: Sequence[int]):
        return block_type(scalar, shape) if shape else scalar

    def constant(self, value, ty: dtype, shape: Sequence[int] = ()) -> tensor:
        """A constant of scalar type `ty` (splat to `shape` when given)."""
        if ty.is_bool():
            value = 1 if value else 0
        elif ty.is_int():
            if isinstance(value, float):
                if value != value or value in (float("inf"), float("-inf")):
                    raise SemanticError(f"cannot convert {value} to {ty}")
                value = int(value)
            value = int(value)
            lo, hi = ty.get_int_min_value(), ty.get_int_max_value()
            if not lo <= value <= hi:
                # Wrap around like a C conversion (e.g. -1 to uint32).
                value &= (1 << ty.int_bitwidth) - 1
                if ty.is_int_signed() and value > hi:
                    value -= 1 << ty.int_bitwidth
        elif ty.is_floating():
            value = float(value)
            if ty.is_fp8():
                # A float32 constant holding the fp8 value (rounded here, once,
                # as the GPU would), converted exactly: no fp8 literals in the IR.
                exact = float(fp8.quantize(value, ty.name))
                return self.cast(self.constant(exact, tl.float32, shape), ty)
        else:
            raise SemanticError(f"cannot make a constant of type {ty}")
        full_ty = self._ty(ty, shape)
        return tensor(self.builder.constant(value, full_ty), full_ty)

    def to_tensor(self, x) -> tensor:
        x = _unwrap(x)
        if isinstance(x, tensor):
            return x
        if hasattr(x, "dtype") and hasattr(x, "item") and getattr(x, "ndim", 1) == 0:
            x = x.item()  # a NumPy scalar
        if x is None:
            raise SemanticError("cannot use None as a value (a pointer argument passed as "
                                "None is the compile-time constant None)")
        if not _is_py_number(x):
            raise SemanticError(f"cannot use {x!r} (of Python type "
                                f"{type(x).__name__}) as a value in a kernel")
        return self.constant(x, python_scalar_type(x))

    # ------------------------------------------------------------------
    # Shapes
    # ------------------------------------------------------------------
    def splat(self, x: tensor, shape: Sequence[int]) -> tensor:
        ty = block_type(x.type.scalar, shape)
        return tensor(self.builder.splat(x.handle, x.type, ty), ty)

    def expand_dims(self, x, axis) -> tensor:
        x = self.to_tensor(x)
        axes = list(axis) if isinstance(axis, (list, tuple)) else [axis]
        axes = [_unwrap(a) for a in axes]
        for a in axes:
            if not isinstance(a, int):
                raise SemanticError(f"expand_dims axis must be a constexpr int, got {a!r}")
        rank = len(x.shape) + len(axes)
        for a in axes:
            if not -rank <= a < rank:
                raise SemanticError(f"expand_dims: invalid axis {a} for a result of rank "
                                    f"{rank}")
        axes = sorted(a + rank if a < 0 else a for a in axes)
        if len(set(axes)) != len(axes):
            raise SemanticError(f"expand_dims: duplicate axes, normalized axes = {axes}")
        for a in axes:
            if not x.type.is_block():
                if a != 0:
                    raise SemanticError(f"expand_dims axis {a} is out of range for a scalar")
                x = self.splat(x, [1])
                continue
            shape = list(x.shape)
            shape.insert(a, 1)
            ty = block_type(x.type.scalar, shape)
            x = tensor(self.builder.expand_dims(x.handle, a, x.type, ty), ty)
        return x

    def broadcast_to(self, x, shape: Sequence[int]) -> tensor:
        x = self.to_tensor(x)
        shape = list(shape)
        if not x.type.is_block():
            if not shape:
                return x
            return self.splat(x, shape)
        src = list(x.shape)
        if src == shape:
            return x
        if len(src) > len(shape):
            raise SemanticError(f"cannot broadcast a block of shape {src} to the "
                                f"smaller rank shape {shape}")
        while len(src) < len(shape):
            x = self.expand_dims(x, 0)
            src = list(x.shape)
        for i, (s, d) in enumerate(zip(src, shape)):
            if s != d and s != 1:
                raise SemanticError(f"cannot broadcast shape {src} to {shape}: "
                                    f"dimension {i} is {s}, not 1 or {d}")
        if src == shape:
            return x
        ty = block_type(x.type.scalar, shape)
        return tensor(self.builder.broadcast(x.handle, x.type, ty), ty)

    def broadcast_pair(self, a, b) -> Tuple[tensor, tensor]:
        a, b = self.to_tensor(a), self.to_tensor(b)
        a_block, b_block = a.type.is_block(), b.type.is_block()
        if not a_block and not b_block:
            return a, b
        if not a_block:
            return self.splat(a, b.shape), b
        if not b_block:
            return a, self.splat(b, a.shape)
        shape = broadcast_shapes(a.shape, b.shape)
        return self.broadcast_to(a, shape), self.broadcast_to(b, shape)

    def subscript(self, x, slices) -> tensor:
        x = self.to_tensor(x)
        if not isinstance(slices, tuple):
            slices = (slices,)
        # tl.slice(start, stop, step) is the language's spelling of a slice.
        slices = tuple(slice(_unwrap(s.start), _unwrap(s.stop), _unwrap(s.step))
                       if isinstance(s, tl.slice) else s for s in slices)
        # Expand an Ellipsis to the dimensions it stands for.
        if any(s is Ellipsis for s in slices):
            i = [k for k, s in enumerate(slices) if s is Ellipsis]
            if len(i) > 1:
                raise SemanticError("only one `...` is allowed in an index")
            named = sum(1 for s in slices if isinstance(s, slice))
            fill = len(x.shape) - named
            slices = slices[:i[0]] + (slice(None),) * fill + slices[i[0] + 1:]
        for s in slices:
            s = _unwrap(s)
            if not (s is None or (isinstance(s, slice) and s == slice(None, None, None))):
                raise SemanticUnsupported(
                    f"unsupported tensor index: {s!r}; only `None` (new axis) and `:` "
                    "are supported")
        # As in Triton, `:` leaves the value alone, also past its rank (a
        # scalar pointer indexed [None, None, :] is a 1 x 1 block); `None`
        # at position k is a new axis k.
        out_dim = 0
        for s in slices:
            s = _unwrap(s)
            if s is None:
                x = self.expand_dims(x, out_dim)
            out_dim += 1
        return x

    # ------------------------------------------------------------------
    # Conversions
    # ------------------------------------------------------------------
    def cast(self, x, dst, rounding: Optional[str] = None, bitcast: bool = False) -> tensor:
        x = self.to_tensor(x)
        dst = _unwrap(dst)
        if not isinstance(dst, dtype):
            raise SemanticError(f"cannot convert to {dst!r}: not a dtype")
        dst_sca = dst.scalar
        src_sca = x.type.scalar
        if bitcast:
            return self.bitcast(x, dst_sca)
        if src_sca == dst_sca:
            return x
        if src_sca.is_void() or dst_sca.is_void():
            raise SemanticError("cannot convert to or from void")
        if rounding is not None and rounding not in ("rtne", "rtz"):
            raise SemanticError(f"unknown rounding mode {rounding!r} (use 'rtne' or 'rtz')")
        shape = x.shape
        b = self.builder

        def emit(op, value, to_sca, **kw):
            to_ty = self._ty(to_sca, shape)
            return tensor(b.cast(op, value.handle, value.type, to_ty, **kw), to_ty)

        if src_sca.is_fp8() or dst_sca.is_fp8():
            return self._cast_fp8(x, src_sca, dst_sca, rounding, emit)

        # float -> float
        if src_sca.is_floating() and dst_sca.is_floating():
            narrowing = dst_sca.primitive_bitwidth < src_sca.primitive_bitwidth or \
                dst_sca.primitive_bitwidth == src_sca.primitive_bitwidth
            if rounding == "rtz" and narrowing:
                raise SemanticUnsupported("round-toward-zero float conversions are not "
                                          "supported yet")
            if src_sca.is_bf16() or dst_sca.is_bf16():
                return emit("fp_to_fp", x, dst_sca,
                            rounding="rtne" if narrowing else None)
            if dst_sca.primitive_bitwidth > src_sca.primitive_bitwidth:
                return emit("extf", x, dst_sca)
            return emit("truncf", x, dst_sca)
        # int -> int
        if src_sca.is_int() and dst_sca.is_int():
            if dst_sca.is_bool():
                return self.compare("ne", x, 0)
            if src_sca.int_bitwidth == dst_sca.int_bitwidth:
                return emit("int_sign", x, dst_sca)
            if src_sca.int_bitwidth < dst_sca.int_bitwidth:
                return emit("extsi" if src_sca.is_int_signed() else "extui", x, dst_sca)
            return emit("trunci", x, dst_sca)
        # float -> int
        if src_sca.is_floating() and dst_sca.is_int():
            if dst_sca.is_bool():
                return self.compare("ne", x, 0.0)
            if src_sca.is_bf16():
                x = emit("fp_to_fp", x, tl.float32)
            return emit("fptosi" if dst_sca.is_int_signed() else "fptoui", x, dst_sca)
        # int -> float
        if src_sca.is_int() and dst_sca.is_floating():
            op = "sitofp" if src_sca.is_int_signed() else "uitofp"
            if dst_sca.is_bf16():
                wide = emit(op, x, tl.float32)
                return emit("fp_to_fp", wide, dst_sca, rounding="rtne")
            return emit(op, x, dst_sca)
        # pointers
        if src_sca.is_ptr() and dst_sca.is_int():
            if dst_sca.is_bool():
                as_int = emit("ptr_to_int", x, tl.int64)
                return self.compare("ne", as_int, 0)
            if dst_sca.int_bitwidth != 64:
                raise SemanticError(f"pointers convert to 64-bit integers only, not {dst_sca}")
            return emit("ptr_to_int", x, dst_sca)
        if src_sca.is_int() and dst_sca.is_ptr():
            # Any integer, as in Triton (LLVM's inttoptr): a narrower one is
            # zero-extended to 64 bits first.
            if src_sca.int_bitwidth < 64:
                x = emit("extui", x, tl.uint64)
            return emit("int_to_ptr", x, dst_sca)
        if src_sca.is_ptr() and dst_sca.is_ptr():
            return emit("bitcast", x, dst_sca)
        raise SemanticError(f"cannot convert {src_sca} to {dst_sca}")

    def _cast_fp8(self, x: tensor, src_sca: dtype, dst_sca: dtype, rounding, emit) -> tensor:
        """Conversions with fp8 on either side, as Triton's fp_to_fp: to fp8
        rounds to nearest even and saturates to the largest finite value
        (cvt.rn.satfinite); from fp8 is exact. Integers and pointers go
        through float32."""
        if src_sca.is_ptr() or dst_sca.is_ptr():
            raise SemanticError(f"cannot convert {src_sca} to {dst_sca}")
        if src_sca.is_int():
            return self.cast(self.cast(x, tl.float32), dst_sca)
        if dst_sca.is_int():
            return self.cast(self.cast(x, tl.float32), dst_sca)
        if dst_sca.is_fp8():
            if src_sca.is_fp64():
                raise SemanticUnsupported(
                    f"conversions from float64 to {tl._PUBLIC_NAMES[dst_sca.name]} are not "
                    "supported (no single-rounding instruction); convert to float32 first")
            if rounding == "rtz":
                raise SemanticUnsupported(
                    f"conversions to {tl._PUBLIC_NAMES[dst_sca.name]} round to nearest even "
                    "only (fp_downcast_rounding='rtz' is not supported)")
            if fp8.is_software(dst_sca):  # integer operations (fp8.py)
                return fp8.emit_encode(self, self.cast(x, tl.float32), dst_sca.name, dst_sca)
            if fp8.is_software(src_sca):
                return self.cast(fp8.emit_decode(self, x, src_sca.name), dst_sca)
            return emit("fp_to_fp", x, dst_sca, rounding="rtne")
        if fp8.is_software(src_sca):
            return self.cast(fp8.emit_decode(self, x, src_sca.name), dst_sca)
        return emit("fp_to_fp", x, dst_sca)  # exact

    def bitcast(self, x, dst_sca: dtype) -> tensor:
        x = self.to_tensor(x)
        src_sca = x.type.scalar
        if src_sca == dst_sca:
            return x
        if src_sca.is_ptr() != dst_sca.is_ptr():
            raise SemanticError(f"cannot bitcast between {src_sca} and {dst_sca}; use "
                                ".to(tl.int64) / .to(pointer_type) for pointers")
        if src_sca.primitive_bitwidth != dst_sca.primitive_bitwidth:
            raise SemanticError(
                f"cannot bitcast {src_sca} ({src_sca.primitive_bitwidth} bits) to "
                f"{dst_sca} ({dst_sca.primitive_bitwidth} bits): widths differ")
        ty = self._ty(dst_sca, x.shape)
        if src_sca.is_int() and dst_sca.is_int():
            return tensor(self.builder.cast("int_sign", x.handle, x.type, ty), ty)
        return tensor(self.builder.cast("bitcast", x.handle, x.type, ty), ty)

    # ------------------------------------------------------------------
    # Binary operations
    # ------------------------------------------------------------------
    def _prep(self, a, b, allow_lhs_ptr=False, allow_rhs_ptr=False, arithmetic=True,
              div_or_mod=False) -> Tuple[tensor, tensor]:
        """Converts Python scalars, checks pointer use, promotes to the
        computation type and broadcasts."""
        a, b = _unwrap(a), _unwrap(b)
        a_py = not isinstance(a, tensor)
        b_py = not isinstance(b, tensor)
        if a_py and not _is_py_number(a):
            self.to_tensor(a)  # raises with a clear message
        if b_py and not _is_py_number(b):
            self.to_tensor(b)
        a_sca = python_scalar_type(a) if a_py else a.type.scalar
        b_sca = python_scalar_type(b) if b_py else b.type.scalar
        if a_sca.is_ptr() and not allow_lhs_ptr:
            raise SemanticError(f"this operation does not accept a pointer "
                                f"({_type_name(a)}) on its left side")
        if b_sca.is_ptr() and not allow_rhs_ptr:
            raise SemanticError(f"this operation does not accept a pointer "
                                f"({_type_name(b)}) on its right side")
        if a_sca.is_ptr() and b_sca.is_floating() or b_sca.is_ptr() and a_sca.is_floating():
            raise SemanticError(f"pointer arithmetic needs integer offsets, got "
                                f"{a_sca if a_sca.is_floating() else b_sca}")
        if arithmetic and not a_sca.is_ptr() and not b_sca.is_ptr():
            ret = computation_type(a_sca, a_py, b_sca, b_py, div_or_mod)
            for val, is_py in ((a, a_py), (b, b_py)):
                if is_py and ret.is_int():
                    v = int(val)
                    if v < 0 and ret.is_int_unsigned():
                        raise SemanticError(
                            f"cannot combine the negative constant {v} with an unsigned "
                            f"{ret} value: cast one of them explicitly")
                    if not ret.get_int_min_value() <= v <= ret.get_int_max_value():
                        raise SemanticError(f"constant {v} is out of range for {ret}")
            other_shape_a = b.shape if not b_py else []
            other_shape_b = a.shape if not a_py else []
            a = self.constant(a, ret, other_shape_a) if a_py else self.cast(a, ret)
            b = self.constant(b, ret, other_shape_b) if b_py else self.cast(b, ret)
        else:
            if a_py:
                a = self.constant(a, a_sca, b.shape if not b_py else [])
            if b_py:
                b = self.constant(b, b_sca, a.shape if not a_py else [])
        return self.broadcast_pair(a, b)

    def _fp8_in_fp32(self, *xs: tensor) -> Tuple[tensor, ...]:
        """fp8 operands in float32: there are no fp8 arithmetic
        instructions, so an fp8 result is computed in float32 (exactly, for
        +, -, * and comparisons of fp8 values) and rounded once to its fp8 type."""
        return tuple(self.cast(x, tl.float32) for x in xs)

    def _arith(self, fop, iop, a: tensor, b: tensor, uop=None) -> tensor:
        sca = a.type.scalar
        if sca.is_fp8():
            if fop is None:
                raise SemanticError(f"this operation is not defined on {sca}")
            a32, b32 = self._fp8_in_fp32(a, b)
            op = "divf" if fop in ("divf_approx", "divf_fast") else fop
            r = tensor(self.builder.binary(op, a32.handle, b32.handle, a32.type), a32.type)
            return self.cast(r, sca)
        if sca.is_floating():
            if fop is None:
                raise SemanticError(f"this operation is not defined on {sca}")
            op = fop
        else:
            op = uop if (uop is not None and sca.is_int_unsigned()) else iop
        return tensor(self.builder.binary(op, a.handle, b.handle, a.type), a.type)

    def addptr(self, ptr: tensor, offset: tensor) -> tensor:
        off_sca = offset.type.scalar
        if not off_sca.is_int():
            raise SemanticError(f"pointer offsets must be integers, got {off_sca}")
        if off_sca.is_bool():
            offset = self.cast(offset, tl.int32)
        elif off_sca.is_int_unsigned():
            # Offsets are signed in addptr; widen unsigned ones to int64 so
            # that no value turns negative.
            offset = self.cast(offset, tl.int64)
        elif off_sca.int_bitwidth < 32:
            offset = self.cast(offset, tl.int32)
        ptr, offset = self.broadcast_pair(ptr, offset)
        return tensor(self.builder.addptr(ptr.handle, offset.handle, ptr.type, offset.type),
                      ptr.type)

    def add(self, a, b) -> tensor:
        a, b = self._prep(a, b, allow_lhs_ptr=True, allow_rhs_ptr=True)
        if a.type.scalar.is_ptr() and b.type.scalar.is_ptr():
            raise SemanticError("cannot add two pointers")
        if b.type.scalar.is_ptr():
            a, b = b, a
        if a.type.scalar.is_ptr():
            return self.addptr(a, b)
        return self._arith("addf", "addi", a, b)

    def sub(self, a, b) -> tensor:
        a, b = self._prep(a, b, allow_lhs_ptr=True)
        if a.type.scalar.is_ptr():
            if b.type.scalar.is_ptr():
                raise SemanticUnsupported("subtracting two pointers is not supported yet")
            return self.addptr(a, self.neg(b))
        return self._arith("subf", "subi", a, b)

    def mul(self, a, b) -> tensor:
        a, b = self._prep(a, b)
        return self._arith("mulf", "muli", a, b)

    def truediv(self, a, b, ieee_rounding: bool = False, approx: bool = False) -> tensor:
        """`/`: float32 division to within 2 ulp unless `ieee_rounding`
        (as Triton's `/`, `tl.fdiv` and `tl.div_rn`), the fastest one with
        `approx` (tl.fdiv(approx=True)); exact elsewhere."""
        if approx and ieee_rounding:
            raise SemanticError("tl.fdiv: approx=True and ieee_rounding=True contradict "
                                "each other")
        a, b = self._prep(a, b, div_or_mod=True)
        a_sca, b_sca = a.type.scalar, b.type.scalar
        if a_sca.is_int() and b_sca.is_int():
            a, b = self.cast(a, tl.float32), self.cast(b, tl.float32)
        elif a_sca.is_floating() and b_sca.is_floating() and a_sca != b_sca:
            if a_sca.fp_mantissa_width > b_sca.fp_mantissa_width:
                b = self.cast(b, a_sca)
            else:
                a = self.cast(a, b_sca)
        if a.type.scalar != tl.float32 or ieee_rounding:
            return self._arith("divf", None, a, b)
        return self._arith("divf_fast" if approx else "divf_approx", None, a, b)

    def floordiv(self, a, b) -> tensor:
        a, b = self._prep(a, b, div_or_mod=True)
        if not a.type.scalar.is_int():
            raise SemanticError(f"`//` is defined on integers only, not {a.type.scalar}; "
                                "use `/` and tl.floor for floats")
        return self._arith(None, "divsi", a, b, uop="divui")

    def mod(self, a, b) -> tensor:
        a, b = self._prep(a, b, div_or_mod=True)
        return self._arith("remf", "remsi", a, b, uop="remui")

    def _bitwise_prep(self, a, b, what: str) -> Tuple[tensor, tensor]:
        """Integer operands of a bitwise op in one type. As in Triton, a
        Python integer takes the other operand's integer type (uint16 << 7
        is uint16), if it fits."""
        types = []
        for x in (_unwrap(a), _unwrap(b)):
            if isinstance(x, tensor):
                types.append(x.type.scalar)
            elif _is_py_number(x):
                types.append(python_scalar_type(x))
        if len(types) == 2 and not any(t.is_ptr() for t in types) and \
                not all(t.is_int() for t in types):
            raise SemanticError(f"invalid operands of type {types[0]} and {types[1]} for "
                                f"`{what}`, which is defined on integers only")
        a, b = self._prep(a, b)
        ret = integer_promote(a.type.scalar, b.type.scalar)
        return self.cast(a, ret), self.cast(b, ret)

    def and_(self, a, b) -> tensor:
        a, b = self._bitwise_prep(a, b, "&")
        return self._arith(None, "andi", a, b)

    def or_(self, a, b) -> tensor:
        a, b = self._bitwise_prep(a, b, "|")
        return self._arith(None, "ori", a, b)

    def xor_(self, a, b) -> tensor:
        a, b = self._bitwise_prep(a, b, "^")
        return self._arith(None, "xori", a, b)

    def shl(self, a, b) -> tensor:
        a, b = self._bitwise_prep(a, b, "<<")
        return self._arith(None, "shli", a, b)

    def shr(self, a, b) -> tensor:
        # As in Triton, the left operand's own signedness picks the shift:
        # int8 >> uint8 computes in uint8 (the usual conversions) but shifts
        # arithmetically, as the int8 value would.
        left = _unwrap(a)
        signed = isinstance(left, tensor) and left.type.scalar.is_int_signed()
        a, b = self._bitwise_prep(a, b, ">>")
        if signed:
            return tensor(self.builder.binary("shrsi", a.handle, b.handle, a.type), a.type)
        return self._arith(None, "shrsi", a, b, uop="shrui")

    def logical_and(self, a, b) -> tensor:
        return self.and_(self.cast(a, tl.int1), self.cast(b, tl.int1))

    def logical_or(self, a, b) -> tensor:
        return self.or_(self.cast(a, tl.int1), self.cast(b, tl.int1))

    def logical_not(self, a) -> tensor:
        a = self.cast(a, tl.int1)
        return self.xor_(a, self.constant(1, tl.int1, a.shape))

    def compare(self, op: str, a, b) -> tensor:
        a, b = self._prep(a, b, allow_lhs_ptr=True, allow_rhs_ptr=True)
        a_sca, b_sca = a.type.scalar, b.type.scalar
        if a_sca.is_ptr() or b_sca.is_ptr():
            if not (a_sca.is_ptr() and b_sca.is_ptr()):
                raise SemanticError(f"cannot compare {a_sca} with {b_sca}")
            a, b = self.cast(a, tl.int64), self.cast(b, tl.int64)
            a_sca = tl.uint64
        if a_sca.is_fp8():
            a, b = self._fp8_in_fp32(a, b)
        if a_sca.is_floating():
            pred = {"lt": "olt", "le": "ole", "gt": "ogt", "ge": "oge", "eq": "oeq",
                    "ne": "une"}[op]
        elif a_sca.is_int_signed():
            pred = {"lt": "slt", "le": "sle", "gt": "sgt", "ge": "sge", "eq": "eq",
                    "ne": "ne"}[op]
        else:
            pred = {"lt": "ult", "le": "ule", "gt": "ugt", "ge": "uge", "eq": "eq",
                    "ne": "ne"}[op]
        res_ty = self._ty(tl.int1, a.shape)
        return tensor(self.builder.compare(pred, a.handle, b.handle, a.type, res_ty), res_ty)

    def minmax(self, kind: str, a, b, propagate_nan=0) -> tensor:
        a, b = self._prep(a, b)
        sca = a.type.scalar
        if sca.is_fp8():
            a32, b32 = self._fp8_in_fp32(a, b)
            return self.cast(self.minmax(kind, a32, b32, propagate_nan), sca)
        if sca.is_floating():
            if propagate_nan:
                op = "minimumf" if kind == "min" else "maximumf"
            else:
                op = "minnumf" if kind == "min" else "maxnumf"
        elif sca.is_int_signed():
            op = "minsi" if kind == "min" else "maxsi"
        else:
            op = "minui" if kind == "min" else "maxui"
        return tensor(self.builder.binary(op, a.handle, b.handle, a.type), a.type)

    def umulhi(self, a, b) -> tensor:
        """The high half of the 2N-bit product of two N-bit integers (32 or 64
        bits, of one type after promotion, both read as unsigned), of that
        type. 32 bits: a widening multiply and a shift (PTX mul.hi.u32);
        64 bits: from four 32 x 32 -> 64-bit partial products."""
        a, b = self._prep(a, b)
        sca = a.type.scalar
        if not sca.is_int() or sca.is_bool() or sca.int_bitwidth not in (32, 64):
            raise SemanticError(f"tl.umulhi expects 32-bit or 64-bit integers, got {sca}")
        if sca.int_bitwidth == 32:
            wide = self.mul(self.cast(self.bitcast(a, tl.uint32), tl.uint64),
                            self.cast(self.bitcast(b, tl.uint32), tl.uint64))
            return self.bitcast(self.cast(self.shr(wide, 32), tl.uint32), sca)
        a, b = self.bitcast(a, tl.uint64), self.bitcast(b, tl.uint64)
        low = 0xFFFFFFFF
        a0, a1 = self.and_(a, low), self.shr(a, 32)
        b0, b1 = self.and_(b, low), self.shr(b, 32)
        p00, p01 = self.mul(a0, b0), self.mul(a0, b1)
        p10, p11 = self.mul(a1, b0), self.mul(a1, b1)
        # The carry out of the middle 32-bit column.
        middle = self.add(self.add(self.shr(p00, 32), self.and_(p01, low)),
                          self.and_(p10, low))
        high = self.add(self.add(p11, self.shr(p01, 32)),
                        self.add(self.shr(p10, 32), self.shr(middle, 32)))
        return self.bitcast(high, sca)

    # ------------------------------------------------------------------
    # Unary operations
    # ------------------------------------------------------------------
    def neg(self, x) -> tensor:
        x = self.to_tensor(x)
        sca = x.type.scalar
        if sca.is_ptr():
            raise SemanticError("cannot negate a pointer")
        if sca.is_fp8():
            (x32,) = self._fp8_in_fp32(x)
            return self.cast(self.neg(x32), sca)
        if sca.is_floating():
            return tensor(self.builder.unary("negf", x.handle, x.type), x.type)
        return self.sub(self.constant(0, sca, x.shape), x)

    def invert(self, x) -> tensor:
        x = self.to_tensor(x)
        sca = x.type.scalar
        if not sca.is_int():
            raise SemanticError(f"`~` is defined on integers only, not {sca}")
        ones = self.constant(-1 if not sca.is_bool() else 1, sca, x.shape)
        return tensor(self.builder.binary("xori", x.handle, ones.handle, x.type), x.type)

    def _float_compute(self, x) -> Tuple[tensor, Optional[dtype]]:
        """x in a type transcendental functions take (fp32 for 16-bit and fp8
        floats), and the type to round the result back to."""
        sca = x.type.scalar
        if sca.is_fp16() or sca.is_bf16() or sca.is_fp8():
            return self.cast(x, tl.float32), sca
        return x, None

    def math_unary(self, name: str, x) -> tensor:
        x = self.to_tensor(x)
        sca = x.type.scalar
        if not sca.is_floating():
            raise SemanticError(f"tl.{name} expects floating-point values, got {sca}; "
                                f"convert first, e.g. x.to(tl.float32)")
        x, back = self._float_compute(x)
        r = tensor(self.builder.unary(name, x.handle, x.type), x.type)
        return self.cast(r, back) if back is not None else r

    def abs(self, x) -> tensor:
        x = self.to_tensor(x)
        sca = x.type.scalar
        if sca.is_fp8():
            # The sign bit cleared (no fp8 arithmetic); 0x80, the only NaN of
            # the formats without negative zero, stays.
            bits = self.bitcast(x, tl.uint8)
            magnitude = self.and_(bits, self.constant(0x7F, tl.uint8))
            if sca.name in ("fp8e4b8", "fp8e5b16"):
                nan = self.compare("eq", bits, self.constant(0x80, tl.uint8))
                magnitude = self.where(nan, bits, magnitude)
            return self.bitcast(magnitude, sca)
        if sca.is_floating():
            return tensor(self.builder.unary("absf", x.handle, x.type), x.type)
        if sca.is_int_signed():
            return tensor(self.builder.unary("absi", x.handle, x.type), x.type)
        if sca.is_int():
            return x
        raise SemanticError(f"abs is not defined on {sca}")

    def fma(self, x, y, z) -> tensor:
        x, y = self._prep(x, y)
        z, x = self._prep(z, x)
        z, y = self._prep(z, y)
        x, y = self.broadcast_pair(x, y)
        sca = x.type.scalar
        if not sca.is_floating():
            raise SemanticError(f"tl.fma expects floating-point values, got {sca}")
        if sca.is_fp8():
            x, y, z = self._fp8_in_fp32(x, y, z)
            return self.cast(self.fma(x, y, z), sca)
        return tensor(self.builder.fma(x.handle, y.handle, z.handle, x.type), x.type)

    def sigmoid(self, x) -> tensor:
        x = self.to_tensor(x)
        if not x.type.scalar.is_floating():
            raise SemanticError(f"tl.sigmoid expects floating-point values, got "
                                f"{x.type.scalar}")
        x, back = self._float_compute(x)
        e = self.math_unary("exp", self.neg(x))
        r = self.truediv(1.0, self.add(1.0, e))
        return self.cast(r, back) if back is not None else r

    def pow(self, x, y) -> tensor:
        x, y = self._prep(x, y)
        if not x.type.scalar.is_floating():
            raise SemanticError(f"pow expects floating-point values, got {x.type.scalar}")
        x, back = self._float_compute(x)
        y, _ = self._float_compute(y)
        r = tensor(self.builder.binary("powf", x.handle, y.handle, x.type), x.type)
        return self.cast(r, back) if back is not None else r

    def where(self, cond, x, y) -> tensor:
        cond = self.to_tensor(cond)
        if not cond.type.scalar.is_bool():
            cond = self.cast(cond, tl.int1)
        xu, yu = _unwrap(x), _unwrap(y)
        if isinstance(xu, tensor) and isinstance(yu, tensor) and xu.type.scalar.is_fp8() \
                and xu.type.scalar == yu.type.scalar:
            x, y = self.broadcast_pair(xu, yu)  # selecting needs no arithmetic type
        else:
            x, y = self._prep(x, y, allow_lhs_ptr=True, allow_rhs_ptr=True)
        if x.type.scalar != y.type.scalar:
            raise SemanticError(f"tl.where branches have different types: "
                                f"{x.type.scalar} and {y.type.scalar}")
        shape = broadcast_shapes(cond.shape, x.shape) if (cond.shape or x.shape) else []
        if shape:
            cond = self.broadcast_to(cond, shape)
            x = self.broadcast_to(x, shape)
            y = self.broadcast_to(y, shape)
        if x.type.scalar.is_ptr():
            # The backend cannot lower arith.select on pointers yet: select
            # the addresses as int64.
            ptr_sca = x.type.scalar
            xi, yi = self.cast(x, tl.int64), self.cast(y, tl.int64)
            r = tensor(self.builder.select(cond.handle, xi.handle, yi.handle, cond.type,
                                           xi.type), xi.type)
            return self.cast(r, ptr_sca)
        return tensor(self.builder.select(cond.handle, x.handle, y.handle, cond.type, x.type),
                      x.type)

    # ------------------------------------------------------------------
    # Grid, creation
    # ------------------------------------------------------------------
    # ------------------------------------------------------------------
    # Reductions
    # ------------------------------------------------------------------
    #: Set by the code generator: inline_jit(jit function, argument tensors,
    #: elementwise=False) visits the function's body at the current
    #: insertion point and returns what it returns (`elementwise`: runtime
    #: control flow on blocks runs element-wise, for tl.map_elementwise).
    inline_jit = None

    def _reduce_axis(self, x: tensor, axis) -> int:
        axis = _unwrap(axis)
        if isinstance(axis, bool) or not isinstance(axis, int):
            raise SemanticError(f"reduction axis must be a constexpr int or None, got {axis!r}")
        rank = len(x.shape)
        if not -rank <= axis < rank:
            raise SemanticError(f"reduction axis {axis} is out of range for a block of "
                                f"rank {rank} (shape {list(x.shape)})")
        return axis + rank if axis < 0 else axis

    def _combine_call(self, combine_fn, args: List[tensor]):
        fn = _unwrap(combine_fn)
        if getattr(fn, "_terrazzo_jit_function", False):
            if self.inline_jit is None:
                raise SemanticError("a @jit combine function cannot be called here")
            return self.inline_jit(fn, args)
        if not callable(fn):
            raise SemanticError(f"the combine function of a reduction must be a @jit "
                                f"function, got {fn!r}")
        return fn(*args)

    def reduce(self, inputs, axis, combine_fn, keep_dims: bool = False):
        """Reduces one tensor or a tuple of tensors of one shape along `axis`
        (None: all axes) with `combine_fn(*accumulators, *new_values)`.
        Returns a tensor, or a tuple when `inputs` is a tuple."""
        single = not isinstance(_unwrap(inputs), (tuple, list))
        xs = [self.to_tensor(x) for x in ([inputs] if single else _unwrap(inputs))]
        if not xs:
            raise SemanticError("tl.reduce needs at least one input")
        for x in xs:
            if not x.type.is_block():
                raise SemanticError(f"cannot reduce a scalar ({_type_name(x)})")
            if x.shape != xs[0].shape:
                raise SemanticError(f"tl.reduce inputs must have one shape, got "
                                    f"{xs[0].shape} and {x.shape}")
        keep_dims = bool(_unwrap(keep_dims))
        axis = _unwrap(axis)
        if axis is None:
            rank = len(xs[0].shape)
            for a in reversed(range(rank)):
                xs = self._reduce_one(xs, a, combine_fn)
            if keep_dims:
                xs = [self.expand_dims(x, list(range(rank))) for x in xs]
        else:
            a = self._reduce_axis(xs[0], axis)
            xs = self._reduce_one(xs, a, combine_fn)
            if keep_dims:
                xs = [self.expand_dims(x, a) for x in xs]
        return xs[0] if single else tuple(xs)

    def _scalar_combine(self, combine_fn, elts, what: str):
        """The builder's `combine` callback for a reduce or scan of operands
        with scalar types `elts`: calls `combine_fn` on the accumulators and
        the new values, checks it returns one scalar per operand, casts
        them to the operands' types and returns their handles."""
        n = len(elts)

        def combine(accs, news):
            args = [tensor(h, e) for h, e in zip(accs, elts)] + \
                   [tensor(h, e) for h, e in zip(news, elts)]
            out = self._combine_call(combine_fn, args)
            out = list(_unwrap(out)) if isinstance(_unwrap(out), (tuple, list)) else [out]
            if len(out) != n:
                raise SemanticError(f"the combine function returned {len(out)} value(s) "
                                    f"for {what} of {n} input(s)")
            handles = []
            for v, e in zip(out, elts):
                v = self.to_tensor(v)
                if v.type.is_block():
                    raise SemanticError(f"the combine function must return scalars, got "
                                        f"{_type_name(v)}")
                if v.type.scalar != e:
                    v = self.cast(v, e)
                handles.append(v.handle)
            return handles
        return combine

    def _reduce_one(self, xs: List[tensor], axis: int, combine_fn) -> List[tensor]:
        shape = list(xs[0].shape)
        del shape[axis]
        elts = [x.type.scalar for x in xs]
        res_tys = [self._ty(e, shape) for e in elts]
        combine = self._scalar_combine(combine_fn, elts, "a reduction")
        hs = self.builder.reduce([(x.handle, x.type) for x in xs], axis, res_tys, combine)
        return [tensor(h, t) for h, t in zip(hs, res_tys)]

    # ------------------------------------------------------------------
    # Scans
    # ------------------------------------------------------------------
    def associative_scan(self, inputs, axis, combine_fn, reverse=False):
        """The inclusive scan of one tensor or a tuple of tensors of one shape
        along `axis` with `combine_fn(*accumulators, *new_values)` (the
        accumulators hold the earlier elements: the later ones with
        `reverse`). Returns a tensor, or a tuple when `inputs` is a tuple."""
        single = not isinstance(_unwrap(inputs), (tuple, list))
        xs = [self.to_tensor(x) for x in ([inputs] if single else _unwrap(inputs))]
        if not xs:
            raise SemanticError("tl.associative_scan needs at least one input")
        for x in xs:
            if not x.type.is_block():
                raise SemanticError(f"cannot scan a scalar ({_type_name(x)})")
            if x.shape != xs[0].shape:
                raise SemanticError(f"tl.associative_scan inputs must have one shape, got "
                                    f"{xs[0].shape} and {x.shape}")
        axis = _unwrap(axis)
        if isinstance(axis, bool) or not isinstance(axis, int):
            raise SemanticError(f"scan axis must be a constexpr int, got {axis!r}")
        rank = len(xs[0].shape)
        if not -rank <= axis < rank:
            raise SemanticError(f"scan axis {axis} is out of range for a block of rank "
                                f"{rank} (shape {list(xs[0].shape)})")
        axis = axis + rank if axis < 0 else axis
        reverse = _unwrap(reverse)
        if not isinstance(reverse, (bool, int)):
            raise SemanticError(f"scan's reverse must be a constexpr bool, got {reverse!r}")
        combine = self._scalar_combine(combine_fn, [x.type.scalar for x in xs], "a scan")
        tys = [x.type for x in xs]
        hs = self.builder.scan([(x.handle, x.type) for x in xs], axis, bool(reverse), tys,
                               combine)
        ys = [tensor(h, t) for h, t in zip(hs, tys)]
        return ys[0] if single else tuple(ys)

    def cumsum(self, x, axis=0, reverse=False, dtype_=None) -> tensor:
        """As Triton: bf16 sums as fp32 (and returns fp32); integers
        narrower than 32 bits as int32/uint32; `dtype` picks the type."""
        x = self.to_tensor(x)
        if x.type.scalar.is_ptr():
            raise SemanticError("cannot take the cumulative sum of pointers")
        if x.type.scalar.is_bf16():
            x = self.cast(x, tl.float32)
        sca = x.type.scalar
        dtype_ = _unwrap(dtype_)
        if dtype_ is not None:
            x = self.cast(x, dtype_)
        elif sca.is_int() and sca.int_bitwidth < 32:
            x = self.cast(x, tl.int32 if sca.is_int_signed() else tl.uint32)
        return self.associative_scan(x, axis, lambda a, b: self.add(a, b), reverse)

    def cumprod(self, x, axis=0, reverse=False) -> tensor:
        """As Triton: bf16 multiplies as fp32 (and returns fp32)."""
        x = self.to_tensor(x)
        if x.type.scalar.is_ptr():
            raise SemanticError("cannot take the cumulative product of pointers")
        if x.type.scalar.is_bf16():
            x = self.cast(x, tl.float32)
        return self.associative_scan(x, axis, lambda a, b: self.mul(a, b), reverse)

    def _index_block(self, x: tensor, axis) -> tensor:
        """int32 indices of `x`'s elements along `axis` (None: flat row-major
        indices), broadcast to x's shape."""
        shape = list(x.shape)
        axes = range(len(shape)) if axis is None else [axis]
        total = None
        stride = 1
        for a in reversed(list(axes)):
            r = self.arange(0, shape[a])
            if len(shape) > 1:
                r = self.expand_dims(r, [d for d in range(len(shape)) if d != a])
            if stride != 1:
                r = self.mul(r, stride)
            stride *= shape[a]
            total = r if total is None else self.add(total, r)
        return self.broadcast_to(total, shape)

    def sum(self, x, axis, keep_dims, dtype_=None) -> tensor:
        x = self.to_tensor(x)
        sca = x.type.scalar
        dtype_ = _unwrap(dtype_)
        back = None
        if dtype_ is not None:
            x = self.cast(x, dtype_)
        elif sca.is_int() and sca.int_bitwidth < 32:
            x = self.cast(x, tl.int32 if sca.is_int_signed() else tl.uint32)
        elif sca.is_fp16() or sca.is_bf16():
            # Accumulate in fp32, return the input's type.
            x, back = self.cast(x, tl.float32), sca
        r = self.reduce(x, axis, lambda a, b: self.add(a, b), keep_dims)
        return self.cast(r, back) if back is not None else r

    def xor_sum(self, x, axis, keep_dims) -> tensor:
        x = self.to_tensor(x)
        if not x.type.scalar.is_int():
            raise SemanticError(f"xor_sum needs integers, got {_type_name(x)}")
        return self.reduce(x, axis, lambda a, b: self.xor_(a, b), keep_dims)

    def _arg_combine(self, kind: str, tie_break_left: bool):
        def combine(v1, i1, v2, i2):
            better = self.compare("gt" if kind == "max" else "lt", v1, v2)
            if tie_break_left:
                tie = self.logical_and(self.compare("eq", v1, v2), self.compare("lt", i1, i2))
                better = self.logical_or(better, tie)
            return self.where(better, v1, v2), self.where(better, i1, i2)
        return combine

    def minmax_reduce(self, kind: str, x, axis, return_indices=False,
                      tie_break_left=True, keep_dims=False):
        x = self.to_tensor(x)
        sca = x.type.scalar
        if sca.is_ptr():
            raise SemanticError(f"cannot take the {kind} of pointers")
        if _unwrap(return_indices):
            return self.arg_reduce(kind, x, axis, _unwrap(tie_break_left), keep_dims,
                                   values=True)
        if sca.primitive_bitwidth < 32:
            x = self.cast(x, tl.float32 if sca.is_floating() else tl.int32)
        return self.reduce(x, axis, lambda a, b: self.minmax(kind, a, b), keep_dims)

    def arg_reduce(self, kind: str, x, axis, tie_break_left=True, keep_dims=False,
                   values=False):
        x = self.to_tensor(x)
        if not x.type.is_block():
            raise SemanticError(f"cannot reduce a scalar ({_type_name(x)})")
        axis = _unwrap(axis)
        if axis is not None:
            axis = self._reduce_axis(x, axis)
        idx = self._index_block(x, axis)
        v, i = self.reduce((x, idx), axis, self._arg_combine(kind, bool(tie_break_left)),
                           keep_dims)
        return (v, i) if values else i

    def program_id(self, axis) -> tensor:
        if axis not in (0, 1, 2):
            raise SemanticError(f"program_id axis must be 0, 1, or 2 but got {axis!r}")
        return tensor(self.builder.program_id(axis), tl.int32)

    def num_programs(self, axis) -> tensor:
        if axis not in (0, 1, 2):
            raise SemanticError(f"num_programs axis must be 0, 1 or 2, got {axis!r}")
        return tensor(self.builder.num_programs(axis), tl.int32)

    def arange(self, start, end) -> tensor:
        start, end = _unwrap(start), _unwrap(end)
        for name, v in (("start", start), ("end", end)):
            if isinstance(v, tensor):
                raise SemanticError(
                    f"arange's {name} must be a compile-time constant (tl.constexpr), "
                    "not a runtime value")
            if not isinstance(v, int) or isinstance(v, bool):
                raise SemanticError(f"arange's {name} must be an integer, got {v!r}")
        if not (-(1 << 31) <= start < (1 << 31) and -(1 << 31) <= end < (1 << 31)):
            raise SemanticError("arange's bounds must fit in int32")
        n = end - start
        if n <= 0:
            raise SemanticError(f"arange needs end > start, got [{start}, {end})")
        if n & (n - 1):
            raise SemanticError(f"arange's length (end - start) must be a power of two, "
                                f"got {n}")
        if n > MAX_BLOCK_NUMEL:
            raise SemanticError(f"arange's length must be at most {MAX_BLOCK_NUMEL}, got {n}")
        ty = block_type(tl.int32, [n])
        return tensor(self.builder.make_range(start, end, ty), ty)

    def full(self, shape, value, dtype_) -> tensor:
        dtype_ = _unwrap(dtype_)
        if not isinstance(dtype_, dtype) or dtype_.is_block() or dtype_.is_void():
            raise SemanticError(f"expected a scalar dtype, got {dtype_!r}")
        shape = validate_block_shape(shape)
        value = _unwrap(value)
        if isinstance(value, tensor):
            if value.type.is_block():
                raise SemanticError("the fill value must be a scalar, not a block")
            v = self.cast(value, dtype_)
            return self.splat(v, shape) if shape else v
        if dtype_.is_ptr():
            raise SemanticError("cannot fill a block with a constant pointer")
        if not _is_py_number(value):
            raise SemanticError(f"the fill value must be a number, got {value!r}")
        return self.constant(value, dtype_, shape)

    def zeros_like(self, x) -> tensor:
        x = self.to_tensor(x)
        return self.full(x.shape, 0, x.type.scalar)

    # ------------------------------------------------------------------
    # Memory
    # ------------------------------------------------------------------
    def _check_pointer(self, ptr, what: str) -> tensor:
        if _unwrap(ptr) is None:
            raise SemanticError(f"{what} through a None pointer")
        ptr = self.to_tensor(ptr)
        if not ptr.type.scalar.is_ptr():
            raise SemanticError(f"{what} expects a pointer or a block of pointers, got "
                                f"{_type_name(ptr)}")
        return ptr

    def _mask(self, mask, what: str) -> Optional[tensor]:
        mask = _unwrap(mask)
        if mask is None:
            return None
        if isinstance(mask, bool):
            return self.constant(int(mask), tl.int1)
        mask = self.to_tensor(mask)
        if not mask.type.scalar.is_bool():
            raise SemanticError(f"{what}'s mask must be boolean (int1), got "
                                f"{mask.type.scalar}; compare it first, e.g. `x != 0`")
        return mask

    def load(self, ptr, mask, other, cache: str, evict: str, volatile: bool) -> tensor:
        ptr = self._check_pointer(ptr, "load")
        mask = self._mask(mask, "load")
        other = _unwrap(other)
        if mask is None and other is not None:
            raise SemanticError("load: `other` needs a `mask`")
        if cache not in _LOAD_CACHE:
            raise SemanticError(f"load: unknown cache modifier {cache!r} (use '.ca', "
                                "'.cg', '.cv' or '.cs')")
        if evict not in _EVICTION:
            raise SemanticError(f"load: unknown eviction policy {evict!r}")
        if mask is not None:
            if ptr.type.is_block():
                mask = self.broadcast_to(mask, ptr.shape)
            elif mask.type.is_block():
                ptr = self.broadcast_to(ptr, mask.shape)
        elt = ptr.type.scalar.element_ty
        is_bool = elt.is_bool()
        if is_bool:
            # Booleans live in memory as bytes.
            ptr = self.cast(ptr, pointer_type(tl.int8, ptr.type.scalar.address_space))
            elt = tl.int8
        if other is not None:
            if isinstance(other, tensor):
                other = self.cast(self.broadcast_to(other, ptr.shape), elt)
            else:
                if not _is_py_number(other):
                    raise SemanticError(f"load: `other` must be a number or a tensor, "
                                        f"got {other!r}")
                other = self.constant(other, elt, ptr.shape)
        res_ty = self._ty(elt, ptr.shape)
        h = self.builder.load(ptr.handle, mask.handle if mask is not None else None,
                              other.handle if other is not None else None, ptr.type,
                              res_ty, _LOAD_CACHE[cache], _EVICTION[evict], bool(volatile))
        r = tensor(h, res_ty)
        if is_bool:
            r = self.compare("ne", r, 0)
        return r

    #: While a tl.map_elementwise function is visited (its branches all run,
    #: compiler/elementwise_flow.py): what the code is, to refuse writes to
    #: memory there.
    writes_refused_in: Optional[str] = None

    def _check_writes_allowed(self, what: str) -> None:
        if self.writes_refused_in:
            raise SemanticError(f"{what} cannot write memory in {self.writes_refused_in}")

    def store(self, ptr, value, mask, cache: str, evict: str) -> None:
        self._check_writes_allowed("tl.store")
        ptr = self._check_pointer(ptr, "store")
        if ptr.type.scalar.const:
            raise SemanticError("Cannot store to a constant pointer (a parameter "
                                "annotated tl.const)")
        mask = self._mask(mask, "store")
        if cache not in _STORE_CACHE:
            raise SemanticError(f"store: unknown cache modifier {cache!r} (use '.wb', "
                                "'.cg', '.cs' or '.wt')")
        if evict not in _EVICTION:
            raise SemanticError(f"store: unknown eviction policy {evict!r}")
        value = _unwrap(value)
        elt = ptr.type.scalar.element_ty
        if not ptr.type.is_block():
            if isinstance(value, tensor) and value.type.is_block():
                raise SemanticError(
                    f"store: the value is a {_type_name(value)} but the pointer is a "
                    "scalar; add a block of offsets to the pointer (ptr + offsets)")
            if mask is not None and mask.type.is_block():
                raise SemanticError("store: the mask is a block but the pointer is a scalar")
        if elt.is_bool():
            ptr = self.cast(ptr, pointer_type(tl.int8, ptr.type.scalar.address_space))
            if isinstance(value, tensor):
                value = self.cast(self.cast(value, tl.int1), tl.int8)
            else:
                value = 1 if value else 0
            elt = tl.int8
        if isinstance(value, tensor):
            # The value converts to the element type as by .to(), as in
            # Triton: pointers are stored into int64 memory (and int64 into
            # pointer memory) as their addresses; nothing else crosses
            # between pointers and numbers.
            sca = value.type.scalar
            if sca.is_ptr() != elt.is_ptr() and not (sca.is_ptr() and elt.is_int64()) \
                    and not (elt.is_ptr() and sca.is_int64()):
                raise SemanticError(f"store: cannot store {_type_name(value)} through a "
                                    f"pointer to {elt} (pointers are stored as int64)")
            value = self.cast(self.broadcast_to(value, ptr.shape), elt)
        else:
            if not _is_py_number(value):
                raise SemanticError(f"store: the value must be a number or a tensor, got "
                                    f"{value!r}")
            value = self.constant(value, elt, ptr.shape)
        if mask is not None and ptr.type.is_block():
            mask = self.broadcast_to(mask, ptr.shape)
        self.builder.store(ptr.handle, value.handle,
                           mask.handle if mask is not None else None, ptr.type,
                           _STORE_CACHE[cache], _EVICTION[evict])
        return None

    # ------------------------------------------------------------------
    # Debugging
    # ------------------------------------------------------------------
    def hint(self, x, kind: str, values) -> tensor:
        """Attaches Triton's hint `kind` (divisibility, contiguity,
        constancy) to `x` and returns it: one positive int per dimension (a
        scalar counts one; a single int is a list of one)."""
        x = self.to_tensor(x)
        values = _unwrap(values)
        rank = max(1, len(x.shape))
        values = [_unwrap(v) for v in values] if isinstance(values, (list, tuple)) else [values]
        if len(values) != rank or not all(isinstance(v, int) and not isinstance(v, bool)
                                          and v > 0 for v in values):
            raise SemanticError(f"the {kind} hint needs one positive int per dimension of "
                                f"a {_type_name(x)}, got {values!r}")
        self.builder.hint(x.handle, kind, values)
        return x

    def debug_barrier(self) -> None:
        self.builder.barrier()

    def global_timer(self) -> tensor:
        """The GPU's global timer in nanoseconds (int64), read here."""
        return tensor(self.builder.global_timer(), tl.int64)

    def processor_id(self) -> tensor:
        """The index of the SM or CU running the program (int32)."""
        return tensor(self.builder.processor_id(), tl.int32)

    def grid_dependency_wait(self) -> None:
        self.builder.grid_dependency_wait()

    def grid_dependency_launch(self) -> None:
        self.builder.grid_dependency_launch()

    def device_print(self, prefix, args, hex=False) -> None:
        if not isinstance(prefix, str):
            raise SemanticError("device_print's first argument must be a string prefix")
        vals = [self.to_tensor(a) for a in args]
        self.builder.print(prefix, bool(hex), [(v.handle, v.type) for v in vals])

    def device_assert(self, cond, msg: str, mask=None) -> None:
        if not (self.debug or getattr(self.builder, "concrete", False)):
            return None
        cond = self.to_tensor(cond)
        if not cond.type.scalar.is_bool():
            cond = self.cast(cond, tl.int1)
        if mask is not None:
            m = self._mask(mask, "device_assert")
            cond = self.or_(cond, self.logical_not(m))
        self.builder.assert_(cond.handle, cond.type, str(msg))
        return None
