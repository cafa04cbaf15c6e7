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
# The standard library, written in the language itself (it uses core's
# operations, so it comes after core).
from . import standard, random, block_pointers, extra, structures  # noqa: F401,E402
from . import target_info  # noqa: F401,E402
from .standard import *  # noqa: F401,F403
from .random import *  # noqa: F401,F403
from .block_pointers import *  # noqa: F401,F403
from .core import (_unwrap, block_type, constexpr, dtype, dtype_from_name,  # noqa: F401
                   pointer_type, tensor)

from .structures import tuple  # noqa: F401,E402,A001 (tl.tuple)

# Triton spellings of a few names.
pi32_t = pointer_type(core.int32)
core._aggregate = structures.aggregate  # triton.language.core._aggregate

__all__ = list(dict.fromkeys(
    list(_core_all) + list(_atomics_all) + list(_shapes_all) + list(_descriptors_all)
    + list(standard.__all__) + list(random.__all__) + list(block_pointers.__all__) + [
        "math", "core", "atomics", "shapes", "standard", "random", "block_pointers",
        "extra", "target_info", "dtype_from_name", "pi32_t", "structures", "tuple"]))
