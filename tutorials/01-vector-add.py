"""
Vector Addition
===============

In this tutorial you write a simple vector addition with Terrazzo, the way
you would with Triton. You will learn about:

* the basic programming model: a kernel is one *program instance* working on
  a block of elements, indexed by `tl.program_id`;
* the `@triton.jit` decorator, which compiles a Python function to a GPU
  kernel;
* how to check the result and benchmark it against PyTorch (and Triton).

Kernels written for Triton run unchanged after

    import terrazzo as triton
    import terrazzo.language as tl

Run it:

    python tutorials/01-vector-add.py          # check (and show the PTX)
    python tutorials/01-vector-add.py --bench  # GB/s against torch / Triton
                                               # and its plot: bench-results/*.png, *.csv

On a machine with an NVIDIA GPU and PyTorch the kernel runs on the GPU.
Without one it runs in Terrazzo's interpreter (NumPy on the CPU, the same
semantics), and the script prints the PTX the compiler generates for it when
the compiled extension is available (the tile IR otherwise).
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
# Each program instance adds BLOCK_SIZE consecutive elements. The last
# instance may run past the end of the vectors: the mask keeps its loads and
# stores inside them.

@triton.jit
def add_kernel(x_ptr,  # *Pointer* to the first input vector.
               y_ptr,  # *Pointer* to the second input vector.
               output_ptr,  # *Pointer* to the output vector.
               n_elements,  # Size of the vectors.
               BLOCK_SIZE: tl.constexpr,  # Elements each program processes.
               ):
    # There are multiple "programs" processing different data. We identify
    # which program we are here:
    pid = tl.program_id(axis=0)  # We use a 1D launch grid so axis is 0.
    # This program processes inputs that are offset from the initial data.
    # For instance, with a vector of length 256 and BLOCK_SIZE of 64, the
    # programs access the elements [0:64, 64:128, 128:192, 192:256].
    block_start = pid * BLOCK_SIZE
    # `offsets` is a block of indices (a tile), not a single number.
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    # A mask guards the memory operations against out-of-bounds accesses.
    mask = offsets < n_elements
    # Load x and y, masking out the elements past the end.
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    output = x + y
    # Write x + y back.
    tl.store(output_ptr + offsets, output, mask=mask)


# %%
# A helper function that allocates the output and launches the kernel with
# a grid of `cdiv(n_elements, BLOCK_SIZE)` program instances. The grid can be
# a tuple or a function of the kernel's meta-parameters.

def add(x, y):
    output = torch.empty_like(x) if torch is not None and isinstance(x, torch.Tensor) \
        else np.empty_like(x)
    n_elements = output.numel() if hasattr(output, "numel") else output.size
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)
    return output


# %%
# The same kernel under the real Triton, for the benchmark: its source is
# executed with Triton's modules instead of Terrazzo's.

def triton_add():
    module = triton.testing.under_triton(add_kernel, name="triton_vector_add")
    if module is None:
        return None
    kernel = module.add_kernel

    def run(x, y):
        output = torch.empty_like(x)
        n = output.numel()
        kernel[lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)](x, y, output, n,
                                                                   BLOCK_SIZE=1024)
        return output
    return run


def check(on_gpu: bool):
    size = 98432
    rng = np.random.default_rng()
    x_np = rng.random(size, dtype=np.float32)
    y_np = rng.random(size, dtype=np.float32)
    if on_gpu:
        x, y = torch.from_numpy(x_np).cuda(), torch.from_numpy(y_np).cuda()
        output_terrazzo = add(x, y)
        output_torch = x + y
        torch.cuda.synchronize()
        diff = torch.max(torch.abs(output_torch - output_terrazzo)).item()
        print(f"GPU: max difference between torch and terrazzo is {diff}")
        assert torch.equal(output_torch, output_terrazzo)
    else:
        output = add(x_np, y_np)
        ref = x_np.astype(np.float64) + y_np.astype(np.float64)
        diff = float(np.max(np.abs(output - ref)))
        print(f"interpreter: max difference from the float64 NumPy reference is {diff:.3g}")
        np.testing.assert_allclose(output, ref, rtol=1e-6)
    print("The results match.")


def show_generated_code():
    x = np.zeros(16, np.float32)
    if extension() is not None:
        ptx = add_kernel.compile(x, x, x, 98432, BLOCK_SIZE=1024, stage="ptx")
        print("PTX generated for add_kernel (target cuda:90, 4 warps):\n")
        print(ptx)
    else:
        print("terrazzo._C is not built; the tile IR the frontend generates:\n")
        print(add_kernel.ir(x, x, x, 98432, BLOCK_SIZE=1024))


# %%
# Benchmark
# ---------
#
# Bandwidth in GB/s (three vectors of float32 move through memory) for sizes
# from 2^12 to 2^28 elements, against torch and, when installed, Triton.

def bench(on_gpu: bool, save_path: str):
    if not on_gpu:
        print("No GPU: timing the interpreter against NumPy on the CPU (small sizes).")
        providers = [("terrazzo (interpreter)", lambda x, y: add(x, y)),
                     ("numpy", lambda x, y: x + y)]
        sizes = [2 ** i for i in range(12, 19, 2)]
        make = lambda n: (np.random.rand(n).astype(np.float32),
                          np.random.rand(n).astype(np.float32))
    else:
        providers = [("terrazzo", add), ("torch", lambda x, y: x + y)]
        t = triton_add()
        if t is not None:
            providers.append(("triton", t))
        sizes = [2 ** i for i in range(12, 29)]
        make = lambda n: (torch.rand(n, device="cuda"), torch.rand(n, device="cuda"))

    @triton.testing.perf_report(triton.testing.Benchmark(
        x_names=["size"], x_vals=sizes, line_arg="provider",
        line_vals=[name for name, _ in providers], line_names=[name for name, _ in providers],
        plot_name="vector-add-performance (GB/s)", args={}))
    def benchmark(size, provider):
        x, y = make(size)
        fn = dict(providers)[provider]
        ms = triton.testing.do_bench(lambda: fn(x, y), warmup=5 if not on_gpu else 25,
                                     rep=20 if not on_gpu else 100)
        return 3 * x.nbytes * 1e-9 / (ms * 1e-3) if hasattr(x, "nbytes") else \
            3 * x.numel() * x.element_size() * 1e-9 / (ms * 1e-3)

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
