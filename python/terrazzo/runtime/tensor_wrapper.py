"""Host tensors seen as another element type: `reinterpret` and
`TensorWrapper` (Triton's `triton.reinterpret`), and `MockTensor`.

`reinterpret(x, tl.uint32)` passes the memory of `x` (a torch tensor, or a
NumPy array in the interpreter) to a kernel as a pointer to `uint32`
elements, whatever the storage's own dtype: torch has no unsigned types
wider than 8 bits and no fp8 types on older versions, so Triton's tests keep
such data in signed (or int8) tensors and reinterpret them. Nothing is
copied or converted; the wrapper only carries the element type.

The compiled launch path reads `data_ptr()` and `dtype` (a `tl.dtype`, whose
name is what the specialisation key records); the interpreter registers the
base's memory and accesses it as the wrapper's element type.
"""

from __future__ import annotations

from typing import Any

from ..compiler.kernel import StorageExtent, array_storage
from ..core.lang import dtype as tl_dtype
from ..core.lang import dtype_from_name


def _data_ptr(base) -> int:
    """The address of the first element of a torch tensor or NumPy array."""
    if hasattr(base, "data_ptr"):
        return base.data_ptr()
    iface = getattr(base, "__cuda_array_interface__", None) or \
        getattr(base, "__array_interface__", None)
    if iface is None:
        raise TypeError(f"{type(base).__name__} has no data_ptr() or array interface")
    return iface["data"][0]


def _as_tl_dtype(dt) -> tl_dtype:
    if isinstance(dt, tl_dtype):
        return dt
    found = dtype_from_name(str(dt))
    if found is None or found.is_void():
        raise TypeError(f"reinterpret: {dt!r} is not a tl dtype (for example tl.uint32 "
                        "or tl.float8e4nv)")
    return found


class TensorWrapper:
    """A tensor's memory with another element type (see `reinterpret`).

    `base` is the tensor that owns the memory; `dtype` is the `tl.dtype` a
    kernel sees; shape, strides, device and element size are the base's."""

    #: What the interpreter (a layer below) recognises it by.
    _terrazzo_tensor_wrapper = True

    def __init__(self, base, dtype):
        self.base = base
        self.dtype = _as_tl_dtype(dtype)
        self.data = getattr(base, "data", None)
        self.device = getattr(base, "device", "cpu")
        self.shape = base.shape

    def data_ptr(self) -> int:
        return _data_ptr(self.base)

    def untyped_storage(self):
        """The memory the base belongs to (the launch key's "fits in 2^31
        bytes" bit): a torch tensor's storage, a NumPy array's owner
        (StorageExtent), or None when unknown."""
        if hasattr(self.base, "untyped_storage"):
            return self.base.untyped_storage()
        # A NumPy array's owner stays the same: found once.
        if not hasattr(self, "_array_storage"):
            self._array_storage = array_storage(self.base)
        return self._array_storage

    def numel(self) -> int:
        if hasattr(self.base, "numel"):
            return int(self.base.numel())
        return int(self.base.size)

    def element_size(self) -> int:
        if hasattr(self.base, "element_size"):
            return int(self.base.element_size())
        return int(self.base.itemsize)

    def stride(self, dim=None):
        """The base's strides in elements (all of them, or dimension `dim`)."""
        if hasattr(self.base, "stride"):
            return self.base.stride() if dim is None else self.base.stride(dim)
        strides = tuple(s // self.base.itemsize for s in self.base.strides)
        return strides if dim is None else strides[dim]

    def dim(self) -> int:
        return len(self.shape)

    @property
    def is_cuda(self) -> bool:
        return bool(getattr(self.base, "is_cuda", False))

    def cpu(self) -> "TensorWrapper":
        return TensorWrapper(self.base.cpu() if hasattr(self.base, "cpu") else self.base,
                             self.dtype)

    def to(self, device) -> "TensorWrapper":
        return TensorWrapper(self.base.to(device), self.dtype)

    def copy_(self, other) -> "TensorWrapper":
        src = other.base if isinstance(other, TensorWrapper) else other
        if hasattr(self.base, "copy_"):
            self.base.copy_(src)
        else:
            self.base[...] = src
        return self

    def __str__(self) -> str:
        return f"TensorWrapper[{self.dtype}]({self.base})"

    def __repr__(self) -> str:
        return f"TensorWrapper(dtype={self.dtype!r}, base={self.base!r})"


def _same_dtype(dt, base) -> bool:
    """Whether `dt` names the base's own element type (so that reinterpreting
    to it gives the base back)."""
    if dt is base.dtype:
        return True
    own = dtype_from_name(str(base.dtype).replace("torch.", ""))
    return own is not None and own == _as_tl_dtype(dt)


def reinterpret(tensor, dtype) -> Any:
    """`tensor`'s memory seen as elements of `dtype` by kernels.

    A TensorWrapper is unwrapped first: reinterpreting it as its base's own
    type gives the base back, as another type wraps the base again."""
    if isinstance(tensor, TensorWrapper):
        if _same_dtype(dtype, tensor.base):
            return tensor.base
        return TensorWrapper(tensor.base, dtype)
    if hasattr(tensor, "data_ptr") or hasattr(tensor, "__array_interface__") or \
            hasattr(tensor, "__cuda_array_interface__"):
        return TensorWrapper(tensor, dtype)
    raise TypeError(f"cannot reinterpret a {type(tensor).__name__}: pass a torch tensor "
                    "(or a NumPy array for the interpreter)")


class MockTensor:
    """Stands for a tensor of `dtype` where only the type matters, for
    example in `kernel.warmup(MockTensor(torch.float32), ...)`: its address
    is 0 (taken as aligned to 16 bytes)."""

    @staticmethod
    def wrap_dtype(arg):
        """A MockTensor for a torch dtype, anything else unchanged."""
        if type(arg).__name__ == "dtype" and type(arg).__module__ == "torch":
            return MockTensor(arg)
        return arg

    def __init__(self, dtype):
        self.dtype = dtype

    def data_ptr(self) -> int:
        return 0

    def untyped_storage(self) -> StorageExtent:
        """No memory: counts as fitting in 2^31 bytes, the common case
        (a launch on tensors smaller than 2 GiB)."""
        return StorageExtent(0, 0)
