"""NVIDIA special registers, as in Triton's
`triton.language.extra.cuda.utils`: tilegpu ops that every target lowers
(NVIDIA to the registers, AMD to its counterparts)."""

from __future__ import annotations

from ....errors import SemanticError
from ....runtime import driver
from ... import core
from ...core import _current_semantic, builtin


@builtin
def globaltimer():
    """The GPU's global nanosecond timer (`%globaltimer`; on AMD the
    100 MHz constant counter, `s_memrealtime`, converted to nanoseconds), an
    int64 scalar read where the call stands (not pure: two reads are two
    values). The interpreter reads the host's clock."""
    return _current_semantic().global_timer()


@builtin
def smid():
    """The index of the streaming multiprocessor running the program
    (`%smid`; on AMD its compute unit, from the HW_ID hardware register),
    an int32 scalar. The interpreter answers 0."""
    return _current_semantic().processor_id()


@builtin
def num_warps():
    """The warps per program the kernel is compiled for (the launch's
    num_warps), a compile-time constant."""
    n = _current_semantic().num_warps
    if n is None:
        raise SemanticError("tl.extra.cuda.num_warps() is known only for a launch's "
                            "code (kernel[grid](...), .warmup, .ir with num_warps=)")
    return core.constexpr(n)


@builtin
def num_threads():
    """The threads per program (num_warps times the target's warp size), a
    compile-time constant."""
    return core.constexpr(num_warps().value * driver.active.get_current_target().warp_size)


@builtin
def convert_custom_float8_sm80(arg, dst_ty, fp_downcast_rounding=None):
    """`arg` converted to `dst_ty`, where one of them is tl.float8e4b15
    (Triton's software conversion for sm_80; the same as arg.to(dst_ty))."""
    return core.cast(arg, dst_ty, fp_downcast_rounding)


@builtin
def convert_custom_float8_sm90(arg, dst_ty, fp_downcast_rounding=None):
    """The same conversion as convert_custom_float8_sm80 (Triton's sm_90
    spelling)."""
    return core.cast(arg, dst_ty, fp_downcast_rounding)
