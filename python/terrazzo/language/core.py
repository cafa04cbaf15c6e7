"""`terrazzo.language.core`: the language's types, values and core
builtins, defined in `terrazzo.core.lang` (below the compiler and the
runtime, DESIGN §8). This module holds every name of that one, each the
same object."""

from ..core import lang as _defined_in

globals().update((name, value) for name, value in vars(_defined_in).items()
                 if not name.startswith("__") or name == "__all__")

del _defined_in
