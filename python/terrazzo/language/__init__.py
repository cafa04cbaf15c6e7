"""The kernel language, `import terrazzo.language as tl` (names and
semantics follow `triton.language`)."""

from . import atomics, core, math  # noqa: F401
from .atomics import *  # noqa: F401,F403
from .atomics import __all__ as _atomics_all
from .core import *  # noqa: F401,F403
from . import shapes  # noqa: F401
from .shapes import *  # noqa: F401,F403
from .shapes import __all__ as _shapes_all
from . import descriptors  # noqa: F401
from .descriptors import *  # noqa: F401,F403
from .descriptors import __all__ as _descriptors_all
from .core import __all__ as _core_all
from .core import (_unwrap, block_type, constexpr, dtype, dtype_from_name,  # noqa: F401
                   pointer_type, tensor)

# Triton spellings of a few names.
pi32_t = pointer_type(core.int32)

__all__ = list(_core_all) + list(_atomics_all) + list(_shapes_all) + list(_descriptors_all) + [
    "math", "core", "atomics", "shapes", "dtype_from_name", "pi32_t"]
