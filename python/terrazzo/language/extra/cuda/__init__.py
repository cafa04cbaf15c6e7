"""`tl.extra.cuda`: the functions of Triton's `triton.language.extra.cuda`:
libdevice (`tl.extra.cuda.libdevice`, the same module as
`tl.extra.libdevice`), the special registers of `utils` and the grid
dependency control of `gdc`. Named after NVIDIA's, they compile for AMD
targets too, with the same meaning where the hardware has it (utils, gdc)."""

from . import libdevice  # noqa: F401
from .gdc import gdc_launch_dependents, gdc_wait  # noqa: F401
from .utils import (convert_custom_float8_sm80, convert_custom_float8_sm90,  # noqa: F401
                    globaltimer, num_threads, num_warps, smid)

__all__ = ["libdevice", "globaltimer", "num_threads", "num_warps", "smid",
           "convert_custom_float8_sm80", "convert_custom_float8_sm90", "gdc_wait",
           "gdc_launch_dependents"]
