"""Atomic read-modify-write operations on global memory (`tl.atomic_*`).

The signatures follow `triton.language`: `pointer` is a pointer or a block
of pointers; `val` (and `cmp`, `mask`) are broadcast to a common shape with
it; each returns the values the memory held before (zero where `mask` is
false). `sem` is the memory ordering, one of "relaxed", "acquire",
"release" and "acq_rel" (the default, as in Triton); `scope` is "gpu" (the
default), "cta" or "sys".

Element types: int32, uint32, int64, uint64, float16, bfloat16, float32 and
float64 (and/or/xor: integers only; cas: any 16-, 32- or 64-bit type).
Float max and min order values as IEEE 754 totalOrder: -NaN < -inf < ... <
-0.0 < +0.0 < ... < +inf < +NaN, so max(-0.0, +0.0) is +0.0 and a
positive NaN wins a max. Elements of a block that point to the same address
are all applied, one after another.

`atomic_load`, `atomic_store` and `atomic_poll` access memory without
changing it otherwise: an atomic load reads each element in one access
with "acquire" (the default) or "relaxed" ordering, an atomic store
writes each element in one access with "release" (the default) or
"relaxed" ordering, and `atomic_poll` waits until memory holds an expected
value. Their orderings are the program's: a release store comes after
everything the program's threads did before it, and an acquire load or a
poll that saw its value before everything they do after it, so that one
program can publish data with `atomic_store` that another reads after
`atomic_load` or `atomic_poll` sees the flag. Element types: 8- to 64-bit
integers, float16, bfloat16, float32 and float64 (atomic_poll: 16-, 32-
and 64-bit integers).
"""

from __future__ import annotations

from .core import _current_semantic, _unwrap, builtin, tensor

__all__ = ["atomic_add", "atomic_and", "atomic_cas", "atomic_load", "atomic_max",
           "atomic_min", "atomic_or", "atomic_poll", "atomic_store", "atomic_xchg",
           "atomic_xor"]


def _rmw(kind, pointer, val, mask, sem, scope):
    return _current_semantic().atomic_rmw(kind, pointer, val, mask, _unwrap(sem),
                                          _unwrap(scope))


@builtin
def atomic_add(pointer, val, mask=None, sem=None, scope=None):
    """*pointer += val atomically; returns the old values."""
    return _rmw("add", pointer, val, mask, sem, scope)


@builtin
def atomic_max(pointer, val, mask=None, sem=None, scope=None):
    """*pointer = max(*pointer, val) atomically (signed or unsigned by the
    element type; floats in totalOrder); returns the old values."""
    return _rmw("max", pointer, val, mask, sem, scope)


@builtin
def atomic_min(pointer, val, mask=None, sem=None, scope=None):
    """*pointer = min(*pointer, val) atomically; returns the old values."""
    return _rmw("min", pointer, val, mask, sem, scope)


@builtin
def atomic_and(pointer, val, mask=None, sem=None, scope=None):
    """*pointer &= val atomically (integers); returns the old values."""
    return _rmw("and", pointer, val, mask, sem, scope)


@builtin
def atomic_or(pointer, val, mask=None, sem=None, scope=None):
    """*pointer |= val atomically (integers); returns the old values."""
    return _rmw("or", pointer, val, mask, sem, scope)


@builtin
def atomic_xor(pointer, val, mask=None, sem=None, scope=None):
    """*pointer ^= val atomically (integers); returns the old values."""
    return _rmw("xor", pointer, val, mask, sem, scope)


@builtin
def atomic_xchg(pointer, val, mask=None, sem=None, scope=None):
    """*pointer = val atomically; returns the old values."""
    return _rmw("xchg", pointer, val, mask, sem, scope)


@builtin
def atomic_cas(pointer, cmp, val, sem=None, scope=None):
    """Where *pointer equals cmp (bit for bit), *pointer = val, atomically;
    returns the old values."""
    return _current_semantic().atomic_cas(pointer, cmp, val, _unwrap(sem),
                                          _unwrap(scope))


@builtin
def atomic_load(pointer, mask=None, sem=None, scope=None):
    """The values at `pointer`, each read atomically with ordering `sem`
    ("acquire", the default, or "relaxed") at `scope`; elements whose
    `mask` is false are not read and are 0."""
    return _current_semantic().atomic_load(pointer, mask, _unwrap(sem), _unwrap(scope))


@builtin
def atomic_store(pointer, val, mask=None, sem=None, scope=None):
    """Writes `val` at `pointer`, each element atomically with ordering `sem`
    ("release", the default, or "relaxed") at `scope`; elements whose `mask`
    is false are not written."""
    _current_semantic().atomic_store(pointer, val, mask, _unwrap(sem), _unwrap(scope))


@builtin
def atomic_poll(pointer, expected_value, sem=None, scope=None, timeout_ns=None):
    """Waits until the integers at `pointer` equal `expected_value`, reading
    them with atomic loads of ordering `sem` ("acquire", the default, or
    "relaxed") at `scope`. With `timeout_ns` (nanoseconds of the GPU's
    global timer; zero still reads once) an element stops waiting when the
    time has passed. Returns int1 values: true where the expected value was
    seen (and acquired), false where the wait timed out."""
    return _current_semantic().atomic_poll(pointer, expected_value, _unwrap(sem),
                                           _unwrap(scope), _unwrap(timeout_ns))


# Tensor methods, as in Triton (`ptrs.atomic_add(1)`).
for _name in __all__:
    setattr(tensor, _name, globals()[_name])
del _name
