"""The semantic layer of the atomics (`tl.atomic_*`): type checks,
broadcasting and the choice of the tile-level operation, as in Triton.

`Semantic` inherits these methods; they use its conversions and emit through
the builder's `atomic_rmw`, `atomic_cas`, `atomic_load`, `atomic_store` and
`atomic_poll` (see builder.py).
"""

from __future__ import annotations

from typing import List

from ..errors import SemanticError
from ..core import lang as tl
from ..core.lang import _unwrap, tensor
from ..core.shape_rules import broadcast_shapes

# Triton's spellings; None is Triton's default.
_SEMANTICS = {None: "acq_rel", "relaxed": "relaxed", "acquire": "acquire",
              "release": "release", "acq_rel": "acq_rel"}
_SCOPES = {None: "gpu", "gpu": "gpu", "cta": "cta", "sys": "sys"}
# The orderings an atomic load (or poll) and an atomic store may have; the
# first is the default.
_LOAD_SEMANTICS = ("acquire", "relaxed")
_STORE_SEMANTICS = ("release", "relaxed")


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

    def _access_ordering(self, what: str, sem, scope, allowed):
        """`sem` (one of `allowed`, the first by default) and `scope` of an
        atomic load, store or poll."""
        if sem is None:
            sem = allowed[0]
        if not isinstance(sem, str) or sem not in allowed:
            known = " or ".join(repr(a) for a in allowed)
            raise SemanticError(f"{what}: memory semantics {sem!r} are not allowed "
                                f"(use {known})")
        _, scope = self._atomic_ordering(what, None, scope)
        return sem, scope

    def _access_pointer(self, what: str, ptr, writes: bool) -> tensor:
        """The pointer of an atomic load, store or poll: to 8- to 64-bit
        integers or 16- to 64-bit floats."""
        if writes:
            self._check_writes_allowed(what)
        ptr = self._check_pointer(ptr, what)
        elt = ptr.type.scalar.element_ty
        if writes and getattr(ptr.type.scalar, "const", False):
            raise SemanticError(f"{what}: cannot write memory through a constant pointer")
        if elt.is_ptr() or elt.is_bool() or elt.is_fp8():
            raise SemanticError(f"{what} does not support {elt} elements (use 8- to "
                                "64-bit integers, float16, bfloat16, float32 or float64)")
        return ptr

    def atomic_load(self, ptr, mask, sem, scope) -> tensor:
        what = "atomic_load"
        sem, scope = self._access_ordering(what, sem, scope, _LOAD_SEMANTICS)
        ptr = self._access_pointer(what, ptr, writes=False)
        elt = ptr.type.scalar.element_ty
        ptr, _, mask, shape = self._atomic_operands(what, ptr, (), self._mask(mask, what))
        res_ty = self._ty(elt, shape)
        h = self.builder.atomic_load(ptr.handle, mask.handle if mask is not None else None,
                                     ptr.type, res_ty, sem, scope)
        return tensor(h, res_ty)

    def atomic_store(self, ptr, val, mask, sem, scope) -> None:
        what = "atomic_store"
        sem, scope = self._access_ordering(what, sem, scope, _STORE_SEMANTICS)
        ptr = self._access_pointer(what, ptr, writes=True)
        ptr, (val,), mask, _ = self._atomic_operands(what, ptr, [("val", val)],
                                                     self._mask(mask, what))
        self.builder.atomic_store(ptr.handle, val.handle,
                                  mask.handle if mask is not None else None, ptr.type,
                                  sem, scope)

    def _poll_timeout(self, timeout):
        """`timeout_ns` as an int64 scalar, or None."""
        timeout = _unwrap(timeout)
        if timeout is None:
            return None
        if isinstance(timeout, tensor):
            if timeout.type.is_block() or not timeout.type.scalar.is_int() or \
                    timeout.type.scalar.is_bool():
                raise SemanticError("atomic_poll: timeout_ns must be an integer scalar, "
                                    f"got {timeout.type}")
            return self.cast(timeout, tl.int64)
        if isinstance(timeout, bool) or not isinstance(timeout, int):
            raise SemanticError(f"atomic_poll: timeout_ns must be an integer, got "
                                f"{timeout!r}")
        if not 0 <= timeout < 2 ** 63:
            raise SemanticError(f"atomic_poll: timeout_ns must be from 0 to 2**63 - 1, "
                                f"got {timeout}")
        return self.constant(timeout, tl.int64)

    def atomic_poll(self, ptr, expected, sem, scope, timeout) -> tensor:
        what = "atomic_poll"
        sem, scope = self._access_ordering(what, sem, scope, _LOAD_SEMANTICS)
        ptr = self._check_pointer(ptr, what)
        elt = ptr.type.scalar.element_ty
        if elt.is_ptr() or not elt.is_int() or elt.int_bitwidth not in (16, 32, 64):
            raise SemanticError(f"{what} polls 16-, 32- or 64-bit integers, not {elt}")
        ptr, (expected,), _, shape = self._atomic_operands(
            what, ptr, [("expected_value", expected)])
        timeout = self._poll_timeout(timeout)
        res_ty = self._ty(tl.int1, shape)
        h = self.builder.atomic_poll(ptr.handle, expected.handle,
                                     timeout.handle if timeout is not None else None,
                                     ptr.type, res_ty, sem, scope)
        return tensor(h, res_ty)

    def _atomic_pointer(self, what: str, ptr) -> tensor:
        self._check_writes_allowed(what)
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
                    broadcast_shapes(shape, list(other.shape))
        return shape

    def _atomic_operands(self, what: str, ptr: tensor, named, mask=None):
        """`ptr`, the values `named` ((name, value) pairs, converted to the
        pointer's element type) and `mask` broadcast to their common shape:
        (ptr, values, mask, shape)."""
        elt = ptr.type.scalar.element_ty
        values = [_unwrap(v) for _, v in named]
        shape = self._atomic_shape(ptr, values + [mask])
        ptr = self.broadcast_to(ptr, shape)
        values = [self._atomic_value(what, name, v, elt, shape)
                  for (name, _), v in zip(named, values)]
        if mask is not None:
            mask = self.broadcast_to(mask, shape)
        return ptr, values, mask, shape

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
        ptr, (val,), mask, shape = self._atomic_operands(what, ptr, [("val", val)],
                                                         self._mask(mask, what))
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
        ptr, (cmp, val), _, shape = self._atomic_operands(what, ptr,
                                                          [("cmp", cmp), ("val", val)])
        res_ty = self._ty(elt, shape)
        h = self.builder.atomic_cas(ptr.handle, cmp.handle, val.handle, ptr.type, res_ty,
                                    sem, scope)
        return tensor(h, res_ty)


__all__ = ["AtomicSemantic"]
