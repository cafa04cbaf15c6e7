"""The interpreter's atomics: `tile.atomic_rmw` and `tile.atomic_cas` on the
interpreter's memory (interpreter.Memory), with NumPy.

Programs run one after another, so an atomic is a read-modify-write of
each element in turn: the elements of a block are applied in row-major
order, elements that point to the same address one after another (each
sees the previous one's result and returns it as its old value), with
every address checked like a load or store. Elements whose mask is false
are not accessed and return 0. Float max and min order values in IEEE 754
totalOrder (-NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN) as the
GPU lowering does; compare-and-swap compares bit patterns.

`tile.atomic_poll` reads memory once: nothing can change it while the
program waits, so an element that does not hold the expected value never
will. With a timeout that element gives false (the time runs out); without
one the wait would never end, and the interpreter reports it as an error
instead.
"""

from __future__ import annotations

from typing import Callable, Optional

import numpy as np

from ..errors import InterpreterError
from .numerics import MEMORY_DTYPES, bf16_from_bits, bf16_to_bits, storage_dtype

_UNSIGNED = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def _memory_dtype(elt) -> np.dtype:
    return np.dtype(MEMORY_DTYPES[elt.name])


def _to_memory(values, elt) -> np.ndarray:
    """Values of the interpreter's storage type as they lie in memory."""
    if elt.is_bf16():
        return bf16_to_bits(np.asarray(values, dtype=np.float32))
    return np.asarray(values).astype(_memory_dtype(elt), copy=False)


def _from_memory(values: np.ndarray, elt) -> np.ndarray:
    if elt.is_bf16():
        return bf16_from_bits(values)
    return values


def _bits(values: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(values).view(_UNSIGNED[values.dtype.itemsize])


def _total_order_key(bits: np.ndarray) -> np.ndarray:
    width = bits.dtype.itemsize * 8
    sign = bits.dtype.type(1) << bits.dtype.type(width - 1)
    negative = (bits & sign) != 0
    return np.where(negative, ~bits, bits | sign)


def _update(op: str, elt) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """The new memory contents from the old ones and the values (both in
    memory representation) for a tile.atomic_rmw kind."""
    if op == "xchg":
        return lambda old, val: val
    if op in ("and", "or", "xor"):
        f = {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}[op]
        return lambda old, val: f(old, val)
    if op == "add":
        return lambda old, val: np.add(old, val, dtype=old.dtype)
    if op == "fadd":
        if elt.is_bf16():
            return lambda old, val: bf16_to_bits(bf16_from_bits(old) + bf16_from_bits(val))
        return lambda old, val: np.add(old, val, dtype=old.dtype)
    if op in ("umax", "umin"):
        def unsigned(old, val, greater=op == "umax"):
            take = _bits(val) > _bits(old) if greater else _bits(val) < _bits(old)
            return np.where(take, val, old)
        return unsigned
    if op in ("max", "min"):
        if elt.is_floating():
            def total_order(old, val, greater=op == "max"):
                kv, ko = _total_order_key(_bits(val)), _total_order_key(_bits(old))
                return np.where(kv > ko if greater else kv < ko, val, old)
            return total_order
        return np.maximum if op == "max" else np.minimum
    raise AssertionError(f"the interpreter has no atomic op {op!r}")


def _apply(memory, addrs, mask, elt, loc, pid, update, operands):
    """Applies `update(old, *operands)` (memory representation, one element
    each) to every active element of `addrs` in row-major order; returns
    the old values in memory representation (0 where inactive)."""
    shape = np.shape(addrs)
    flat = np.asarray(addrs, dtype=np.int64).reshape(-1)
    mem_dt = _memory_dtype(elt)
    ops = [np.broadcast_to(o, shape).reshape(-1) for o in operands]
    old = np.zeros(flat.shape, dtype=mem_dt)
    if mask is not None:
        active = np.flatnonzero(np.broadcast_to(mask, shape).reshape(-1))
    else:
        active = np.arange(flat.size)
    if active.size:
        for bid, sel, offs in memory._locate(flat[active], mem_dt.itemsize, "atomic",
                                             elt, loc, pid):
            lanes = active if sel is None else active[sel]
            buf = memory.buffers[bid]
            n = buf.data.nbytes // mem_dt.itemsize
            typed = buf.data[:n * mem_dt.itemsize].view(mem_dt)
            index = offs // mem_dt.itemsize
            # Elements that share an address are applied in rounds: round r
            # updates the r-th element (in order) of each address, so every
            # round touches distinct addresses and sees the previous round.
            order = np.argsort(index, kind="stable")
            ordered = index[order]
            starts = np.ones(ordered.size, dtype=bool)
            starts[1:] = ordered[1:] != ordered[:-1]
            positions = np.arange(ordered.size)
            first = np.maximum.accumulate(np.where(starts, positions, 0))
            rank = np.empty(ordered.size, dtype=np.int64)
            rank[order] = positions - first
            by_rank = np.argsort(rank, kind="stable")
            counts = np.bincount(rank)
            begin = 0
            for count in counts:
                part = by_rank[begin:begin + count]
                begin += count
                where = index[part]
                current = typed[where]
                typed[where] = update(current, *(o[lanes[part]] for o in ops))
                old[lanes[part]] = current
            buf.dirty = True
    return old.reshape(shape)


def atomic_rmw(memory, op: str, ptr, val, mask: Optional[np.ndarray], ptr_ty, result_ty,
               loc, pid) -> np.ndarray:
    elt = ptr_ty.scalar.element_ty
    old = _apply(memory, ptr, mask, elt, loc, pid, _update(op, elt),
                 [_to_memory(val, elt)])
    return _from_memory(old, elt).astype(storage_dtype(result_ty), copy=False)


def atomic_cas(memory, ptr, cmp, val, ptr_ty, result_ty, loc, pid) -> np.ndarray:
    elt = ptr_ty.scalar.element_ty

    def swap(old, expected, new):
        return np.where(_bits(old) == _bits(expected), new, old)

    old = _apply(memory, ptr, None, elt, loc, pid, swap,
                 [_to_memory(cmp, elt), _to_memory(val, elt)])
    return _from_memory(old, elt).astype(storage_dtype(result_ty), copy=False)


def atomic_poll(memory, ptr, expected, has_timeout: bool, ptr_ty, loc, pid) -> np.ndarray:
    elt = ptr_ty.scalar.element_ty
    seen = memory.load(ptr, None, elt, loc, pid)
    matched = np.asarray(seen == np.broadcast_to(expected, np.shape(seen)))
    if not has_timeout and not matched.all():
        where = np.argwhere(~matched.reshape(np.shape(seen)))
        first = tuple(int(i) for i in where[0]) if where.size else ()
        got = np.asarray(seen)[first] if first else np.asarray(seen)
        want = np.broadcast_to(expected, np.shape(seen))[first] if first else \
            np.asarray(expected)
        element = f" element {list(first)}" if first else ""
        raise InterpreterError(
            f"atomic_poll in program {pid} would wait forever:{element} holds "
            f"{got.item()}, not the expected {want.item()}, and programs run one after "
            "another here, so nothing can change it (a producer must be an earlier "
            "program; or pass timeout_ns)", loc)
    return matched
