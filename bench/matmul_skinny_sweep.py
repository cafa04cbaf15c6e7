"""Every plausible configuration of bench/matmul_skinny.py's split-K kernel
for M rows against an 8192 x 8192 bfloat16 B, timed on the GPU: the sweep
behind `candidates` (bench/RESULTS.md, session 17).

    PYTHONPATH=<built terrazzo> python3 bench/matmul_skinny_sweep.py [--tma] [M ...]
        [--b-nk] [--config BM,BN,BK,SPLIT_K,STAGES,WARPS[,WS,SWAP] ...]

With --tma, the tensor-descriptor kernel's instead (`tma_candidates`):
64 to 256 columns, 64 or 128 deep K blocks, SPLIT_K 1 or 2, 2 to 12
stages within 220 KiB of ring, a producer warp group or not; at M = 128
also 64-row blocks, and 128-row blocks on one warp group; below 64 rows
also the transposed product (SWAP_AB).

`--b-nk` reads B as the transpose of a row-major N x K matrix (a
torch.nn.Linear weight) instead of a row-major K x N one. `--config`
(repeated) times those configurations only, of the TMA kernel when they
have eight fields (WS and SWAP 0 or 1), e.g. K blocks deeper than the
sweep's.

Configurations (BLOCK_SIZE_M fixed by M as in `candidates`): 32 to 256
columns, 64 to 256 deep K blocks, SPLIT_K 1 to 4, 3 to 6 stages within
220 KiB of ring, 4 or 8 warps. Each is checked against a float64 product
(relative Frobenius error < 1e-2), then timed (do_bench median, L2 flushed);
the best twelve are printed beside torch.matmul.
"""

import argparse
import itertools
import os
import sys
import time

import torch

import terrazzo as triton

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import matmul_skinny  # noqa: E402


def configurations(M, tma):
    """(BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K, SPLIT_K, num_stages,
    num_warps[, WARP_SPECIALIZE, SWAP_AB]) swept for M rows."""
    bm = matmul_skinny.block_m(M)
    if tma:
        # At 128 rows also two programs of 64 (block_ms), and one warp group
        # for 128 rows.
        return [(m, bn, bk, split, stages, warps, ws, swap)
                for m, bn, bk, split, stages, warps, ws, swap in itertools.product(
                    matmul_skinny.block_ms(M), (64, 128, 256), (64, 128), (1, 2),
                    range(2, 13), (4, 8), (False, True), (False, True))
                if (m * bk + bk * bn) * 2 * stages <= matmul_skinny.TMA_RING_BYTES
                and (m >= 64 or not ws or swap)
                and (warps == 4 or m == 128) and (m < 64 or not swap)]
    return [(bm, bn, bk, split, stages, warps)
            for bn, bk, split, stages, warps in itertools.product(
                (32, 64, 128, 256), (64, 128, 256), (1, 2, 3, 4), (3, 4, 5, 6), (4, 8))
            if (bm * bk + bk * bn) * 2 * stages <= 220 * 1024
            and not (bm == 128 and warps == 4 and bn >= 256)]


def sweep(M, N=8192, K=8192, tma=False, b_nk=False, configs=None):
    runner = matmul_skinny.SkinnyMatmul(tma=tma)
    a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(N, K, device="cuda", dtype=torch.bfloat16).t() if b_nk else \
        torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
    want = a.double() @ b.double()
    base = triton.testing.do_bench(lambda: torch.matmul(a, b), warmup=10, rep=50,
                                   return_mode="median")
    timed, start = [], time.time()
    for config in configs or configurations(M, tma):
        try:
            err = matmul_skinny.relative_error(runner.run(a, b, config), want)
        except Exception as error:  # a configuration the compiler refuses
            print("refused", config, str(error).splitlines()[0][:100])
            continue
        if not err < 1e-2:
            print("WRONG", config, err)
            continue
        timed.append((triton.testing.do_bench(lambda: runner.run(a, b, config), warmup=5,
                                              rep=25, return_mode="median"), config))
    timed.sort()
    print(f"M={M}: torch {base * 1e3:.1f} us; {len(timed)} configurations in "
          f"{time.time() - start:.0f} s; the best:")
    for ms, config in timed[:12]:
        print(f"   {ms * 1e3:.1f} us ({base / ms:.3f} x torch) {config}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ms", type=int, nargs="*", default=[16, 64, 128])
    parser.add_argument("--tma", action="store_true")
    parser.add_argument("--b-nk", action="store_true")
    parser.add_argument("--config", action="append", default=[])
    args = parser.parse_args(argv)
    configs = []
    for text in args.config:
        fields = [int(x) for x in text.split(",")]
        if len(fields) not in (6, 8):
            parser.error(f"--config {text}: six or eight fields")
        configs.append(tuple(fields[:6]) + tuple(bool(x) for x in fields[6:]))
    tma = args.tma or any(len(c) == 8 for c in configs)
    for m in args.ms:
        sweep(m, tma=tma, b_nk=args.b_nk, configs=configs)


if __name__ == "__main__":
    main()
