"""
Low-Memory Dropout
==================

Dropout zeroes each element of its input with probability p and scales the
survivors by 1 / (1 - p), so that the expected value stays the same. The
usual implementation draws a mask on the host, keeps it in memory for the
backward pass, and reads it back: one extra byte (or word) per element, in
both directions. This tutorial writes that version first, then a version
whose mask is never stored: each element's random number is a function of
a seed and the element's index, so any kernel that knows the seed can
recompute the same mask. You will learn about:

* generating random numbers in a kernel with `tl.rand(seed, offsets)`;
* why counter-based generators (Philox) fit GPUs: there is no state to
  carry from one program instance to the next.

Run it:

    python tutorials/04-low-memory-dropout.py          # check (and show a small example)
    python tutorials/04-low-memory-dropout.py --bench  # GB/s against torch
                                                       # and its plot: bench-results/*.png, *.csv

On a machine with an NVIDIA GPU and PyTorch the kernels run on the GPU.
Without one they run in Terrazzo's interpreter (NumPy on the CPU, the same
random numbers bit for bit).
"""

import argparse
import os

import numpy as np

import terrazzo as triton
import terrazzo.language as tl
from terrazzo.testing import gpu_available

try:
    import torch
except ImportError:
    torch = None


# %%
# Dropout with a stored mask
# --------------------------
#
# The mask `x_keep` (1: keep, 0: drop) comes from memory, like x.

@triton.jit
def _dropout(x_ptr,  # the input
             x_keep_ptr,  # the mask: 1 where the element is kept
             output_ptr,
             n_elements,
             p,  # the probability of dropping an element
             BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    x_keep = tl.load(x_keep_ptr + offsets, mask=mask)
    # Kept elements are scaled so that the output's mean is the input's.
    output = tl.where(x_keep != 0, x / (1 - p), 0.0)
    tl.store(output_ptr + offsets, output, mask=mask)


# %%
# Seeded dropout
# --------------
#
# `tl.rand(seed, offsets)` gives a block of float32 uniform in [0, 1), one
# for each offset. The numbers come from Philox (Salmon et al., "Parallel
# random numbers: as easy as 1, 2, 3", SC 2011): the offset is the counter,
# the seed is the key, and ten rounds of multiplications mix them. The same
# seed and offset always give the same number, in any program instance, on
# the GPU and in the interpreter alike. So the mask needs no memory: the
# backward pass recomputes it from the seed.

@triton.jit
def _seeded_dropout(x_ptr,
                    output_ptr,
                    n_elements,
                    p,
                    seed,  # one integer names the whole mask
                    BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    # One uniform number per element: drop it with probability p.
    random = tl.rand(seed, offsets)
    x_keep = random > p
    output = tl.where(x_keep, x / (1 - p), 0.0)
    tl.store(output_ptr + offsets, output, mask=mask)


def _empty_like(x):
    return torch.empty_like(x) if torch is not None and isinstance(x, torch.Tensor) \
        else np.empty_like(x)


def _numel(x):
    return x.numel() if hasattr(x, "numel") else x.size


def dropout(x, x_keep, p):
    output = _empty_like(x)
    n_elements = _numel(x)
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
    _dropout[grid](x, x_keep, output, n_elements, p, BLOCK_SIZE=1024)
    return output


def seeded_dropout(x, p, seed):
    output = _empty_like(x)
    n_elements = _numel(x)
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
    _seeded_dropout[grid](x, output, n_elements, p, seed, BLOCK_SIZE=1024)
    return output


def _to_numpy(x):
    return x.cpu().numpy() if torch is not None and isinstance(x, torch.Tensor) else x


def _print_rows(rows):
    width = max(len(name) for name, _ in rows)
    for name, values in rows:
        print(f"{name:<{width}}  " + " ".join(f"{v:7.3f}" for v in values))


# %%
# Checks
# ------
#
# The stored-mask version against NumPy; the seeded version: the same seed
# gives the same mask, another seed another one, about a fraction 1 - p of
# the elements survive, and each survivor is x / (1 - p).

def check(on_gpu: bool):
    rng = np.random.default_rng()
    p = 0.5
    size = 100003  # not a multiple of the block: the last program is masked
    # Normal inputs are never exactly 0, so the output shows the mask.
    x_np = rng.standard_normal(size).astype(np.float32)
    keep_np = (rng.random(size) > p).astype(np.int32)
    if on_gpu:
        x, keep = torch.from_numpy(x_np).cuda(), torch.from_numpy(keep_np).cuda()
    else:
        x, keep = x_np, keep_np

    # A small example first.
    small = x[:10]
    _print_rows([("input", _to_numpy(small)), ("keep mask", keep_np[:10]),
                 ("output", _to_numpy(dropout(small, keep[:10], p)))])

    ref = np.where(keep_np != 0, x_np.astype(np.float64) / (1 - p), 0.0)
    out = _to_numpy(dropout(x, keep, p))
    np.testing.assert_allclose(out, ref, rtol=1e-6)

    _print_rows([("input", _to_numpy(small)),
                 ("output (seed = 123)", _to_numpy(seeded_dropout(small, p, 123))),
                 ("output (seed = 123)", _to_numpy(seeded_dropout(small, p, 123))),
                 ("output (seed = 512)", _to_numpy(seeded_dropout(small, p, 512)))])
    for p in (0.5, 0.1, 0.9):
        a = _to_numpy(seeded_dropout(x, p, 123))
        b = _to_numpy(seeded_dropout(x, p, 123))
        c = _to_numpy(seeded_dropout(x, p, 512))
        kept_a, kept_c = a != 0, c != 0
        # The same seed: the same mask and the same values.
        np.testing.assert_array_equal(a, b)
        # Another seed: another mask.
        assert (kept_a != kept_c).mean() > 0.5 * 2 * p * (1 - p)
        # About a fraction 1 - p survives (within 10 standard deviations).
        assert abs(kept_a.mean() - (1 - p)) < 10 * np.sqrt(p * (1 - p) / size)
        # Survivors are scaled by 1 / (1 - p); the others are 0.
        expected = x_np.astype(np.float64) / np.float32(1 - p)
        np.testing.assert_allclose(a[kept_a], expected[kept_a], rtol=1e-6)
        assert (a[~kept_a] == 0).all()
    where = "GPU" if on_gpu else "interpreter"
    print(f"{where}: the stored-mask dropout matches NumPy; the seeded dropout gives the "
          "same mask for the same seed and scales the kept values by 1/(1-p).")
    print("The results match.")


# %%
# Benchmark
# ---------
#
# Bandwidth in GB/s: the seeded kernel moves 8 bytes per element (x in,
# output out), the stored-mask kernel 12 (the int32 mask too), as does
# torch's dropout, which also writes its mask.

def bench(on_gpu: bool, save_path: str):
    p = 0.5
    if not on_gpu:
        print("No GPU: timing the interpreter against NumPy on the CPU (small sizes).")
        sizes = [2 ** i for i in range(12, 17, 2)]
        make = lambda n: np.random.default_rng(0).standard_normal(n).astype(np.float32)

        def numpy_dropout(x):
            keep = np.random.default_rng(1).random(x.size) > p
            return np.where(keep, x / (1 - p), 0).astype(np.float32)
        providers = [("terrazzo seeded (interpreter)", lambda x: seeded_dropout(x, p, 123)),
                     ("numpy", numpy_dropout)]
    else:
        sizes = [2 ** i for i in range(12, 28, 2)]
        make = lambda n: torch.randn(n, device="cuda")
        providers = [("terrazzo seeded", lambda x: seeded_dropout(x, p, 123)),
                     ("torch", lambda x: torch.nn.functional.dropout(x, p, training=True))]

    @triton.testing.perf_report(triton.testing.Benchmark(
        x_names=["size"], x_vals=sizes, line_arg="provider",
        line_vals=[name for name, _ in providers], line_names=[name for name, _ in providers],
        plot_name="low-memory-dropout (GB/s, 8 bytes per element)", args={}))
    def benchmark(size, provider):
        x = make(size)
        fn = dict(providers)[provider]
        ms = triton.testing.do_bench(lambda: fn(x), warmup=5 if not on_gpu else 25,
                                     rep=20 if not on_gpu else 100)
        return 8 * size * 1e-9 / (ms * 1e-3)

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
        # No GPU here: the same kernels run in the interpreter.
        os.environ["TERRAZZO_INTERPRET"] = "1"
    check(on_gpu)
    if args.bench:
        bench(on_gpu, args.save_path)


if __name__ == "__main__":
    main()
