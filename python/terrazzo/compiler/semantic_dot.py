"""The semantic layer of `tl.dot`: operand checks, the result type and the
accumulator, as in Triton.

`Semantic` inherits these methods; they emit through the builder's `dot`
(see builder.py).
"""

from __future__ import annotations

from ..errors import SemanticError
from . import fp8
from ..core import lang as tl
from ..core.lang import _unwrap, tensor

_PRECISIONS = ("tf32", "tf32x3", "ieee")

# tl.dot_scaled's formats: the language type of the values (None for e2m1,
# which has none) and the unsigned type that may carry their bits instead.
_SCALED_FORMATS = {
    "e2m1": (None, tl.uint8),
    "e4m3": (tl.float8e4nv, tl.uint8),
    "e5m2": (tl.float8e5, tl.uint8),
    "bf16": (tl.bfloat16, tl.uint16),
    "fp16": (tl.float16, tl.uint16),
}
# Elements of K that share one e8m0 scale.
SCALE_GROUP = 32


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
        if fp8.is_software(sa) or fp8.is_software(sb):
            # No instruction multiplies these fp8 formats: their values are
            # exact in float16, which the dot multiplies (as Triton on sm_80).
            a, b = self.cast(a, tl.float16), self.cast(b, tl.float16)
            sa = sb = tl.float16
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

    # ------------------------------------------------------------------
    # tl.dot_scaled
    # ------------------------------------------------------------------
    def dot_scaled(self, lhs, lhs_scale, lhs_format, rhs, rhs_scale, rhs_format, acc=None,
                   fast_math=False, lhs_k_pack=True, rhs_k_pack=True,
                   out_dtype=tl.float32) -> tensor:
        """The product of two microscaled blocks, as Triton computes it where
        no instruction takes the formats (sm_80 and sm_90): each operand is
        upcast to bfloat16 (float16 if either format is "fp16"), multiplied
        by 2^(scale - 127) over each group of 32 elements along K (an e8m0
        scale of 0xFF gives NaN unless `fast_math`), and the two go through
        `dot` with float32 accumulation."""
        out_dtype = _unwrap(out_dtype)
        if out_dtype != tl.float32:
            raise SemanticError(f"tl.dot_scaled accumulates in float32 only, not {out_dtype}")
        fast_math = bool(_unwrap(fast_math))
        compute = tl.float16 if "fp16" in (_unwrap(lhs_format), _unwrap(rhs_format)) \
            else tl.bfloat16
        a, a_fmt = self._scaled_operand("lhs", lhs, lhs_format, lhs_k_pack)
        b, b_fmt = self._scaled_operand("rhs", rhs, rhs_format, rhs_k_pack)
        rank = len(a.shape)
        if len(b.shape) != rank:
            raise SemanticError(f"tl.dot_scaled needs two 2-D (or two batched 3-D) blocks, "
                                f"got shapes {lhs.shape} and {rhs.shape}")
        # The dimension an e2m1 operand is packed along: K, or M (lhs) / N
        # (rhs) without k_pack.
        a_packed = rank - 1 if _unwrap(lhs_k_pack) else rank - 2
        b_packed = rank - 2 if _unwrap(rhs_k_pack) else rank - 1
        a = self._upcast_scaled(a, a_fmt, a_packed, compute)
        b = self._upcast_scaled(b, b_fmt, b_packed, compute)
        if a.shape[-1] != b.shape[-2]:
            raise SemanticError(
                f"tl.dot_scaled: the operands hold different numbers of elements along K: "
                f"{a.shape[-1]} (lhs {lhs.shape}, {a_fmt}) and {b.shape[-2]} "
                f"(rhs {rhs.shape}, {b_fmt})")
        out_shape = list(a.shape[:-1]) + [b.shape[-1]]
        if _unwrap(acc) is not None:
            acc = self.to_tensor(acc)
            if list(acc.shape) != out_shape or acc.type.scalar != tl.float32:
                raise SemanticError(f"tl.dot_scaled: the accumulator must be a fp32 block "
                                    f"of shape {out_shape}, got {acc.type}")
        else:
            acc = None
        a = self._apply_scale("lhs", a, lhs_scale, compute, fast_math, transposed=False)
        b = self._apply_scale("rhs", b, rhs_scale, compute, fast_math, transposed=True)
        return self.dot(a, b, acc, out_dtype=tl.float32)

    def _scaled_operand(self, side: str, x, fmt, k_pack):
        """`x` as the type its format names (fp8 and 16-bit floats may come
        as unsigned integers of their width, which are bitcast), with the
        format checked."""
        fmt = _unwrap(fmt)
        x = self.to_tensor(x)
        if not isinstance(fmt, str) or fmt not in _SCALED_FORMATS:
            raise SemanticError(f"tl.dot_scaled: {side}_format must be one of "
                                f"{', '.join(repr(f) for f in _SCALED_FORMATS)}, got {fmt!r}")
        if not x.type.is_block() or len(x.shape) not in (2, 3):
            got = f"shape {x.shape}" if x.type.is_block() else "a scalar"
            raise SemanticError(f"tl.dot_scaled: {side} must be a 2-D (or batched 3-D) "
                                f"block, got {got}")
        if not _unwrap(k_pack) and fmt != "e2m1":
            raise SemanticError(f"tl.dot_scaled: only e2m1 operands can be packed along a "
                                f"dimension other than K ({side}_k_pack=False with {fmt!r})")
        own, raw = _SCALED_FORMATS[fmt]
        sca = x.type.scalar
        if own is not None and sca == own:
            return x, fmt
        if sca != raw:
            names = f"{raw}" if own is None else f"{raw} or {own}"
            raise SemanticError(f"tl.dot_scaled: a {fmt} {side} must be a block of "
                                f"{names}, got {sca}")
        return (x if own is None else self.bitcast(x, own)), fmt

    def _upcast_scaled(self, x: tensor, fmt: str, packed_dim: int, compute) -> tensor:
        """`x` converted exactly to `compute` (e2m1: unpacked, two values a
        byte along `packed_dim`); a 16-bit operand of the other 16-bit type
        is rounded to it."""
        if fmt != "e2m1":
            return self.cast(x, compute)
        return self._decode_e2m1(self._unpack_nibbles(x, packed_dim), compute)

    def _unpack_nibbles(self, x: tensor, packed_dim: int) -> tensor:
        """The nibbles of uint8 block `x`, twice as many along `packed_dim`
        (the last or the second-to-last dimension): byte i gives elements
        2i (its low nibble) and 2i + 1 (its high nibble)."""
        lo, hi = self.and_(x, 0xF), self.shr(x, 4)  # uint8, as x
        pairs = self.join(lo, hi)  # [..., R, C, 2]
        shape = list(x.shape)
        rank = len(shape)
        if packed_dim == rank - 2:
            order = list(range(rank - 1)) + [rank, rank - 1]
            pairs = self.permute(pairs, order)  # [..., R, 2, C]
        shape[packed_dim] *= 2
        return self.reshape(pairs, shape)

    def _decode_e2m1(self, nibbles: tensor, compute) -> tensor:
        """The values of e2m1 codes (uint8 0..15: sign, 2 exponent bits of
        bias 1, 1 mantissa bit; 0, 0.5, 1, 1.5, 2, 3, 4, 6) in `compute`,
        built from their bits: a normal code's exponent is rebiased and its
        mantissa bit moved to the top of the mantissa; the subnormal code
        (0.5) and zero are selected."""
        mantissa = compute.fp_mantissa_width
        bias = 127 if compute == tl.bfloat16 else 15
        n = self.cast(nibbles, tl.uint16)  # and so every value below
        em = self.and_(n, 0x7)
        sign = self.shl(self.and_(n, 0x8), 12)
        normal = self.add(self.shl(em, mantissa - 1), (bias - 1) << mantissa)
        half = self.mul(self.and_(em, 1), (bias - 1) << mantissa)  # 0.5 or 0
        magnitude = self.where(self.compare("ge", em, 2), normal, half)
        return self.bitcast(self.or_(magnitude, sign), compute)

    def _apply_scale(self, side: str, x: tensor, scale, compute, fast_math: bool,
                     transposed: bool) -> tensor:
        """`x` (the upcast operand, K along its last dimension, or along the
        second-to-last when `transposed`) times 2^(scale - 127) per group of
        32 elements along K. `scale` is a uint8 block of e8m0 exponents,
        [batch,] M x K/32 for lhs and [batch,] N x K/32 for rhs; None leaves
        `x` as it is. The factor is made in `compute` from the exponent's
        bits as Triton does (so an exponent of 0 gives 0, and one past the
        type's range an infinity or 0); 0xFF gives NaN unless `fast_math`
        (then the infinity that its bits make)."""
        scale = _unwrap(scale)
        if scale is None:
            return x
        scale = self.to_tensor(scale)
        rank = len(x.shape)
        k = x.shape[-2] if transposed else x.shape[-1]
        rows = x.shape[-1] if transposed else x.shape[-2]
        if k % SCALE_GROUP:
            raise SemanticError(f"tl.dot_scaled: K ({k}) must be a multiple of "
                                f"{SCALE_GROUP} to be scaled")
        want = list(x.shape[:-2]) + [rows, k // SCALE_GROUP]
        if scale.type.scalar != tl.uint8 or list(scale.shape) != want:
            got = scale.type if scale.type.is_block() else f"a scalar {scale.type}"
            raise SemanticError(f"tl.dot_scaled: {side}_scale must be a uint8 block of "
                                f"shape {want} (one e8m0 exponent per {SCALE_GROUP} "
                                f"elements of K), got {got}")
        if compute == tl.bfloat16:
            factor = self.bitcast(self.shl(self.cast(scale, tl.uint16), 7), tl.bfloat16)
        else:
            wide = self.bitcast(self.shl(self.cast(scale, tl.uint32), 23), tl.float32)
            factor = self.cast(wide, tl.float16)
        if not fast_math:
            factor = self.where(self.compare("eq", scale, 0xFF), float("nan"), factor)
        # [.., rows, groups] -> [.., K, rows] or [.., rows, K]: each factor
        # repeated over its group.
        if transposed:
            factor = self.permute(factor, list(range(rank - 2)) + [rank - 1, rank - 2])
            factor = self.expand_dims(factor, rank - 1)  # [.., groups, 1, rows]
            shape = list(factor.shape)
            shape[rank - 1] = SCALE_GROUP
        else:
            factor = self.expand_dims(factor, rank)  # [.., rows, groups, 1]
            shape = list(factor.shape)
            shape[rank] = SCALE_GROUP
        factor = self.reshape(self.broadcast_to(factor, shape), list(x.shape))
        return self.mul(x, factor)
