"""The semantic layer of `tl.dot`: operand checks, the result type and the
accumulator, as in Triton.

`Semantic` inherits these methods; they emit through the builder's `dot`
(see builder.py).
"""

from __future__ import annotations

from ..errors import SemanticError
from ..language import core as tl
from ..language.core import _unwrap, tensor

_PRECISIONS = ("tf32", "tf32x3", "ieee")


class DotSemantic:
    """Mixed into `semantic.Semantic`."""

    def dot(self, a, b, acc=None, input_precision=None, allow_tf32=None,
            max_num_imprecise_acc=None, out_dtype=tl.float32) -> tensor:
        a, b = self.to_tensor(a), self.to_tensor(b)
        out_dtype = _unwrap(out_dtype)
        if not a.type.is_block() or not b.type.is_block():
            raise SemanticError("tl.dot multiplies blocks, not scalars")
        rank = len(a.shape)
        if rank not in (2, 3) or len(b.shape) != rank:
            raise SemanticError(f"tl.dot needs two 2-D (or two batched 3-D) blocks, got "
                                f"shapes {a.shape} and {b.shape}")
        if rank == 3 and a.shape[0] != b.shape[0]:
            raise SemanticError(f"tl.dot: batch sizes differ: {a.shape[0]} and {b.shape[0]}")
        m, k = a.shape[-2], a.shape[-1]
        k2, n = b.shape[-2], b.shape[-1]
        if k != k2:
            raise SemanticError(f"tl.dot: the inner dimensions differ: {a.shape} @ {b.shape}")
        if min(m, n, k) < 16:
            raise SemanticError(f"tl.dot needs M, N and K of at least 16, got "
                                f"M={m}, N={n}, K={k}")
        sa, sb = a.type.scalar, b.type.scalar
        # As in Triton, the two fp8 formats mix (wgmma multiplies e4m3 by
        # e5m2); every other pair must be one type.
        if sa != sb and not (sa.is_fp8() and sb.is_fp8()):
            raise SemanticError(f"tl.dot operands must have one type, got {sa} and {sb}")
        if sa.is_fp8():
            if out_dtype not in (tl.float32, tl.float16):
                raise SemanticError(f"tl.dot of {sa} and {sb} accumulates in float32 or "
                                    f"float16, not {out_dtype}")
            ret = out_dtype
        elif sa == tl.int8:
            ret = tl.int32
        elif sa in (tl.float16, tl.bfloat16, tl.float32):
            if out_dtype not in (tl.float32, tl.float16) or (
                    out_dtype == tl.float16 and sa != tl.float16):
                raise SemanticError(f"tl.dot of {sa} accumulates in float32"
                                    + (" or float16" if sa == tl.float16 else "")
                                    + f", not {out_dtype}")
            ret = out_dtype
        elif sa == tl.float64:
            ret = tl.float64
        else:
            raise SemanticError(f"tl.dot supports int8, float8e4nv, float8e5, float16, "
                                f"bfloat16, float32 and float64 operands, not {sa}")
        precision = _unwrap(input_precision)
        if precision is None:
            allow = _unwrap(allow_tf32)
            precision = "tf32" if allow is None or allow else "ieee"
        if precision not in _PRECISIONS:
            raise SemanticError(f"tl.dot: input_precision must be one of "
                                f"{', '.join(_PRECISIONS)}, got {precision!r}")
        if sa != tl.float32:
            precision = "ieee"  # only float32 operands have a choice
        out_shape = list(a.shape[:-1]) + [n]
        ret_ty = tl.block_type(ret, out_shape)
        if acc is None:
            acc = self.full(out_shape, 0, ret)
        else:
            acc = self.to_tensor(acc)
            if list(acc.shape) != out_shape or acc.type.scalar != ret:
                raise SemanticError(f"tl.dot: the accumulator must be a {ret} block of "
                                    f"shape {out_shape}, got {acc.type}")
        imprecise = _unwrap(max_num_imprecise_acc) or 0
        return tensor(self.builder.dot(a.handle, b.handle, acc.handle, precision,
                                       int(imprecise), a.type, b.type, ret_ty), ret_ty)
