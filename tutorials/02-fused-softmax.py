"""
Fused Softmax
=============

In this tutorial you write a fused softmax with Terrazzo, as in Triton's
tutorial: each row of an (M, N) matrix is loaded once, reduced twice (its
maximum, then the sum of the exponentials) and written once, where an
unfused softmax reads and writes the matrix several times. You will learn
about:

* reductions (`tl.max`, `tl.sum`) over a block;
* masking a row whose length N is not a power of two: the block has
  BLOCK_SIZE = next_power_of_2(N) elements, and the lanes past the end load
  -inf, which changes neither the maximum nor (as exp(-inf) = 0) the sum;
* persistent programs: as many program instances as the device runs at
  once, each looping over rows, sized from the device's properties
  (`triton.runtime.driver.active`, as in Triton's tutorial).

Run it:

    python tutorials/02-fused-softmax.py          # check (and show the PTX)
    python tutorials/02-fused-softmax.py --bench  # GB/s against torch / Triton
                                                  # and its plot: bench-results/*.png, *.csv

On a machine with an NVIDIA GPU and PyTorch the kernel runs on the GPU
(checked against torch.softmax in float64). Without one it runs in
Terrazzo's interpreter (NumPy on the CPU, the same semantics), checked
against a float64 NumPy softmax.
"""

import argparse
import os

import numpy as np

import terrazzo as triton
import terrazzo.language as tl
from terrazzo.testing import extension, gpu_available

try:
    import torch
except ImportError:
    torch = None


# %%
# Compute kernel
# --------------
#
# Each program instance handles rows row_start, row_start + row_step, ...
# (row_step is the number of programs). A row is held in registers between
# the two reductions, so each element is read from memory once. The
# parameter `num_stages` is also the name of a launch option: given as a
# keyword at launch it is both, as in Triton.

@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows,
                   n_cols, BLOCK_SIZE: tl.constexpr, num_stages: tl.constexpr):
    # The rows of the softmax are independent: programs take every
    # row_step-th row.
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages):
        # The stride is how much we need to increase the pointer to advance 1 row.
        row_start_ptr = input_ptr + row_idx * input_row_stride
        # The block size is the next power of two greater than n_cols, so that
        # each row fits in a single block.
        col_offsets = tl.arange(0, BLOCK_SIZE)
        input_ptrs = row_start_ptr + col_offsets
        # Load the row into SRAM, using a mask since BLOCK_SIZE may be > n_cols.
        mask = col_offsets < n_cols
        row = tl.load(input_ptrs, mask=mask, other=-float("inf"))
        # Subtract the maximum for numerical stability.
        row_minus_max = row - tl.max(row, axis=0)
        # Exponentiation (exp(-inf) = 0 for the masked lanes).
        numerator = tl.exp(row_minus_max)
        denominator = tl.sum(numerator, axis=0)
        softmax_output = numerator / denominator
        # Write back the output.
        output_row_start_ptr = output_ptr + row_idx * output_row_stride
        output_ptrs = output_row_start_ptr + col_offsets
        tl.store(output_ptrs, softmax_output, mask=mask)


# %%
# How many programs to launch
# ---------------------------
#
# The device's properties, asked as Triton's tutorial asks them:
# `triton.runtime.driver.active.utils.get_device_properties(DEVICE.index)`
# gives the number of SMs, the registers and shared memory there are, the
# warp size and the threads an SM holds. The kernel compiled for the launch
# (`softmax_kernel.warmup(...)`) says how many registers a thread uses
# (`n_regs`, once `_init_handles()` has loaded it) and how much shared
# memory it needs (`metadata.shared`): a program of `num_warps` warps fits
# max_num_regs / (n_regs * warpSize * num_warps) times on an SM by its
# registers, and as many times as shared memory and threads allow.

_programs_per_sm = {}


def device_properties():
    driver = triton.runtime.driver.active
    device = driver.get_active_torch_device()
    return driver.utils.get_device_properties(device.index)


def num_stages_for(properties) -> int:
    """Software pipelining stages of the row loop: more where the device
    has more shared memory, as in Triton's tutorial."""
    return 4 if properties["max_shared_mem"] > 200000 else 2


def num_programs_for(y, x, block_size, num_warps, num_stages, properties) -> int:
    key = (block_size, num_warps, num_stages, str(x.dtype))
    if key not in _programs_per_sm:
        # Compile without launching, to read the kernel's shared memory.
        kernel = softmax_kernel.warmup(y, x, x.stride(0), y.stride(0), x.shape[0],
                                       x.shape[1], BLOCK_SIZE=block_size,
                                       num_stages=num_stages, num_warps=num_warps,
                                       grid=(1,))
        kernel._init_handles()
        warp_size = properties["warpSize"]
        occupancy = min(properties["max_num_regs"] // (kernel.n_regs * warp_size * num_warps),
                        properties["max_threads_per_sm"] // (num_warps * warp_size))
        if kernel.metadata.shared:
            occupancy = min(occupancy, properties["max_shared_mem"] // kernel.metadata.shared)
        _programs_per_sm[key] = max(occupancy, 1)
    return properties["multiprocessor_count"] * _programs_per_sm[key]


# %%
# A helper that allocates the output and launches the programs. More warps
# for longer rows. In the interpreter (no GPU) a few programs share the rows.

def num_warps_for(block_size: int) -> int:
    if block_size >= 4096:
        return 16
    if block_size >= 2048:
        return 8
    return 4


def softmax(x):
    n_rows, n_cols = x.shape
    block_size = triton.next_power_of_2(n_cols)
    num_warps = num_warps_for(block_size)
    if torch is not None and isinstance(x, torch.Tensor) and x.device.type == "cuda":
        y = torch.empty_like(x)
        in_stride, out_stride = x.stride(0), y.stride(0)
        properties = device_properties()
        num_stages = num_stages_for(properties)
        num_programs = num_programs_for(y, x, block_size, num_warps, num_stages,
                                        properties)
    else:
        y = np.empty_like(x)
        in_stride, out_stride = x.strides[0] // x.itemsize, y.strides[0] // y.itemsize
        num_stages, num_programs = 2, 8
    num_programs = min(num_programs, n_rows)
    softmax_kernel[(num_programs,)](y, x, in_stride, out_stride, n_rows, n_cols, block_size,
                                    num_stages, num_warps=num_warps)
    return y


def softmax_reference(x):
    x = np.asarray(x, dtype=np.float64)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


# %%
# The same kernel under the real Triton, for the benchmark.

def triton_softmax():
    module = triton.testing.under_triton(softmax_kernel, name="triton_fused_softmax")
    if module is None:
        return None
    kernel = module.softmax_kernel

    def run(x):
        # The same launch as `softmax`: as many programs as Terrazzo's.
        n_rows, n_cols = x.shape
        block_size = triton.next_power_of_2(n_cols)
        num_warps = num_warps_for(block_size)
        y = torch.empty_like(x)
        properties = device_properties()
        num_stages = num_stages_for(properties)
        num_programs = min(n_rows, num_programs_for(y, x, block_size, num_warps, num_stages,
                                                    properties))
        kernel[(num_programs,)](y, x, x.stride(0), y.stride(0), n_rows, n_cols, block_size,
                                num_stages, num_warps=num_warps)
        return y
    return run


def check(on_gpu: bool):
    rng = np.random.default_rng()
    # N is not a power of two: the last lanes of every row are masked.
    m, n = (1823, 781) if on_gpu else (37, 781)
    x_np = (rng.standard_normal((m, n)) * 3).astype(np.float32)
    if on_gpu:
        x = torch.from_numpy(x_np).cuda()
        y = softmax(x)
        ref = torch.softmax(x.double(), dim=1)
        torch.cuda.synchronize()
        diff = torch.max(torch.abs(y.double() - ref)).item()
        print(f"GPU: max difference from torch.softmax in float64 is {diff:.3g}")
        torch.testing.assert_close(y.double(), ref, rtol=1e-5, atol=1e-7)
    else:
        y = softmax(x_np)
        ref = softmax_reference(x_np)
        diff = float(np.max(np.abs(y - ref)))
        print(f"interpreter: max difference from the float64 NumPy reference is {diff:.3g}")
        np.testing.assert_allclose(y, ref, rtol=1e-5, atol=1e-7)
    print("The results match.")


def show_generated_code():
    x = np.zeros((4, 781), np.float32)
    if extension() is not None:
        ptx = softmax_kernel.compile(x, x, 781, 781, 4, 781, BLOCK_SIZE=1024, num_stages=2,
                                     stage="ptx")
        print("PTX generated for softmax_kernel (target cuda:90, 4 warps):\n")
        print(ptx)
    else:
        print("terrazzo._C is not built; the tile IR the frontend generates:\n")
        print(softmax_kernel.ir(x, x, 781, 781, 4, 781, BLOCK_SIZE=1024, num_stages=2))


# %%
# Benchmark
# ---------
#
# Bandwidth in GB/s (the matrix is read once and written once) for M = 4096
# rows and N from 256 to 12800 columns, against torch.softmax and, when
# installed, Triton.

def bench(on_gpu: bool, save_path: str):
    if not on_gpu:
        print("No GPU: timing the interpreter against NumPy on the CPU (small sizes).")
        m = 64
        providers = [("terrazzo (interpreter)", softmax),
                     ("numpy", lambda x: softmax_reference(x).astype(np.float32))]
        sizes = [128 * i for i in range(2, 9, 2)]
        make = lambda n: np.random.randn(m, n).astype(np.float32)
    else:
        m = 4096
        providers = [("terrazzo", softmax), ("torch", lambda x: torch.softmax(x, dim=-1))]
        t = triton_softmax()
        if t is not None:
            providers.append(("triton", t))
        sizes = [128 * i for i in range(2, 100, 4)]
        make = lambda n: torch.randn(m, n, device="cuda", dtype=torch.float32)

    @triton.testing.perf_report(triton.testing.Benchmark(
        x_names=["N"], x_vals=sizes, line_arg="provider",
        line_vals=[name for name, _ in providers], line_names=[name for name, _ in providers],
        plot_name="softmax-performance (GB/s)", args={}))
    def benchmark(N, provider):
        x = make(N)
        fn = dict(providers)[provider]
        ms = triton.testing.do_bench(lambda: fn(x), warmup=5 if not on_gpu else 25,
                                     rep=20 if not on_gpu else 100)
        nbytes = x.nbytes if hasattr(x, "nbytes") else x.numel() * x.element_size()
        return 2 * nbytes * 1e-9 / (ms * 1e-3)

    benchmark.run(print_data=True, save_path=save_path)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].strip())
    parser.add_argument("--bench", action="store_true",
                        help="print a GB/s table and plot it")
    parser.add_argument("--save-path", default="bench-results",
                        help="where --bench writes the table (CSV) and the plot (PNG, "
                        "with matplotlib)")
    args = parser.parse_args(argv)
    on_gpu = gpu_available()
    if on_gpu:
        p = device_properties()
        print(f"device: {p['multiprocessor_count']} SMs, {p['max_shared_mem']} bytes of shared "
              f"memory per block, {p['max_threads_per_sm']} threads per SM, warps of "
              f"{p['warpSize']}; target {triton.runtime.driver.active.get_current_target()}")
    else:
        # No GPU here: the same kernel runs in the interpreter.
        os.environ["TERRAZZO_INTERPRET"] = "1"
    check(on_gpu)
    if not on_gpu and not args.bench:
        show_generated_code()
    if args.bench:
        bench(on_gpu, args.save_path)


if __name__ == "__main__":
    main()
