"""
Matrix Multiplication
=====================

In this tutorial you write a matrix multiplication C = A @ B with Terrazzo,
in the manner of Triton's matmul tutorial. Each program instance computes
one BLOCK_SIZE_M x BLOCK_SIZE_N block of C by walking along K in steps of
BLOCK_SIZE_K, accumulating `tl.dot` products of blocks of A and B in
float32. You will learn about:

* block-level matrix products (`tl.dot`) with a float32 accumulator;
* multi-dimensional pointer arithmetic (row and column strides);
* the order in which program instances visit C: in groups of GROUP_SIZE_M
  block rows, so that the blocks of A and B that neighbouring programs
  read are still in the L2 cache;
* masking the K tail (K need not be a multiple of BLOCK_SIZE_K);
* `@triton.autotune` over a few block shapes, keyed on M, N and K;
* fusing an activation (leaky ReLU) into the epilogue.

Run it:

    python tutorials/03-matrix-multiplication.py          # check (and show code)
    python tutorials/03-matrix-multiplication.py --bench  # TFLOP/s against cuBLAS / Triton
                                                          # and its plot: bench-results/*.png, *.csv

On a machine with an NVIDIA GPU and PyTorch the kernel runs on the GPU,
checked against torch in float64. Without one it runs a small case in
Terrazzo's interpreter, checked against NumPy in float64.
"""

import argparse
import importlib
import importlib.util
import inspect
import os
import tempfile
import textwrap

import numpy as np

import terrazzo as triton
import terrazzo.language as tl
from terrazzo.testing import extension, gpu_available

try:
    import torch
except ImportError:
    torch = None


# %%
# Configurations
# --------------
#
# A handful of block shapes that suit large float16/bfloat16 products; the
# autotuner times them the first time it sees a new (M, N, K) and keeps the
# fastest. (In the interpreter it takes the first, without timing.)

def get_autotune_configs():
    return [
        triton.Config({"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 256, "BLOCK_SIZE_K": 64,
                       "GROUP_SIZE_M": 8}, num_stages=3, num_warps=8),
        triton.Config({"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 256, "BLOCK_SIZE_K": 32,
                       "GROUP_SIZE_M": 8}, num_stages=4, num_warps=4),
        triton.Config({"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 32,
                       "GROUP_SIZE_M": 8}, num_stages=4, num_warps=4),
        triton.Config({"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 32,
                       "GROUP_SIZE_M": 8}, num_stages=4, num_warps=4),
        triton.Config({"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 32,
                       "GROUP_SIZE_M": 8}, num_stages=4, num_warps=4),
        triton.Config({"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 32, "BLOCK_SIZE_K": 32,
                       "GROUP_SIZE_M": 8}, num_stages=4, num_warps=4),
        triton.Config({"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 32, "BLOCK_SIZE_K": 32,
                       "GROUP_SIZE_M": 8}, num_stages=5, num_warps=2),
        triton.Config({"BLOCK_SIZE_M": 32, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 32,
                       "GROUP_SIZE_M": 8}, num_stages=5, num_warps=2),
    ]


# %%
# Compute kernel
# --------------
#
# Program `pid` first finds which block (pid_m, pid_n) of C it owns. Walking
# the blocks row by row would make consecutive programs read a whole row of
# B blocks each; grouping GROUP_SIZE_M block rows and walking down each
# column of the group first makes consecutive programs share blocks of A
# and B, which the L2 cache then serves.
#
# The pointers of the A block are a_ptr + m * stride_am + k * stride_ak for
# the block's rows m and columns k (and likewise for B); every step along K
# advances them by BLOCK_SIZE_K columns of A and rows of B. Rows of A and
# columns of B past M and N are wrapped around with `%` (their results are
# masked at the store), and the last step along K masks the columns of A
# and rows of B past K to zero, so that they add nothing.

@triton.autotune(configs=get_autotune_configs(), key=["M", "N", "K"])
@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                  stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                  BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr,
                  ACTIVATION: tl.constexpr):
    # Which block of C this program computes (grouped ordering).
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    programs_per_group = GROUP_SIZE_M * num_pid_n
    group = pid // programs_per_group
    first_pid_m = group * GROUP_SIZE_M
    rows_in_group = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % programs_per_group) % rows_in_group)
    pid_n = (pid % programs_per_group) // rows_in_group

    # Pointers to the first blocks of A and B.
    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)

    # Accumulate in float32 along K; the K tail reads zeros.
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        k_left = K - k * BLOCK_SIZE_K
        a = tl.load(a_ptrs, mask=offs_k[None, :] < k_left, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < k_left, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk

    # The epilogue: an optional activation while the block is still in
    # float32 registers, then the conversion to C's type.
    if ACTIVATION == "leaky_relu":
        accumulator = leaky_relu(accumulator)
    c = accumulator.to(c_ptr.dtype.element_ty)

    # Store the block, masking rows and columns past M and N.
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


# A @jit function called from the kernel is inlined into it.
@triton.jit
def leaky_relu(x):
    return tl.where(x >= 0, x, 0.01 * x)


# %%
# A wrapper that checks the shapes, allocates C and launches one program
# per block of C (the grid depends on the configuration the autotuner picks).

def matmul(a, b, activation=""):
    assert a.shape[1] == b.shape[0], "incompatible dimensions"
    M, K = a.shape
    K, N = b.shape
    if torch is not None and isinstance(a, torch.Tensor):
        c = torch.empty((M, N), device=a.device, dtype=a.dtype)
        sa, sb, sc = a.stride(), b.stride(), c.stride()
    else:
        c = np.empty((M, N), dtype=a.dtype)
        sa, sb, sc = ([s // x.itemsize for s in x.strides] for x in (a, b, c))

    def grid(META):
        return (triton.cdiv(M, META["BLOCK_SIZE_M"]) * triton.cdiv(N, META["BLOCK_SIZE_N"]),)
    matmul_kernel[grid](a, b, c, M, N, K, sa[0], sa[1], sb[0], sb[1], sc[0], sc[1],
                        ACTIVATION=activation)
    return c


def reference(a, b, activation=""):
    c = np.asarray(a, dtype=np.float64) @ np.asarray(b, dtype=np.float64)
    if activation == "leaky_relu":
        c = np.where(c >= 0, c, 0.01 * c)
    return c


# %%
# The same kernel under the real Triton, for the benchmark.

def triton_matmul():
    """`matmul` run by Triton (the same source and configurations), or None
    where Triton is not installed."""
    try:
        real = importlib.import_module("triton")
    except ImportError:
        return None
    if not hasattr(real, "jit") or real.__name__ != "triton" or torch is None:
        return None
    source = "import triton\nimport triton.language as tl\n\n\n" + "\n\n".join(
        textwrap.dedent(inspect.getsource(f)) for f in
        (get_autotune_configs, leaky_relu.fn, matmul_kernel.fn.fn))
    path = os.path.join(tempfile.mkdtemp(), "triton_matmul_tutorial.py")
    with open(path, "w") as f:
        f.write(source)
    spec = importlib.util.spec_from_file_location("triton_matmul_tutorial", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    kernel = module.matmul_kernel

    def run(a, b, activation=""):
        M, K = a.shape
        K, N = b.shape
        c = torch.empty((M, N), device=a.device, dtype=a.dtype)

        def grid(META):
            return (real.cdiv(M, META["BLOCK_SIZE_M"]) * real.cdiv(N, META["BLOCK_SIZE_N"]),)
        kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                     c.stride(0), c.stride(1), ACTIVATION=activation)
        return c
    return run


# %%
# Unit test
# ---------

def check(on_gpu: bool):
    rng = np.random.default_rng()
    # Sizes that are not multiples of any block: M and N tails are masked at
    # the store, the K tail at the loads.
    shapes = [(512, 512, 512), (1000, 777, 333)] if on_gpu else [(70, 90, 100)]
    for (m, n, k) in shapes:
        for dtype in (["float16", "bfloat16"] if on_gpu else ["float16"]):
            for activation in ("", "leaky_relu"):
                a_np = rng.standard_normal((m, k)).astype(np.float32)
                b_np = rng.standard_normal((k, n)).astype(np.float32)
                if on_gpu:
                    tdt = getattr(torch, dtype)
                    a = torch.from_numpy(a_np).cuda().to(tdt)
                    b = torch.from_numpy(b_np).cuda().to(tdt)
                    c = matmul(a, b, activation)
                    want = a.double() @ b.double()
                    if activation:
                        want = torch.where(want >= 0, want, 0.01 * want)
                    torch.cuda.synchronize()
                    err = ((c.double() - want).norm() / want.norm()).item()
                    where = "GPU"
                else:
                    a, b = a_np.astype(dtype), b_np.astype(dtype)
                    c = matmul(a, b, activation)
                    want = reference(a, b, activation)
                    err = float(np.linalg.norm(c.astype(np.float64) - want) /
                                np.linalg.norm(want))
                    where = "interpreter"
                print(f"{where}: {m}x{n}x{k} {dtype} {activation or 'no activation'}: "
                      f"relative error {err:.2e} against float64")
                # The result is rounded to float16/bfloat16 once at the end.
                limit = 1e-2 if dtype == "bfloat16" else 2e-3
                assert err < limit, f"relative error {err} is above {limit}"
    print("The results match.")


def show_generated_code():
    a = np.zeros((64, 64), np.float16)
    args = (a, a, a, 64, 64, 64, 64, 1, 64, 1, 64, 1)
    meta = dict(BLOCK_SIZE_M=32, BLOCK_SIZE_N=32, BLOCK_SIZE_K=32, GROUP_SIZE_M=8,
                ACTIVATION="leaky_relu")
    kernel = matmul_kernel.fn  # the kernel without the autotuner
    if extension() is not None:
        ptx = kernel.compile(*args, **meta, stage="ptx")
        print("PTX generated for matmul_kernel (32x32x32 blocks, target cuda:90, "
              "4 warps):\n")
        print(ptx)
    else:
        print("terrazzo._C is not built; the tile IR the frontend generates:\n")
        print(kernel.ir(*args, **meta))


# %%
# Benchmark
# ---------
#
# TFLOP/s (2 M N K floating-point operations per product) for square
# matrices, against torch.matmul (cuBLAS) and, when installed, Triton.

def bench(on_gpu: bool, save_path: str):
    if not on_gpu:
        print("No GPU: timing the interpreter against NumPy on the CPU (small sizes).")
        providers = [("terrazzo (interpreter)", matmul),
                     ("numpy", lambda a, b: a @ b)]
        sizes = [64, 128]
        make = lambda n: (np.random.randn(n, n).astype(np.float16),
                          np.random.randn(n, n).astype(np.float16))
    else:
        providers = [("terrazzo", matmul), ("torch", torch.matmul)]
        t = triton_matmul()
        if t is not None:
            providers.append(("triton", t))
        sizes = [256 * i for i in range(2, 33, 2)]
        make = lambda n: (torch.randn(n, n, device="cuda", dtype=torch.float16),
                          torch.randn(n, n, device="cuda", dtype=torch.float16))

    @triton.testing.perf_report(triton.testing.Benchmark(
        x_names=["N"], x_vals=sizes, line_arg="provider",
        line_vals=[name for name, _ in providers], line_names=[name for name, _ in providers],
        plot_name="matmul-performance-fp16 (TFLOP/s)", args={}))
    def benchmark(N, provider):
        a, b = make(N)
        fn = dict(providers)[provider]
        ms = triton.testing.do_bench(lambda: fn(a, b), warmup=2 if not on_gpu else 25,
                                     rep=10 if not on_gpu else 100)
        return 2 * N ** 3 * 1e-12 / (ms * 1e-3)

    benchmark.run(print_data=True, save_path=save_path)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].strip())
    parser.add_argument("--bench", action="store_true",
                        help="print a TFLOP/s table and plot it")
    parser.add_argument("--save-path", default="bench-results",
                        help="where --bench writes the table (CSV) and the plot (PNG, "
                        "with matplotlib)")
    args = parser.parse_args(argv)
    on_gpu = gpu_available() and torch is not None and torch.cuda.is_available()
    if not on_gpu:
        # No GPU here: the same kernel runs in the interpreter.
        os.environ["TERRAZZO_INTERPRET"] = "1"
    check(on_gpu)
    if not on_gpu and not args.bench:
        show_generated_code()
    if args.bench:
        bench(on_gpu, args.save_path)


if __name__ == "__main__":
    main()
