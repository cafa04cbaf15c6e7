"""`terrazzo.language.structures`: tuples and aggregates, defined in
`terrazzo.core.structures` (below the compiler and the runtime, DESIGN §8).
This module holds every name of that one, each the same object."""

from ..core import structures as _defined_in

globals().update((name, value) for name, value in vars(_defined_in).items()
                 if not name.startswith("__") or name == "__all__")

del _defined_in
