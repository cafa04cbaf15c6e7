"""The errors of launching and interpreting kernels, at Triton's module path
(`triton.runtime.errors`); they are defined in `terrazzo.errors`."""

from ..errors import InterpreterError, OutOfResources, PTXASError

__all__ = ["InterpreterError", "OutOfResources", "PTXASError"]
