"""Lazy access to the compiled extension `terrazzo._C` and to the current
stream.

The interpreter and IR generation never need the extension; everything that
compiles to a binary or launches goes through `get_C()`, which explains what
is missing when the extension cannot be loaded.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Optional

_C_module = None
_C_error: Optional[BaseException] = None


def get_C(required: bool = True):
    """The `terrazzo._C` module; raises ImportError with guidance when it is
    not built (or returns None when `required` is False)."""
    global _C_module, _C_error
    if _C_module is None and _C_error is None:
        try:
            _C_module = importlib.import_module("terrazzo._C")
        except ImportError as e:  # not built, or built for another Python
            _C_error = e
    if _C_module is None and required:
        raise ImportError(
            "terrazzo._C, the compiled extension, is not available "
            f"({_C_error}). Build it (python/CMakeLists.txt) and put "
            "build-core/python on PYTHONPATH, or run kernels in the interpreter "
            "with TERRAZZO_INTERPRET=1.") from _C_error
    return _C_module


def extension_available() -> bool:
    return get_C(required=False) is not None


def env_flag(name: str) -> bool:
    v = os.environ.get(name, "")
    return v.strip().lower() not in ("", "0", "false", "no", "off")


# os.environ keeps its contents in `_data` (bytes keys on POSIX); reading it
# directly costs tens of nanoseconds instead of half a microsecond, which
# matters on the launch path. Writes through os.environ update it.
_ENV_DATA = getattr(os.environ, "_data", None) if os.name == "posix" else None


def interpret_requested() -> bool:
    """TERRAZZO_INTERPRET (or TRITON_INTERPRET) is set to a true value."""
    if _ENV_DATA is not None:
        if _ENV_DATA.get(b"TERRAZZO_INTERPRET") is None and \
                _ENV_DATA.get(b"TRITON_INTERPRET") is None:
            return False
    return env_flag("TERRAZZO_INTERPRET") or env_flag("TRITON_INTERPRET")


_stream_broken = False


_raw_stream_functions = None


def current_stream() -> int:
    """torch's current CUDA stream when torch is imported, else 0 (the
    default stream). On every launch, so it asks torch's C layer for the raw
    stream of the current device: `torch.cuda.current_stream()` builds a
    Python Stream object each time, which costs several microseconds."""
    global _stream_broken, _raw_stream_functions
    if _stream_broken:
        return 0
    if _raw_stream_functions is not None:
        raw_stream, current_device = _raw_stream_functions
        return raw_stream(current_device())
    torch = sys.modules.get("torch")
    if torch is None:
        return 0
    try:
        stream = torch.cuda.current_stream().cuda_stream
    except Exception:  # torch without CUDA
        _stream_broken = True
        return 0
    try:
        _raw_stream_functions = (torch._C._cuda_getCurrentRawStream,
                                 torch._C._cuda_getDevice)
    except AttributeError:  # a torch without these: keep the public API
        pass
    return stream
    torch = sys.modules.get("torch")
    if torch is None:
        return 0
    try:
        return torch.cuda.current_stream().cuda_stream
    except Exception:  # torch without CUDA
        _stream_broken = True
        return 0
