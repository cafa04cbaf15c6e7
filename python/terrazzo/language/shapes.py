"""Reshaping blocks: `tl.trans`, `tl.permute`, `tl.reshape`, `tl.view`,
`tl.ravel`, `tl.join`, `tl.split` and `tl.interleave`, with Triton's names
and signatures. Each is also a tensor method (`x.reshape(...)`,
`x.trans(...)`, `x.split()`, ...), and `x.T` transposes a 2-D block.

On the GPU these ops only relabel the registers that hold a block; moving
data between threads, where the next op needs it, is left to layout
conversions that the compiler places and removes.
"""

from __future__ import annotations

from ..errors import SemanticError
from .core import _current_semantic, _unwrap, builtin, tensor

__all__ = ["trans", "permute", "reshape", "view", "ravel", "join", "split",
           "interleave"]


def _dims(dims):
    """`f(x, 1, 0)` and `f(x, (1, 0))` alike."""
    if len(dims) == 1 and isinstance(_unwrap(dims[0]), (list, tuple)):
        dims = _unwrap(dims[0])
    return [_unwrap(d) for d in dims]


@builtin
def trans(input, *dims):
    """Permutes the dimensions of `input`: result dimension i is dimension
    dims[i] of `input`. Without dims, transposes a 2-D block (dims (1, 0))."""
    return _current_semantic().trans(input, _dims(dims))


@builtin
def permute(input, *dims):
    """Permutes the dimensions of `input`: result dimension i is dimension
    dims[i] of `input`."""
    return _current_semantic().permute(input, _dims(dims))


@builtin
def reshape(input, *shape, can_reorder=False):
    """`input` with another shape of the same number of elements, in
    row-major order. `can_reorder=True` lets the compiler place the elements
    in any order (Terrazzo keeps row-major order)."""
    return _current_semantic().reshape(input, _dims(shape), bool(_unwrap(can_reorder)))


@builtin
def view(input, *shape):
    """`input` with another shape; the order of the elements is not
    guaranteed (tl.reshape with can_reorder=True)."""
    return _current_semantic().reshape(input, _dims(shape), True, what="tl.view")


@builtin
def ravel(x, can_reorder=False):
    """`x` as a 1-D block (row-major order unless `can_reorder`)."""
    x = _current_semantic().to_tensor(x)
    return _current_semantic().reshape(x, [x.numel], bool(_unwrap(can_reorder)),
                                       what="tl.ravel")


@builtin
def join(a, b):
    """`a` and `b` (broadcast to one shape) stacked along a new last
    dimension of size 2: join(a, b)[..., 0] is a, [..., 1] is b."""
    return _current_semantic().join(a, b)


@builtin
def split(a):
    """The two halves of `a` along its last dimension, which must have size
    2: the inverse of tl.join. A block of 2 splits into two scalars."""
    return _current_semantic().split(a)


@builtin
def interleave(a, b):
    """`a` and `b` alternating along their last dimension:
    tl.join(a, b) reshaped to twice the last dimension."""
    return _current_semantic().interleave(a, b)


@builtin
def item(input):
    """The value of a one-element block as a scalar (`x.item()`, as in
    Triton, which has no tl.item); a scalar is returned as it is."""
    sem = _current_semantic()
    x = sem.to_tensor(input)
    if not x.type.is_block():
        return x
    if x.numel != 1:
        raise SemanticError(f"item() needs a block of one element, got shape "
                            f"{list(x.shape)}")
    # A reduction of the one element over every axis: its combine function
    # is never called on two values.
    return sem.reduce(x, None, lambda acc, _: acc)


# Tensor methods, as in Triton.
for _name in __all__ + ["item"]:
    setattr(tensor, _name, globals()[_name])
del _name
