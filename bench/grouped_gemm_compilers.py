"""Tutorial 08's grouped GEMM compiled by Terrazzo and by Triton (the same
kernel source, tutorial 08's `triton_grouped`), one configuration at a time (no
autotuning), on the tutorial's mixed list and on single problems from it,
against a loop of torch.matmul: where a difference between the compilers
comes from (bench/RESULTS.md, session 18).

    PYTHONPATH=<built terrazzo> python3 bench/grouped_gemm_compilers.py [--rounds 3] [--dtype float16]
        [--configs 0 1] [--lists mixed 4096^3] [--tutorial OTHER.py ...]
        [--group-size-m 1 8] [--reference] [--tma] [--kernels]

`--tutorial` adds other versions of tutorial 08 (e.g. `git show
REV:tutorials/08-grouped-gemm.py > old.py`), measured in the same rounds
under the names terrazzo<config>-v<n> and triton<config>-v<n> (v1: the
first file given). `--group-size-m` measures each configuration with those
GROUP_SIZE_M (tile order inside a problem) instead of its own, named
terrazzo<config>-g<G>. `--reference` adds tutorial 09's
persistent pointer kernel (its first configuration, GROUP_SIZE_M 8) on the
lists of one problem: the same K loop without the grouped kernel's lookups.
`--tma` adds the tutorial's TMA form (grouped_matmul_tma_kernel), named
terrazzo-tma<config> and triton-tma<config>. `--kernels` also prints each
provider's kernels as the CUDA profiler sees them (time, grid, block,
registers, shared memory, name; bench/kernel_trace.py).

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
from kernel_trace import describe, kernel_times  # noqa: E402
from loading import load_module, load_tutorial  # noqa: E402

t08 = load_tutorial("08-grouped-gemm.py")
t09 = load_tutorial("09-persistent-matmul.py")

LISTS = {"mixed": t08.MIXED_SIZES, "4096^3": [(4096, 4096, 4096)],
         "2048x4096x1024": [(2048, 4096, 1024)], "3000x2000x1000": [(3000, 2000, 1000)]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--dtype", default="float16", choices=["float16", "bfloat16"])
    parser.add_argument("--configs", type=int, nargs="+",
                        default=list(range(len(t08.grouped_configs()))))
    parser.add_argument("--lists", nargs="+", default=list(LISTS), choices=list(LISTS))
    parser.add_argument("--tutorial", nargs="+", default=[])
    parser.add_argument("--group-size-m", type=int, nargs="+", default=[None])
    parser.add_argument("--reference", action="store_true")
    parser.add_argument("--tma", action="store_true")
    parser.add_argument("--kernels", action="store_true")
    args = parser.parse_args()
    dtype = getattr(torch, args.dtype)
    versions = {"": t08}
    for n, path in enumerate(args.tutorial, 1):
        versions[f"-v{n}"] = load_module(os.path.abspath(path), f"tutorial_08_v{n}")
    for label in args.lists:
        sizes = LISTS[label]
        flops = sum(2 * m * n * k for m, n, k in sizes)
        a, b = t08.random_problems(sizes,
                                   lambda r, c: torch.randn(r, c, device="cuda", dtype=dtype))
        providers = {"loop": lambda: [torch.matmul(x, y) for x, y in zip(a, b)]}
        if args.reference and len(sizes) == 1:
            forms = t09.make_matmuls(triton, t09.matmul_persistent_kernel,
                                     t09.matmul_tma_persistent_kernel,
                                     [t09.persistent_configs()[0]],
                                     [t09.persistent_configs(subtile=True)[0]])
            providers["t09-persistent"] = lambda: [forms["persistent"](a[0], b[0])]
        for index in args.configs:
            for suffix, module in versions.items():
                for gsm in args.group_size_m:
                    config = module.grouped_configs()[index]
                    if gsm is not None:
                        config.kwargs["GROUP_SIZE_M"] = gsm
                    name = f"{index}{suffix}" + ("" if gsm is None else f"-g{gsm}")
                    providers[f"terrazzo{name}"] = module.GroupedMatmul(a, b, configs=[config])
                    if gsm is None:
                        found = module.triton_grouped(a, b, configs=[index])
                        if found is not None:
                            providers[f"triton{name}"] = found
            if args.tma:
                config = t08.grouped_configs()[index]
                providers[f"terrazzo-tma{index}"] = t08.GroupedMatmul(
                    a, b, kernel=t08.grouped_matmul_tma_kernel, configs=[config])
                found = t08.triton_grouped(a, b, configs=[index], tma=True)
                if found is not None:
                    providers[f"triton-tma{index}"] = found
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
        if args.kernels:
            for name, fn in providers.items():
                for line in describe(kernel_times(torch, fn, 20)):
                    print(f"{label} {name}: {line}", flush=True)
    print("configurations:", [(c.kwargs, c.num_stages, c.num_warps)
                              for c in t08.grouped_configs()])


if __name__ == "__main__":
    main()
