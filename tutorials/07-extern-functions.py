"""
Device Library Functions (`tl.extra.libdevice`)
==============================================

A kernel can call functions of a device library that the language does not
define itself. On NVIDIA GPUs that library is libdevice, a bitcode file
shipped with CUDA that holds several hundred math functions (`__nv_asinf`,
`__nv_j0`, `__nv_fdiv_rd`, ...). In this tutorial you will learn:

* how to call them through `tl.extra.libdevice` (Triton's
  `triton.language.extra.libdevice`, under the same name);
* how one Python name covers several library functions: the arguments'
  types choose among them;
* where the library comes from, and how to point Terrazzo at another copy.

Run it:

    python tutorials/07-extern-functions.py

On a machine with an NVIDIA GPU and PyTorch the kernel runs on the GPU.
Without one it runs in Terrazzo's interpreter, which computes every
libdevice function with NumPy, and the script shows what the compiler makes
of the calls.
"""

import os

import numpy as np

import terrazzo as triton
import terrazzo.language as tl
from terrazzo.language.extra import libdevice
from terrazzo.testing import extension, gpu_available

try:
    import torch
except ImportError:
    torch = None


# %%
# An `asin` kernel
# ----------------
#
# `libdevice.asin` is an elementwise function like `tl.exp`: it takes a
# block (or a scalar) and returns a block of the same shape. Its table has
# two entries, float32 -> `__nv_asinf` and float64 -> `__nv_asin`; the type
# of `x` picks one when the kernel is compiled.

@triton.jit
def asin_kernel(x_ptr, y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    x = libdevice.asin(x)
    tl.store(y_ptr + offsets, x, mask=mask)


def asin(x):
    is_torch = torch is not None and isinstance(x, torch.Tensor)
    y = torch.empty_like(x) if is_torch else np.empty_like(x)
    n = y.numel() if hasattr(y, "numel") else y.size
    asin_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)](x, y, n, BLOCK_SIZE=1024)
    return y


def check(on_gpu: bool):
    size = 98432
    rng = np.random.default_rng()
    for dtype in (np.float32, np.float64):
        x_np = rng.uniform(-1, 1, size).astype(dtype)
        ref = np.arcsin(x_np.astype(np.float64))
        if on_gpu:
            x = torch.from_numpy(x_np).cuda()
            out = asin(x).cpu().numpy()
            where = "GPU"
        else:
            out = asin(x_np)
            where = "interpreter"
        diff = float(np.max(np.abs(out - ref)))
        print(f"{where}, {np.dtype(dtype).name}: max difference from NumPy's arcsin is "
              f"{diff:.3g}")
        # libdevice's asinf is within 4 ulp, asin within 2.
        np.testing.assert_allclose(out, ref, rtol=4 * np.finfo(dtype).eps, atol=0)
    print("The results match.")


# %%
# Choosing among a function's entries
# -----------------------------------
#
# Some functions have entries for different kinds of arguments. `pow` calls
# `__nv_powif` for an integer exponent and `__nv_powf` for a float one;
# arguments that match no entry are first converted to the type arithmetic
# on them would use (float32 and float64 give float64, `__nv_pow`). Types
# that match nothing even then, float16 for instance, are a compile error
# that names the function and the types it takes: convert them first.

@triton.jit
def pow_kernel(x_ptr, e_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)          # float32
    e = tl.load(e_ptr + offs)          # int32
    tl.store(out_ptr + offs, libdevice.pow(x, e))                  # __nv_powif
    tl.store(out_ptr + BLOCK + offs, libdevice.pow(x, 0.5))        # __nv_powf
    tl.store(out_ptr + 2 * BLOCK + offs,
             libdevice.pow(x, e.to(tl.float64)).to(tl.float32))   # __nv_pow


def show_dispatch():
    block = 64
    rng = np.random.default_rng()
    x = rng.uniform(0.5, 2, block).astype(np.float32)
    e = rng.integers(-3, 4, block).astype(np.int32)
    out = np.zeros(3 * block, np.float32)
    triton.jit(pow_kernel.fn, interpret=True)[(1,)](x, e, out, BLOCK=block)
    x64 = x.astype(np.float64)
    np.testing.assert_allclose(out[:block], x64 ** e, rtol=1e-6)
    np.testing.assert_allclose(out[block:2 * block], np.sqrt(x64), rtol=1e-6)
    np.testing.assert_allclose(out[2 * block:], x64 ** e, rtol=1e-6)
    ir = pow_kernel.ir(x, e, out, BLOCK=block)
    calls = [line.strip().split(" loc(")[0] for line in ir.splitlines()
             if "tile.extern_elementwise" in line]
    print("\nThe calls in pow_kernel's tile IR:")
    for call in calls:
        print("   ", call.split("= ", 1)[1])


# %%
# Where libdevice comes from
# --------------------------
#
# The compiler declares each function it calls and links libdevice into the
# kernel before generating PTX, so only the functions used end up in the
# binary. It looks for the library in `$TERRAZZO_LIBDEVICE` (a path to
# `libdevice.10.bc`), then under `$CUDA_HOME` or `$CUDA_PATH`
# (`nvvm/libdevice/libdevice.10.bc`), then in `/usr/local/cuda`. Set
# `TERRAZZO_LIBDEVICE` to use another copy; Triton's `extern_libs` launch
# option has the same purpose.

def show_generated_code():
    x = np.zeros(16, np.float32)
    if extension() is None:
        print("\nterrazzo._C is not built; the tile IR of asin_kernel:\n")
        print(asin_kernel.ir(x, x, 98432, BLOCK_SIZE=1024))
        return
    llvm = asin_kernel.compile(x, x, 98432, BLOCK_SIZE=1024, stage="llvm")
    print("\nIn the LLVM dialect, asin_kernel calls the declared libdevice function:")
    for line in llvm.splitlines():
        if "__nv_asinf" in line and ("llvm.func" in line or "llvm.call" in line):
            print("   ", line.strip().split(" loc(")[0])
            if "llvm.call" in line:
                break
    ptx = asin_kernel.compile(x, x, 98432, BLOCK_SIZE=1024, stage="ptx")
    assert ".extern .func" not in ptx  # linked in: nothing left to resolve
    print(f"The PTX ({len(ptx.splitlines())} lines) computes asinf inline: libdevice "
          f"was linked into the kernel.")


def main():
    on_gpu = gpu_available()
    if not on_gpu:
        os.environ["TERRAZZO_INTERPRET"] = "1"
    check(on_gpu)
    show_dispatch()
    if not on_gpu:
        show_generated_code()


if __name__ == "__main__":
    main()
