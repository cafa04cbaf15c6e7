"""The frontend's compiler: code generation, the semantic layer, the IR
builder and the interpreter."""

from .errors import CompilationError  # noqa: F401 (Triton's triton.compiler.CompilationError)
