"""Host time per call of tutorial 03's matmul, as bench/matmul.py calls it
(the autotuned wrapper: shape checks, allocation, autotuner dispatch,
launch) and as a direct launch of the chosen configuration, for Terrazzo
and Triton, with torch.matmul for scale; then a profile of Terrazzo's
wrapper call. At 4096^3 one product takes about 0.2 ms on an H100, so tens
of microseconds of host time per call show up in bench/matmul.py, whose
CUDA events time each call from an idle GPU.

    PYTHONPATH=<built terrazzo> python3 bench/matmul_host_cost.py [--calls 2000]

Inputs are 128 x 128 float16, small enough that the GPU finishes each
product before the host issues the next one, so the time per call is the
host's. The median of 5 runs of --calls calls, one synchronisation after
each run.
"""

import argparse
import cProfile
import io
import os
import pstats
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import matmul as bench  # noqa: E402
from host_timing import host_us_per_call  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=2000)
    args = parser.parse_args(argv)
    tutorial = bench.load_tutorial("03-matrix-multiplication.py")
    a = torch.randn(128, 128, device="cuda", dtype=torch.float16)
    b = torch.randn(128, 128, device="cuda", dtype=torch.float16)
    want = a.double() @ b.double()
    providers = [("terrazzo wrapper (autotuned)", lambda: tutorial.matmul(a, b))]
    kernel = tutorial.matmul_kernel.fn
    c = torch.empty_like(a)

    def terrazzo_direct():
        kernel[(1,)](a, b, c, 128, 128, 128, 128, 1, 128, 1, 128, 1, BLOCK_SIZE_M=128,
                     BLOCK_SIZE_N=128, BLOCK_SIZE_K=32, GROUP_SIZE_M=8, ACTIVATION="",
                     num_warps=4, num_stages=4)
    providers.append(("terrazzo direct launch", terrazzo_direct))
    triton_matmul = bench.triton_provider(tutorial)
    if triton_matmul is not None:
        providers.append(("triton wrapper (autotuned)", lambda: triton_matmul(a, b)))
    providers.append(("torch.matmul", lambda: torch.matmul(a, b)))
    for name, fn in providers:
        got = fn()
        if got is not None:
            err = bench.relative_error(got, want)
            assert err < 1e-2, f"{name}: relative error {err}"
    print(f"device: {torch.cuda.get_device_name()}; host time per call, 128^3 float16")
    for name, fn in providers:
        print(f"  {name:30s} {host_us_per_call(fn, args.calls, warmup=20):8.1f} us", flush=True)

    profile = cProfile.Profile()
    profile.enable()
    for _ in range(args.calls):
        tutorial.matmul(a, b)
    profile.disable()
    torch.cuda.synchronize()
    text = io.StringIO()
    pstats.Stats(profile, stream=text).sort_stats("tottime").print_stats(15)
    print(text.getvalue())


if __name__ == "__main__":
    main()
