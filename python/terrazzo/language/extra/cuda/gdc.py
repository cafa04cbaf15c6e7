"""Grid dependency control (Hopper and later), as in Triton's
`triton.language.extra.cuda.gdc`: with programmatic dependent launch, a
kernel may start before the kernel it depends on has finished; it calls
`gdc_wait()` before reading that kernel's results, and the earlier kernel
calls `gdc_launch_dependents()` once the next one may start. Without such a
launch both are no-ops, as they are in the interpreter."""

from __future__ import annotations

import numpy as np

from ... import core
from ...core import _current_semantic, builtin


def _control(instruction: str):
    # The assembly needs a result to be an elementwise op: a dummy register.
    _current_semantic().inline_asm_elementwise(
        f"{instruction}; // $0 unused", "=r", [], core.int32, False, 1,
        reference=lambda outs: [np.array(0, dtype=outs[0])])


@builtin
def gdc_wait():
    """Waits until the kernels this one depends on have completed and their
    memory operations are visible (`griddepcontrol.wait`)."""
    _control("griddepcontrol.wait")


@builtin
def gdc_launch_dependents():
    """Lets the kernels that depend on this one start launching
    (`griddepcontrol.launch_dependents`)."""
    _control("griddepcontrol.launch_dependents")
