"""Types, values and builtins of the kernel language (`terrazzo.language`).

The names follow `triton.language`. Builtins are plain Python functions; when a
kernel is compiled or interpreted, the code generator makes a *semantic*
object current (see `_current_semantic`) and every builtin forwards to it, so
one definition serves the IR builder and the interpreter alike. Called outside
a kernel, a builtin raises a clear error.
"""

from __future__ import annotations

import builtins as _py
import enum
import functools
import inspect
import threading
from typing import List, Optional, Sequence

from ..errors import SemanticAssertionFailure, SemanticError, SemanticUnsupported

# ---------------------------------------------------------------------------
# The semantic object of the kernel being compiled
# ---------------------------------------------------------------------------

_state = threading.local()


def _current_semantic():
    stack = getattr(_state, "stack", None)
    if not stack:
        raise RuntimeError(
            "terrazzo.language functions can only be called inside a "
            "@terrazzo.jit function (or from a function it calls)")
    return stack[-1]


def _push_semantic(sem) -> None:
    stack = getattr(_state, "stack", None)
    if stack is None:
        stack = _state.stack = []
    stack.append(sem)


def _pop_semantic() -> None:
    _state.stack.pop()


def builtin(fn):
    """Marks `fn` as a language builtin (callable only inside kernels)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        _current_semantic()  # raises outside kernels
        return fn(*args, **kwargs)

    wrapper.__terrazzo_builtin__ = True
    return wrapper


def _unwrap(x):
    """The Python value of a constexpr (anything else unchanged)."""
    while isinstance(x, constexpr):
        x = x.value
    return x


def _unwrap_shape(shape) -> List[int]:
    shape = _unwrap(shape)
    if isinstance(shape, (int, constexpr)):
        shape = [shape]
    if isinstance(shape, tensor):
        raise SemanticError("shapes must be compile-time constants (tl.constexpr), "
                            "not runtime values")
    out = []
    for d in shape:
        d = _unwrap(d)
        if isinstance(d, tensor):
            raise SemanticError(
                "shapes must be compile-time constants (tl.constexpr); a runtime "
                "value was given: mark the argument `: tl.constexpr`")
        if not isinstance(d, int) or isinstance(d, bool):
            raise SemanticError(f"shape dimensions must be integers, got {d!r}")
        out.append(d)
    return out


# ---------------------------------------------------------------------------
# Types
# ---------------------------------------------------------------------------

class dtype:
    """A scalar type: int1, (u)int8..64, the fp8 formats (fp8e4nv, fp8e5;
    fp8e4b15, fp8e4b8, fp8e5b16, converted in software), fp16, bf16, fp32,
    fp64."""

    SINT_TYPES = ("int8", "int16", "int32", "int64")
    UINT_TYPES = ("int1", "uint8", "uint16", "uint32", "uint64")
    FP8_TYPES = ("fp8e4nv", "fp8e5", "fp8e4b15", "fp8e4b8", "fp8e5b16")
    STANDARD_FP_TYPES = ("fp16", "bf16", "fp32", "fp64")
    FP_TYPES = FP8_TYPES + STANDARD_FP_TYPES
    OTHER_TYPES = ("void",)

    class SIGNEDNESS(enum.Enum):
        """An integer type's `int_signedness` (int1 is unsigned)."""
        SIGNED = 0
        UNSIGNED = 1

    class KIND(enum.IntEnum):
        """What `kind()` returns, ordered as promotion ranks them: bool <
        integers < floats (an IntEnum, so kinds compare; pointers are
        kind 3)."""
        BOOLEAN = 0
        INTEGRAL = 1
        FLOATING = 2

    _BITS = {"int1": 1, "int8": 8, "int16": 16, "int32": 32, "int64": 64,
             "uint8": 8, "uint16": 16, "uint32": 32, "uint64": 64,
             "fp8e4nv": 8, "fp8e5": 8, "fp8e4b15": 8, "fp8e4b8": 8, "fp8e5b16": 8,
             "fp16": 16, "bf16": 16, "fp32": 32,
             "fp64": 64, "void": 0}
    _MANTISSA = {"fp8e4nv": 3, "fp8e5": 2, "fp8e4b15": 3, "fp8e4b8": 3, "fp8e5b16": 2,
                 "fp16": 10, "bf16": 7, "fp32": 23, "fp64": 52}
    _EXPONENT_BIAS = {"fp8e4nv": 7, "fp8e5": 15, "fp8e4b15": 15, "fp8e4b8": 8,
                      "fp8e5b16": 16, "fp16": 15, "bf16": 127, "fp32": 127, "fp64": 1023}
    _ALIASES = {"float16": "fp16", "bfloat16": "bf16", "float32": "fp32",
                "float64": "fp64", "bool": "int1", "half": "fp16",
                "float": "fp32", "double": "fp64", "f16": "fp16", "bf16": "bf16",
                "f32": "fp32", "f64": "fp64", "i1": "int1", "i8": "int8",
                "i16": "int16", "i32": "int32", "i64": "int64",
                "float8e4nv": "fp8e4nv", "float8e5": "fp8e5",
                "float8_e4m3fn": "fp8e4nv", "float8_e5m2": "fp8e5",
                "float8e4b15": "fp8e4b15", "float8e4b8": "fp8e4b8",
                "float8e5b16": "fp8e5b16", "float8_e4m3fnuz": "fp8e4b8",
                "float8_e5m2fnuz": "fp8e5b16"}

    def __init__(self, name: str):
        name = self._ALIASES.get(name, name)
        if name not in self._BITS:
            raise ValueError(f"unknown dtype {name!r}")
        self.name = name
        self.primitive_bitwidth = self._BITS[name]
        if name in self.SINT_TYPES or name in self.UINT_TYPES:
            self.int_bitwidth = self.primitive_bitwidth
            self.int_signedness = (dtype.SIGNEDNESS.SIGNED if name in self.SINT_TYPES
                                   else dtype.SIGNEDNESS.UNSIGNED)
        if name in self.FP_TYPES:
            self.fp_mantissa_width = self._MANTISSA[name]
            self.exponent_bias = self._EXPONENT_BIAS[name]

    # Classification ------------------------------------------------------
    def is_void(self): return self.name == "void"
    def is_bool(self): return self.name == "int1"
    def is_int(self): return self.name in self.SINT_TYPES or self.name in self.UINT_TYPES
    def is_int_signed(self): return self.name in self.SINT_TYPES
    def is_int_unsigned(self): return self.name in self.UINT_TYPES
    def is_floating(self): return self.name in self.FP_TYPES
    def is_fp8(self): return self.name in self.FP8_TYPES
    def is_fp8e4nv(self): return self.name == "fp8e4nv"
    def is_fp8e5(self): return self.name == "fp8e5"
    def is_fp8e4b15(self): return self.name == "fp8e4b15"
    def is_fp8e4b8(self): return self.name == "fp8e4b8"
    def is_fp8e5b16(self): return self.name == "fp8e5b16"
    def is_fp16(self): return self.name == "fp16"
    def is_bf16(self): return self.name == "bf16"
    def is_fp32(self): return self.name == "fp32"
    def is_fp64(self): return self.name == "fp64"
    def is_int1(self): return self.name == "int1"
    def is_int8(self): return self.name == "int8"
    def is_int16(self): return self.name == "int16"
    def is_int32(self): return self.name == "int32"
    def is_int64(self): return self.name == "int64"
    def is_uint8(self): return self.name == "uint8"
    def is_uint16(self): return self.name == "uint16"
    def is_uint32(self): return self.name == "uint32"
    def is_uint64(self): return self.name == "uint64"
    def is_ptr(self): return False
    def is_block(self): return False
    def is_const(self): return False
    def is_standard_floating(self): return self.name in self.STANDARD_FP_TYPES

    def kind(self) -> "dtype.KIND":
        """BOOLEAN (0), INTEGRAL (1) or FLOATING (2): the order promotion
        uses."""
        if self.is_bool():
            return dtype.KIND.BOOLEAN
        if self.is_int():
            return dtype.KIND.INTEGRAL
        return dtype.KIND.FLOATING

    @staticmethod
    def is_dtype(type_str) -> bool:
        """Whether `type_str` is the name of a scalar type ("fp32",
        "int8", "void", ...; not an alias such as "float32")."""
        return type_str in dtype._BITS

    def with_element_ty(self, element_ty: "dtype") -> "dtype":
        """This type with its element type replaced: for a scalar,
        `element_ty` itself (a block keeps its shape)."""
        return element_ty

    def codegen_name(self) -> str:
        """The public spelling of the type: float32 for fp32, bfloat16 for
        bf16, float8e4nv for fp8e4nv, the name otherwise."""
        return _PUBLIC_NAMES.get(self.name, self.name)

    @property
    def cache_key_part(self) -> str:
        """What this type adds to a cache key: its name."""
        return self.name

    def mangle(self) -> str:
        """The type's short name in a function's mangled name, as Triton
        spells it: i32 / u8 (int1 is u1), the name of a float type (fp32),
        V for void; pointers P<element>, blocks <element>S<d0_d1>S."""
        if self.is_int():
            prefix = "i" if self.int_signedness is dtype.SIGNEDNESS.SIGNED else "u"
            return f"{prefix}{self.int_bitwidth}"
        if self.is_floating():
            return self.name
        return "V"

    def get_int_min_value(self) -> int:
        if self.is_int_signed():
            return -(1 << (self.int_bitwidth - 1))
        return 0

    def get_int_max_value(self) -> int:
        if self.is_int_signed():
            return (1 << (self.int_bitwidth - 1)) - 1
        return (1 << self.int_bitwidth) - 1

    @property
    def scalar(self) -> "dtype":
        return self

    @property
    def itemsize(self) -> int:
        return _py.max(self.primitive_bitwidth // 8, 1)

    def __eq__(self, other):
        other = _unwrap(other)
        return isinstance(other, dtype) and type(other) is type(self) and \
            self._key() == other._key()

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(self._key())

    def _key(self):
        return (self.name,)

    def __str__(self):
        return self.name

    def __repr__(self):
        # An evaluatable expression, as Triton prints it.
        return f"triton.language.{self.codegen_name()}"


class pointer_type(dtype):
    """A pointer to `element_ty` in `address_space` (1: global memory)."""

    def __init__(self, element_ty: dtype, address_space: int = 1, const: bool = False):
        element_ty = _unwrap(element_ty)
        if not isinstance(element_ty, dtype):
            raise TypeError(f"pointer_type expects a dtype, got {element_ty!r}")
        self.element_ty = element_ty
        self.address_space = address_space
        self.const = bool(const)
        self.name = f"const_pointer<{element_ty}>" if self.const else f"pointer<{element_ty}>"
        self.primitive_bitwidth = 64

    def is_ptr(self): return True
    def is_int(self): return False
    def is_floating(self): return False
    def is_bool(self): return False
    def is_int_signed(self): return False
    def is_int_unsigned(self): return False
    def is_fp8(self): return False
    def is_void(self): return False
    def is_const(self): return self.const
    def kind(self): return 3

    @property
    def scalar(self):
        return self

    def _key(self):
        return ("ptr", self.element_ty._key(), self.address_space, self.const)

    def mangle(self) -> str:
        return f"P{self.element_ty.mangle()}"

    def codegen_name(self) -> str:
        return self.name

    def __repr__(self):
        return f"triton.language.pointer_type({self.element_ty!r})"


class block_type(dtype):
    """A block (tile) of `element_ty` with a static `shape`."""

    def __init__(self, element_ty: dtype, shape: Sequence[int]):
        self.element_ty = element_ty
        self.shape = tuple(int(s) for s in shape)
        if not self.shape:
            raise SemanticError("blocks have at least one dimension")
        self.numel = 1
        for s in self.shape:
            self.numel *= s
        self.name = f"<{self.shape}, {element_ty}>"
        self.primitive_bitwidth = element_ty.primitive_bitwidth

    def is_block(self): return True
    def is_ptr(self): return False

    def __getattr__(self, item):
        # Classification methods (is_int, is_floating, ...) answer for the
        # element type, as in Triton.
        if item.startswith("is_") or item in ("int_bitwidth", "int_signedness",
                                               "fp_mantissa_width", "exponent_bias"):
            return getattr(self.element_ty, item)
        raise AttributeError(item)

    def get_block_shapes(self):
        return self.shape

    def with_element_ty(self, element_ty: dtype) -> "block_type":
        """A block of this shape of `element_ty`."""
        return block_type(_unwrap(element_ty), self.shape)

    def mangle(self) -> str:
        return f"{self.element_ty.mangle()}S{'_'.join(str(s) for s in self.shape)}S"

    def codegen_name(self) -> str:
        return self.name

    @property
    def scalar(self):
        return self.element_ty

    def _key(self):
        return ("block", self.element_ty._key(), self.shape)

    def __str__(self):
        return f"<{'x'.join(str(s) for s in self.shape)}x{self.element_ty}>"

    def __repr__(self):
        return f"triton.language.block_type({self.element_ty!r}, {list(self.shape)})"


def _delegate(name):
    def method(self, *args):
        return getattr(self.element_ty, name)(*args)
    method.__name__ = name
    return method


for _name in [n for n in vars(dtype) if n.startswith("is_") and
              n not in ("is_block", "is_ptr", "is_dtype")] + \
        ["kind", "get_int_min_value", "get_int_max_value"]:
    setattr(block_type, _name, _delegate(_name))
block_type.itemsize = property(lambda self: self.element_ty.itemsize)

void = dtype("void")
int1 = dtype("int1")
int8 = dtype("int8")
int16 = dtype("int16")
int32 = dtype("int32")
int64 = dtype("int64")
uint8 = dtype("uint8")
uint16 = dtype("uint16")
uint32 = dtype("uint32")
uint64 = dtype("uint64")
float8e4nv = dtype("fp8e4nv")
float8e5 = dtype("fp8e5")
float8e4b15 = dtype("fp8e4b15")
float8e4b8 = dtype("fp8e4b8")
float8e5b16 = dtype("fp8e5b16")
float16 = dtype("fp16")
bfloat16 = dtype("bf16")
float32 = dtype("fp32")
float64 = dtype("fp64")

_PUBLIC_NAMES = {"int1": "int1", "fp16": "float16", "bf16": "bfloat16",
                 "fp32": "float32", "fp64": "float64", "fp8e4nv": "float8e4nv",
                 "fp8e5": "float8e5", "fp8e4b15": "float8e4b15", "fp8e4b8": "float8e4b8",
                 "fp8e5b16": "float8e5b16"}

_DTYPE_BY_NAME = {d.name: d for d in (void, int1, int8, int16, int32, int64,
                                      uint8, uint16, uint32, uint64, float8e4nv,
                                      float8e5, float8e4b15, float8e4b8, float8e5b16,
                                      float16, bfloat16, float32, float64)}


def dtype_from_name(name: str) -> Optional[dtype]:
    """The dtype for a torch/numpy/tile/Triton spelling ("torch.float32",
    "float32", "f32", "fp32", "bool", ...), or None."""
    if name is None:
        return None
    name = str(name)
    if name.startswith("torch."):
        name = name[len("torch."):]
    name = dtype._ALIASES.get(name, name)
    return _DTYPE_BY_NAME.get(name)


# ---------------------------------------------------------------------------
# Compile-time constants
# ---------------------------------------------------------------------------

class constexpr:
    """A value known when the kernel is compiled. Parameters annotated
    `: tl.constexpr` are specialised on their value; arithmetic between
    constexprs is folded by Python."""

    def __init__(self, value):
        self.value = _unwrap(value)

    def __repr__(self):
        return f"constexpr[{self.value!r}]"

    def __hash__(self):
        return hash(self.value)

    def __index__(self):
        return self.value.__index__()

    def __int__(self):
        return int(self.value)

    def __float__(self):
        return float(self.value)

    def __bool__(self):
        return bool(self.value)

    def __call__(self, *args, **kwargs):
        return self.value(*args, **kwargs)

    def __getattr__(self, item):
        if item == "value":
            raise AttributeError(item)
        return getattr(self.value, item)

    @property
    def type(self) -> "constexpr_type":
        """The type of a compile-time constant: constexpr_type(value)."""
        return constexpr_type(self.value)


class constexpr_type:
    """The type of a compile-time constant (`tl.constexpr(v).type`): one
    type per value, equal when the values are."""

    def __init__(self, value):
        self.value = _unwrap(value)

    def __eq__(self, other):
        return isinstance(other, constexpr_type) and self.value == other.value

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(self.value)

    def __repr__(self):
        return f"constexpr_type[{self.value}]"

    def mangle(self) -> str:
        """`c` and the value's mangled name (a dtype's) or repr."""
        value = self.value.mangle() if hasattr(self.value, "mangle") else repr(self.value)
        return f"c{value}"


def is_constexpr_annotation(ann) -> bool:
    """Whether a parameter's or field's annotation is `tl.constexpr` (the
    class, a subclass, or its text under `from __future__ import
    annotations`)."""
    if ann is inspect.Parameter.empty or ann is None:
        return False
    if ann is constexpr or (isinstance(ann, type) and issubclass(ann, constexpr)):
        return True
    if isinstance(ann, str):
        return ann.split(".")[-1].strip() == "constexpr"
    return False


def _constexpr_binop(op):
    def fwd(self, other):
        return constexpr(op(self.value, _unwrap(other)))

    def rev(self, other):
        return constexpr(op(_unwrap(other), self.value))
    return fwd, rev


import operator as _op  # noqa: E402

for _name, _fn in [("add", _op.add), ("sub", _op.sub), ("mul", _op.mul),
                   ("truediv", _op.truediv), ("floordiv", _op.floordiv),
                   ("mod", _op.mod), ("pow", _op.pow), ("and", _op.and_),
                   ("or", _op.or_), ("xor", _op.xor), ("lshift", _op.lshift),
                   ("rshift", _op.rshift)]:
    _f, _r = _constexpr_binop(_fn)
    setattr(constexpr, f"__{_name}__", _f)
    setattr(constexpr, f"__r{_name}__", _r)
for _name, _fn in [("eq", _op.eq), ("ne", _op.ne), ("lt", _op.lt), ("le", _op.le),
                   ("gt", _op.gt), ("ge", _op.ge)]:
    setattr(constexpr, f"__{_name}__", _constexpr_binop(_fn)[0])
constexpr.__neg__ = lambda self: constexpr(-self.value)
constexpr.__pos__ = lambda self: constexpr(+self.value)
constexpr.__invert__ = lambda self: constexpr(~self.value)
constexpr.__abs__ = lambda self: constexpr(_py.abs(self.value))


def is_constexpr(x) -> bool:
    return not isinstance(x, tensor)


# ---------------------------------------------------------------------------
# Runtime values
# ---------------------------------------------------------------------------

# Triton's language defines `**` on compile-time values only (constexpr):
# on tensors it is an error there too, with the functions to use instead.
POW_ON_TENSORS = ("`**` on tensors: Triton's language has no power operator for "
                  "tensors; use tl.math.pow(x, y) or libdevice.pow(x, y)")


class tensor:
    """A runtime value of a kernel: a scalar or a block. `handle` belongs to
    the builder in use (an SSA name when emitting IR, a NumPy array in the
    interpreter); `type` is a dtype, pointer_type or block_type."""

    def __init__(self, handle, type: dtype):
        self.handle = handle
        self.type = type
        self.dtype = type.scalar

    @property
    def shape(self) -> List[int]:
        return list(self.type.shape) if self.type.is_block() else []

    @property
    def numel(self) -> int:
        return self.type.numel if self.type.is_block() else 1

    def __repr__(self):
        return f"tensor({self.type})"

    def __bool__(self):
        raise SemanticError(
            "a runtime tensor has no compile-time truth value; use it in an `if` "
            "or `while` condition directly, or compare constexprs instead")

    def __index__(self):
        raise SemanticError("a runtime tensor cannot be used where a compile-time "
                            "integer is expected (tl.constexpr)")

    __hash__ = object.__hash__

    # Arithmetic -----------------------------------------------------------
    def __add__(self, o): return _current_semantic().add(self, o)
    def __radd__(self, o): return _current_semantic().add(o, self)
    def __sub__(self, o): return _current_semantic().sub(self, o)
    def __rsub__(self, o): return _current_semantic().sub(o, self)
    def __mul__(self, o): return _current_semantic().mul(self, o)
    def __rmul__(self, o): return _current_semantic().mul(o, self)
    def __truediv__(self, o): return _current_semantic().truediv(self, o)
    def __rtruediv__(self, o): return _current_semantic().truediv(o, self)
    def __floordiv__(self, o): return _current_semantic().floordiv(self, o)
    def __rfloordiv__(self, o): return _current_semantic().floordiv(o, self)
    def __mod__(self, o): return _current_semantic().mod(self, o)
    def __rmod__(self, o): return _current_semantic().mod(o, self)
    def __and__(self, o): return _current_semantic().and_(self, o)
    def __rand__(self, o): return _current_semantic().and_(o, self)
    def __or__(self, o): return _current_semantic().or_(self, o)
    def __ror__(self, o): return _current_semantic().or_(o, self)
    def __xor__(self, o): return _current_semantic().xor_(self, o)
    def __rxor__(self, o): return _current_semantic().xor_(o, self)
    def __lshift__(self, o): return _current_semantic().shl(self, o)
    def __rlshift__(self, o): return _current_semantic().shl(o, self)
    def __rshift__(self, o): return _current_semantic().shr(self, o)
    def __rrshift__(self, o): return _current_semantic().shr(o, self)
    def __pow__(self, o): raise SemanticUnsupported(POW_ON_TENSORS)
    def __neg__(self): return _current_semantic().neg(self)
    def __pos__(self): return self
    def __invert__(self): return _current_semantic().invert(self)
    def __abs__(self): return _current_semantic().abs(self)

    # Comparisons ------------------------------------------------------------
    def __lt__(self, o): return _current_semantic().compare("lt", self, o)
    def __le__(self, o): return _current_semantic().compare("le", self, o)
    def __gt__(self, o): return _current_semantic().compare("gt", self, o)
    def __ge__(self, o): return _current_semantic().compare("ge", self, o)
    def __eq__(self, o): return _current_semantic().compare("eq", self, o)
    def __ne__(self, o): return _current_semantic().compare("ne", self, o)

    def logical_and(self, o): return _current_semantic().logical_and(self, o)
    def logical_or(self, o): return _current_semantic().logical_or(self, o)
    def logical_not(self): return _current_semantic().logical_not(self)

    # Indexing: only `None` (new axis) and `:` -----------------------------
    def __getitem__(self, slices):
        return _current_semantic().subscript(self, slices)

    # Conversions -------------------------------------------------------------
    def to(self, dtype, fp_downcast_rounding=None, bitcast=False):
        return _current_semantic().cast(self, _unwrap(dtype),
                                        rounding=_unwrap(fp_downcast_rounding),
                                        bitcast=_unwrap(bitcast))

    @property
    def T(self):
        """The transpose of a 2-D block (tl.trans)."""
        return _current_semantic().trans(self, ())

    # Member forms of some builtins (x.exp(), x.sum(), ...) are attached at
    # the end of this module.


# ---------------------------------------------------------------------------
# Builtins
# ---------------------------------------------------------------------------

@builtin
def program_id(axis):
    """Index of this program instance along grid axis 0, 1 or 2."""
    return _current_semantic().program_id(_unwrap(axis))


@builtin
def num_programs(axis):
    """Number of program instances along grid axis 0, 1 or 2."""
    return _current_semantic().num_programs(_unwrap(axis))


@builtin
def arange(start, end):
    """The block [start, end) of int32; end - start is a power of two."""
    return _current_semantic().arange(start, end)


@builtin
def full(shape, value, dtype):
    """A block of `shape` filled with `value`, of type `dtype`."""
    return _current_semantic().full(_unwrap_shape(shape), value, _unwrap(dtype))


@builtin
def zeros(shape, dtype):
    """A block of `shape` filled with zeros of type `dtype`."""
    return _current_semantic().full(_unwrap_shape(shape), 0, _unwrap(dtype))


@builtin
def zeros_like(input):
    return _current_semantic().zeros_like(input)


@builtin
def full_like(input, value):
    return _current_semantic().full(input.shape, value, input.dtype) if isinstance(input, tensor) \
        and input.type.is_block() else _current_semantic().cast(value, input.dtype)


@builtin
def cast(input, dtype, fp_downcast_rounding=None, bitcast=False):
    """Convert `input` to `dtype` (reinterpreting its bits when `bitcast`)."""
    return _current_semantic().cast(input, _unwrap(dtype),
                                    rounding=_unwrap(fp_downcast_rounding),
                                    bitcast=_unwrap(bitcast))


def _is_block_pointer(x) -> bool:
    """Whether `x` is a block pointer (language/block_pointers.py, which
    builds on this module: its class says so)."""
    return getattr(type(x), "_terrazzo_block_pointer", False) is True


@builtin
def load(pointer, mask=None, other=None, boundary_check=(), padding_option="",
         cache_modifier="", eviction_policy="", volatile=False):
    """Load a block (or a scalar) through `pointer`; lanes whose `mask` is
    false are not accessed and take `other`. Through a block pointer
    (tl.make_block_ptr): the block, with the elements outside the tensor
    along the `boundary_check` dimensions reading as `padding_option`
    ("zero", "nan"; "" leaves them unspecified)."""
    if _is_block_pointer(pointer):
        return pointer.load(mask, other, boundary_check, padding_option, cache_modifier,
                            eviction_policy, volatile)
    if _unwrap(boundary_check) or _unwrap(padding_option):
        raise SemanticError("boundary_check and padding_option apply to block pointers "
                            "(tl.make_block_ptr) only; use a mask with a block of pointers")
    return _current_semantic().load(pointer, mask, other, _unwrap(cache_modifier),
                                    _unwrap(eviction_policy), _unwrap(volatile))


@builtin
def store(pointer, value, mask=None, boundary_check=(), cache_modifier="",
          eviction_policy=""):
    """Store `value` through `pointer` where `mask` is true. Through a block
    pointer (tl.make_block_ptr): the block, except the elements outside the
    tensor along the `boundary_check` dimensions."""
    if _is_block_pointer(pointer):
        return pointer.store(value, mask, boundary_check, cache_modifier, eviction_policy)
    if _unwrap(boundary_check):
        raise SemanticError("boundary_check applies to block pointers (tl.make_block_ptr) "
                            "only; use a mask with a block of pointers")
    return _current_semantic().store(pointer, value, mask, _unwrap(cache_modifier),
                                     _unwrap(eviction_policy))


@builtin
def where(condition, x, y):
    """Elementwise `x if condition else y`, broadcasting all three."""
    return _current_semantic().where(condition, x, y)


class PropagateNan:
    NONE = 0
    ALL = 0xFFFF


@builtin
def minimum(x, y, propagate_nan=PropagateNan.NONE):
    return _current_semantic().minmax("min", x, y, _unwrap(propagate_nan))


@builtin
def maximum(x, y, propagate_nan=PropagateNan.NONE):
    return _current_semantic().minmax("max", x, y, _unwrap(propagate_nan))


@builtin
def clamp(x, min, max, propagate_nan=PropagateNan.NONE):
    sem = _current_semantic()
    return sem.minmax("min", sem.minmax("max", x, min, _unwrap(propagate_nan)), max,
                      _unwrap(propagate_nan))


def _math1(name, doc):
    @builtin
    def fn(x):
        return _current_semantic().math_unary(name, x)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc
    return fn


exp = _math1("exp", "Elementwise e**x.")
exp2 = _math1("exp2", "Elementwise 2**x.")
log = _math1("log", "Elementwise natural logarithm.")
log2 = _math1("log2", "Elementwise base-2 logarithm.")
sqrt = _math1("sqrt", "Elementwise fast square root (float32: the hardware's "
               "approximation, as Triton's).")
sqrt_rn = _math1("sqrt_rn", "Elementwise square root, IEEE-rounded to nearest.")
rsqrt = _math1("rsqrt", "Elementwise 1 / sqrt(x).")
sin = _math1("sin", "Elementwise sine.")
cos = _math1("cos", "Elementwise cosine.")
floor = _math1("floor", "Elementwise floor.")
ceil = _math1("ceil", "Elementwise ceiling.")
erf = _math1("erf", "Elementwise error function.")


@builtin
def abs(x):
    """Elementwise absolute value."""
    return _current_semantic().abs(x)


@builtin
def fma(x, y, z):
    """Elementwise x * y + z, rounded once."""
    return _current_semantic().fma(x, y, z)


@builtin
def sigmoid(x):
    """Elementwise 1 / (1 + exp(-x))."""
    return _current_semantic().sigmoid(x)


@builtin
def fdiv(x, y, ieee_rounding=False, approx=False):
    """Elementwise x / y: to within 2 ulp for float32 (as `/`), IEEE-rounded
    with `ieee_rounding`, or with `approx` the hardware's fastest float32
    division (2 ulp while |y| is within 2**-126 .. 2**126; beyond that
    the quotient of a finite x is 0)."""
    return _current_semantic().truediv(x, y, ieee_rounding=_unwrap(ieee_rounding),
                                       approx=_unwrap(approx))


@builtin
def div_rn(x, y):
    return _current_semantic().truediv(x, y, ieee_rounding=True)


@builtin
def cdiv(x, div):
    """Ceiling division: (x + div - 1) // div."""
    x, div = _unwrap(x), _unwrap(div)
    if not isinstance(x, tensor) and not isinstance(div, tensor):
        return (x + div - 1) // div
    sem = _current_semantic()
    return sem.floordiv(sem.sub(sem.add(x, div), 1), div)


@builtin
def broadcast(input, other):
    """Broadcast two blocks to a common shape."""
    return _current_semantic().broadcast_pair(input, other)


@builtin
def broadcast_to(input, *shape):
    """Broadcast `input` to `shape`."""
    if len(shape) == 1 and isinstance(_unwrap(shape[0]), (list, tuple)):
        shape = _unwrap(shape[0])
    return _current_semantic().broadcast_to(input, _unwrap_shape(shape))


@builtin
def expand_dims(input, axis):
    """Insert dimensions of size 1 at `axis` (an int or a sequence of ints)."""
    return _current_semantic().expand_dims(input, _unwrap(axis))


@builtin
def multiple_of(input, values):
    """Promise that the elements of `input` (along each dimension: the first
    of every run of max_contiguous values) are multiples of `values` (an int,
    or one per dimension). As in Triton the promise is attached to `input`
    itself, which is returned; the compiler vectorises memory accesses on
    it and does not check it."""
    return _current_semantic().hint(input, "divisibility", values)


@builtin
def max_contiguous(input, values):
    """Promise that `input` holds runs of `values` consecutive integers (an
    int, or one per dimension); attached to `input`, which is returned."""
    return _current_semantic().hint(input, "contiguity", values)


@builtin
def max_constancy(input, values):
    """Promise that `input` holds runs of `values` equal elements (an int,
    or one per dimension); attached to `input`, which is returned."""
    return _current_semantic().hint(input, "constancy", values)


@builtin
def assume(cond):
    """Hint that `cond` holds (accepted and ignored)."""
    return None


@builtin
def static_assert(cond, msg=""):
    """Fail compilation unless the compile-time `cond` holds."""
    cond = _unwrap(cond)
    if isinstance(cond, tensor):
        raise SemanticError("static_assert needs a compile-time condition; use "
                            "tl.device_assert for runtime values")
    if not cond:
        raise SemanticAssertionFailure(f"static_assert failed: {_unwrap(msg)}"
                                       if _unwrap(msg) else "static_assert failed")


@builtin
def static_print(*values, sep=" ", end="\n", file=None, flush=False):
    """Print compile-time values while compiling."""
    _py.print(*[_unwrap(v) for v in values], sep=sep, end=end, file=file, flush=flush)


@builtin
def dot(input, other, acc=None, input_precision=None, allow_tf32=None,
        max_num_imprecise_acc=None, out_dtype=float32):
    """The matrix product of two blocks (M x K and K x N, or batched B x M x
    K and B x K x N; M, N, K at least 16) plus `acc`: int8 gives int32;
    float16, bfloat16 and float32 accumulate in float32 (float16 also in
    float16 with out_dtype=tl.float16); float64 in float64.
    `input_precision` ("tf32", the default unless allow_tf32=False;
    "tf32x3"; "ieee") says how float32 operands are multiplied."""
    return _current_semantic().dot(input, other, acc, _unwrap(input_precision),
                                   _unwrap(allow_tf32), _unwrap(max_num_imprecise_acc),
                                   _unwrap(out_dtype))


@builtin
def dot_scaled(lhs, lhs_scale, lhs_format, rhs, rhs_scale, rhs_format, acc=None,
               fast_math=False, lhs_k_pack=True, rhs_k_pack=True, out_dtype=float32):
    """The matrix product of two blocks in microscaling formats, plus `acc`
    (float32). `lhs_format` / `rhs_format` is "e2m1" (two values a uint8, the
    first in the low nibble, packed along K, or along M / N without
    `lhs_k_pack` / `rhs_k_pack`), "e4m3" or "e5m2" (uint8 or the float8
    type), "bf16" or "fp16" (uint16 or the float type). A scale is None or
    a uint8 block of e8m0 exponents, one per 32 elements of K: M x K/32 for
    lhs, N x K/32 for rhs; each value is multiplied by 2^(scale - 127), and
    0xFF gives NaN unless `fast_math`. As Triton does without microscaling
    instructions, both operands are upcast to bfloat16 (float16 if either
    format is "fp16"), scaled there, and multiplied by `dot`."""
    return _current_semantic().dot_scaled(lhs, lhs_scale, _unwrap(lhs_format), rhs,
                                          rhs_scale, _unwrap(rhs_format), acc,
                                          _unwrap(fast_math), _unwrap(lhs_k_pack),
                                          _unwrap(rhs_k_pack), _unwrap(out_dtype))


@builtin
def debug_barrier():
    """Waits until every thread of the program instance gets here; their
    memory accesses before it are visible to all of them after it."""
    return _current_semantic().debug_barrier()


@builtin
def device_print(prefix, *args, hex=False):
    """Print `prefix` and the values of `args` from every program instance."""
    return _current_semantic().device_print(_unwrap(prefix), list(args), _unwrap(hex))


@builtin
def device_assert(cond, msg="", mask=None):
    """Stop the kernel with `msg` where `cond` is false (compiled in only with
    debug=True / TERRAZZO_DEBUG=1; always checked by the interpreter)."""
    return _current_semantic().device_assert(cond, _unwrap(msg), mask)


class static_range:
    """`for i in tl.static_range(...)`: a loop unrolled at compile time; the
    bounds must be constexprs."""

    def __init__(self, arg1, arg2=None, step=None):
        self.args = (arg1, arg2, step)

    def __iter__(self):
        raise RuntimeError("static_range can only be used in a for loop of a kernel")


class range:
    """`for i in tl.range(...)`: a loop that stays a loop (scf.for), like
    Python's range inside a kernel, with Triton's loop options:

    * `num_stages`: this loop's software-pipelining depth (0 or 1: not
      pipelined), in place of the kernel's num_stages;
    * `loop_unroll_factor`: the body repeated that many times per iteration
      (a remainder loop runs the iterations left over);
    * `warp_specialize`: on sm_90, a loop whose operands all come by TMA
      (a dot chain such as attention's, or a GEMM's K loop, its copies
      computable from scalars before the loop or in the loop over tiles
      around it) gets a producer warp group of its own that issues the
      copies, while the kernel's warps compute; the kernel then runs
      num_warps + 4 warps. Elsewhere the loop is pipelined as without it;
    * `flatten`: a hint: a loop over tiles keeps its inner loop, pipelined
      inside it (fused into one loop, tutorial 09's persistent GEMM
      measured slower on the H100);
    * `disallow_acc_multi_buffer`, `disable_licm`: accepted as hints. The
      first is about Blackwell's tensor memory; loop-invariant code still
      leaves the loop (the results are the same either way)."""

    def __init__(self, arg1, arg2=None, step=None, num_stages=None,
                 loop_unroll_factor=None, disallow_acc_multi_buffer=False,
                 flatten=False, warp_specialize=False, disable_licm=False):
        self.args = (arg1, arg2, step)
        self.num_stages = num_stages
        self.loop_unroll_factor = loop_unroll_factor
        self.hints = dict(disallow_acc_multi_buffer=disallow_acc_multi_buffer,
                          flatten=flatten, warp_specialize=warp_specialize,
                          disable_licm=disable_licm)

    def __iter__(self):
        raise RuntimeError("tl.range can only be used in a for loop of a kernel")


class condition:
    """`while tl.condition(c, disable_licm=False):` a while loop's
    condition `c` with a loop option: `disable_licm` asks the compiler to
    keep loop-invariant code inside the loop. Terrazzo accepts it as a
    hint, as for tl.range: the results are the same either way."""

    def __init__(self, arg1, disable_licm=False):
        self.condition = arg1
        self.disable_licm = disable_licm

    def __bool__(self):
        raise RuntimeError("tl.condition can only be the condition of a while loop "
                           "of a kernel")


class slice:  # noqa: A001 (Triton's name: tl.slice)
    """A slice `start:stop:step` in a tensor index, as the language
    spells it (`x[tl.slice(None, None, None), None]` is `x[:, None]`).
    As Python's slice in an index: only the full slice `:` is
    supported."""

    def __init__(self, start, stop, step):
        self.start = start
        self.stop = stop
        self.step = step

    def __repr__(self):
        return f"tl.slice({self.start!r}, {self.stop!r}, {self.step!r})"


# ---------------------------------------------------------------------------
# Operations that the backend cannot lower yet
# ---------------------------------------------------------------------------
# Reductions
# ---------------------------------------------------------------------------

@builtin
def reduce(input, axis, combine_fn, keep_dims=False):
    """Reduce `input` (a tensor or a tuple of tensors of one shape) along
    `axis` (None: all axes) with `combine_fn`, a @jit function taking the
    accumulators then the new values (`combine_fn(a0, .., b0, ..)`) and
    returning the new accumulators. Returns a tensor, or a tuple for a tuple."""
    return _current_semantic().reduce(input, axis, combine_fn, keep_dims)


@builtin
def sum(input, axis=None, keep_dims=False, dtype=None):
    """Sum along `axis` (None: all axes). Integers narrower than 32 bits sum
    as int32/uint32 (as Triton); fp16 and bf16 accumulate in fp32 and the
    result is converted back to the input's type; `dtype` picks the type to
    sum in (and the result's type)."""
    return _current_semantic().sum(input, axis, keep_dims, dtype)


@builtin
def xor_sum(input, axis=None, keep_dims=False):
    """Bitwise xor of the elements along `axis` (integers only)."""
    return _current_semantic().xor_sum(input, axis, keep_dims)


@builtin
def max(input, axis=None, return_indices=False, return_indices_tie_break_left=True,
        keep_dims=False):
    """Maximum along `axis` (None: all axes). As Triton: without indices,
    types narrower than 32 bits are reduced (and returned) as fp32/int32;
    NaNs are ignored unless all are NaN. With return_indices, also the
    (int32) index of the maximum, the lowest on ties."""
    return _current_semantic().minmax_reduce("max", input, axis, return_indices,
                                             return_indices_tie_break_left, keep_dims)


@builtin
def min(input, axis=None, return_indices=False, return_indices_tie_break_left=True,
        keep_dims=False):
    """Minimum along `axis`; see tl.max."""
    return _current_semantic().minmax_reduce("min", input, axis, return_indices,
                                             return_indices_tie_break_left, keep_dims)


@builtin
def argmax(input, axis, tie_break_left=True, keep_dims=False):
    """The int32 index of the maximum along `axis` (None: the flat index),
    the lowest on ties."""
    return _current_semantic().arg_reduce("max", input, axis, _unwrap(tie_break_left),
                                          keep_dims)


@builtin
def argmin(input, axis, tie_break_left=True, keep_dims=False):
    """The int32 index of the minimum along `axis`; see tl.argmax."""
    return _current_semantic().arg_reduce("min", input, axis, _unwrap(tie_break_left),
                                          keep_dims)


# ---------------------------------------------------------------------------
# Scans
# ---------------------------------------------------------------------------

@builtin
def associative_scan(input, axis, combine_fn, reverse=False):
    """The inclusive scan of `input` (a tensor or a tuple of tensors of one
    shape) along `axis` with `combine_fn`, a @jit function taking the
    accumulators then the new values (`combine_fn(a0, .., b0, ..)`) and
    returning the new accumulators: element i combines elements 0..i in
    order, or n-1..i with `reverse` (the accumulators then hold the later
    elements). Returns a tensor, or a tuple for a tuple."""
    return _current_semantic().associative_scan(input, axis, combine_fn, reverse)


@builtin
def cumsum(input, axis=0, reverse=False, dtype=None):
    """Cumulative sum along `axis` (from the end with `reverse`). As Triton:
    integers narrower than 32 bits sum as int32/uint32, bf16 as fp32 (the
    result's type); `dtype` picks the type to sum in."""
    return _current_semantic().cumsum(input, axis, reverse, dtype)


@builtin
def cumprod(input, axis=0, reverse=False):
    """Cumulative product along `axis` (from the end with `reverse`); bf16
    multiplies as fp32, as in Triton."""
    return _current_semantic().cumprod(input, axis, reverse)


@builtin
def inline_asm_elementwise(asm, constraints, args, dtype, is_pure, pack):
    """Runs the assembly `asm` on the elements of `args` (broadcast to one
    shape), `pack` elements per invocation, with LLVM's inline-assembly
    `constraints` (outputs `=r`, `=l`, ... first, then inputs; elements
    narrower than 32 bits share 32-bit registers). Returns a tensor of
    `dtype`, or a tuple of tensors when `dtype` is a sequence of types. The
    interpreter cannot run assembly: it raises InterpreterError."""
    return _current_semantic().inline_asm_elementwise(asm, constraints, args, dtype,
                                                      is_pure, pack)


# Member functions on tensors, as in Triton (x.exp(), x.to(...), ...).
def _attach_members():
    for name in ("exp", "exp2", "log", "log2", "sqrt", "rsqrt", "sin", "cos", "floor",
                 "ceil", "erf", "abs", "sigmoid", "cdiv", "broadcast_to", "expand_dims",
                 "multiple_of", "max_contiguous", "max_constancy", "cast", "sum",
                 "max", "min", "argmax", "argmin", "reduce", "cumsum", "cumprod",
                 "associative_scan", "reshape", "view", "ravel", "trans", "permute",
                 "split", "xor_sum", "store", "sqrt_rn"):
        fn = globals().get(name)
        if fn is None or hasattr(tensor, name):
            continue
        setattr(tensor, name, fn)


_attach_members()

__all__ = [
    "dtype", "pointer_type", "block_type", "constexpr", "tensor", "builtin",
    "void", "int1", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
    "uint64", "float8e4nv", "float8e5", "float8e4b15", "float8e4b8", "float8e5b16",
    "float16", "bfloat16", "float32", "float64",
    "program_id", "num_programs", "arange", "full", "zeros", "zeros_like", "full_like",
    "cast", "load", "store", "where", "minimum", "maximum", "clamp", "exp", "exp2",
    "log", "log2", "sqrt", "sqrt_rn", "rsqrt", "sin", "cos", "floor", "ceil", "erf",
    "abs", "fma", "sigmoid", "fdiv", "div_rn", "cdiv", "broadcast", "broadcast_to",
    "expand_dims", "multiple_of", "max_contiguous", "max_constancy", "assume",
    "static_assert", "static_print", "debug_barrier", "device_print", "dot", "dot_scaled",
    "device_assert", "static_range",
    "range", "condition", "constexpr_type", "slice", "PropagateNan", "reduce", "sum", "xor_sum", "max", "min", "argmax", "argmin",
    "associative_scan", "cumsum", "cumprod", "inline_asm_elementwise",
]
