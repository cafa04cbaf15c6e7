"""`tl.extra`: vendor libraries of device functions, as in Triton
(`triton.language.extra.libdevice`, `triton.language.extra.cuda`)."""

from . import cuda, libdevice  # noqa: F401

__all__ = ["cuda", "libdevice"]
