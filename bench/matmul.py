"""Matrix multiplication: TFLOP/s of Terrazzo, torch (cuBLAS) and Triton on
square float16 and bfloat16 products (float32 accumulation), and an fp8
e4m3 case (float32 accumulation, float16 result) against torch._scaled_mm,
in one run.

    PYTHONPATH=<built terrazzo> python3 bench/matmul.py [--runs 50] [--rounds 3] \
        [--sizes 4096 8192]

Terrazzo runs tutorials/03-matrix-multiplication.py's autotuned kernel;
Triton runs the same kernel and configurations, written out below for
Triton (TRITON_SOURCE); torch runs torch.matmul. The fp8 case runs the same
kernel (a row-major, b column-major, as torch._scaled_mm needs them) under
FP8_CONFIGS, for Terrazzo and Triton alike. Each provider gets fresh
random inputs, its result is checked against a float64 product (relative
Frobenius error, required < 1e-2), then all providers are timed in
--rounds interleaved rounds of --runs calls (CUDA events around each call,
after warm-up calls that also let the autotuners choose); the table reports
the median over all calls and the range of the rounds' medians, as
bench/softmax_layernorm_bandwidth.py does. FLOPs: 2 M N K per product.
"""

import argparse
import os
import statistics
import sys
import tempfile

import torch

# bench/loading.py, also when this file is loaded by path (the tests do).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from loading import load_module, load_tutorial  # noqa: E402

# Triton's tutorial kernel, for Triton (configurations come from the
# Terrazzo tutorial, converted to triton.Config).
TRITON_SOURCE = '''
import triton
import triton.language as tl


def make_kernel(configs):
    @triton.jit
    def leaky_relu(x):
        return tl.where(x >= 0, x, 0.01 * x)

    @triton.autotune(configs=configs, key=["M", "N", "K"])
    @triton.jit
    def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                      stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                      BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                      BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr,
                      ACTIVATION: tl.constexpr):
        pid = tl.program_id(axis=0)
        num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
        num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
        num_pid_in_group = GROUP_SIZE_M * num_pid_n
        group_id = pid // num_pid_in_group
        first_pid_m = group_id * GROUP_SIZE_M
        group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
        pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
        pid_n = (pid % num_pid_in_group) // group_size_m
        offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
        offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
        offs_k = tl.arange(0, BLOCK_SIZE_K)
        a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
        b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
        accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
        for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
            a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
            b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
            accumulator = tl.dot(a, b, accumulator)
            a_ptrs += BLOCK_SIZE_K * stride_ak
            b_ptrs += BLOCK_SIZE_K * stride_bk
        if ACTIVATION == "leaky_relu":
            accumulator = leaky_relu(accumulator)
        c = accumulator.to(c_ptr.dtype.element_ty)
        offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
        offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
        c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
        c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
        tl.store(c_ptrs, c, mask=c_mask)

    return matmul_kernel
'''


# Block shapes for fp8: K steps of 128 bytes, as for float16's 64 (one
# 128-byte swizzle row, four wgmma K steps of 32), so that the tutorial's
# K = 32 shapes (half a wgmma row's worth of bytes, and for 2 warps no
# wgmma at all) are not in the running; the fp8 operands take half the
# shared memory of float16 ones, which pays for the deeper K.
FP8_CONFIGS = [
    # (BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K, num_stages, num_warps)
    (128, 256, 128, 3, 8),
    (256, 128, 128, 3, 8),
    (128, 128, 128, 4, 8),
    (128, 128, 128, 4, 4),
    (64, 256, 128, 4, 4),
    (128, 64, 128, 4, 4),
]


def fp8_configs(config_type):
    """FP8_CONFIGS as `config_type` (terrazzo.Config or triton.Config)."""
    return [config_type({"BLOCK_SIZE_M": m, "BLOCK_SIZE_N": n, "BLOCK_SIZE_K": k,
                         "GROUP_SIZE_M": 8}, num_stages=stages, num_warps=warps)
            for m, n, k, stages, warps in FP8_CONFIGS]


def terrazzo_fp8_provider(tutorial):
    """The tutorial's kernel under FP8_CONFIGS: fp8 in, float16 out."""
    kernel = tutorial.triton.autotune(configs=fp8_configs(tutorial.triton.Config),
                                      key=["M", "N", "K"])(tutorial.matmul_kernel.fn)

    def run(a, b):
        M, K = a.shape
        _, N = b.shape
        c = torch.empty((M, N), device=a.device, dtype=torch.float16)

        def grid(META):
            return (tutorial.triton.cdiv(M, META["BLOCK_SIZE_M"]) *
                    tutorial.triton.cdiv(N, META["BLOCK_SIZE_N"]),)
        kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                     c.stride(0), c.stride(1), ACTIVATION="")
        return c
    run.autotuner = kernel
    return run


def load_triton_module():
    """TRITON_SOURCE as a module (triton.jit reads its kernels' source from
    a file); needs triton."""
    path = os.path.join(tempfile.mkdtemp(), "triton_matmul_bench.py")
    with open(path, "w") as f:
        f.write(TRITON_SOURCE)
    return load_module(path, "triton_matmul_bench")


def triton_provider(tutorial, fp8=False):
    """torch-in, torch-out matmul through Triton (under FP8_CONFIGS and with
    a float16 result for `fp8`), or None without Triton."""
    try:
        import triton
    except ImportError:
        return None
    module = load_triton_module()
    if fp8:
        configs = fp8_configs(triton.Config)
    else:
        configs = [triton.Config(dict(c.kwargs), num_warps=c.num_warps,
                                 num_stages=c.num_stages)
                   for c in tutorial.get_autotune_configs()]
    kernel = module.make_kernel(configs)

    def run(a, b):
        M, K = a.shape
        _, N = b.shape
        c = torch.empty((M, N), device=a.device, dtype=torch.float16 if fp8 else a.dtype)

        def grid(META):
            return (triton.cdiv(M, META["BLOCK_SIZE_M"]) * triton.cdiv(N, META["BLOCK_SIZE_N"]),)
        kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                     c.stride(0), c.stride(1), ACTIVATION="")
        return c
    run.autotuner = kernel
    return run


_flush_buffer = None


def l2_flush_buffer():
    """256 MB, as do_bench's (larger than the H100's 50 MB L2): zeroing it
    evicts a call's inputs from L2. Allocated once."""
    global _flush_buffer
    if _flush_buffer is None:
        _flush_buffer = torch.empty(256 * 1024 * 1024 // 4, dtype=torch.int32,
                                    device="cuda")
    return _flush_buffer


def time_calls(fn, runs, warmup=10, method="latency"):
    """The times (ms) of `runs` calls of `fn` after `warmup` calls, each
    between CUDA events.

    "latency": the host waits for each call before starting the next, so a
    call starts on an idle GPU and its time includes the host's launch cost.
    "device": as triton.testing.do_bench, the L2 cache is flushed
    (l2_flush_buffer is zeroed) before each call and the host does not wait
    between calls, so the launch overlaps the flush and the time is the
    kernel's on a cold L2 (how the issue's Triton and cuBLAS figures were
    measured)."""
    for _ in range(warmup):
        fn()
    flush = l2_flush_buffer() if method == "device" else None
    torch.cuda.synchronize()
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(runs)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(runs)]
    for start, end in zip(starts, ends):
        if method == "device":
            flush.zero_()
        start.record()
        fn()
        end.record()
        if method == "latency":
            end.synchronize()
    torch.cuda.synchronize()
    return [start.elapsed_time(end) for start, end in zip(starts, ends)]


def relative_error(got, want):
    return ((got.double() - want).norm() / want.norm()).item()


def fp8_providers(tutorial):
    """The e4m3 case's providers; inputs are (a, b) with a row-major and b
    column-major, as torch._scaled_mm needs."""
    one = torch.tensor(1.0, device="cuda")
    return [("terrazzo", terrazzo_fp8_provider(tutorial)),
            ("torch", lambda a, b: torch._scaled_mm(a, b, scale_a=one, scale_b=one,
                                                    out_dtype=torch.float16)),
            ("triton", triton_provider(tutorial, fp8=True))]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=50, help="timed calls per provider and round")
    parser.add_argument("--rounds", type=int, default=3,
                        help="rounds over the providers (interleaved, so that clock and "
                             "temperature drift hit all of them)")
    parser.add_argument("--sizes", type=int, nargs="*", default=[4096, 8192])
    parser.add_argument("--no-fp8", action="store_true", help="skip the fp8 case")
    parser.add_argument("--method", choices=["device", "latency", "both"], default="both",
                        help="device: kernel time on a cold L2 with launches queued "
                             "(as triton.testing.do_bench); latency: each call from an idle "
                             "GPU, host launch cost included (see time_calls)")
    args = parser.parse_args(argv)
    tutorial = load_tutorial("03-matrix-multiplication.py")
    triton_matmul = triton_provider(tutorial)

    def terrazzo_matmul(a, b):
        return tutorial.matmul(a, b)
    terrazzo_matmul.autotuner = tutorial.matmul_kernel
    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}", end="")
    try:
        import triton
        print(f", triton {triton.__version__}")
    except ImportError:
        print(", no triton")

    rows, notes = [], []
    methods = ["device", "latency"] if args.method == "both" else [args.method]

    def case(name, make, providers, flops):
        providers = [(p, fn) for p, fn in providers if fn is not None]
        inputs, errors, times = {}, {}, {}
        for provider, fn in providers:
            inputs[provider] = make()  # fresh random data per provider
            a, b = inputs[provider]
            got = fn(a, b)
            want = a.double() @ b.double()
            errors[provider] = relative_error(got, want)
            times.update({(provider, method): [] for method in methods})
            del got, want
        for _ in range(args.rounds):
            for method in methods:
                for provider, fn in providers:
                    times[provider, method].append(time_calls(
                        lambda: fn(*inputs[provider]), args.runs, method=method))
        for method in methods:
            for provider, _ in providers:
                tflops = lambda ms: flops / (ms * 1e-3) * 1e-12
                every = [t for round_times in times[provider, method] for t in round_times]
                round_medians = [tflops(statistics.median(r)) for r in times[provider, method]]
                rows.append((name, method, provider, tflops(statistics.median(every)),
                             min(round_medians), max(round_medians), errors[provider],
                             errors[provider] < 1e-2))
        # The autotuners time their configurations separately; a gap between
        # providers may come from their choices rather than from the code.
        chosen = [f"{provider}: {fn.autotuner.best_config}" for provider, fn in providers
                  if getattr(getattr(fn, "autotuner", None), "best_config", None)]
        if chosen:
            notes.append(f"{name} autotuned to " + "; ".join(chosen))
        inputs.clear()
        torch.cuda.empty_cache()

    for n in args.sizes:
        for dtype in (torch.float16, torch.bfloat16):
            make = lambda n=n, dtype=dtype: (torch.randn(n, n, device="cuda", dtype=dtype),
                                             torch.randn(n, n, device="cuda", dtype=dtype))
            case(f"matmul {n}^3 {str(dtype)[6:]}", make,
                 [("terrazzo", terrazzo_matmul), ("torch", torch.matmul),
                  ("triton", triton_matmul)], 2.0 * n ** 3)

    if not args.no_fp8:
        n = 8192

        def make_fp8():
            a = torch.randn(n, n, device="cuda").to(torch.float8_e4m3fn)
            b = torch.randn(n, n, device="cuda").to(torch.float8_e4m3fn).t()  # column-major
            return a, b
        case(f"matmul {n}^3 fp8 e4m3 -> f16", make_fp8, fp8_providers(tutorial),
             2.0 * n ** 3)

    print(f"\nTFLOP/s: median of {args.rounds} x {args.runs} calls (rounds interleaved over "
          "the providers, warm-up calls first), then the lowest..highest median of a round; "
          "relative (Frobenius) error against a float64 product\n")
    print(f"{'case':32s} {'method':8s} {'provider':9s} {'TFLOP/s':>8s} {'round medians':>17s} "
          f"{'rel err':>9s}")
    failed = False
    for name, method, provider, tf, low, high, err, ok in rows:
        print(f"{name:32s} {method:8s} {provider:9s} {tf:8.1f} {low:8.1f}..{high:<8.1f} "
              f"{err:9.2e}{'' if ok else '  WRONG'}")
        failed |= not ok
    for note in notes:
        print(note)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
