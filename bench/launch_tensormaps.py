"""Host-side launch cost of a kernel with two TMA tensor maps (a 64 x 64
float16 copy through host TensorDescriptors): Terrazzo, whose launcher
encodes the maps of arguments before each launch (cuTensorMapEncodeTiled)
and passes them by value, against Triton on the same kernel and the same
descriptors, on one GPU in one run; with TERRAZZO_HOST_TENSORMAPS=0 in the
environment, Terrazzo's kernel builds them itself (in global scratch, per
program instance) instead.

    python3 bench/launch_tensormaps.py

Time per launch: 20,000 launches, one synchronisation at the end, the
median of 5 such runs (host_timing.host_us_per_call); one program, so the
host sets the pace. Every result is checked against torch first.
"""
import importlib.util
import os
import sys
import tempfile

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from host_timing import host_us_per_call  # noqa: E402

LAUNCHES = 20000

KERNEL_SOURCE = '''
import {package} as jit_package
import {package}.language as tl

@jit_package.jit
def copy_kernel(x_desc, y_desc, BM: tl.constexpr, BN: tl.constexpr):
    off_m = tl.program_id(0) * BM
    off_n = tl.program_id(1) * BN
    y_desc.store([off_m, off_n], x_desc.load([off_m, off_n]) * 2 + 1)
'''

SCRATCH = tempfile.mkdtemp(prefix="launch-tensormaps-")


def load_kernel(package):
    # @jit reads the kernel's source file, so the kernel is written to one.
    path = os.path.join(SCRATCH, f"{package}_copy.py")
    with open(path, "w") as file:
        file.write(KERNEL_SOURCE.format(package=package))
    spec = importlib.util.spec_from_file_location(f"{package}_copy", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.copy_kernel


def descriptor_class(package):
    module = __import__(f"{package}.tools.tensor_descriptor",
                        fromlist=["TensorDescriptor"])
    return module.TensorDescriptor


def main():
    x = torch.randn(64, 64, device="cuda", dtype=torch.float16)
    rows = {}
    for package in ("terrazzo", "triton"):
        try:
            kernel = load_kernel(package)
            descriptor = descriptor_class(package)
        except ImportError:
            continue
        y = torch.empty_like(x)
        xd = descriptor(x, [64, 64], [64, 1], [64, 64])
        yd = descriptor(y, [64, 64], [64, 1], [64, 64])

        def launch():
            kernel[(1, 1)](xd, yd, BM=64, BN=64)

        launch()
        torch.cuda.synchronize()
        assert torch.equal(y, x * 2 + 1), f"{package}: wrong result"
        rows[package] = host_us_per_call(launch, LAUNCHES)
    where = ("launcher" if os.environ.get("TERRAZZO_HOST_TENSORMAPS") != "0"
             else "kernel")
    print(f"tensor maps built by the {where} (Terrazzo); us per launch, "
          f"{LAUNCHES} launches, median of 5")
    for package, us in rows.items():
        print(f"  {package:10s} {us:6.2f}")


if __name__ == "__main__":
    main()
