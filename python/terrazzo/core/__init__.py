"""The language's values below everything that works on them: types and
values with the builtins that forward to the current semantic object
(`lang.py`, re-exported as `terrazzo.language.core`), the rules of block
shapes (`shape_rules.py`), tuples and aggregates (`structures.py`) and
tensor descriptors (`descriptors.py`).

The compiler, the runtime and the language's standard library import these
modules; they import nothing of the package but `terrazzo.errors`
(DESIGN §8), so that the compiler never runs `terrazzo.language`, whose
standard library is written with `@jit` and so imports the runtime."""
