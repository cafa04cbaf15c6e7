"""Why tutorial 08's TMA form measures 4% slower in the tutorial's own
`--bench` than in bench/grouped_gemm_compilers.py at the same
configuration (bench/RESULTS.md, session 38: 586.5 against 611.0 TFLOP/s in
float16 on an H200, while Triton's same kernel and the torch.matmul loop
agree within 1% between the two). The harnesses differ in three ways; this
probe measures the Terrazzo TMA form under each combination, interleaved in
rounds in one process:

* `tuned`: the autotuner over every configuration (timing them first, as
  the tutorial does) against configuration 0 alone (as the compilers'
  bench does; the tutorial's autotuner chooses it too);
* `rep`: do_bench's repetitions, 200 ms (the tutorial) against 100 ms;
* `fresh`: inputs of its own against the inputs the torch.matmul loop uses.

    PYTHONPATH=<built terrazzo> python3 bench/grouped_harness_probe.py [--rounds 3]
        [--dtype float16]

Each variant is checked against float64 products first; the table gives
the median TFLOP/s of the rounds, with the loop's.
"""
import argparse
import itertools
import os
import statistics
import sys

import torch

import terrazzo as triton

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from loading import load_tutorial  # noqa: E402

t08 = load_tutorial("08-grouped-gemm.py")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--dtype", default="float16", choices=["float16", "bfloat16"])
    args = parser.parse_args()
    dtype = getattr(torch, args.dtype)
    sizes = t08.MIXED_SIZES
    flops = sum(2 * m * n * k for m, n, k in sizes)

    def problems():
        return t08.random_problems(sizes,
                                   lambda r, c: torch.randn(r, c, device="cuda", dtype=dtype))
    shared_a, shared_b = problems()
    providers = {("loop", 100): lambda: [torch.matmul(x, y) for x, y in zip(shared_a, shared_b)],
                 ("loop", 200): lambda: [torch.matmul(x, y) for x, y in zip(shared_a, shared_b)]}
    for tuned, fresh in itertools.product((False, True), (False, True)):
        a, b = problems() if fresh else (shared_a, shared_b)
        configs = None if tuned else [t08.grouped_configs()[0]]
        run = t08.GroupedMatmul(a, b, kernel=t08.grouped_matmul_tma_kernel, configs=configs)
        errors = t08.relative_errors(a, b, run())
        assert max(errors) < 1e-2, f"tuned={tuned} fresh={fresh}: relative errors {errors}"
        for rep in (100, 200):
            name = f"tma tuned={int(tuned)} fresh={int(fresh)}"
            providers[(name, rep)] = run
    times = {key: [] for key in providers}
    for _ in range(args.rounds):
        for (name, rep), fn in providers.items():
            times[(name, rep)].append(triton.testing.do_bench(fn, warmup=25, rep=rep,
                                                              return_mode="median"))
    print(f"# {torch.cuda.get_device_name()}, {args.dtype}; median TFLOP/s of {args.rounds} "
          "rounds")
    print("| variant | rep 100 ms | rep 200 ms |\n|---|---:|---:|")
    for name in dict.fromkeys(name for name, _ in providers):
        cells = " | ".join(f"{flops / statistics.median(times[(name, rep)]) / 1e9:.1f}"
                           for rep in (100, 200))
        print(f"| {name} | {cells} |", flush=True)


if __name__ == "__main__":
    main()
