"""The errors of compilation, at Triton's module path
(`triton.compiler.errors`); they are defined in `terrazzo.errors`."""

from ..errors import CompilationError, CompileTimeAssertionFailure, UnsupportedError

#: Triton's name for a Python construct that kernels cannot use.
UnsupportedLanguageConstruct = UnsupportedError

__all__ = ["CompilationError", "CompileTimeAssertionFailure", "UnsupportedLanguageConstruct"]
