"""How fast a kernel streams a matrix from memory with no tensor-core work:
the skinny products' B (8192 x 8192 bfloat16 by default) read as column
strips (as `bench/matmul_skinny.py`'s kernels read it) through tensor
descriptors (TMA on the H100) or pointer loads, each block summed into a
float32 accumulator whose total one store keeps alive; beside a copy of B,
torch's sum of it and torch.matmul's skinny product on it. Whether the
skinny products' ~3.1 TB/s against a 4.1 TB/s copy (bench/RESULTS.md, session 40) is the rate
of such a stream, and how it moves with the bytes in flight. The loops
are not pipelined (terrazzo-pipeline rings the loads that feed a dot):
each program has one block in flight, and SPLIT (programs per column
strip, each over a range of K) sets how many programs, so how many
blocks, each multiprocessor has in flight.

    PYTHONPATH=<built terrazzo> python3 bench/stream_probe.py \\
        [--config FORM,BN,BK,SPLIT,WARPS ...] [--rounds 3]

FORM is `tma` or `pointer`. Times are do_bench medians (L2 flushed before
every call), the median of the rounds, in GB/s of B's bytes; each form's
sums are checked against torch's first."""

import argparse
import os
import statistics
import sys

import terrazzo as triton
import terrazzo.language as tl

try:
    import torch
except ImportError:  # the kernels compile without it (see compile_for_sm90)
    torch = None

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# The skinny kernels' split of K: program_id(2) takes the s-th of SPLIT ranges.
from matmul_skinny import split_k_range  # noqa: E402

DEFAULT_CONFIGS = ["tma,64,128,1,4", "tma,64,128,4,4", "tma,64,128,8,4", "tma,64,128,16,4",
                   "tma,256,64,8,4", "pointer,64,128,1,4", "pointer,64,128,8,4",
                   "pointer,256,32,16,4"]


@triton.jit
def stream_tma_kernel(b_ptr, out_ptr, K, N, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                      SPLIT: tl.constexpr):
    # Program (n, 0, s) sums columns n * BLOCK_N .. + BLOCK_N of B over the
    # s-th of SPLIT ranges of its rows, one BLOCK_K x BLOCK_N box at a time.
    desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1],
                                     block_shape=[BLOCK_K, BLOCK_N])
    first, end = split_k_range(K, BLOCK_K, SPLIT)
    acc = tl.zeros((BLOCK_K, BLOCK_N), dtype=tl.float32)
    for k in range(first, end):
        acc += desc.load([k * BLOCK_K, tl.program_id(0) * BLOCK_N]).to(tl.float32)
    tl.store(out_ptr + tl.program_id(2) * tl.num_programs(0) + tl.program_id(0), tl.sum(acc))


@triton.jit
def stream_pointer_kernel(b_ptr, out_ptr, K, N, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                          SPLIT: tl.constexpr):
    # The same with pointer loads; N and K are multiples of the blocks.
    first, end = split_k_range(K, BLOCK_K, SPLIT)
    rows = tl.arange(0, BLOCK_K)
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_K, BLOCK_N), dtype=tl.float32)
    for k in range(first, end):
        acc += tl.load(b_ptr + (k * BLOCK_K + rows)[:, None] * N + cols[None, :]).to(tl.float32)
    tl.store(out_ptr + tl.program_id(2) * tl.num_programs(0) + tl.program_id(0), tl.sum(acc))


def parse(text):
    form, *numbers = text.split(",")
    bn, bk, split, warps = (int(x) for x in numbers)
    assert form in ("tma", "pointer"), form
    return form, bn, bk, split, warps


def kernel_of(form):
    return stream_pointer_kernel if form == "pointer" else stream_tma_kernel


def launch(b, out, config):
    form, bn, bk, split, warps = config
    K, N = b.shape
    kernel_of(form)[(N // bn, 1, split)](b, out, K, N, BLOCK_N=bn, BLOCK_K=bk, SPLIT=split,
                                      num_warps=warps)
    return out


def compile_for_sm90(config, K=8192, N=8192):
    """PTX of one configuration for the H100, without a GPU."""
    import numpy as np
    form, bn, bk, split, warps = config
    b = np.zeros((K, N), np.float16)
    out = np.zeros(N // bn * split, np.float32)
    return kernel_of(form).compile(b, out, K, N, BLOCK_N=bn, BLOCK_K=bk, SPLIT=split,
                                   num_warps=warps, stage="ptx", target="cuda:90")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", action="append", default=[])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--size", type=int, default=8192, help="B is SIZE x SIZE")
    args = parser.parse_args(argv)
    configs = [parse(text) for text in args.config or DEFAULT_CONFIGS]
    b = torch.randn(args.size, args.size, device="cuda", dtype=torch.bfloat16)
    nbytes = b.numel() * b.element_size()
    want = b.float().sum().item()
    copy = torch.empty_like(b)
    a = torch.randn(16, args.size, device="cuda", dtype=torch.bfloat16)
    providers = {"copy (B read and written)": lambda: copy.copy_(b),
                 "torch.sum (B read)": lambda: b.sum(),
                 "torch.matmul, 16 rows": lambda: a @ b}
    for config in configs:
        form, bn, bk, split = config[:4]
        out = torch.empty(args.size // bn * split, device="cuda", dtype=torch.float32)
        got = launch(b, out, config).sum().item()
        assert abs(got - want) <= 1e-3 * b.float().abs().sum().item(), (config, got, want)
        providers[",".join(map(str, config))] = lambda out=out, config=config: launch(b, out,
                                                                                     config)
    times = {name: [] for name in providers}
    for _ in range(args.rounds):
        for name, fn in providers.items():
            times[name].append(triton.testing.do_bench(fn, warmup=200, rep=100,
                                                       return_mode="median"))
    print(f"B: {args.size} x {args.size} bfloat16, {nbytes / 2**20:.0f} MiB; GB/s of B's bytes "
          f"(the copy moves twice as many), median of {args.rounds} rounds")
    for name, t in times.items():
        ms = statistics.median(t)
        print(f"{name:32s} {ms * 1e3:8.1f} us {nbytes / (ms * 1e-3) / 1e9:8.0f} GB/s")


if __name__ == "__main__":
    main()
