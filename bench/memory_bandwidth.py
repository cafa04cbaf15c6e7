"""What the GPU's memory delivers against what the skinny products use:
a device-to-device copy and torch's sum of a large bfloat16 tensor (GB/s,
bytes read plus written), beside cuBLAS's skinny products of issue 20 (M
rows against an 8192 x 8192 bfloat16 B, whose bytes they must read once),
in one run (bench/RESULTS.md, session 40).

    python3 bench/memory_bandwidth.py [--ms 16 64 128] [--elements 268435456]

Times are triton.testing.do_bench medians (L2 flushed before every call)."""

import argparse

import torch

import terrazzo as triton


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ms", type=int, nargs="+", default=[16, 64, 128])
    parser.add_argument("--elements", type=int, default=2 ** 28)
    args = parser.parse_args(argv)

    def report(name, fn, nbytes):
        ms = triton.testing.do_bench(fn, warmup=100, rep=300, return_mode="median")
        print(f"{name:32s} {ms * 1e3:8.1f} us {nbytes / (ms * 1e-3) / 1e9:8.0f} GB/s")

    x = torch.randn(args.elements, device="cuda", dtype=torch.bfloat16)
    y = torch.empty_like(x)
    size = x.numel() * x.element_size()
    report("copy (read + write)", lambda: y.copy_(x), 2 * size)
    report("torch.sum (read)", lambda: x.sum(), size)
    b = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    for m in args.ms:
        a = torch.randn(m, 8192, device="cuda", dtype=torch.bfloat16)
        for layout, weight in (("K x N", b), ("N x K transposed", b.t())):
            report(f"cuBLAS M={m}, B {layout}", lambda: a @ weight,
                   b.numel() * b.element_size())


if __name__ == "__main__":
    main()
