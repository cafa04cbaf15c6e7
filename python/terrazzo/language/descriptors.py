"""`terrazzo.language.descriptors`: tensor descriptors, defined in
`terrazzo.core.descriptors` (below the compiler and the runtime, DESIGN §8).
This module holds every name of that one, each the same object."""

from ..core import descriptors as _defined_in

globals().update((name, value) for name, value in vars(_defined_in).items()
                 if not name.startswith("__") or name == "__all__")

del _defined_in
