"""Host-side tools, as `triton.tools`: `tensor_descriptor` (host tensor
descriptors) and `export` (ahead-of-time compilation). Each is imported when
first named, so `import terrazzo` (which makes this package `triton.tools`)
loads neither, nor the extension that tensor_descriptor registers with."""

import importlib

_SUBMODULES = ("tensor_descriptor", "export")


def __getattr__(name):
    if name in _SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(list(globals()) + list(_SUBMODULES))
