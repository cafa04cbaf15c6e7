"""Float32 matmul on FMAs (tl.dot with input_precision="ieee", which no
tensor core computes): TFLOP/s of Terrazzo and Triton per configuration,
side by side in one run.

    PYTHONPATH=<built terrazzo> python3 bench/dot_fma.py [--size 2048] [--runs 20]

Both run the same kernel (tutorial 03's loop, written out here for each,
with input_precision="ieee") under each configuration, on fresh random
float32 inputs; each result is checked against a float64 product (relative
Frobenius error < 1e-5), then timed with bench/matmul.py's "device" method
(CUDA events around each call after an L2 flush) over --rounds interleaved
rounds of --runs calls; the table gives the median.
"""

import argparse
import os
import statistics
import sys
import tempfile

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from loading import load_module  # noqa: E402

KERNEL = '''
import {module} as triton
import {module}.language as tl


@triton.jit
def fma_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk,
                      stride_bn, stride_cm, stride_cn, BLOCK_M: tl.constexpr,
                      BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < K - k * BLOCK_K),
                    other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < K - k * BLOCK_K) & (offs_n[None, :] < N),
                    other=0.0)
        acc = tl.dot(a, b, acc, input_precision="ieee")
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, acc, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))
'''

# (BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages)
CONFIGS = [(64, 64, 32, 4, 3), (128, 64, 32, 4, 3), (64, 128, 32, 4, 3),
           (128, 128, 32, 8, 3), (64, 64, 16, 2, 3)]


def load_kernel(module_name):
    path = os.path.join(tempfile.mkdtemp(), f"fma_matmul_{module_name}.py")
    with open(path, "w") as f:
        f.write(KERNEL.format(module=module_name))
    return load_module(path, f"fma_matmul_{module_name}").fma_matmul_kernel


def launcher(kernel, cdiv, config):
    bm, bn, bk, warps, stages = config

    def run(a, b):
        M, K = a.shape
        _, N = b.shape
        c = torch.empty((M, N), device=a.device, dtype=torch.float32)
        kernel[(cdiv(M, bm), cdiv(N, bn))](a, b, c, M, N, K, a.stride(0), a.stride(1),
                                           b.stride(0), b.stride(1), c.stride(0), c.stride(1),
                                           BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk,
                                           num_warps=warps, num_stages=stages)
        return c
    return run


def dump_ptx(folder, config, providers, inputs):
    """Each provider's PTX of `config` in `folder`, for comparing the code."""
    os.makedirs(folder, exist_ok=True)
    bm, bn, bk, warps, stages = config
    for name, kernel, _ in providers:
        a, b = inputs[name]
        n = a.shape[0]
        args = (a, b, a, n, n, n, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                a.stride(0), a.stride(1))
        meta = dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, num_warps=warps, num_stages=stages)
        if name == "triton":
            ptx = kernel.warmup(*args, grid=(1,), **meta).asm["ptx"]
        else:
            ptx = kernel.compile(*args, stage="ptx", **meta)
        with open(os.path.join(folder, f"{name}_{'_'.join(map(str, config))}.ptx"), "w") as f:
            f.write(ptx)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=2048)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--dump", help="write each compiler's PTX of each configuration here")
    args = parser.parse_args(argv)
    bench = load_module(os.path.join(os.path.dirname(os.path.abspath(__file__)), "matmul.py"),
                        "bench_matmul")
    import terrazzo
    providers = [("terrazzo", load_kernel("terrazzo"), terrazzo.cdiv)]
    try:
        import triton
        providers.append(("triton", load_kernel("triton"), triton.cdiv))
    except ImportError:
        pass
    n = args.size
    flops = 2.0 * n ** 3
    print(f"device: {torch.cuda.get_device_name()}, {n}^3 float32, input_precision='ieee', "
          f"median of {args.rounds} x {args.runs} calls (device times)")
    print(f"{'config (M,N,K,warps,stages)':30}" + "".join(f"{p:>12}" for p, _, _ in providers)
          + "  rel err")
    failed = False
    for config in CONFIGS:
        runs, inputs, errors, times = {}, {}, {}, {}
        for name, kernel, cdiv in providers:
            runs[name] = launcher(kernel, cdiv, config)
            inputs[name] = (torch.randn(n, n, device="cuda"), torch.randn(n, n, device="cuda"))
            a, b = inputs[name]
            got = runs[name](a, b)
            errors[name] = bench.relative_error(got, a.double() @ b.double())
            failed |= errors[name] >= 1e-5
            times[name] = []
        for _ in range(args.rounds):
            for name, _, _ in providers:
                times[name].extend(bench.time_calls(lambda: runs[name](*inputs[name]), args.runs,
                                                    method="device"))
        if args.dump:
            dump_ptx(args.dump, config, providers, inputs)
        cells = "".join(f"{flops / (statistics.median(times[p]) * 1e-3) * 1e-12:12.2f}"
                        for p, _, _ in providers)
        errs = " / ".join(f"{errors[p]:.1e}" for p, _, _ in providers)
        print(f"{str(config):30}{cells}  {errs}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
