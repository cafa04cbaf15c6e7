"""Grid dependency control (Hopper and later), as in Triton's
`triton.language.extra.cuda.gdc`: with programmatic dependent launch, a
kernel may start before the kernel it depends on has finished; it calls
`gdc_wait()` before reading that kernel's results, and the earlier kernel
calls `gdc_launch_dependents()` once the next one may start. Without such a
launch both are no-ops, as they are in the interpreter, on NVIDIA GPUs
before sm_90 and on AMD GPUs (which have no programmatic dependent
launch)."""

from __future__ import annotations

from ...core import _current_semantic, builtin


@builtin
def gdc_wait():
    """Waits until the kernels this one depends on have completed and their
    memory operations are visible (`griddepcontrol.wait`)."""
    _current_semantic().grid_dependency_wait()


@builtin
def gdc_launch_dependents():
    """Lets the kernels that depend on this one start launching
    (`griddepcontrol.launch_dependents`)."""
    _current_semantic().grid_dependency_launch()
