"""Terrazzo: a Triton-compatible block-level GPU language and JIT compiler.

    import terrazzo as triton
    import terrazzo.language as tl

    @triton.jit
    def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) +
                 tl.load(y_ptr + offs, mask=mask), mask=mask)

    add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
"""

from . import language, testing  # noqa: F401
from .core.lang import _unwrap
from .errors import (CompilationError, InterpreterError, KernelError,  # noqa: F401
                     OutOfResources, TritonError, UnsupportedError)
from .language.structures import aggregate  # noqa: F401
from .runtime.allocation import get_allocator, set_allocator  # noqa: F401
from .runtime.autotuner import Autotuner, Config, Heuristics, autotune, heuristics  # noqa: F401
from .runtime.jit import (JITFunction, KernelInterface, constexpr_function, jit,  # noqa: F401
                          must_use_result)
from .runtime.tensor_wrapper import MockTensor, TensorWrapper, reinterpret  # noqa: F401
from .runtime.torch_ops import torch_op  # noqa: F401 (imports torch only when used)

__version__ = "0.1.0"


def cdiv(x, y):
    """Ceiling division of integers: (x + y - 1) // y."""
    if type(x) is not int or type(y) is not int:  # grid callables: plain ints
        x, y = _unwrap(x), _unwrap(y)
    return (x + y - 1) // y


def next_power_of_2(n: int) -> int:
    """The smallest power of two >= n (1 for n <= 1)."""
    n = int(n)
    return 1 if n <= 1 else 1 << (n - 1).bit_length()


__all__ = ["jit", "autotune", "heuristics", "Config", "cdiv", "next_power_of_2", "testing",
           "language", "set_allocator", "get_allocator", "TritonError", "CompilationError",
           "InterpreterError", "UnsupportedError", "OutOfResources", "JITFunction", "KernelInterface", "Autotuner", "Heuristics",
           "reinterpret", "TensorWrapper", "MockTensor", "constexpr_function",
           "must_use_result", "torch_op", "aggregate"]
