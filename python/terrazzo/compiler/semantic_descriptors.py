"""The semantic layer of tensor descriptors (`tl.make_tensor_descriptor`,
`desc.load`, `desc.store`), with Triton's checks.

`Semantic` inherits these methods; they emit through the builder's
`make_tensor_desc`, `desc_load` and `desc_store` (see builder.py).
"""

from __future__ import annotations

from ..errors import SemanticError, SemanticUnsupported
from ..core import lang as tl
from ..core.lang import _unwrap, _unwrap_shape, tensor
from ..core.shape_rules import validate_block_shape
from ..core.descriptors import tensor_descriptor

MAX_RANK = 5


def _as_list(x, what: str):
    x = _unwrap(x)
    if isinstance(x, tensor):
        raise SemanticError(f"make_tensor_descriptor: {what} must be a list or tuple "
                            "(one value per dimension), not a tensor")
    if not isinstance(x, (list, tuple)):
        return [x]
    return list(x)


class DescriptorSemantic:
    """Mixed into `semantic.Semantic`."""

    def make_tensor_descriptor(self, base, shape, strides, block_shape,
                               padding_option="zero") -> tensor_descriptor:
        if _unwrap(base) is None:
            raise SemanticError("make_tensor_descriptor: the base pointer is None")
        base = self.to_tensor(base)
        if not base.type.scalar.is_ptr() or base.type.is_block():
            raise SemanticError("make_tensor_descriptor: the base must be a scalar pointer, "
                                f"got {base.type}")
        elt = base.type.scalar.element_ty
        if elt.is_ptr() or elt.is_bool():
            raise SemanticError(f"make_tensor_descriptor: descriptors of {elt} are not "
                                "supported")
        block = _unwrap_shape(block_shape)
        shape, strides = _as_list(shape, "shape"), _as_list(strides, "strides")
        rank = len(block)
        if not 1 <= rank <= MAX_RANK:
            raise SemanticError(f"make_tensor_descriptor: the block must have 1 to {MAX_RANK} "
                                f"dimensions, got {rank}")
        if len(shape) != rank or len(strides) != rank:
            raise SemanticError(f"make_tensor_descriptor: shape ({len(shape)} values), "
                                f"strides ({len(strides)}) and block_shape ({rank}) must "
                                "have one value per dimension")
        validate_block_shape(block)
        if block[-1] * elt.itemsize < 16:
            raise SemanticError(f"make_tensor_descriptor: Descriptor block shape must have "
                                f"at least 16 bytes in its last dimension, got {block[-1]} x "
                                f"{elt.itemsize} bytes")
        if padding_option not in ("zero", None):
            raise SemanticUnsupported(f"make_tensor_descriptor: padding_option="
                                      f"{padding_option!r} is not supported (only 'zero')")
        last = _unwrap(strides[-1])
        known = getattr(last, "known_value", None) if isinstance(last, tensor) else last
        if isinstance(last, tensor) and known is None and \
                getattr(self.builder, "concrete", False):
            known = self.builder.to_python(last.handle)
        if known != 1:
            got = "a runtime value" if known is None else repr(known)
            raise SemanticError(f"make_tensor_descriptor: the last stride must be 1 (the "
                                f"innermost dimension is contiguous), got {got}")
        if getattr(base, "misaligned", False):
            raise SemanticError("make_tensor_descriptor: the base pointer must be 16-byte "
                                "aligned, but the argument passed for it is not")
        shape_t = [self._index_value(s, tl.int32, "shape") for s in shape]
        strides_t = [self._index_value(s, tl.int64, "strides") for s in strides]
        block_ty = tl.block_type(elt, block)
        return self.remake_tensor_descriptor(base, shape_t, strides_t, block_ty,
                                             padding_option or "zero")

    def remake_tensor_descriptor(self, base: tensor, shape, strides, block_ty,
                                 padding_option="zero") -> tensor_descriptor:
        """The descriptor of checked parts (base pointer, int32 shape, int64
        strides): make_tensor_descriptor's result, and a descriptor a called
        function receives as its parts."""
        h = self.builder.make_tensor_desc(base.handle, [s.handle for s in shape],
                                          [s.handle for s in strides], base.type, block_ty)
        return tensor_descriptor(h, block_ty, shape, strides, base, padding_option)

    def host_tensor_descriptor(self, name: str, base, shape, strides, block_shape,
                               padding="zero") -> tensor_descriptor:
        """The descriptor a kernel sees for its argument `name`, a host
        `TensorDescriptor` passed as `base` (a pointer), `shape` and
        `strides` (scalars): the one `tl.make_tensor_descriptor` makes of
        them. Errors name the argument."""
        try:
            return self.make_tensor_descriptor(base, shape, strides, list(block_shape),
                                               padding)
        except SemanticError as e:
            message = str(e).replace("make_tensor_descriptor: ", "", 1)
            raise type(e)(f"argument {name!r} (a TensorDescriptor): {message}") from None

    def _index_value(self, x, ty, what: str) -> tensor:
        x = _unwrap(x)
        if isinstance(x, bool) or not isinstance(x, (int, tensor)):
            raise SemanticError(f"tensor descriptor {what} must be integers, got {x!r}")
        x = self.to_tensor(x)
        if x.type.is_block() or not x.type.scalar.is_int() or x.type.scalar.is_bool():
            raise SemanticError(f"tensor descriptor {what} must be integer scalars, got "
                                f"{x.type}")
        return self.cast(x, ty)

    def _check_descriptor(self, desc, offsets, what: str):
        desc = _unwrap(desc)
        if not isinstance(desc, tensor_descriptor):
            raise SemanticError(f"{what} needs a tensor descriptor (from "
                                f"tl.make_tensor_descriptor), got {desc!r}")
        offsets = _as_list(offsets, "offsets")
        rank = len(desc.block_shape)
        if len(offsets) != rank:
            raise SemanticError(f"{what}: the descriptor has {rank} dimensions but "
                                f"{len(offsets)} offsets were given")
        return desc, [self._index_value(o, tl.int32, "offsets") for o in offsets]

    def descriptor_load(self, desc, offsets) -> tensor:
        desc, offs = self._check_descriptor(desc, offsets, "descriptor load")
        ty = desc.block_type
        h = self.builder.desc_load(desc.handle, [o.handle for o in offs], ty, ty)
        return tensor(h, ty)

    def descriptor_store(self, desc, offsets, value) -> None:
        desc, offs = self._check_descriptor(desc, offsets, "descriptor store")
        ty = desc.block_type
        value = _unwrap(value)
        if isinstance(value, tensor) and value.type.is_block() and \
                list(value.shape) != desc.block_shape:
            try:
                value = self.broadcast_to(value, desc.block_shape)
            except SemanticError:
                raise SemanticError(f"descriptor store: the value's shape {value.shape} does "
                                    f"not match the block shape {desc.block_shape}") from None
        if isinstance(value, tensor):
            value = self.cast(self.broadcast_to(value, desc.block_shape), ty.element_ty)
        else:
            value = self.full(desc.block_shape, value, ty.element_ty)
        self.builder.desc_store(desc.handle, [o.handle for o in offs], value.handle, ty)
        return None
