"""Tutorial 08's grouped GEMM compiled by Terrazzo and by Triton (the same
kernel source, tutorial 08's `triton_grouped`), one configuration at a time (no
autotuning), on the tutorial's mixed list and on single problems from it,
against a loop of torch.matmul: where a difference between the compilers
comes from (bench/RESULTS.md, session 18).

    PYTHONPATH=<built terrazzo> python3 bench/grouped_gemm_compilers.py [--rounds 3] [--dtype float16]

Each provider is checked against float64 products first (relative error
below 1e-2); then the rounds interleave them (`do_bench` medians, L2
flushed) and the median of the rounds is printed in TFLOP/s.
"""
import argparse
import os
import statistics
import sys

import torch

import terrazzo as triton

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from loading import load_tutorial  # noqa: E402

t08 = load_tutorial("08-grouped-gemm.py")

LISTS = {"mixed": t08.MIXED_SIZES, "4096^3": [(4096, 4096, 4096)],
         "2048x4096x1024": [(2048, 4096, 1024)], "3000x2000x1000": [(3000, 2000, 1000)]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--dtype", default="float16", choices=["float16", "bfloat16"])
    args = parser.parse_args()
    dtype = getattr(torch, args.dtype)
    for label, sizes in LISTS.items():
        flops = sum(2 * m * n * k for m, n, k in sizes)
        a, b = t08.random_problems(sizes,
                                   lambda r, c: torch.randn(r, c, device="cuda", dtype=dtype))
        providers = {"loop": lambda: [torch.matmul(x, y) for x, y in zip(a, b)]}
        for index, config in enumerate(t08.grouped_configs()):
            providers[f"terrazzo{index}"] = t08.GroupedMatmul(a, b, configs=[config])
            found = t08.triton_grouped(a, b, configs=[index])
            if found is not None:
                providers[f"triton{index}"] = found
        for name, fn in providers.items():
            errors = t08.relative_errors(a, b, fn())
            assert max(errors) < 1e-2, f"{name}: relative errors {errors}"
        times = {name: [] for name in providers}
        for _ in range(args.rounds):
            for name, fn in providers.items():
                times[name].append(triton.testing.do_bench(fn, warmup=25, rep=100,
                                                           return_mode="median"))
        print(label, "  ".join(f"{name} {flops / statistics.median(t) / 1e9:.1f}"
                               for name, t in times.items()), flush=True)
    print("configurations:", [(c.kwargs, c.num_stages, c.num_warps)
                              for c in t08.grouped_configs()])


if __name__ == "__main__":
    main()
