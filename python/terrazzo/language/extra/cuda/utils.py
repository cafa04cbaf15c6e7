"""NVIDIA special registers read through inline assembly, as in Triton's
`triton.language.extra.cuda.utils`."""

from __future__ import annotations

import time

import numpy as np

from ....errors import SemanticUnsupported
from ... import core
from ...core import _current_semantic, builtin


@builtin
def globaltimer():
    """The GPU's global nanosecond timer (`%globaltimer`), an int64 scalar
    read where the call stands (not pure: two reads are two values). The
    interpreter reads the host's clock."""
    return _current_semantic().inline_asm_elementwise(
        "mov.u64 $0, %globaltimer;", "=l", [], core.int64, False, 1,
        reference=lambda outs: [np.array(time.time_ns(), dtype=outs[0])])


@builtin
def smid():
    """The index of the streaming multiprocessor running the program
    (`%smid`), an int32 scalar. The interpreter answers 0."""
    return _current_semantic().inline_asm_elementwise(
        "mov.u32 $0, %smid;", "=r", [], core.int32, True, 1,
        reference=lambda outs: [np.array(0, dtype=outs[0])])


def _unsupported(name: str, why: str):
    @builtin
    def fn(*args, **kwargs):
        raise SemanticUnsupported(f"tl.extra.cuda.{name} is not supported yet: {why}")
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Not supported yet: {why}."
    return fn


_NUM_WARPS = ("the kernel's code is generated before num_warps is chosen, so it cannot "
              "be a compile-time constant; pass it as a tl.constexpr argument instead")
num_threads = _unsupported("num_threads", _NUM_WARPS)
num_warps = _unsupported("num_warps", _NUM_WARPS)
convert_custom_float8_sm80 = _unsupported(
    "convert_custom_float8_sm80", "the float8e4b15 type does not exist in Terrazzo")
convert_custom_float8_sm90 = _unsupported(
    "convert_custom_float8_sm90", "the float8e4b15 type does not exist in Terrazzo")
