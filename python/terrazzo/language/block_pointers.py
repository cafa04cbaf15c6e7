"""Block pointers (`tl.make_block_ptr`, `tl.advance`), as in Triton: a block
of a strided tensor in global memory, read and written with `tl.load` and
`tl.store`, with bounds checked on chosen dimensions.

    p = tl.make_block_ptr(base=x_ptr, shape=(M, N), strides=(N, 1),
                          offsets=(pid_m * BM, 0), block_shape=(BM, BN),
                          order=(1, 0))
    for k in range(0, N, BN):
        tile = tl.load(p, boundary_check=(0, 1), padding_option="zero")
        ...
        p = tl.advance(p, (0, BN))

A block pointer is a frontend value: its base pointer, shape and strides
(int64 scalars) and offsets (int32 scalars). `tl.load` and `tl.store` turn
it into a block of pointers, base + sum over d of (offset_d + i_d) *
stride_d, and, for the dimensions in `boundary_check`, a mask
0 <= offset_d + i_d < shape_d; masked elements are neither read nor
written, and read as `padding_option` ("zero", "nan", or "" where they are
unspecified, zero here). So the interpreter and the compiler handle block
pointers with the operations they already have. In loops, the components
that change (the offsets, after `tl.advance`) are loop-carried values; a
block pointer passed to a @jit function travels as its components.
"""

from __future__ import annotations

from typing import List, Sequence, Tuple

from ..errors import SemanticError
from . import core as tl
from .core import _current_semantic, _unwrap, block_type, builtin, pointer_type, tensor

_PADDING = ("", "zero", "nan")


class block_pointer:
    """A pointer to a block of `block_shape` elements of a strided tensor
    (made by `tl.make_block_ptr`). `type` is Triton's: a pointer to the
    block type. Immutable: `tl.advance` makes a new one."""

    _terrazzo_block_pointer = True  # what tl.load/tl.store look for (core.py)

    def __init__(self, base: tensor, shape: Sequence[tensor], strides: Sequence[tensor],
                 offsets: Sequence[tensor], block_shape: Sequence[int],
                 order: Sequence[int]):
        self.base = base
        self.shape = list(shape)
        self.strides = list(strides)
        self.offsets = list(offsets)
        self.block_shape = tuple(block_shape)
        self.order = tuple(order)
        self.type = pointer_type(block_type(base.type.element_ty, self.block_shape),
                                 base.type.address_space)
        self.dtype = self.type

    @property
    def element_ty(self):
        return self.type.element_ty.element_ty

    def __repr__(self):
        return f"block_pointer({self.type.element_ty})"

    # The code generator carries block pointers through loops, branches and
    # calls as their component tensors.
    def _flatten(self) -> List[tensor]:
        return [self.base] + self.shape + self.strides + self.offsets

    def _unflatten(self, parts: Sequence[tensor]) -> "block_pointer":
        r = len(self.block_shape)
        parts = list(parts)
        return block_pointer(parts[0], parts[1:1 + r], parts[1 + r:1 + 2 * r],
                             parts[1 + 2 * r:1 + 3 * r], self.block_shape, self.order)

    def _structure(self) -> Tuple:
        """What two block pointers must share to be one loop-carried value:
        types, block shape and order (the component values may differ)."""
        return ("block_pointer", tuple(p.type for p in self._flatten()), self.block_shape,
                self.order)

    # Lowering to a block of pointers and a mask ---------------------------
    def _pointers(self, boundary_check: Sequence[int]):
        """The block of pointers, and the mask of the elements inside the
        tensor along the `boundary_check` dimensions (None without any)."""
        sem = _current_semantic()
        rank = len(self.block_shape)
        address = None
        mask = None
        for d, size in enumerate(self.block_shape):
            index = sem.add(sem.cast(sem.arange(0, size), tl.int64),
                            sem.cast(self.offsets[d], tl.int64))
            if rank > 1:
                index = sem.expand_dims(index, [k for k in range(rank) if k != d])
            term = sem.mul(index, self.strides[d])
            address = term if address is None else sem.add(address, term)
            if d in boundary_check:
                inside = sem.logical_and(sem.compare("ge", index, 0),
                                         sem.compare("lt", index, self.shape[d]))
                mask = inside if mask is None else sem.logical_and(mask, inside)
        address = sem.broadcast_to(address, list(self.block_shape))
        if mask is not None:
            mask = sem.broadcast_to(mask, list(self.block_shape))
        return sem.add(self.base, address), mask

    def _boundary_check(self, boundary_check) -> List[int]:
        dims = _unwrap(boundary_check)
        if dims is None:
            return []
        if not isinstance(dims, (tuple, list)):
            dims = [dims]
        rank = len(self.block_shape)
        out = []
        for d in dims:
            d = _unwrap(d)
            if isinstance(d, bool) or not isinstance(d, int):
                raise SemanticError(f"boundary_check takes dimension numbers (constexpr "
                                    f"ints), got {d!r}")
            if not 0 <= d < rank:
                raise SemanticError(f"boundary_check dimension {d} is out of range for a "
                                    f"block pointer of rank {rank}")
            if d in out:
                raise SemanticError(f"boundary_check names dimension {d} twice")
            out.append(d)
        return sorted(out)

    @builtin
    def load(self, mask=None, other=None, boundary_check=(), padding_option="",
             cache_modifier="", eviction_policy="", volatile=False):
        """`tl.load` of this block pointer: the block, with the elements
        outside the tensor along `boundary_check` reading as `padding_option`."""
        if _unwrap(mask) is not None or _unwrap(other) is not None:
            raise SemanticError("tl.load of a block pointer takes no `mask` or `other`; use "
                                "boundary_check and padding_option")
        padding = _unwrap(padding_option)
        if padding is None:
            padding = ""
        if padding not in _PADDING:
            raise SemanticError(f"unknown padding_option {padding!r} (use '', 'zero' or "
                                "'nan')")
        elt = self.element_ty
        if padding == "nan" and not elt.is_floating():
            raise SemanticError(f"padding_option='nan' needs floating-point elements, not "
                                f"{elt}")
        dims = self._boundary_check(boundary_check)
        ptrs, in_bounds = self._pointers(dims)
        fill = None
        if in_bounds is not None and padding:
            fill = float("nan") if padding == "nan" else 0
        return _current_semantic().load(ptrs, in_bounds, fill, _unwrap(cache_modifier),
                                        _unwrap(eviction_policy), _unwrap(volatile))

    @builtin
    def store(self, value, mask=None, boundary_check=(), cache_modifier="",
              eviction_policy=""):
        """`tl.store` of `value` (converted to the element type, a scalar
        broadcast to the block) through this block pointer, skipping the
        elements outside the tensor along `boundary_check`."""
        if _unwrap(mask) is not None:
            raise SemanticError("tl.store through a block pointer takes no `mask`; use "
                                "boundary_check")
        sem = _current_semantic()
        value = sem.to_tensor(value)
        if value.type.is_block() and tuple(value.shape) != self.block_shape:
            raise SemanticError(f"cannot store a block of shape {list(value.shape)} through "
                                f"a block pointer of block shape {list(self.block_shape)}")
        dims = self._boundary_check(boundary_check)
        ptrs, in_bounds = self._pointers(dims)
        return sem.store(ptrs, value, in_bounds, _unwrap(cache_modifier),
                         _unwrap(eviction_policy))

    @builtin
    def advance(self, offsets):
        """`tl.advance(self, offsets)`."""
        return advance(self, offsets)


# ---------------------------------------------------------------------------
# Builtins
# ---------------------------------------------------------------------------

def _sequence(x, what: str, rank=None) -> list:
    x = _unwrap(x)
    if not isinstance(x, (tuple, list)):
        x = [x]
    if rank is not None and len(x) != rank:
        raise SemanticError(f"{what} has {len(x)} entries, but the block pointer has rank "
                            f"{rank}")
    return list(x)


def _index_scalar(x, ty, what: str) -> tensor:
    """An integer scalar of a block pointer as a tensor of type `ty` (int64
    for shapes and strides, int32 for offsets, as in Triton)."""
    sem = _current_semantic()
    x = _unwrap(x)
    if isinstance(x, bool) or not isinstance(x, (int, tensor)):
        raise SemanticError(f"{what} must be integers, got {x!r}")
    if isinstance(x, int):
        lo, hi = ty.get_int_min_value(), ty.get_int_max_value()
        if not lo <= x <= hi:
            raise SemanticError(f"{what} must fit in {ty}, got {x}")
        return sem.constant(x, ty)
    if x.type.is_block():
        raise SemanticError(f"{what} must be scalars, got a block of shape {x.shape}")
    sca = x.type.scalar
    if not sca.is_int() or sca.is_bool():
        raise SemanticError(f"{what} must be integers, got {sca}")
    if sca.int_bitwidth > ty.int_bitwidth:
        raise SemanticError(f"{what} are {ty} values, got {sca}; convert with .to({ty!r}) "
                            "or index with a block of pointers for larger values")
    return sem.cast(x, ty)


@builtin
def make_block_ptr(base, shape, strides, offsets, block_shape, order):
    """A pointer to the block of `block_shape` elements (constexpr powers of
    two) at `offsets` in the tensor at `base` with `shape` and `strides`
    (in elements; one entry of each per dimension). `order` (a permutation
    of the dimensions, fastest-varying first) is accepted as in Triton."""
    sem = _current_semantic()
    if _unwrap(base) is None:
        raise SemanticError("tl.make_block_ptr: `base` is None")
    if isinstance(_unwrap(base), block_pointer):
        raise SemanticError("tl.make_block_ptr: `base` must be a pointer, not a block "
                            "pointer")
    base = sem.to_tensor(base)
    if not base.type.scalar.is_ptr() or base.type.is_block():
        raise SemanticError(f"tl.make_block_ptr: `base` must be a scalar pointer, got "
                            f"{base.type}")
    if base.type.scalar.element_ty.is_bool():
        # Booleans live in memory as bytes (as Triton: the block is of int8).
        base = sem.cast(base, pointer_type(tl.int8, base.type.scalar.address_space))
    block_shape = _sequence(block_shape, "block_shape")
    for d in block_shape:
        d = _unwrap(d)
        if isinstance(d, bool) or not isinstance(d, int):
            raise SemanticError(f"block_shape must be constexpr integers, got {d!r}")
        if d <= 0 or d & (d - 1):
            raise SemanticError(f"block_shape entries must be powers of two, got {d}")
    block_shape = [_unwrap(d) for d in block_shape]
    rank = len(block_shape)
    shape = [_index_scalar(s, tl.int64, "block pointer shapes")
             for s in _sequence(shape, "shape", rank)]
    strides = [_index_scalar(s, tl.int64, "block pointer strides")
               for s in _sequence(strides, "strides", rank)]
    offsets = [_index_scalar(s, tl.int32, "block pointer offsets")
               for s in _sequence(offsets, "offsets", rank)]
    order = [_unwrap(o) for o in _sequence(order, "order", rank)]
    if sorted(order) != list(range(rank)):
        raise SemanticError(f"order must be a permutation of 0..{rank - 1}, got {order}")
    return block_pointer(base, shape, strides, offsets, block_shape, order)


@builtin
def advance(base, offsets):
    """The block pointer `base` moved by `offsets` (one per dimension)."""
    base = _unwrap(base)
    if not isinstance(base, block_pointer):
        raise SemanticError(f"tl.advance needs a block pointer (tl.make_block_ptr), got "
                            f"{base!r}")
    sem = _current_semantic()
    deltas = _sequence(offsets, "tl.advance's offsets", len(base.block_shape))
    moved = []
    for old, delta in zip(base.offsets, deltas):
        d = _unwrap(delta)
        if isinstance(d, int) and not isinstance(d, bool) and d == 0:
            moved.append(old)  # unchanged: not a loop-carried value
            continue
        moved.append(sem.add(old, _index_scalar(d, tl.int32, "block pointer offsets")))
    return block_pointer(base.base, base.shape, base.strides, moved, base.block_shape,
                         base.order)


__all__ = ["make_block_ptr", "advance"]

# `x.advance(offsets)` on a tensor, as Triton defines it (tl.advance with the
# tensor first): only a block pointer can be advanced, which says so.
tl.tensor.advance = advance
