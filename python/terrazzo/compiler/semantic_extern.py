"""The semantic layer's calls of functions outside the language: device
library functions (`tile.extern_elementwise`, behind `tl.extra.libdevice`)
and inline assembly (`tl.inline_asm_elementwise`).

Both are elementwise: the arguments are converted to tensors and broadcast
to one shape, and the result has that shape. Either may carry a NumPy
`reference` implementation, which the interpreter runs in place of the
device code; without one the interpreter stops with an error naming the
function or the assembly.
"""

from __future__ import annotations

from typing import Callable, Dict, List, Optional, Sequence, Tuple

from ..errors import SemanticError
from ..core.lang import _unwrap, block_type, dtype, tensor
from ..core.shape_rules import broadcast_shapes
from .type_rules import computation_type


def _dtype_names(types: Sequence[dtype]) -> str:
    return "(" + ", ".join(str(t) for t in types) + ")"


def _registers(ty: dtype, pack: int) -> int:
    """The registers an operand or result of `ty` takes in one invocation of
    `pack` elements: types narrower than 32 bits share 32-bit registers (the
    rule of tile.inline_asm's verifier, InlineAsmOp::getRegisterCount)."""
    bits = 64 if ty.is_ptr() else max(8, ty.primitive_bitwidth)
    per_register = 32 // bits if bits < 32 else 1
    return -(-pack // per_register)


def _check_constraints(constraints: str, arg_types: Sequence[dtype],
                       result_types: Sequence[dtype], pack: int) -> None:
    pieces = [c.strip() for c in constraints.split(",")]
    if any(not c for c in pieces):
        raise SemanticError(f"inline_asm_elementwise: empty constraint in {constraints!r}")
    pieces = [c for c in pieces if not c.startswith("~")]  # clobbers
    outputs = [c for c in pieces if c.startswith("=")]
    if pieces[:len(outputs)] != outputs:
        raise SemanticError(f"inline_asm_elementwise: output constraints (=...) must come "
                            f"before the inputs in {constraints!r}")
    for what, have, types in (("output", len(outputs), result_types),
                              ("input", len(pieces) - len(outputs), arg_types)):
        need = sum(_registers(t, pack) for t in types)
        if have != need:
            raise SemanticError(
                f"inline_asm_elementwise: {constraints!r} has {have} {what} constraint"
                f"{'s' if have != 1 else ''}, but the {what}s take {need} register"
                f"{'s' if need != 1 else ''} with pack={pack} (values narrower than 32 bits "
                f"share 32-bit registers)")


class ExternSemantic:
    """Mixed into `semantic.Semantic`."""

    def _elementwise_args(self, args) -> Tuple[List[tensor], List[int]]:
        """The arguments as tensors, and the shape they broadcast to ([] when
        all are scalars)."""
        values = [self.to_tensor(a) for a in args]
        shape: List[int] = []
        for v in values:
            if v.shape:
                shape = broadcast_shapes(shape, v.shape) if shape else list(v.shape)
        return values, shape

    def extern_elementwise(self, lib_name: str, lib_path: str, args,
                           table: Dict[Tuple[dtype, ...], Tuple[str, dtype]],
                           is_pure: bool, reference: Optional[Callable] = None,
                           name: Optional[str] = None) -> tensor:
        """Calls the device function that `table` gives for the arguments'
        scalar types ({(argument types): (symbol, result type)}), element by
        element. As in Triton, arguments whose types have no entry are first
        converted to the type arithmetic on them would use; if that has no
        entry either, the call is an error. `reference(result numpy dtype,
        *argument arrays)` computes the same in the interpreter."""
        what = name or "the extern function"
        values, shape = self._elementwise_args(args)
        types = tuple(v.type.scalar for v in values)
        if values and types not in table:
            common = types[0]
            for t in types[1:]:
                common = computation_type(common, False, t, False)
            if tuple([common] * len(values)) in table:
                values = [self.cast(v, common) for v in values]
                types = tuple(v.type.scalar for v in values)
        if types not in table:
            accepted = ", ".join(_dtype_names(k) for k in table)
            hint = ""
            if any(t.is_fp16() or t.is_bf16() for t in types):
                hint = "; convert float16/bfloat16 values first, e.g. x.to(tl.float32)"
            raise SemanticError(f"{what} does not accept arguments of types "
                                f"{_dtype_names(types)}: it takes {accepted}{hint}")
        symbol, result_sca = table[types]
        if shape:
            values = [self.broadcast_to(v, shape) for v in values]
        result_ty = block_type(result_sca, shape) if shape else result_sca
        handle = self.builder.extern_elementwise(
            symbol, lib_name, lib_path, [(v.handle, v.type) for v in values],
            result_ty, bool(is_pure), reference)
        return tensor(handle, result_ty)

    def inline_asm_elementwise(self, asm, constraints, args, dtype_, is_pure, pack,
                               reference: Optional[Callable] = None):
        """`asm` run on the elements of `args` (broadcast to one shape), `pack`
        elements per invocation; returns one tensor of `dtype_`, or a tuple
        when `dtype_` is a sequence of types."""
        asm, constraints = _unwrap(asm), _unwrap(constraints)
        if not isinstance(asm, str):
            raise SemanticError(f"inline_asm_elementwise: asm must be a string, got {asm!r}")
        if not isinstance(constraints, str):
            raise SemanticError("inline_asm_elementwise: constraints must be a string, "
                                f"got {constraints!r}")
        pack = _unwrap(pack)
        if not isinstance(pack, int) or isinstance(pack, bool) or pack < 1:
            raise SemanticError(f"inline_asm_elementwise: pack must be a positive "
                                f"integer, got {pack!r}")
        dtype_ = _unwrap(dtype_)
        multiple = isinstance(dtype_, (tuple, list))
        result_scalars = [_unwrap(d) for d in (dtype_ if multiple else [dtype_])]
        if not result_scalars:
            raise SemanticError("inline_asm_elementwise needs at least one result type")
        for d in result_scalars:
            if not isinstance(d, dtype) or d.is_block() or d.is_void():
                raise SemanticError(f"inline_asm_elementwise: result types must be scalar "
                                    f"dtypes, got {d!r}")
        args = _unwrap(args)
        if isinstance(args, tensor) or not isinstance(args, (list, tuple)):
            args = [args]
        values, shape = self._elementwise_args(args)
        if shape:
            values = [self.broadcast_to(v, shape) for v in values]
        _check_constraints(constraints, [v.type.scalar for v in values], result_scalars, pack)
        result_types = [block_type(d, shape) if shape else d for d in result_scalars]
        handles = self.builder.inline_asm(asm, constraints,
                                          [(v.handle, v.type) for v in values],
                                          result_types, bool(_unwrap(is_pure)), pack,
                                          reference)
        results = [tensor(h, t) for h, t in zip(handles, result_types)]
        return tuple(results) if multiple else results[0]
