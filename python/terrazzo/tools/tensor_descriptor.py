"""Host tensor descriptors, as `triton.tools.tensor_descriptor`.

A `TensorDescriptor` describes a strided tensor in GPU memory and the block
shape a kernel reads and writes it in. Passed as a kernel argument, it is a
descriptor inside the kernel, used like one from `tl.make_tensor_descriptor`:

    desc = TensorDescriptor.from_tensor(x, block_shape=[64, 64])
    kernel[grid](desc, ...)
    # in the kernel:  tile = desc.load([i, j]);  desc.store([i, j], tile)

The launch passes the descriptor as its base pointer, shape and strides
(specialised like integer arguments: divisible by 16, equal to 1, not
negative), and its element type and block shape are part of the
specialisation key, so the kernel builds the same descriptor
`tl.make_tensor_descriptor` would from those values: TMA tensor maps on
sm_90, pointer accesses elsewhere and in the interpreter. `block_shape` may
be changed between launches (an autotuner's pre_hook does); each block shape
compiles its own kernel.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List

from ..runtime import driver

MAX_RANK = 5


def _element_size(base) -> int:
    if hasattr(base, "element_size"):
        return int(base.element_size())
    dtype = getattr(base, "dtype", None)
    size = getattr(dtype, "itemsize", None)
    if size is None:
        raise ValueError(f"TensorDescriptor: the base must be a tensor with a dtype, got "
                         f"{type(base).__name__}")
    return int(size)


@dataclass
class TensorDescriptor:
    """A tensor at `base` (a GPU tensor, or a NumPy array or CPU tensor for
    the interpreter) with `shape` and `strides` (in elements, the last one
    1), read and written in blocks of `block_shape` (powers of two). Blocks
    reaching outside the tensor read zeros there (`padding="zero"`) and
    write nothing there."""

    base: Any
    shape: List[int]
    strides: List[int]
    block_shape: List[int]
    padding: str = "zero"

    def __post_init__(self):
        rank = len(self.shape)
        if not 1 <= rank <= MAX_RANK:
            raise ValueError(f"TensorDescriptor: the rank must be 1 to {MAX_RANK}, got {rank}")
        if len(self.strides) != rank or len(self.block_shape) != rank:
            raise ValueError(f"TensorDescriptor: shape ({rank} values), strides "
                             f"({len(self.strides)}) and block_shape ({len(self.block_shape)}) "
                             "must have one value per dimension")
        for d in self.block_shape:
            if isinstance(d, bool) or not isinstance(d, int) or d <= 0 or d & (d - 1):
                raise ValueError(f"TensorDescriptor: block_shape must hold powers of two, got "
                                 f"{list(self.block_shape)}")
        if self.padding not in ("zero", "nan"):
            raise ValueError(f"TensorDescriptor: padding must be 'zero' or 'nan', got "
                             f"{self.padding!r}")
        if int(self.strides[-1]) != 1:
            raise ValueError(f"TensorDescriptor: the last stride must be 1 (the innermost "
                             f"dimension is contiguous), got {self.strides[-1]}")
        size = _element_size(self.base)
        for stride in list(self.strides)[:-1]:
            if int(stride) * size % 16:
                raise ValueError(f"TensorDescriptor: strides must be multiples of 16 bytes, "
                                 f"got {list(self.strides)} with {size}-byte elements")
        if hasattr(self.base, "data_ptr") and self.base.data_ptr() % 16:
            raise ValueError("TensorDescriptor: the base must be 16-byte aligned")

    @staticmethod
    def from_tensor(tensor: Any, block_shape: List[int], padding: str = "zero"):
        """The descriptor of all of `tensor` (its shape and strides)."""
        strides = tensor.stride() if callable(getattr(tensor, "stride", None)) else \
            [s // tensor.itemsize for s in tensor.strides]  # NumPy: strides in bytes
        return TensorDescriptor(tensor, list(tensor.shape), list(strides), block_shape, padding)


def _register_with_the_launcher():
    # The C++ launcher recognises descriptors by this type.
    C = driver.get_C(required=False)
    if C is not None and hasattr(C, "register_tensor_descriptor_type"):
        C.register_tensor_descriptor_type(TensorDescriptor)


_register_with_the_launcher()

__all__ = ["TensorDescriptor"]
