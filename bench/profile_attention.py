"""Runs tutorial 06's attention forward (its default form) and torch's
SDPA once each inside an NVTX range named "prof", after warm-up, for
Nsight Compute to profile side by side (bench/RESULTS.md, session 26):

    ncu --clock-control none --nvtx --nvtx-include "prof/" \\
        --section SpeedOfLight --section WarpStateStats \\
        python3 bench/profile_attention.py 64 0 4096   # HEAD_DIM CAUSAL N_CTX

B=4 and H=32 at head dimension 64, H=16 at 128, float16, fresh random
inputs; the forward's output is checked against SDPA's first. It also
prints the names of the kernels SDPA launched (torch's profiler)."""
import math
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from loading import load_tutorial  # noqa: E402


def main():
    head_dim, causal, n_ctx = int(sys.argv[1]), sys.argv[2] == "1", int(sys.argv[3])
    t06 = load_tutorial("06-fused-attention.py")
    attention = t06.make_attention(t06.KERNELS)
    batch, heads = (4, 32) if head_dim == 64 else (4, 16)
    q, k, v = (torch.randn((batch, heads, n_ctx, head_dim), device="cuda",
                           dtype=torch.float16) for _ in range(3))
    scale = 1 / math.sqrt(head_dim)

    def sdpa():
        return torch.nn.functional.scaled_dot_product_attention(
            q, k, v, is_causal=causal, scale=scale)

    error = (attention(q, k, v, causal, scale).float() - sdpa().float()).abs().max().item()
    assert error < 2e-2, error
    for _ in range(3):
        attention(q, k, v, causal, scale)
        sdpa()
    torch.cuda.synchronize()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        sdpa()
        torch.cuda.synchronize()
    print(prof.key_averages().table(sort_by="cuda_time_total", row_limit=5))
    torch.cuda.nvtx.range_push("prof")
    attention(q, k, v, causal, scale)
    sdpa()
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_pop()


if __name__ == "__main__":
    main()
