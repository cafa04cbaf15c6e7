"""The semantic layer of the atomics (`tl.atomic_*`): type checks,
broadcasting and the choice of the tile-level operation, as in Triton.

`Semantic` inherits these methods; they use its conversions and emit through
the builder's `atomic_rmw` and `atomic_cas` (see builder.py).
"""

from __future__ import annotations

from typing import List

from ..errors import SemanticError
from ..language.core import _unwrap, tensor

# Triton's spellings; None is Triton's default.
_SEMANTICS = {None: "acq_rel", "relaxed": "relaxed", "acquire": "acquire",
              "release": "release", "acq_rel": "acq_rel"}
_SCOPES = {None: "gpu", "gpu": "gpu", "cta": "cta", "sys": "sys"}


def _is_number(x) -> bool:
    import numbers
    return isinstance(x, numbers.Number) and not isinstance(x, complex)


class AtomicSemantic:
    """Mixed into `semantic.Semantic`."""

    def _atomic_ordering(self, what: str, sem, scope):
        if not isinstance(sem, (str, type(None))) or sem not in _SEMANTICS:
            raise SemanticError(f"{what}: unknown memory semantics {sem!r} (use 'relaxed', "
                                "'acquire', 'release' or 'acq_rel')")
        if not isinstance(scope, (str, type(None))) or scope not in _SCOPES:
            raise SemanticError(f"{what}: unknown scope {scope!r} (use 'gpu', 'cta' or "
                                "'sys')")
        return _SEMANTICS[sem], _SCOPES[scope]

    def _atomic_pointer(self, what: str, ptr) -> tensor:
        ptr = self._check_pointer(ptr, what)
        ptr_sca = ptr.type.scalar
        if getattr(ptr_sca, "const", False):
            raise SemanticError(f"{what}: cannot update memory through a constant pointer")
        elt = ptr_sca.element_ty
        if elt.is_ptr():
            raise SemanticError(f"{what}: atomics on pointers to pointers are not supported")
        if elt.is_fp8():
            raise SemanticError(f"{what} does not support {elt} elements")
        if elt.is_bool() or (elt.is_int() and elt.int_bitwidth < 32):
            raise SemanticError(f"{what} does not support {elt} elements (atomics need "
                                "32- or 64-bit integers or floats, or float16/bfloat16)")
        return ptr

    def _atomic_shape(self, ptr: tensor, others) -> List[int]:
        shape = list(ptr.shape) if ptr.type.is_block() else []
        for other in others:
            if isinstance(other, tensor) and other.type.is_block():
                shape = list(other.shape) if not shape else \
                    self._broadcast_atomic_shapes(shape, list(other.shape))
        return shape

    @staticmethod
    def _broadcast_atomic_shapes(a, b):
        from .semantic import broadcast_shapes
        return broadcast_shapes(a, b)

    def _atomic_value(self, what: str, name: str, value, elt, shape) -> tensor:
        value = _unwrap(value)
        if value is None:
            raise SemanticError(f"{what}: `{name}` is required")
        if isinstance(value, tensor):
            if value.type.scalar.is_ptr():
                raise SemanticError(f"{what}: `{name}` cannot be a pointer")
            return self.broadcast_to(self.cast(value, elt), shape)
        if not _is_number(value):
            raise SemanticError(f"{what}: `{name}` must be a number or a tensor, got "
                                f"{value!r}")
        return self.constant(value, elt, shape)

    def atomic_rmw(self, kind: str, ptr, val, mask, sem, scope) -> tensor:
        what = f"atomic_{kind}"
        sem, scope = self._atomic_ordering(what, sem, scope)
        ptr = self._atomic_pointer(what, ptr)
        elt = ptr.type.scalar.element_ty
        if kind in ("and", "or", "xor") and not elt.is_int():
            raise SemanticError(f"{what} needs integer elements, got {elt}")
        mask = self._mask(mask, what)
        val = _unwrap(val)
        shape = self._atomic_shape(ptr, [val, mask])
        ptr = self.broadcast_to(ptr, shape)
        val = self._atomic_value(what, "val", val, elt, shape)
        if mask is not None:
            mask = self.broadcast_to(mask, shape)
        if kind == "add":
            op = "fadd" if elt.is_floating() else "add"
        elif kind in ("max", "min"):
            op = kind if elt.is_floating() or elt.is_int_signed() else "u" + kind
        else:
            op = kind
        res_ty = self._ty(elt, shape)
        h = self.builder.atomic_rmw(op, ptr.handle, val.handle,
                                    mask.handle if mask is not None else None, ptr.type,
                                    res_ty, sem, scope)
        return tensor(h, res_ty)

    def atomic_cas(self, ptr, cmp, val, sem, scope) -> tensor:
        what = "atomic_cas"
        sem, scope = self._atomic_ordering(what, sem, scope)
        ptr = self._atomic_pointer(what, ptr)
        elt = ptr.type.scalar.element_ty
        cmp, val = _unwrap(cmp), _unwrap(val)
        shape = self._atomic_shape(ptr, [cmp, val])
        ptr = self.broadcast_to(ptr, shape)
        cmp = self._atomic_value(what, "cmp", cmp, elt, shape)
        val = self._atomic_value(what, "val", val, elt, shape)
        res_ty = self._ty(elt, shape)
        h = self.builder.atomic_cas(ptr.handle, cmp.handle, val.handle, ptr.type, res_ty,
                                    sem, scope)
        return tensor(h, res_ty)


__all__ = ["AtomicSemantic"]
