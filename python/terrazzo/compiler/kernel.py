"""The drivers of a kernel: specialisation keys, the tile IR of a kernel
for one key, and interpretation of a launch.

A key is a tuple of one entry per parameter, then the tuple (num_warps,
num_stages):

* constexpr parameter: its value;
* pointer: ("p", dtype name, aligned to 16 bytes, fits in 2^31 bytes), the
  name None for None; "fits" (pointer_fits: the memory it belongs to lies
  within POINTER_RANGE_BYTES of its address) gives the kernel argument
  `tile.pointer_range = 32`, without which offsets from it are computed in
  i64 where they may pass 2^31;
* bool: ("b",);
* integer: ("i" or "l", value == 1, value % 16 == 0, value >= 0), or
  ("i"/"l",) when the parameter is not specialised (do_not_specialize),
  with value % 16 == 0 false when not specialised on alignment
  (do_not_specialize_on_alignment); a pointer of either kind counts as
  not aligned, and one not specialised as not fitting. Both name
  parameters by index or name, or members of tuple
  and aggregate parameters by an index path (parameter, then the member's
  position at each level: `(1, 0)`, `("pair", 1, 2)`); see
  specialisation_modes;
* float: ("f",) (and ("d",) for float64 values);
* host tensor descriptor (terrazzo.tools.tensor_descriptor): ("tensordesc",
  base pointer entry, shape entries, stride entries, block shape, padding),
  with an integer entry per shape and stride value; the kernel takes it as
  1 + 2 * rank parameters (base, shape, strides);
* tuple (a tuple, list or NamedTuple) or aggregate instance
  (core/structures.py): ("tuple", class, member entries), an entry per
  item or field: the entry of a runtime value as above (pointers, integers,
  floats, bools, nested tuples and aggregates, specialised as a parameter
  of their own), or ("c", value) for a compile-time value (None, a
  tl.constexpr, a function, a dtype); the kernel takes the runtime members
  as parameters of their own, in order.

This is the key of the C++ dispatcher (`_C.Dispatcher`), which computes
it at launch; `compute_key` computes the same key for the paths that have
no dispatcher (IR inspection without the extension, the interpreter), and
`split_key` is the one place that takes a key apart.
"""

from __future__ import annotations

import hashlib
import json
import numbers
import operator
import os
import sys
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple

import numpy as np

from ..errors import (CompilationError, InterpretedCompilationError, InterpreterError,
                      SemanticError)
from ..core import lang as tl
from ..core.lang import constexpr, pointer_type, tensor
from ..core.structures import build, is_structure, struct_class
from ..core.structures import parts as struct_parts
from .codegen import CompileContext, run_function_body
from .parsed_function import ParsedFunction
from .interpreter import InterpreterBuilder, Memory, argument_value, host_descriptor_value
from .ir_builder import IRBuilder
from .semantic import Semantic

DIVISIBILITY = "tile.divisibility = 16 : i32"
# A pointer whose memory fits in 2^31 bytes (the key's bit): every address
# formed from it is within 2^31 bytes of it (tile::TileDialect::
# kPointerRangeAttrName), so its i32 offsets need no promotion to i64 and
# AMD's buffer loads may read through it.
POINTER_RANGE = "tile.pointer_range = 32 : i32"
#: How far, in bytes, the memory of a pointer argument may reach on either
#: side of its address for the key's "fits" bit: 2^31 less 2^20, so that a
#: block's offsets past the end (a masked tail's; a block holds at most 2^20
#: elements) stay below 2^31 for 1-byte elements too. The C++ dispatcher's
#: (`_C.POINTER_RANGE_BYTES`, checked equal by a test).
POINTER_RANGE_BYTES = (1 << 31) - (1 << 20)
# An integer known not to be negative (a key entry of its own, so that a
# negative value compiles another kernel): what lets the compiler prove
# that a pointer load reads a box of a strided tensor (terrazzo-loads-to-
# descriptors needs non-negative strides and extents).
NONNEGATIVE = "tile.nonnegative"
#: Warps per program instance when a launch names none: the compiler's
#: default (`_C.default_num_warps()`), which the Python-only paths need too.
DEFAULT_NUM_WARPS = 4
#: Software-pipelining stages when a launch names none.
DEFAULT_NUM_STAGES = 3
#: The most warps per program instance: the compiler's (`_C.max_num_warps()`).
MAX_NUM_WARPS = 32
#: The range of the `maxnreg` launch option (registers per thread): the
#: compiler's (`_C.maxnreg_range()`).
MAXNREG_RANGE = (24, 255)
_NONE_NAMES = (None, "", "none", "None", "NoneType", "null")


class ParamSpec(NamedTuple):
    kind: str  # constexpr | ptr | none | int | float | bool | desc | tuple
    value: Any = None  # constexpr value; desc: DescriptorSpec; tuple: (class, member specs)
    dtype: Any = None  # tl dtype of a pointer's elements / of a scalar
    divisible: bool = False  # pointer aligned to 16 bytes / int % 16 == 0
    fits: bool = False  # pointer whose memory fits in 2^31 bytes (POINTER_RANGE)
    equal_to_1: bool = False
    nonnegative: bool = False  # int >= 0
    sig: str = ""  # launch signature character (one per kernel parameter)


class DescriptorSpec(NamedTuple):
    """The `value` of a "desc" ParamSpec: a host tensor descriptor passed as
    its base pointer, shape and strides (each a ParamSpec of its own)."""
    base: ParamSpec
    shape: List[ParamSpec]
    strides: List[ParamSpec]
    block_shape: List[int]
    padding: str

    def parts(self) -> List[ParamSpec]:
        return [self.base, *self.shape, *self.strides]


def check_races_requested() -> bool:
    """Whether the interpreter reports two programs of a launch storing to
    one address without an atomic: TERRAZZO_INTERPRET_CHECK_RACES (on
    unless set to 0)."""
    value = os.environ.get("TERRAZZO_INTERPRET_CHECK_RACES", "1")
    return value.strip().lower() not in ("", "0", "false", "no", "off")


def _check_compiles(parsed: ParsedFunction, key: tuple) -> None:
    """Generates the tile IR of `parsed` for `key` (a launch's, in the
    interpreter), raising the compiler's error as an interpreter error."""
    checked = parsed.__dict__.setdefault("_interpreter_checked_keys", set())
    try:
        if key in checked:
            return
    except TypeError:  # an unhashable constexpr: checked every time
        checked = None
    entries, num_warps, _ = split_key(key, len(parsed.arg_names))
    try:
        generate_kernel_ir(parsed, specs_from_key(parsed, entries), debug=True,
                           num_warps=num_warps)
    except CompilationError as e:
        raise InterpretedCompilationError.from_error(e) from e.__cause__
    if checked is not None:
        checked.add(key)


def _is_host_descriptor(value) -> bool:
    """Whether `value` is a host TensorDescriptor (without importing
    terrazzo.tools where no caller has)."""
    module = sys.modules.get("terrazzo.tools.tensor_descriptor")
    return module is not None and isinstance(value, module.TensorDescriptor)


def _int_entry(v: int) -> tuple:
    return ("i" if -(1 << 31) <= v < (1 << 31) else "l", v == 1, v % 16 == 0, v >= 0)


def _descriptor_entry(desc) -> tuple:
    """The key entry of a host tensor descriptor (the module's docstring)."""
    name, aligned = _pointer_dtype_name(desc.base)
    return ("tensordesc", ("p", name, aligned, pointer_fits(desc.base)),
            tuple(_int_entry(int(v)) for v in desc.shape),
            tuple(_int_entry(int(v)) for v in desc.strides),
            tuple(int(b) for b in desc.block_shape), desc.padding)


def _pointer_dtype_name(value) -> Tuple[Optional[str], bool]:
    """(dtype name, aligned to 16) of a pointer-like argument."""
    if value is None:
        return None, True
    if hasattr(value, "data_ptr") and hasattr(value, "dtype"):
        return str(value.dtype).replace("torch.", ""), value.data_ptr() % 16 == 0
    iface = getattr(value, "__cuda_array_interface__", None) or \
        getattr(value, "__array_interface__", None)
    if iface is not None:
        import numpy as np
        return np.dtype(iface["typestr"]).name, iface["data"][0] % 16 == 0
    raise CompilationError(f"cannot pass {type(value).__name__} as a pointer")


class StorageExtent(NamedTuple):
    """The memory a pointer argument belongs to, as torch's UntypedStorage
    tells it (`data_ptr()`, `nbytes()`): what `untyped_storage()` of a
    TensorWrapper over a NumPy array or of a MockTensor returns."""
    address: int
    size: int

    def data_ptr(self) -> int:
        return self.address

    def nbytes(self) -> int:
        return self.size


def array_storage(array) -> Optional[StorageExtent]:
    """The memory a NumPy array's elements belong to: the array that owns
    it (through views); None when another object owns it (bytes, a memory
    map, a stride trick's interface object) or `array` is no NumPy array."""
    if not isinstance(array, np.ndarray):
        return None
    owner = array
    while isinstance(owner.base, np.ndarray):
        owner = owner.base
    if owner.base is not None:
        return None
    return StorageExtent(owner.__array_interface__["data"][0], owner.nbytes)


def pointer_fits(value) -> bool:
    """The key's "fits in 2^31 bytes" bit of a pointer argument: whether
    the memory it belongs to (its `untyped_storage()`: torch tensors,
    TensorWrapper, MockTensor; a NumPy array's owner) lies within
    POINTER_RANGE_BYTES of its address on both sides. False when unknown
    (a raw address, __cuda_array_interface__, DLPack, a storage that is
    None or cannot be asked). The C++ dispatcher's fitsPointerRange."""
    if value is None:
        return True  # nothing is addressed
    try:
        if hasattr(type(value), "data_ptr") and hasattr(type(value), "untyped_storage"):
            storage, address = value.untyped_storage(), value.data_ptr()
        elif isinstance(value, np.ndarray):
            storage, address = array_storage(value), value.__array_interface__["data"][0]
        else:
            return False
        if storage is None:
            return False
        start, size = int(storage.data_ptr()), int(storage.nbytes())
    except Exception:  # an object whose storage cannot be asked for
        return False
    return start <= address and address - start <= POINTER_RANGE_BYTES and \
        size >= address - start and size - (address - start) <= POINTER_RANGE_BYTES


def _is_pointer_like(value) -> bool:
    if value is None or hasattr(value, "data_ptr") or hasattr(value, "__cuda_array_interface__"):
        return True
    if hasattr(value, "__array_interface__"):
        import numpy as np
        return not isinstance(value, np.generic) and getattr(value, "ndim", 1) != 0
    return False


def is_runtime_member(value) -> bool:
    """Whether a member of a tuple or aggregate argument is passed at run
    time (numbers, pointers, nested structures; anything but None, a
    tl.constexpr, a dtype, a string or a function, which are compile-time
    values of the key)."""
    return not (value is None or isinstance(value, (constexpr, tl.dtype, str)) or
                callable(value))


#: How a parameter (or a member of a tuple parameter) is specialised: the
#: values of JITFunction.do_not_specialize, which the C++ dispatcher takes
#: as they are.
SPECIALISE, NO_SPECIALISE, NO_ALIGNMENT = 0, 1, 2


def specialisation_modes(arg_names: Sequence[str], do_not_specialize,
                         do_not_specialize_on_alignment) -> list:
    """Per parameter, how it is specialised: SPECIALISE, NO_SPECIALISE
    (named by do_not_specialize) or NO_ALIGNMENT (by
    do_not_specialize_on_alignment); for a parameter whose tuple members
    are named, a dict from member paths (positions at each level; () for
    the parameter itself) to modes. Entries name a parameter by index or
    name, or a member by a path whose first item does (as in Triton, a
    whole tuple parameter named keeps its members specialised); an entry
    naming no parameter is a ValueError."""
    modes: list = [SPECIALISE] * len(arg_names)

    def parameter(entry, option):
        if isinstance(entry, str) and entry in arg_names:
            return arg_names.index(entry)
        if isinstance(entry, int) and not isinstance(entry, bool) and \
                -len(arg_names) <= entry < len(arg_names):
            return entry % len(arg_names)
        raise ValueError(f"{option} names unknown parameters [{entry!r}] (parameters: "
                         f"{', '.join(arg_names)})")

    for option, mode, entries in (("do_not_specialize_on_alignment", NO_ALIGNMENT,
                                   do_not_specialize_on_alignment),
                                  ("do_not_specialize", NO_SPECIALISE, do_not_specialize)):
        for entry in entries or ():
            path: tuple = ()
            if isinstance(entry, (tuple, list)):
                if not entry or not all(isinstance(i, int) and not isinstance(i, bool) and
                                        i >= 0 for i in entry[1:]):
                    raise ValueError(f"{option}: {entry!r} is no path to a tuple member "
                                     "(a parameter, then member positions)")
                entry, path = entry[0], tuple(entry[1:])
            i = parameter(entry, option)
            if path or isinstance(modes[i], dict):
                if not isinstance(modes[i], dict):
                    modes[i] = {(): modes[i]}
                # do_not_specialize wins: it drops alignment too.
                if modes[i].get(path) != NO_SPECIALISE:
                    modes[i][path] = mode
            elif modes[i] != NO_SPECIALISE:
                modes[i] = mode
    return modes


def member_mode(mode, path: tuple = ()) -> int:
    """The mode of the member at `path` of a parameter whose mode (an entry
    of specialisation_modes) is `mode`."""
    if isinstance(mode, dict):
        return mode.get(path, SPECIALISE)
    return mode if not path else SPECIALISE


def _argument_entry(value, mode=SPECIALISE):
    """The key entry of a runtime argument (the module's docstring),
    specialised as `mode` (an entry of specialisation_modes) says."""
    own = member_mode(mode)
    if getattr(value, "ndim", None) == 0 and hasattr(value, "item") and \
            not hasattr(value, "data_ptr"):
        value = value.item()  # NumPy scalars
    if isinstance(value, bool):
        return ("b",)
    if isinstance(value, numbers.Integral) and not _is_pointer_like(value):
        v = int(value)
        kind = "i" if -(1 << 31) <= v < (1 << 31) else "l"
        if own == NO_SPECIALISE:
            return (kind,)
        return (kind, v == 1, own == SPECIALISE and v % 16 == 0, v >= 0)
    if isinstance(value, numbers.Real) and not _is_pointer_like(value):
        return ("f",)
    if _is_host_descriptor(value):
        return _descriptor_entry(value)
    if is_structure(value):
        return tuple_entry(tuple_template(value),
                           iter([_argument_entry(m, member_mode(mode, path))
                                 for path, m in runtime_member_paths(value)]))
    if _is_pointer_like(value):
        name, aligned = _pointer_dtype_name(value)
        return ("p", name, aligned and own == SPECIALISE,
                own != NO_SPECIALISE and pointer_fits(value))
    raise CompilationError(f"cannot pass a {type(value).__name__} to a kernel; mark "
                           "the parameter tl.constexpr for compile-time values")


def tuple_template(value) -> tuple:
    """What the key says of a tuple or aggregate argument besides the
    entries of its runtime members: ("tuple", class, members), a member
    being "arg" (a runtime member), ("c", value) or a nested template."""
    members = []
    for m in struct_parts(value):
        if is_structure(m):
            members.append(tuple_template(m))
        elif is_runtime_member(m):
            members.append("arg")
        else:
            c = m.value if isinstance(m, constexpr) else m
            try:
                hash(c)
            except TypeError:
                raise CompilationError(f"cannot pass {c!r} inside a tuple or aggregate "
                                       "argument: its compile-time members are part of the "
                                       "kernel's key and must be hashable") from None
            members.append(("c", c))
    return ("tuple", struct_class(value), tuple(members))


def runtime_members(value) -> list:
    """The runtime members of a tuple or aggregate argument, nested ones
    included, in order: the kernel parameters that pass it."""
    return [m for _, m in runtime_member_paths(value)]


def runtime_member_paths(value, prefix: tuple = ()) -> list:
    """(path, member) of each runtime member of a tuple or aggregate
    argument, in order; a path is the member's position at each level."""
    out = []
    for i, m in enumerate(struct_parts(value)):
        if is_structure(m):
            out.extend(runtime_member_paths(m, prefix + (i,)))
        elif is_runtime_member(m):
            out.append((prefix + (i,), m))
    return out


def tuple_entry(template: tuple, entries) -> tuple:
    """The key entry of a tuple argument: its template with the entries of
    its runtime members (an iterator, in order) in place."""
    _, cls, members = template
    return ("tuple", cls, tuple(next(entries) if m == "arg" else
                                m if m[0] == "c" else tuple_entry(m, entries)
                                for m in members))


def compute_key(parsed: ParsedFunction, values: Sequence[Any], do_not_specialize: Sequence[Any],
                num_warps: int = DEFAULT_NUM_WARPS,
                num_stages: int = DEFAULT_NUM_STAGES) -> tuple:
    """The specialisation key of a launch (see the module's docstring);
    `do_not_specialize` has an entry of specialisation_modes per
    parameter."""
    key = []
    for value, is_cx, mode in zip(values, parsed.constexprs, do_not_specialize):
        if is_cx:
            key.append(value.value if isinstance(value, constexpr) else value)
        else:
            key.append(_argument_entry(value, mode))
    key.append((check_num_warps(num_warps), check_num_stages(num_stages)))
    return tuple(key)


# ---------------------------------------------------------------------------
# Launch checks: the C++ dispatcher's (python/src/Dispatcher.cpp optionValue
# and the num_warps check, ArgumentPacking.cpp parseGrid), with the same
# exceptions and messages, for the paths without it (the interpreter, IR
# and compile-only requests).
# ---------------------------------------------------------------------------

_INT32_MAX = (1 << 31) - 1
_UINT32_MAX = (1 << 32) - 1


def type_name(value) -> str:
    """The name of `value`'s type as the C++ extension spells it in errors."""
    t = type(value)
    return t.__name__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__name__}"


def launch_option(value, name: str, minimum: int, default: int) -> int:
    """An integer launch option: None for its default, else an int (not a
    float, a string or a NumPy scalar) from `minimum` to 2^31 - 1."""
    if value is None:
        return default
    if not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {type_name(value)}")
    if value < minimum or value > _INT32_MAX:
        raise ValueError(f"{name} = {value!r} is out of range")
    return int(value)


def check_num_warps(value) -> int:
    n = launch_option(value, "num_warps", -(1 << 63), DEFAULT_NUM_WARPS)
    if n < 1 or n & (n - 1) or n > MAX_NUM_WARPS:
        # AssertionError, as Triton's launch option check raises (for 0 and
        # negative numbers too).
        raise AssertionError(f"num_warps must be a power of 2 from 1 to {MAX_NUM_WARPS}, "
                             f"got {n}")
    return n


def check_maxnreg(value) -> int:
    """`maxnreg` (Triton's): registers per thread the kernel may use."""
    n = launch_option(value, "maxnreg", 1, 0)
    low, high = MAXNREG_RANGE
    if not low <= n <= high:
        raise ValueError(f"maxnreg must be from {low} to {high} registers per thread, got {n}")
    return n


def check_num_stages(value) -> int:
    return launch_option(value, "num_stages", 0, DEFAULT_NUM_STAGES)


def check_grid(grid) -> Tuple[int, int, int]:
    """A launch's grid (an int, or a tuple or list of 1 to 3 of them) as
    three dimensions."""
    if isinstance(grid, (tuple, list)):
        items = list(grid)
    elif isinstance(grid, int):
        items = [grid]
    else:
        raise TypeError("grid must be a tuple of 1 to 3 ints (or a callable returning one), "
                        f"got {type_name(grid)}")
    if not 1 <= len(items) <= 3:
        raise ValueError(f"grid must have 1 to 3 dimensions, got {len(items)}: {grid!r}")
    dims = []
    for d, item in enumerate(items):
        try:
            value = operator.index(item)
        except TypeError:
            raise TypeError(f"grid dimension {d} must be an int, got "
                            f"{type_name(item)}") from None
        if value < 0 or value > _UINT32_MAX:
            raise ValueError(f"grid dimension {d} = {item!r} is out of range")
        dims.append(int(value))
    return tuple(dims) + (1,) * (3 - len(dims))


class SplitKey(NamedTuple):
    entries: list  # one per parameter
    num_warps: int
    num_stages: int


def split_key(key, n: int) -> SplitKey:
    """The parts of a key (the module's docstring) of a kernel with `n`
    parameters."""
    key = tuple(key)
    if len(key) == n + 1 and isinstance(key[n], tuple) and len(key[n]) == 2:
        return SplitKey(list(key[:n]), int(key[n][0]), int(key[n][1]))
    raise CompilationError(f"unexpected specialisation key {key!r} for {n} parameters")


def specs_from_key(parsed: ParsedFunction, entries: Sequence[Any]) -> List[ParamSpec]:
    return [ParamSpec("constexpr", value=e) if is_cx else _entry_spec(name, e)
            for name, is_cx, e in zip(parsed.arg_names, parsed.constexprs, entries)]


def _entry_spec(name: str, e) -> ParamSpec:
    """The ParamSpec of the key entry `e` of the runtime parameter `name`."""
    if e is None:
        return ParamSpec("none", sig="p")
    if not isinstance(e, tuple) or not e:
        raise CompilationError(f"unexpected key entry {e!r} for parameter {name!r}")
    tag = e[0]
    if tag == "p":
        dname = e[1] if len(e) > 1 else None
        aligned = bool(e[2]) if len(e) > 2 else False
        fits = bool(e[3]) if len(e) > 3 else False
        if dname in _NONE_NAMES:
            return ParamSpec("none", sig="p")
        dt = tl.dtype_from_name(dname)
        if dt is None or dt.is_void():
            raise CompilationError(f"argument {name!r}: tensors of {dname} are not "
                                   "supported")
        return ParamSpec("ptr", dtype=dt, divisible=aligned, fits=fits, sig="p")
    if tag in ("i", "l"):
        dt = tl.int32 if tag == "i" else tl.int64
        eq1 = bool(e[1]) if len(e) > 1 else False
        div = bool(e[2]) if len(e) > 2 else False
        nonneg = bool(e[3]) if len(e) > 3 else False
        return ParamSpec("int", dtype=dt, divisible=div, equal_to_1=eq1,
                         nonnegative=nonneg, sig=tag)
    if tag == "f":
        return ParamSpec("float", dtype=tl.float32, sig="f")
    if tag == "d":
        return ParamSpec("float", dtype=tl.float64, sig="d")
    if tag == "b":
        return ParamSpec("bool", dtype=tl.int1, sig="b")
    if tag == "tensordesc" and len(e) == 6:
        return _descriptor_spec(name, e)
    if tag == "c" and len(e) == 2:
        return ParamSpec("constexpr", value=e[1])
    if tag == "tuple" and len(e) == 3:
        members = [_entry_spec(name, m) for m in e[2]]
        return ParamSpec("tuple", value=(e[1], members),
                         sig="".join(m.sig for m in members))
    raise CompilationError(f"unexpected key entry {e!r} for parameter {name!r}")


def _leaf_specs(spec: ParamSpec) -> List[ParamSpec]:
    """The specs of the kernel parameters that pass one argument: its own,
    a descriptor's parts, or a tuple's members in order."""
    if spec.kind == "desc":
        return spec.value.parts()
    if spec.kind == "tuple":
        return [leaf for m in spec.value[1] for leaf in _leaf_specs(m)]
    return [spec]


def _tuple_value(spec: ParamSpec, leaves, descriptor):
    """The kernel's value of a tuple argument from the values of its runtime
    members (an iterator, in order); `descriptor(spec, parts)` makes a host
    descriptor member of its parts."""
    cls, members = spec.value

    def member(m):
        if m.kind == "tuple":
            return _tuple_value(m, leaves, descriptor)
        if m.kind == "constexpr":
            return constexpr(m.value)
        if m.kind == "desc":
            return descriptor(m.value, [next(leaves) for _ in m.value.parts()])
        return next(leaves)
    return build(cls, [member(m) for m in members])


def _descriptor_spec(name: str, entry: tuple) -> ParamSpec:
    """The ParamSpec of a ("tensordesc", ...) key entry."""
    _, base, shape, strides, block, padding = entry
    rank = len(block)
    if len(shape) != rank or len(strides) != rank:
        raise CompilationError(f"unexpected key entry {entry!r} for parameter {name!r}")
    parts = specs_from_key(_Params([name] * (1 + 2 * rank)), [base, *shape, *strides])
    if parts[0].kind != "ptr":
        raise CompilationError(f"argument {name!r}: a TensorDescriptor's base must be a "
                               f"tensor, got {base!r}")
    desc = DescriptorSpec(parts[0], parts[1:1 + rank], parts[1 + rank:], list(block),
                          padding)
    return ParamSpec("desc", value=desc, dtype=parts[0].dtype,
                     sig="".join(p.sig for p in desc.parts()))


class _Params(NamedTuple):
    """What specs_from_key reads of a ParsedFunction: runtime parameters
    only (the parts of a descriptor)."""
    arg_names: List[str]

    @property
    def constexprs(self):
        return [False] * len(self.arg_names)


class KernelIR(NamedTuple):
    text: str
    name: str
    signature: str  # one character per runtime parameter


def generate_kernel_ir(parsed: ParsedFunction, specs: Sequence[ParamSpec],
                       debug: bool = False, num_warps: Optional[int] = None) -> KernelIR:
    """The tile IR of `parsed` specialised for `specs` (and for `num_warps`,
    which only tl.extra.cuda.num_warps/num_threads read)."""
    builder = IRBuilder()
    sem = Semantic(builder, debug=debug, num_warps=num_warps)
    ctx = CompileContext(builder, sem)
    ctx.symbols.add(parsed.name)
    arg_nodes = parsed.tree.args.args + parsed.tree.args.kwonlyargs
    node_by_name = {a.arg: a for a in arg_nodes}
    args, runtime, signature = [], [], ""
    # A host tensor descriptor is passed as its parts (base, shape, strides)
    # and a tuple as its runtime members, each a parameter of its own; the
    # descriptor or tuple is built from them below.
    composites = {name: [] for name, spec in zip(parsed.arg_names, specs)
                  if spec.kind in ("desc", "tuple")}
    params = [(name, part, const) for name, spec, const in
              zip(parsed.arg_names, specs, parsed.consts) for part in _leaf_specs(spec)]
    for name, spec, const in params:
        if spec.kind == "constexpr":
            continue
        aloc = parsed.loc(node_by_name[name]) if name in node_by_name else None
        if spec.kind in ("ptr", "none"):
            ty = pointer_type(spec.dtype if spec.kind == "ptr" else tl.int8, const=const)
            hints = [DIVISIBILITY] if spec.divisible and spec.kind == "ptr" else []
            if spec.fits and spec.kind == "ptr":
                hints.append(POINTER_RANGE)
            attrs = "{" + ", ".join(hints) + "}" if hints else ""
        elif spec.kind == "int":
            ty = spec.dtype
            hints = [DIVISIBILITY] if spec.divisible and not spec.equal_to_1 else []
            if spec.nonnegative and not spec.equal_to_1:
                hints.append(NONNEGATIVE)
            attrs = "{" + ", ".join(hints) + "}" if hints else ""
        else:
            ty, attrs = spec.dtype, ""
        args.append((ty, attrs, aloc))
        runtime.append((name, spec, ty))
        signature += spec.sig
    fn_loc = parsed.loc(parsed.tree)
    func, handles = builder.begin_function(parsed.name, args, False, fn_loc)
    scope = {}
    for name, spec in zip(parsed.arg_names, specs):
        if spec.kind == "constexpr":
            scope[name] = constexpr(spec.value)
    with builder.insert_into(func.body):
        builder.loc = fn_loc
        for (name, spec, ty), h in zip(runtime, handles):
            if spec.kind == "none":
                value = constexpr(None)
            elif spec.kind == "int" and spec.equal_to_1:
                builder.loc = parsed.loc(node_by_name[name]) if name in node_by_name else fn_loc
                value = sem.constant(1, ty)
                value.known_value = 1  # e.g. a descriptor's last stride
            else:
                value = tensor(h, ty)
                # What tl.make_tensor_descriptor checks of its base.
                value.misaligned = spec.kind == "ptr" and not spec.divisible
            if name in composites:
                composites[name].append(value)
            else:
                scope[name] = value
        for name, spec in zip(parsed.arg_names, specs):
            if spec.kind == "desc":
                scope[name] = _host_descriptor(sem, parsed, node_by_name, name, spec.value,
                                               composites[name])
            elif spec.kind == "tuple":
                scope[name] = _tuple_value(
                    spec, iter(composites[name]),
                    lambda desc, parts, name=name: _host_descriptor(
                        sem, parsed, node_by_name, name, desc, parts))
        builder.loc = fn_loc
        run_function_body(ctx, parsed, scope)
        last = parsed.tree.body[-1] if parsed.tree.body else parsed.tree
        builder.loc = parsed.loc(last)
        builder.function_return([])
    header = f"Generated by Terrazzo from {parsed.file}: kernel {parsed.name}"
    return KernelIR(builder.module_text(header), parsed.name, signature)


def _host_descriptor(sem, parsed, node_by_name, name, desc: DescriptorSpec, parts):
    """The kernel's descriptor for host descriptor `name` from its parts."""
    node = node_by_name.get(name)
    loc = parsed.loc(node) if node is not None else parsed.loc(parsed.tree)
    sem.builder.loc = loc
    rank = len(desc.block_shape)
    try:
        return sem.host_tensor_descriptor(name, parts[0], parts[1:1 + rank],
                                          parts[1 + rank:], desc.block_shape, desc.padding)
    except SemanticError as e:
        raise e.compilation_error(str(e), loc) from e


def _interpreted_tuple(memory, builder, sem, parsed, name, value):
    """The interpreter's value of a tuple or aggregate argument: its runtime
    members as arguments (host descriptors as the compiled kernel builds
    them), its compile-time ones as constexprs."""
    def member(m):
        if is_structure(m):
            return _interpreted_tuple(memory, builder, sem, parsed, name, m)
        if _is_host_descriptor(m):
            return host_descriptor_value(memory, builder, sem, parsed, name, m)
        if is_runtime_member(m):
            return argument_value(memory, builder, name, m)
        return constexpr(m)
    return build(struct_class(value), [member(m) for m in struct_parts(value)])


def key_digest(*parts) -> str:
    """A stable hash of JSON-able parts (values that JSON cannot hold are
    spelled with repr)."""
    text = json.dumps(parts, sort_keys=True, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()


def interpret(parsed, grid, bound: Dict[str, Any], num_warps: Optional[int] = None,
              num_stages: Optional[int] = None,
              do_not_specialize: Optional[Sequence[Any]] = None) -> None:
    """Runs every program instance of `grid` with the bound arguments in the
    interpreter: the same code generator and semantic layer as
    generate_kernel_ir, over the interpreter's builder.

    First, what a compiled launch checks: the grid and launch options, and
    the kernel's tile IR generated for the launch's key (once per key), so
    that the interpreter rejects every kernel the compiler rejects (a branch
    not taken included), with the compiler's message."""
    grid3 = check_grid(grid)
    key = compute_key(parsed, [bound[name] for name in parsed.arg_names],
                      do_not_specialize or [False] * len(parsed.arg_names), num_warps,
                      num_stages)
    num_warps = key[-1][0]
    _check_compiles(parsed, key)
    memory = Memory(check_races=check_races_requested())
    builder = InterpreterBuilder(memory, grid3)
    sem = Semantic(builder, debug=True, num_warps=num_warps)
    ctx = CompileContext(builder, sem)
    base: Dict[str, Any] = {}
    for name, is_cx, const in zip(parsed.arg_names, parsed.constexprs, parsed.consts):
        value = bound[name]
        if is_cx:
            base[name] = constexpr(value)
        elif _is_host_descriptor(value):
            base[name] = host_descriptor_value(memory, builder, sem, parsed, name, value)
        elif is_structure(value):
            base[name] = _interpreted_tuple(memory, builder, sem, parsed, name, value)
        else:
            base[name] = argument_value(memory, builder, name, value)
            if const and isinstance(base[name], tensor) and base[name].type.is_ptr():
                base[name] = tensor(base[name].handle,
                                    pointer_type(base[name].type.element_ty, const=True))
    try:
        with np.errstate(all="ignore"):
            for z in range(grid3[2]):
                for y in range(grid3[1]):
                    for x in range(grid3[0]):
                        builder.start_program((x, y, z))
                        run_function_body(ctx, parsed, dict(base))
    except CompilationError as e:
        if isinstance(e, InterpreterError):
            raise
        # Triton's interpreter raises InterpreterError for every error.
        raise InterpretedCompilationError.from_error(e) from e.__cause__
    finally:
        memory.finish()
