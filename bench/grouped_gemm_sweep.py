"""Block shapes and pipeline depths of tutorials/08-grouped-gemm.py's kernel
on its eight mixed sizes, float16 and bfloat16, against a loop of
torch.matmul calls: the sweep behind its configurations (bench/RESULTS.md,
session 17).

    PYTHONPATH=<built terrazzo> python3 bench/grouped_gemm_sweep.py [GROUP_SIZE_M ...]

Every block shape is tried with each GROUP_SIZE_M given (default 1, 4 and 8:
the number of rows of tiles walked together, tutorial 09's order). Each
configuration is checked against float64 products (relative error <
1e-2), then timed (median of two do_bench medians, L2 flushed); the best eight
are printed: (BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K, num_stages,
num_warps, GROUP_SIZE_M).
"""

import os
import statistics
import sys

import torch

import terrazzo as triton

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from loading import load_tutorial  # noqa: E402

t08 = load_tutorial("08-grouped-gemm.py")

SHAPES = [  # BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K, num_stages, num_warps
    (128, 256, 64, 3, 8), (128, 256, 64, 4, 8), (128, 256, 32, 5, 8), (256, 128, 64, 3, 8),
    (256, 128, 64, 4, 8), (128, 128, 64, 4, 8), (128, 128, 64, 5, 8), (128, 128, 64, 6, 8),
    (128, 128, 64, 4, 4), (128, 128, 128, 3, 8), (64, 256, 64, 4, 4), (64, 128, 64, 4, 4)]


def main(group_sizes):
    flops = sum(2 * m * n * k for m, n, k in t08.MIXED_SIZES)
    for dtype in (torch.float16, torch.bfloat16):
        a_list, b_list = t08.random_problems(
            t08.MIXED_SIZES, lambda r, c: torch.randn(r, c, device="cuda", dtype=dtype))

        def loop():
            return [torch.matmul(a, b) for a, b in zip(a_list, b_list)]
        base = statistics.median(triton.testing.do_bench(loop, warmup=25, rep=200,
                                                         return_mode="median")
                                 for _ in range(3))
        timed = []
        for (m, n, k, stages, warps), group in ((shape, group) for shape in SHAPES
                                                for group in group_sizes):
            config = triton.Config({"BLOCK_SIZE_M": m, "BLOCK_SIZE_N": n, "BLOCK_SIZE_K": k,
                                    "GROUP_SIZE_M": group}, num_stages=stages, num_warps=warps)
            grouped = t08.GroupedMatmul(a_list, b_list, configs=[config])
            errors = t08.relative_errors(a_list, b_list, grouped())
            if not max(errors) < 1e-2:
                print("WRONG", (m, n, k, stages, warps, group), max(errors))
                continue
            ms = statistics.median(triton.testing.do_bench(grouped, warmup=25, rep=100,
                                                           return_mode="median")
                                   for _ in range(2))
            timed.append((ms, (m, n, k, stages, warps, group)))
        timed.sort()
        print(f"{dtype}: torch.matmul loop {base * 1e3:.1f} us "
              f"({flops / (base * 1e-3) / 1e12:.1f} TFLOP/s)")
        for ms, shape in timed[:8]:
            print(f"   {ms * 1e3:.1f} us {flops / (ms * 1e-3) / 1e12:.1f} TFLOP/s "
                  f"x{base / ms:.3f} {shape}")


if __name__ == "__main__":
    main([int(x) for x in sys.argv[1:]] or [1, 4, 8])
