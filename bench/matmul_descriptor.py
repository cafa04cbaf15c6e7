"""Matrix multiplication through tensor descriptors: TFLOP/s of Terrazzo,
Triton and torch (cuBLAS) on square float16 and bfloat16 products (float32
accumulation) and an fp8 e4m3 product (float16 result), in one run.

    PYTHONPATH=<built terrazzo> python3 bench/matmul_descriptor.py \
        [--runs 40] [--rounds 5] [--sizes 4096 8192] [--method device]

With --kernel pointers, the same product written with pointers computed
from k and masks by M, N and K (which terrazzo-loads-to-descriptors turns
into TMA copies on sm_90). The kernel is Triton's descriptor matmul (grouped program order, B given
N x K and transposed in the kernel, `tl.make_tensor_descriptor` for A, B and
C), written once below (KERNEL_SOURCE) and loaded twice: with
`import terrazzo as triton` and with `import triton`, the one-import port a
Triton user makes. Both autotune over the same configurations. On sm_90
both compilers turn the descriptor loads into TMA copies pipelined
num_stages deep (terrazzo-pipeline's TMA form). torch computes a @ b.T
(cuBLAS reads b transposed in place); the fp8 case runs torch._scaled_mm.
Inputs are fresh torch.randn data per provider, checked against a float64
product (relative Frobenius error < 1e-2); timing as bench/matmul.py
(time_calls, --method device by default: kernel time on a cold L2, as
triton.testing.do_bench).
"""

import argparse
import os
import statistics
import sys
import tempfile

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from loading import load_module  # noqa: E402
from matmul import relative_error, time_calls  # noqa: E402

KERNEL_SOURCE = '''
import {package} as triton
import {package}.language as tl

CONFIGS = [
    triton.Config({{"BM": 128, "BN": 256, "BK": 64, "GROUP_M": 8}}, num_stages=3, num_warps=8),
    triton.Config({{"BM": 128, "BN": 256, "BK": 64, "GROUP_M": 8}}, num_stages=4, num_warps=8),
    triton.Config({{"BM": 256, "BN": 128, "BK": 64, "GROUP_M": 8}}, num_stages=3, num_warps=8),
    triton.Config({{"BM": 128, "BN": 128, "BK": 64, "GROUP_M": 8}}, num_stages=4, num_warps=8),
    triton.Config({{"BM": 128, "BN": 128, "BK": 64, "GROUP_M": 8}}, num_stages=4, num_warps=4),
]
FP8_CONFIGS = [
    triton.Config({{"BM": 128, "BN": 256, "BK": 128, "GROUP_M": 8}}, num_stages=3, num_warps=8),
    triton.Config({{"BM": 128, "BN": 256, "BK": 128, "GROUP_M": 8}}, num_stages=4, num_warps=8),
    triton.Config({{"BM": 256, "BN": 128, "BK": 128, "GROUP_M": 8}}, num_stages=3, num_warps=8),
    triton.Config({{"BM": 128, "BN": 128, "BK": 128, "GROUP_M": 8}}, num_stages=4, num_warps=8),
]


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                  BK: tl.constexpr, GROUP_M: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1], block_shape=[BN, BK])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_m = pid_m * BM
    offs_n = pid_n * BN
    accumulator = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = a_desc.load([offs_m, k * BK])
        b = b_desc.load([offs_n, k * BK])
        accumulator = tl.dot(a, b.T, accumulator)
    c_desc.store([offs_m, offs_n], accumulator.to(c_ptr.dtype.element_ty))


@triton.jit
def matmul_pointers_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                           BK: tl.constexpr, GROUP_M: tl.constexpr):
    # The same product through pointers computed from k, masked by M, N
    # and K, on a 2-D grid (Terrazzo proves the boxes, and that program ids
    # times block sizes are not negative, and copies them by TMA on sm_90;
    # grouped program ids are quotients by values of unknown sign).
    offs_m = tl.program_id(0) * BM + tl.arange(0, BM)
    offs_n = tl.program_id(1) * BN + tl.arange(0, BN)
    accumulator = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        ks = k * BK + tl.arange(0, BK)
        a = tl.load(a_ptr + offs_m[:, None] * K + ks[None, :],
                    mask=(offs_m[:, None] < M) & (ks[None, :] < K), other=0.0)
        b = tl.load(b_ptr + offs_n[:, None] * K + ks[None, :],
                    mask=(offs_n[:, None] < N) & (ks[None, :] < K), other=0.0)
        accumulator = tl.dot(a, b.T, accumulator)
    c = accumulator.to(c_ptr.dtype.element_ty)
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], c,
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def make(configs, pointers=False):
    kernel = matmul_pointers_kernel if pointers else matmul_kernel
    return triton.autotune(configs=configs, key=["M", "N", "K"])(kernel)
'''


def load_provider(package, fp8, pointers=False):
    """a (M x K), b (N x K) -> a @ b.T through KERNEL_SOURCE's descriptor
    kernel (or its pointer kernel) compiled by `package` ("terrazzo" or
    "triton"), or None where it is missing."""
    try:
        lib = __import__(package)
    except ImportError:
        return None
    path = os.path.join(tempfile.mkdtemp(), f"{package}_descriptor_matmul.py")
    with open(path, "w") as f:
        f.write(KERNEL_SOURCE.format(package=package))
    module = load_module(path, f"{package}_descriptor_matmul")
    kernel = module.make(module.FP8_CONFIGS if fp8 else module.CONFIGS, pointers)
    if package == "triton":
        # Triton builds device-side tensor maps in memory the caller gives.
        lib.set_allocator(lambda size, align, stream: torch.empty(
            size, dtype=torch.int8, device="cuda"))

    def run(a, b):
        M, K = a.shape
        N = b.shape[0]
        c = torch.empty((M, N), device=a.device,
                        dtype=torch.float16 if fp8 else a.dtype)

        def grid(META):
            if pointers:
                return (lib.cdiv(M, META["BM"]), lib.cdiv(N, META["BN"]))
            return (lib.cdiv(M, META["BM"]) * lib.cdiv(N, META["BN"]),)
        kernel[grid](a, b, c, M, N, K)
        return c
    run.autotuner = kernel
    return run


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sizes", type=int, nargs="*", default=[4096, 8192])
    parser.add_argument("--no-fp8", action="store_true")
    parser.add_argument("--method", choices=["device", "latency"], default="device")
    parser.add_argument("--kernel", choices=["descriptors", "pointers"], default="descriptors",
                        help="the descriptor kernel, or the same product through pointers "
                             "computed from k")
    args = parser.parse_args(argv)
    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}")
    one = torch.tensor(1.0, device="cuda")
    rows, notes, failed = [], [], False

    def case(name, make_inputs, providers, flops):
        nonlocal failed
        providers = [(p, fn) for p, fn in providers if fn is not None]
        inputs, errors, times = {}, {}, {p: [] for p, _ in providers}
        for provider, fn in providers:
            inputs[provider] = make_inputs()
            a, b = inputs[provider]
            want = a.double() @ b.double().T
            errors[provider] = relative_error(fn(a, b), want)
            del want
        for _ in range(args.rounds):
            for provider, fn in providers:
                times[provider].append(time_calls(lambda: fn(*inputs[provider]), args.runs,
                                                  method=args.method))
        tflops = lambda ms: flops / (ms * 1e-3) * 1e-12
        for provider, _ in providers:
            every = [t for r in times[provider] for t in r]
            medians = [tflops(statistics.median(r)) for r in times[provider]]
            rows.append((name, provider, tflops(statistics.median(every)), min(medians),
                         max(medians), errors[provider]))
            failed |= not errors[provider] < 1e-2
        chosen = [f"{p}: {fn.autotuner.best_config}" for p, fn in providers
                  if getattr(getattr(fn, "autotuner", None), "best_config", None)]
        if chosen:
            notes.append(f"{name} autotuned to " + "; ".join(chosen))
        inputs.clear()
        torch.cuda.empty_cache()

    pointers = args.kernel == "pointers"
    print(f"kernel: {args.kernel}")
    terrazzo_mm = load_provider("terrazzo", False, pointers)
    triton_mm = load_provider("triton", False, pointers)
    for n in args.sizes:
        for dtype in (torch.float16, torch.bfloat16):
            make_inputs = lambda n=n, dtype=dtype: (
                torch.randn(n, n, device="cuda", dtype=dtype),
                torch.randn(n, n, device="cuda", dtype=dtype))
            case(f"{n}^3 {str(dtype)[6:]}", make_inputs,
                 [("terrazzo", terrazzo_mm), ("triton", triton_mm),
                  ("torch", lambda a, b: torch.matmul(a, b.T))], 2.0 * n ** 3)
    if not args.no_fp8:
        n = 8192
        make_fp8 = lambda: (torch.randn(n, n, device="cuda").to(torch.float8_e4m3fn),
                            torch.randn(n, n, device="cuda").to(torch.float8_e4m3fn))
        case(f"{n}^3 fp8 e4m3 -> f16", make_fp8,
             [("terrazzo", load_provider("terrazzo", True, pointers)),
              ("triton", load_provider("triton", True, pointers)),
              ("torch", lambda a, b: torch._scaled_mm(a, b.T, scale_a=one, scale_b=one,
                                                      out_dtype=torch.float16))],
             2.0 * n ** 3)

    print(f"\nTFLOP/s ({args.method} times): median of {args.rounds} x {args.runs} calls, "
          "rounds interleaved; lowest..highest round median; relative error vs float64\n")
    print(f"{'case':24s} {'provider':9s} {'TFLOP/s':>8s} {'round medians':>17s} {'rel err':>9s}")
    for name, provider, tf, low, high, err in rows:
        print(f"{name:24s} {provider:9s} {tf:8.1f} {low:8.1f}..{high:<8.1f} {err:9.2e}"
              f"{'' if err < 1e-2 else '  WRONG'}")
    for note in notes:
        print(note)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
