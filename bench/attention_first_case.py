"""The first measurements in a process of tutorial 06's default forward
against torch's SDPA, D=128 non-causal, 1k keys (B=4, H=16): do_bench
call after call, each call's distribution of times (mean, median, the
10% and 90% quantiles as TFLOP/s, the calls it timed, its first five),
optionally after SPIN seconds of cuBLAS products (the state a heavier case
leaves the GPU in). Behind the tutorial harness's second of warm-up per
provider and its interleaved rounds (bench/RESULTS.md, session 40).

    PYTHONPATH=<built terrazzo> [SPIN=1] python3 bench/attention_first_case.py [--rounds 3]
"""

import argparse
import math
import os
import statistics
import sys
import time

import torch

import terrazzo as triton

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from loading import load_tutorial  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    t06 = load_tutorial("06-fused-attention.py")
    attention = t06.make_attention(t06.KERNELS)
    batch, heads, n_ctx, head_dim = 4, 16, 1024, 128
    q, k, v = (torch.randn((batch, heads, n_ctx, head_dim), device="cuda",
                           dtype=torch.float16) for _ in range(3))
    scale = 1 / math.sqrt(head_dim)
    flops = 4.0 * batch * heads * n_ctx * n_ctx * head_dim
    providers = {
        "terrazzo": lambda: attention(q, k, v, False, scale),
        "sdpa": lambda: torch.nn.functional.scaled_dot_product_attention(q, k, v,
                                                                         scale=scale)}
    want = providers["sdpa"]().float()
    assert (providers["terrazzo"]().float() - want).abs().max().item() < 2e-2
    torch.cuda.synchronize()
    if os.environ.get("SPIN"):
        x = torch.randn(8192, 8192, device="cuda", dtype=torch.float16)
        end = time.perf_counter() + float(os.environ["SPIN"])
        while time.perf_counter() < end:
            x @ x
        torch.cuda.synchronize()

    def rate(ms):
        return flops / (ms * 1e-3) / 1e12

    for r in range(args.rounds):
        for name, fn in providers.items():
            times = triton.testing.do_bench(fn, warmup=200, rep=100, return_mode="all")
            deciles = statistics.quantiles(times, n=10)
            print(f"{r} {name}: {len(times)} calls, mean {rate(statistics.mean(times)):.1f} "
                  f"median {rate(statistics.median(times)):.1f} p10 {rate(deciles[-1]):.1f} "
                  f"p90 {rate(deciles[0]):.1f} first five "
                  f"{[round(rate(t)) for t in times[:5]]}", flush=True)


if __name__ == "__main__":
    main()
