"""Tensor descriptors (`tl.make_tensor_descriptor`), as in Triton: a
strided global tensor read and written in blocks of a fixed shape.

    desc = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1],
                                     block_shape=[BLOCK_M, BLOCK_N])
    tile = desc.load([pid_m * BLOCK_M, pid_n * BLOCK_N])
    desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], tile + 1)

Elements of a block outside the tensor read as zero and are not written.
"""

from __future__ import annotations

from typing import List

from .lang import _current_semantic, _unwrap, block_type, builtin, dtype


class tensor_descriptor:
    """A descriptor made by `tl.make_tensor_descriptor`. `handle` belongs to
    the builder in use; `block_type` is the type of one block."""

    def __init__(self, handle, block_type: block_type, shape, strides, base=None,
                 padding_option="zero"):
        self.handle = handle
        self.block_type = block_type
        self.type = block_type
        self.shape = list(shape)  # runtime values (tensors), one per dimension
        self.strides = list(strides)
        self.base = base  # the pointer (a tensor) it was made of
        self.padding_option = padding_option

    # The code generator passes a descriptor to a called function (and
    # through loops and branches) as its base, shape and strides, and the
    # callee makes the same descriptor of them.
    def _flatten(self) -> List:
        return [self.base] + self.shape + self.strides

    def _unflatten(self, parts) -> "tensor_descriptor":
        rank = len(self.shape)
        parts = list(parts)
        return _current_semantic().remake_tensor_descriptor(
            parts[0], parts[1:1 + rank], parts[1 + rank:], self.block_type,
            self.padding_option)

    def _structure(self):
        return ("tensor_descriptor", tuple(p.type for p in self._flatten()),
                tuple(self.block_shape), self.padding_option)

    @property
    def block_shape(self) -> List[int]:
        return list(self.block_type.shape)

    @property
    def dtype(self) -> dtype:
        return self.block_type.element_ty

    def __repr__(self):
        return f"tensor_descriptor({self.block_type})"

    @builtin
    def load(self, offsets):
        """The block whose first element is at `offsets` (one index per
        dimension); elements outside the tensor read as zero."""
        return _current_semantic().descriptor_load(self, offsets)

    @builtin
    def store(self, offsets, value):
        """Store `value` (converted to the descriptor's type, broadcast to
        the block shape) as the block at `offsets`; elements outside the
        tensor are not written."""
        return _current_semantic().descriptor_store(self, offsets, value)


@builtin
def make_tensor_descriptor(base, shape, strides, block_shape, padding_option="zero"):
    """A descriptor of the tensor at `base` (a pointer, 16-byte aligned) with
    `shape` and `strides` (in elements; the last stride must be 1), read and
    written in blocks of `block_shape` (powers of two, at least 16 bytes in
    the last dimension)."""
    return _current_semantic().make_tensor_descriptor(base, shape, strides, block_shape,
                                                      _unwrap(padding_option))


@builtin
def load_tensor_descriptor(desc, offsets):
    """`desc.load(offsets)`."""
    return _current_semantic().descriptor_load(desc, offsets)


@builtin
def store_tensor_descriptor(desc, offsets, value):
    """`desc.store(offsets, value)`."""
    return _current_semantic().descriptor_store(desc, offsets, value)


__all__ = ["tensor_descriptor", "make_tensor_descriptor", "load_tensor_descriptor",
           "store_tensor_descriptor"]
