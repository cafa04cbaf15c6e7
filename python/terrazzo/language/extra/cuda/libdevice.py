"""`tl.extra.cuda.libdevice`: the functions of `tl.extra.libdevice` (one
definition, re-exported under Triton's CUDA path)."""

from ..libdevice import *  # noqa: F401,F403
from ..libdevice import SIGNATURES, __all__  # noqa: F401
