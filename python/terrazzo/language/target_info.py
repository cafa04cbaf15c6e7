"""What a kernel is compiled for, as compile-time values
(`tl.target_info`, Triton's `triton.language.target_info`):

    if tl.target_info.cuda_capability_geq(9, 0):
        ...  # Hopper and newer

The target is the active driver's (`triton.runtime.driver.active`): the
device's, or $TERRAZZO_TARGET's; on a machine without a GPU the interpreter's
(backend "interpreter"), for which every CUDA question answers False.
"""

from __future__ import annotations

from ..runtime import driver
from ..runtime.jit import constexpr_function

__all__ = ["current_target", "is_cuda", "cuda_capability_geq", "is_hip", "is_hip_cdna3",
           "is_hip_cdna4"]


def current_target():
    """The active driver's GPUTarget (backend, arch, warp_size)."""
    return driver.active.get_current_target()


@constexpr_function
def is_cuda() -> bool:
    return current_target().backend == "cuda"


@constexpr_function
def cuda_capability_geq(major: int, minor: int = 0) -> bool:
    """Whether the target is CUDA of compute capability (major, minor) or
    newer."""
    target = current_target()
    return target.backend == "cuda" and target.arch >= major * 10 + minor


@constexpr_function
def is_hip() -> bool:
    return current_target().backend == "hip"


@constexpr_function
def is_hip_cdna3() -> bool:
    target = current_target()
    return target.backend == "hip" and target.arch == "gfx942"


@constexpr_function
def is_hip_cdna4() -> bool:
    target = current_target()
    return target.backend == "hip" and target.arch == "gfx950"
