"""`set_allocator`: where kernels get the global scratch they need.

Kernels that use tensor descriptors on sm_90 build their TMA tensor maps on
the device, in 128 bytes of global memory per descriptor and program
instance (the hardware reads tensor maps from global memory only). As in
Triton, `set_allocator(fn)` lets the application provide that memory:
`fn(size: int, alignment: int, stream: int)` returns a tensor (anything with
`data_ptr()`, or an address) of at least `size` bytes aligned to
`alignment`, valid for work queued on `stream`, e.g.

    terrazzo.set_allocator(lambda size, alignment, stream:
                           torch.empty(size, dtype=torch.int8, device="cuda"))

Without one (or after `set_allocator(None)`), the launcher keeps a device
buffer per device and stream and reuses it, so kernels run either way.

The scratch is memory of the launch's device (the device of the kernel's
tensor arguments, see terrazzo._C.Kernel): with several GPUs, the allocator
is called with that device made current in torch (`torch.cuda.device`) when
another one is, so that `device="cuda"` allocates there, and `stream` is that
device's stream.
"""

from __future__ import annotations

from typing import Callable, Optional

from . import driver

_allocator: Optional[Callable] = None


def set_allocator(allocator: Optional[Callable]) -> None:
    """Sets the allocator of kernels' global scratch (None: the launcher's
    own cached buffer)."""
    global _allocator
    if allocator is not None and not callable(allocator):
        raise TypeError("the allocator must be callable (size, alignment, stream) -> tensor, "
                        f"or None; got {type(allocator).__name__}")
    C = driver.get_C(required=False)
    if C is not None:
        C.set_allocator(allocator)
    _allocator = allocator


def get_allocator() -> Optional[Callable]:
    """The allocator set with `set_allocator`, or None."""
    return _allocator
