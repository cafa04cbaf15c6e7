"""The attention forward's time on the GPU taken apart: each provider's
kernels as the CUDA profiler times them (torch.profiler, CUPTI), beside
`do_bench`'s figure for the same call, which also holds the gap between
the previous kernel's end and the first kernel's start (the launch).

Each call is preceded, as in `do_bench`, by a write of 256 MB that flushes
the L2; the table gives medians over the calls of the kernels' total time
(every kernel the provider launched, in microseconds), of the gap before
its first kernel, and TFLOP/s from the kernels' time alone and from
`do_bench` (4 * B * H * N^2 * D, half for causal).

    python3 bench/attention_kernel_times.py --cases 64:0 128:0 --sizes 1024 4096 \\
        [--shapes 4,32 4,31] [--providers terrazzo sdpa triton] [--calls 50]

Each provider is checked against SDPA first (relative error under 1e-2)."""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attention_case import AttentionCase  # noqa: E402
from kernel_trace import kernel_times  # noqa: E402
from loading import load_tutorial  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", nargs="+", default=["64:0", "128:0"], help="HEAD_DIM:CAUSAL")
    parser.add_argument("--sizes", nargs="+", type=int, default=[1024, 4096])
    parser.add_argument("--shapes", nargs="+", default=[None], metavar="B,H",
                        help="batch and heads (default 4,32 at D=64, 4,16 at D=128)")
    parser.add_argument("--providers", nargs="+", default=["terrazzo", "sdpa"],
                        choices=["terrazzo", "sdpa", "triton"])
    parser.add_argument("--calls", type=int, default=50)
    parser.add_argument("--dtype", default="float16", choices=["float16", "bfloat16"])
    args = parser.parse_args()

    import torch
    import terrazzo as triton
    t06 = load_tutorial("06-fused-attention.py", None)
    dtype = getattr(torch, args.dtype)
    torch.manual_seed(int.from_bytes(os.urandom(4), "little"))
    print(f"{'case':30s} {'provider':9s} {'kernel us':>9s} {'gap us':>7s} "
          f"{'TF kernel':>9s} {'TF bench':>9s}  first kernel")
    for head_dim, causal in (map(int, case.split(":")) for case in args.cases):
        causal = bool(causal)
        for shape, n_ctx in ((sh, n) for sh in args.shapes for n in args.sizes):
            case = AttentionCase(torch, head_dim, causal, n_ctx, dtype, shape)
            label = f"D={head_dim} {'causal' if causal else 'non-causal'} N={n_ctx} " \
                    f"{case.batch}x{case.heads}"
            for name, run in case.providers(t06, args.providers).items():
                err = case.error(run)
                if not err < 1e-2:
                    print(f"{label:30s} {name:9s} relative error {err:.2e} against SDPA")
                    continue
                seen = kernel_times(torch, run, args.calls)
                if not seen:
                    print(f"{label:30s} {name:9s} no kernels found in the profile")
                    continue
                us = statistics.median(s[0] for s in seen)
                gap = statistics.median(s[1] for s in seen)
                ms = triton.testing.do_bench(run, warmup=200, rep=100)
                print(f"{label:30s} {name:9s} {us:9.1f} {gap:7.1f} "
                      f"{case.flops / (us * 1e-6) / 1e12:9.1f} "
                      f"{case.flops / (ms * 1e-3) / 1e12:9.1f}  {seen[0].name[:60]}", flush=True)
            case.free()


if __name__ == "__main__":
    main()
