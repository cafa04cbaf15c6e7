"""The semantic layer of the shape ops: `tl.trans`/`tl.permute`/`x.T`,
`tl.reshape`/`tl.view`/`tl.ravel`, `tl.join`, `tl.split` and
`tl.interleave`, with Triton's rules and checks.

`Semantic` inherits these methods; they emit through the builder's `trans`,
`reshape`, `join` and `split` (see builder.py). Blocks of one element become
scalars (and back) through a one-element reduction and a splat, since 0-D
blocks do not exist in the language.
"""

from __future__ import annotations

from typing import List, Sequence, Tuple

from ..errors import SemanticError
from ..core.lang import _unwrap, block_type, tensor
from ..core.shape_rules import validate_block_shape


def _dims_list(what: str, dims) -> List[int]:
    """Compile-time integers from `dims` (a sequence of constexpr ints)."""
    out = []
    for d in dims:
        d = _unwrap(d)
        if isinstance(d, tensor):
            raise SemanticError(f"{what}: dimensions must be compile-time constants "
                                "(tl.constexpr), not runtime values")
        if not isinstance(d, int) or isinstance(d, bool):
            raise SemanticError(f"{what}: dimensions must be integers, got {d!r}")
        out.append(d)
    return out


class ShapeSemantic:
    """Mixed into `semantic.Semantic`."""

    def _only_element(self, x: tensor) -> tensor:
        """The single element of a one-element block, as a scalar."""
        while x.type.is_block():
            x = self.reduce(x, len(x.shape) - 1, lambda a, b: a)
        return x

    # -- permutations -------------------------------------------------------
    def permute(self, x, dims: Sequence, what: str = "tl.permute") -> tensor:
        x = self.to_tensor(x)
        if not x.type.is_block():
            raise SemanticError(f"{what} needs a block, got a scalar")
        order = _dims_list(what, dims)
        rank = len(x.shape)
        if sorted(order) != list(range(rank)):
            raise SemanticError(
                f"{what}: dims {tuple(order)} are not a permutation of the "
                f"{rank} dimensions of a block of shape {list(x.shape)}")
        if order == list(range(rank)):
            return x
        shape = [x.shape[d] for d in order]
        ty = block_type(x.type.scalar, shape)
        return tensor(self.builder.trans(x.handle, order, x.type, ty), ty)

    def trans(self, x, dims: Sequence = ()) -> tensor:
        """tl.trans: `dims` permutes the dimensions; none swaps the two
        dimensions of a 2-D block."""
        x = self.to_tensor(x)
        dims = list(dims)
        if not dims:
            if not x.type.is_block() or len(x.shape) != 2:
                got = f"shape {list(x.shape)}" if x.type.is_block() else "a scalar"
                raise SemanticError(
                    f"tl.trans without dims transposes a 2-D block, got {got}; "
                    "give the permutation (tl.trans(x, *dims) or tl.permute)")
            dims = [1, 0]
        return self.permute(x, dims, "tl.trans")

    # -- reshapes ------------------------------------------------------------
    def reshape(self, x, shape: Sequence[int], can_reorder: bool = False,
                what: str = "tl.reshape") -> tensor:
        x = self.to_tensor(x)
        shape = _dims_list(what, shape)
        try:
            shape = validate_block_shape(shape)
        except SemanticError as e:
            raise SemanticError(f"{what}: {e}") from None
        numel = 1
        for d in shape:
            numel *= d
        src = list(x.shape) if x.type.is_block() else []
        src_numel = x.numel
        if numel != src_numel:
            raise SemanticError(
                f"{what} cannot change the number of elements: a block of shape {src} "
                f"({src_numel} elements) cannot become {shape} ({numel} elements)")
        if not shape:
            return self._only_element(x)
        if not x.type.is_block():
            return self.splat(x, shape)
        if src == shape:
            return x
        ty = block_type(x.type.scalar, shape)
        return tensor(self.builder.reshape(x.handle, bool(can_reorder), x.type, ty), ty)

    # -- join, split, interleave --------------------------------------------
    def join(self, a, b) -> tensor:
        """tl.join: a new last dimension of size 2 holding a then b (both
        broadcast to one shape first); two scalars give a block of 2."""
        a, b = self.broadcast_pair(a, b)
        if a.type.scalar != b.type.scalar:
            raise SemanticError(f"tl.join needs two values of one type, got "
                                f"{a.type.scalar} and {b.type.scalar}")
        if not a.type.is_block():
            a, b = self.splat(a, [1]), self.splat(b, [1])
            return self.reshape(self.join(a, b), [2], what="tl.join")
        shape = list(a.shape) + [2]
        try:
            validate_block_shape(shape)
        except SemanticError as e:
            raise SemanticError(f"tl.join: {e}") from None
        ty = block_type(a.type.scalar, shape)
        return tensor(self.builder.join(a.handle, b.handle, a.type, ty), ty)

    def split(self, x) -> Tuple[tensor, tensor]:
        """tl.split: the two halves of a block along its last dimension, which
        must have size 2; a block of 2 splits into two scalars."""
        x = self.to_tensor(x)
        if not x.type.is_block() or x.shape[-1] != 2:
            got = f"shape {list(x.shape)}" if x.type.is_block() else "a scalar"
            raise SemanticError(f"tl.split needs a block whose last dimension has size 2, "
                                f"got {got}")
        if len(x.shape) == 1:
            lo, hi = self.split(self.reshape(x, [1, 2], what="tl.split"))
            return self._only_element(lo), self._only_element(hi)
        ty = block_type(x.type.scalar, list(x.shape[:-1]))
        lo, hi = self.builder.split(x.handle, x.type, ty)
        return tensor(lo, ty), tensor(hi, ty)

    def interleave(self, a, b) -> tensor:
        """tl.interleave: a and b alternating along their last dimension."""
        c = self.join(a, b)
        if len(c.shape) == 1:  # two scalars
            return c
        shape = list(c.shape[:-2]) + [2 * c.shape[-2]]
        return self.reshape(c, shape, what="tl.interleave")
