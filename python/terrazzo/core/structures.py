"""Values made of other values: `tl.tuple` and aggregate classes
(`terrazzo.aggregate`, Triton's `triton.language.core._aggregate`).

A tuple (a Python tuple or list, a NamedTuple, `tl.tuple`) or an aggregate
instance holds tensors, nested structures and compile-time values. Where
such a value crosses a function boundary (a call of a @jit function, its
return, a kernel's parameter) it travels as its tensors, in order
(`flatten`); the rest, the *structure* (its classes, the types of its
tensors, its compile-time values), is part of the specialisation, and
`unflatten` builds the same kind of value of other tensors.

An aggregate class declares its fields with annotations (`x: tl.tensor`,
`BLOCK: tl.constexpr`); its `__init__` runs at compile time (a default one
takes the fields in order), and its @jit methods are called with the
instance first (`obj.method(...)`).
"""

from __future__ import annotations

import builtins
import inspect
from typing import Iterator, List

from ..errors import SemanticError
from .lang import _current_semantic, _unwrap, constexpr, is_constexpr_annotation, tensor


class _TupleClass(type):
    """Every tuple of a kernel is a `tl.tuple` to isinstance, as in Triton
    (whose frontend makes each tuple one)."""

    def __instancecheck__(cls, value):
        return isinstance(value, builtins.tuple)


class tuple(builtins.tuple, metaclass=_TupleClass):
    """`tl.tuple(iterable)`: a tuple of language values (a Python tuple in
    every respect; kernels may use either)."""

    __terrazzo_builtin__ = True

    def __new__(cls, args=(), type=None):  # noqa: A002 (Triton's signature)
        return super().__new__(cls, args)

    def __repr__(self):
        return f"tl.tuple{builtins.tuple.__repr__(self)}"


def is_tuple(value) -> bool:
    """A tuple value of the language (lists too, as Triton accepts them)."""
    return isinstance(value, (builtins.tuple, list))


def is_aggregate_instance(value) -> bool:
    return getattr(type(value), "_terrazzo_aggregate", False) is True


def fields_of(value) -> List[str]:
    return list(type(value)._terrazzo_fields)


def parts(value) -> list:
    """The components of a structure (tuple items or aggregate fields; a
    field annotated tl.constexpr as a constexpr)."""
    if is_aggregate_instance(value):
        cx = type(value)._terrazzo_constexpr_fields
        return [_as_constexpr(getattr(value, f)) if f in cx else getattr(value, f)
                for f in fields_of(value)]
    return list(value)


def _as_constexpr(v):
    return v if isinstance(v, constexpr) else constexpr(v)


def _is_tensor_annotation(ann) -> bool:
    return ann is tensor or (isinstance(ann, str) and ann.split(".")[-1] == "tensor")


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _in_kernel() -> bool:
    try:
        _current_semantic()
        return True
    except RuntimeError:
        return False


def struct_class(value) -> type:
    """The class a structure is rebuilt as: its own for aggregates, lists,
    NamedTuples and tl.tuple; a plain tuple for other tuple classes
    (torch.Size)."""
    cls = type(value)
    if is_aggregate_instance(value) or cls in (list, tuple) or hasattr(cls, "_fields"):
        return cls
    return builtins.tuple


def build(cls: type, items: list):
    """A structure of class `cls` (see struct_class) made of `items`."""
    if getattr(cls, "_terrazzo_aggregate", False) is True:
        instance = object.__new__(cls)
        for f, v in zip(cls._terrazzo_fields, items):
            object.__setattr__(instance, f, v)
        return instance
    if cls is list or cls is tuple:
        return cls(items)
    if hasattr(cls, "_fields"):  # a NamedTuple
        return cls(*items)
    return builtins.tuple(items)


def is_structure(value) -> bool:
    return is_tuple(value) or is_aggregate_instance(value)


def flatten(value) -> List[tensor]:
    """The tensors of `value` (a tensor, a structure, or a compile-time
    value: none), in order."""
    value = _unwrap(value)
    if isinstance(value, tensor):
        return [value]
    if is_structure(value):
        return [t for part in parts(value) for t in flatten(part)]
    if hasattr(value, "_flatten"):  # block pointers, tensor descriptors
        return list(value._flatten())
    return []


def unflatten(like, tensors: Iterator[tensor]):
    """`like` with its tensors replaced by the next ones of `tensors`."""
    u = _unwrap(like)
    if isinstance(u, tensor):
        return next(tensors)
    if is_structure(u):
        return build(struct_class(u), [unflatten(part, tensors) for part in parts(u)])
    if hasattr(u, "_flatten"):
        return u._unflatten([next(tensors) for _ in u._flatten()])
    return like


def structure(value):
    """What two values must share to be passed as one another's tensors:
    their classes, the types of their tensors and their compile-time
    values (hashable)."""
    value = _unwrap(value)
    if isinstance(value, tensor):
        return ("t", value.type)
    if is_structure(value):
        return (struct_class(value), builtins.tuple(structure(p) for p in parts(value)))
    if hasattr(value, "_flatten"):
        return ("a", value._structure())
    try:
        hash(value)
    except TypeError:
        raise SemanticError(f"cannot pass {value!r} inside a tuple or aggregate: it is "
                            "neither a tensor nor a hashable compile-time value") from None
    return ("c", type(value), value)


# ---------------------------------------------------------------------------
# Aggregate classes
# ---------------------------------------------------------------------------

def aggregate(cls):
    """Makes `cls` an aggregate: a value of named fields (its annotations)
    that kernels create, pass to and return from @jit functions, carry
    through loops and branches, and receive as parameters. Its @jit
    methods take the instance first. As Triton's `_aggregate`."""
    annotations = inspect.get_annotations(cls)
    fields = list(annotations.keys())
    tensor_fields = frozenset(f for f, ann in annotations.items() if _is_tensor_annotation(ann))
    if not fields:
        raise TypeError(f"aggregate {cls.__name__} declares no fields (annotate them, e.g. "
                        "`x: tl.tensor`)")
    own_init = cls.__dict__.get("__init__")
    if own_init is not None and getattr(own_init, "_terrazzo_jit_function", False):
        raise ValueError(f"{cls.__name__}.__init__ cannot be a @jit function")
    if own_init is None:
        def __init__(self, *args, **kwargs):
            if len(args) > len(fields):
                raise TypeError(f"{cls.__name__}() takes {len(fields)} arguments, got "
                                f"{len(args)}")
            values = dict(zip(fields, args))
            for k, v in kwargs.items():
                if k not in fields:
                    raise TypeError(f"{cls.__name__}() has no field {k!r}")
                if k in values:
                    raise TypeError(f"{cls.__name__}() got two values for {k!r}")
                values[k] = v
            for f in fields:
                if f not in values:
                    raise TypeError(f"{cls.__name__}() is missing the field {f!r}")
                setattr(self, f, values[f])
        cls.__init__ = __init__
    user_init = cls.__init__

    def checked_init(self, *args, **kwargs):
        user_init(self, *args, **kwargs)
        for f in fields:
            if not hasattr(self, f):
                raise AttributeError(f"the constructor of {cls.__name__} did not set the "
                                     f"field {f!r}")

    def __setattr__(self, name, value):
        if name not in fields:
            raise AttributeError(f"{cls.__name__} has no field {name!r}")
        if name in tensor_fields and _is_number(value) and _in_kernel():
            # `count: tl.tensor` set to 0 in a kernel is an int32 scalar,
            # which a loop may then carry.
            value = _current_semantic().to_tensor(value)
        object.__setattr__(self, name, value)

    def __repr__(self):
        inner = ", ".join(f"{f}={getattr(self, f, '?')!r}" for f in fields)
        return f"{cls.__name__}({inner})"

    def _flatten(self):
        return flatten(self)

    def _unflatten(self, tensors):
        return unflatten(self, iter(tensors))

    def _structure(self):
        return structure(self)

    cls.__init__ = checked_init
    cls.__setattr__ = __setattr__
    if "__repr__" not in cls.__dict__:
        cls.__repr__ = __repr__
    cls._flatten, cls._unflatten, cls._structure = _flatten, _unflatten, _structure
    cls._terrazzo_aggregate = True
    cls._terrazzo_fields = builtins.tuple(fields)
    cls._terrazzo_constexpr_fields = frozenset(
        f for f, ann in annotations.items() if is_constexpr_annotation(ann))
    # Called from kernels with their values as they are (tensors included).
    cls.__terrazzo_builtin__ = True
    return cls


__all__ = ["tuple"]
