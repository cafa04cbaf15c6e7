"""The rules of block shapes: which shapes a block may have (powers of two,
at most MAX_BLOCK_NUMEL elements) and how two shapes broadcast (ranks
aligned on the right, dimensions of 1 stretched). The language's standard
library and the compiler's semantic layer both apply them."""

from __future__ import annotations

from typing import List, Sequence

from ..errors import SemanticError

#: The most elements a block may have (Triton's TRITON_MAX_TENSOR_NUMEL).
MAX_BLOCK_NUMEL = 1 << 20


def validate_block_shape(shape: Sequence[int]) -> List[int]:
    """`shape` as a list, if a block may have it (compile-time powers of
    two, at most MAX_BLOCK_NUMEL elements in all)."""
    numel = 1
    for i, d in enumerate(shape):
        if not isinstance(d, int) or isinstance(d, bool):
            raise SemanticError(f"shape dimension {i} must be a constexpr integer, got {d!r}")
        if d <= 0 or d & (d - 1):
            raise SemanticError(f"shape dimension {i} must be a power of two, got {d}")
        numel *= d
    if numel > MAX_BLOCK_NUMEL:
        raise SemanticError(f"a block has at most {MAX_BLOCK_NUMEL} elements, "
                            f"shape {list(shape)} has {numel}")
    return list(shape)


def broadcast_shapes(a: Sequence[int], b: Sequence[int]) -> List[int]:
    """The common shape of two shapes (ranks aligned on the right)."""
    a, b = list(a), list(b)
    rank = max(len(a), len(b))
    a = [1] * (rank - len(a)) + a
    b = [1] * (rank - len(b)) + b
    out = []
    for i, (x, y) in enumerate(zip(a, b)):
        if x == y or y == 1:
            out.append(x)
        elif x == 1:
            out.append(y)
        else:
            raise SemanticError(
                f"cannot broadcast shapes {a} and {b}: dimension {i} is {x} in one "
                f"and {y} in the other")
    return out
