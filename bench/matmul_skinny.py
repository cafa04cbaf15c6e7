"""Skinny matrix products (the decode GEMMs of LLM serving: M = 1 to 128
rows of activations against N x K weights, N and K 4096 to 16384) by
split-K: TFLOP/s and GB/s of Terrazzo, torch.matmul (cuBLAS) and the same
kernels under Triton, in one run.

    PYTHONPATH=<built terrazzo> python3 bench/matmul_skinny.py \\
        [--ms 1 16 64 128] [--nks 4096 8192 16384] [--dtype bfloat16] [--rounds 3] \\
        [--b-layouts kn nk] [--kernels]

With few rows, C has few tiles (M = 16, N = 8192, 128-column tiles: 64
tiles for 132 SMs), and each tile walks all of K: most SMs idle and the
product runs at a fraction of the memory bandwidth, which bounds it (B is
read once: 2 N K bytes). Split-K gives each tile SPLIT_K programs, each
summing one K range into a float32 partial result; a second kernel adds
the SPLIT_K partials in a fixed order (the result does not depend on
timing) and writes C. SPLIT_K = 1 is the plain tiled kernel (one launch).
The block shape and SPLIT_K are chosen per shape by timing a few
candidates (`SkinnyMatmul.tune`), for Terrazzo and Triton alike, each on
its own kernels. Inputs are fresh torch.randn data per provider, checked
against a float64 product (relative Frobenius error < 1e-2); times are
triton.testing.do_bench medians with the L2 flushed before every call.

Two forms of the same product run side by side: pointer loads (cp.async
rings, tutorial 03's K loop) and tensor descriptors (`splitk_tma_kernel`:
TMA copies on the H100, optionally a producer warp group), each tuned over
its own configurations. `--b-layouts nk` times B as the transpose of a
row-major N x K matrix, the layout of a torch.nn.Linear weight (C = A W^T).
"""

import argparse
import itertools
import statistics
import sys

import os

import terrazzo as triton
import terrazzo.language as tl

try:
    import torch
except ImportError:  # the kernels compile without it (the tests do)
    torch = None

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kernel_trace import describe, kernel_times  # noqa: E402
from loading import load_tutorial  # noqa: E402

# Tutorial 03's K loop, as tutorial 09 keeps it.
accumulate_k_blocks = load_tutorial("09-persistent-matmul.py").accumulate_k_blocks


@triton.jit
def split_k_range(K, BLOCK_SIZE_K: tl.constexpr, SPLIT_K: tl.constexpr):
    # The K blocks [first, end) of this program's split, the
    # program_id(2)-th of SPLIT_K equal ranges.
    k_blocks = tl.cdiv(K, BLOCK_SIZE_K)
    per_split = tl.cdiv(k_blocks, SPLIT_K)
    k_first = tl.program_id(2) * per_split
    return k_first, tl.minimum(k_first + per_split, k_blocks)


@triton.jit
def store_split(accumulator, c_ptr, partial_ptr, offs_m, offs_n, M, N, stride_cm, stride_cn,
                SPLIT_K: tl.constexpr):
    # Without split-K, the tile of C; else this split's partial result:
    # SPLIT_K row-major M x N float32 matrices.
    in_c = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    if SPLIT_K == 1:
        c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
        tl.store(c_ptrs, accumulator.to(c_ptr.dtype.element_ty), mask=in_c)
    else:
        p_ptrs = partial_ptr + tl.program_id(2) * M * N + offs_m[:, None] * N + offs_n[None, :]
        tl.store(p_ptrs, accumulator, mask=in_c)


@triton.jit
def splitk_matmul_kernel(a_ptr, b_ptr, c_ptr, partial_ptr, M, N, K,
                         stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                         BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                         BLOCK_SIZE_K: tl.constexpr, SPLIT_K: tl.constexpr):
    # Program (m, n, s): the BLOCK_SIZE_M x BLOCK_SIZE_N tile (m, n) of C
    # over the s-th of SPLIT_K equal ranges of K's blocks. The M blocks of
    # one column of tiles are neighbours, so that B's blocks, which they
    # share, are read from memory once and then from the L2 cache.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    k_first, k_end = split_k_range(K, BLOCK_SIZE_K, SPLIT_K)
    offs_m = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_n = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    # Rows past M and columns past N are wrapped (never stored).
    a_ptrs = a_ptr + (offs_m % M)[:, None] * stride_am + \
        (k_first * BLOCK_SIZE_K + offs_k)[None, :] * stride_ak
    b_ptrs = b_ptr + (k_first * BLOCK_SIZE_K + offs_k)[:, None] * stride_bk + \
        (offs_n % N)[None, :] * stride_bn
    accumulator = accumulate_k_blocks(a_ptrs, b_ptrs, offs_k, k_first, k_end, K, stride_ak,
                                      stride_bk, BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K)
    store_split(accumulator, c_ptr, partial_ptr, offs_m, offs_n, M, N, stride_cm, stride_cn,
                SPLIT_K)


@triton.jit
def splitk_reduce_kernel(partial_ptr, c_ptr, M, N, stride_cm, stride_cn,
                         SPLIT_K: tl.constexpr, BLOCK: tl.constexpr):
    # Row m, columns n.. n + BLOCK of C = the sum of the SPLIT_K partial
    # results, in order 0, 1, ...
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    inside = cols < N
    total = tl.zeros((BLOCK,), dtype=tl.float32)
    for s in tl.static_range(SPLIT_K):
        total += tl.load(partial_ptr + (s * M + row) * N + cols, mask=inside, other=0.0)
    tl.store(c_ptr + row * stride_cm + cols * stride_cn, total.to(c_ptr.dtype.element_ty),
             mask=inside)


@triton.jit
def splitk_tma_kernel(a_ptr, b_ptr, c_ptr, partial_ptr, M, N, K,
                      BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                      BLOCK_SIZE_K: tl.constexpr, SPLIT_K: tl.constexpr,
                      B_NK: tl.constexpr, WARP_SPECIALIZE: tl.constexpr,
                      SWAP_AB: tl.constexpr = False):
    # splitk_matmul_kernel's program (m, n, s) with A and B read through
    # tensor descriptors (TMA on the H100: the copies of a block are one
    # instruction, the edges are the descriptor's), A row-major and B K x N
    # row-major or, with B_NK, the transpose of a row-major N x K matrix;
    # with WARP_SPECIALIZE a producer warp group issues the copies. With
    # SWAP_AB the program computes the transpose of its tile, B^T A^T:
    # BLOCK_SIZE_N rows of the product for the tensor cores' M (wgmma's 64
    # rows) and A's few rows for their N (as few as 8), transposed back
    # for the store.
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1],
                                       block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_K])
    if B_NK:
        b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1],
                                           block_shape=[BLOCK_SIZE_N, BLOCK_SIZE_K])
    else:
        b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1],
                                           block_shape=[BLOCK_SIZE_K, BLOCK_SIZE_N])
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    k_first, k_end = split_k_range(K, BLOCK_SIZE_K, SPLIT_K)
    if SWAP_AB:
        transposed = tl.zeros((BLOCK_SIZE_N, BLOCK_SIZE_M), dtype=tl.float32)
    else:
        accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in tl.range(k_first, k_end, warp_specialize=WARP_SPECIALIZE):
        a = a_desc.load([pid_m * BLOCK_SIZE_M, k * BLOCK_SIZE_K])
        if B_NK:
            b = b_desc.load([pid_n * BLOCK_SIZE_N, k * BLOCK_SIZE_K]).T
        else:
            b = b_desc.load([k * BLOCK_SIZE_K, pid_n * BLOCK_SIZE_N])
        if SWAP_AB:
            transposed = tl.dot(b.T, a.T, transposed)
        else:
            accumulator = tl.dot(a, b, accumulator)
    if SWAP_AB:
        accumulator = transposed.T
    offs_m = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_n = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    store_split(accumulator, c_ptr, partial_ptr, offs_m, offs_n, M, N, N, 1, SPLIT_K)


# Shared memory a configuration's ring may take (of the H100's 227 KiB per
# program, leaving room for the compiler's own scratch): the pointer
# kernel's and a warp-specialized one's, and the tensor-descriptor
# kernel's without a producer warp group, whose epilogue reuses the ring
# (a producer's ring lives as long as the kernel). Deeper rings won at
# M = 128 on the H200 (bench/matmul_skinny_sweep.py --tma, RESULTS.md
# session 38).
RING_BYTES = 200 * 1024
TMA_RING_BYTES = 220 * 1024


def block_m(M):
    """The smallest tensor-core-friendly M block that covers M rows."""
    return 16 if M <= 16 else 32 if M <= 32 else 64 if M <= 64 else 128


def block_ms(M):
    """The M blocks tried for M rows: `block_m(M)`, and where that is 128,
    also 64: two programs per column of C, whose B blocks are the same
    (read from memory once, then from L2) and whose A blocks are half as
    many bytes per program (on the H200, 64 x 128 blocks beat 128 x 64 at
    M = 128: RESULTS.md session 38)."""
    bm = block_m(M)
    return (bm, 64) if bm == 128 else (bm,)


def deepest_ring(bm, bn, bk, ring_bytes=RING_BYTES, most=6):
    """The stages (up to `most`) of bm x bk and bk x bn 16-bit blocks that
    fit in `ring_bytes`."""
    return min(most, ring_bytes // ((bm * bk + bk * bn) * 2))


def candidates(M):
    """(BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K, SPLIT_K, num_stages,
    num_warps) tried for M rows: `block_m(M)` rows, N blocks of 64 or 128
    columns, SPLIT_K from 1 to 8 at a few stages; then, without split-K,
    rings as deep as RING_BYTES allows (`deepest_ring`) of 64- and 128-deep
    K blocks (for 128 rows also in 64-row blocks, `block_ms`). With so
    few rows B's stream from memory bounds the product, and the deep rings
    keep more of it in flight (on the H100 they win at M = 64 and 128, N =
    K = 8192: bench/RESULTS.md)."""
    bm = block_m(M)
    bk = 128 if bm <= 32 else 64
    warps = 8 if bm == 128 else 4
    configs = [(bm, bn, bk, split, 4 if bm < 128 else 3, warps)
               for bn in (64, 128) for split in (1, 2, 4, 8)]
    for m, bn, deep_bk in itertools.product(block_ms(M), (64, 128), (64, 128)):
        stages = deepest_ring(m, bn, deep_bk)
        for deep_warps in ((4, 8) if m == 128 else (4,)):
            config = (m, bn, deep_bk, 1, stages, deep_warps)
            if config not in configs:
                configs.append(config)
    return configs


def tma_candidates(M):
    """Configurations of splitk_tma_kernel for M rows: (BLOCK_SIZE_M,
    BLOCK_SIZE_N, BLOCK_SIZE_K, SPLIT_K, num_stages, num_warps,
    WARP_SPECIALIZE, SWAP_AB): `block_ms(M)` rows, 64 or 128 columns and K
    steps, SPLIT_K 1 or 2, rings as deep as TMA_RING_BYTES allows
    (`deepest_ring`, up to 12 stages), and a producer warp group where the
    product is on wgmma with a ring of RING_BYTES: 64 rows and more, or
    with fewer rows the product transposed (SWAP_AB, A's rows wgmma's N)."""
    configs = []
    for bm, bn, bk, split in itertools.product(block_ms(M), (64, 128), (64, 128), (1, 2)):
        warps = 8 if bm == 128 else 4
        configs.append((bm, bn, bk, split, deepest_ring(bm, bn, bk, TMA_RING_BYTES, 12), warps,
                        False, False))
        configs.append((bm, bn, bk, split, deepest_ring(bm, bn, bk, RING_BYTES, 12), warps,
                        True, bm < 64))
    return configs


def relative_error(got, want):
    """The relative Frobenius error of `got` against `want` (NaN stays NaN)."""
    return ((got.double() - want.double()).norm() / want.double().norm()).item()


class SkinnyMatmul:
    """C = A @ B for a short A (M x K) and a row-major B (K x N), by the two
    kernels above compiled by `lib` (Terrazzo, or Triton for the same
    source); tuned per (M, N, K, dtype) at the first call."""

    def __init__(self, lib=triton, matmul_kernel=None, reduce_kernel=None, tma_kernel=None,
                 tma=False):
        self.lib = lib
        self.tma = tma
        self.matmul_kernel = (tma_kernel or splitk_tma_kernel) if tma else \
            (matmul_kernel or splitk_matmul_kernel)
        self.reduce_kernel = reduce_kernel or splitk_reduce_kernel
        self.best = {}

    def configs(self, M):
        return tma_candidates(M) if self.tma else candidates(M)

    def run(self, a, b, config, out=None):
        """C = A @ B under `config`, written into `out` if given."""
        bm, bn, bk, split, stages, warps = config[:6]
        M, K = a.shape
        N = b.shape[1]
        c = torch.empty((M, N), device=a.device, dtype=a.dtype) if out is None else out
        partial = c if split == 1 else torch.empty((split, M, N), device=a.device,
                                                   dtype=torch.float32)
        grid = (self.lib.cdiv(M, bm), self.lib.cdiv(N, bn), split)
        if self.tma:
            b_nk = b.stride(0) == 1
            assert a.is_contiguous() and (b_nk and b.t().is_contiguous() or b.is_contiguous())
            self.matmul_kernel[grid](a, b.t() if b_nk else b, c, partial, M, N, K,
                                     BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk,
                                     SPLIT_K=split, B_NK=b_nk, WARP_SPECIALIZE=config[6],
                                     SWAP_AB=config[7],
                                     num_stages=stages, num_warps=warps)
        else:
            self.matmul_kernel[grid](a, b, c, partial, M, N, K, a.stride(0), a.stride(1),
                                     b.stride(0), b.stride(1), c.stride(0), c.stride(1),
                                     BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk,
                                     SPLIT_K=split, num_stages=stages, num_warps=warps)
        if split > 1:
            block = 1024
            self.reduce_kernel[(M, self.lib.cdiv(N, block))](
                partial, c, M, N, c.stride(0), c.stride(1), SPLIT_K=split, BLOCK=block,
                num_warps=4)
        return c

    def tune(self, a, b):
        key = (a.shape[0], b.shape[1], a.shape[1], a.dtype, b.stride())
        if key not in self.best:
            timed = []
            want = a.float() @ b.float()
            for config in self.configs(a.shape[0]):
                try:
                    # A configuration whose result is wrong is left out
                    # (said on stderr): Triton 3.6 returns NaN for the
                    # warp-specialized transposed product (SWAP_AB).
                    err = relative_error(self.run(a, b, config), want)
                    if not err < 1e-2:
                        print(f"# {self.lib.__name__}: {config} left out, relative error "
                              f"{err:.1e}", file=sys.stderr)
                        continue
                    ms = triton.testing.do_bench(lambda: self.run(a, b, config), warmup=5,
                                                 rep=25, return_mode="median")
                except Exception as error:
                    # A configuration this compiler cannot fit in shared
                    # memory (Triton's allocation differs from Terrazzo's).
                    if "OutOfResources" not in type(error).__name__:
                        raise
                    continue
                timed.append((ms, config))
            self.best[key] = min(timed)[1]
        return self.best[key]

    def __call__(self, a, b):
        assert a.shape[1] == b.shape[0], "incompatible dimensions"
        return self.run(a, b, self.tune(a, b))


def triton_skinny(tma=False):
    module = triton.testing.under_triton(accumulate_k_blocks, split_k_range, store_split,
                                         splitk_matmul_kernel, splitk_tma_kernel,
                                         splitk_reduce_kernel,
                                         name="triton_skinny_matmul")
    if module is None:
        return None
    import triton as real
    # Triton builds the tensor maps of device-side descriptors in memory
    # the caller gives.
    real.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8,
                                                               device="cuda"))
    return SkinnyMatmul(real, module.splitk_matmul_kernel, module.splitk_reduce_kernel,
                        module.splitk_tma_kernel, tma=tma)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ms", type=int, nargs="*", default=[1, 16, 64, 128])
    parser.add_argument("--nks", type=int, nargs="*", default=[4096, 8192, 16384],
                        help="N = K values")
    parser.add_argument("--dtype", default="bfloat16", choices=["bfloat16", "float16"])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--b-layouts", nargs="*", default=["kn"], choices=["kn", "nk"],
                        help="B stored K x N row-major (kn), or as the transpose of an N x K "
                             "row-major matrix (nk: a torch.nn.Linear weight, C = A W^T)")
    parser.add_argument("--kernels", action="store_true",
                        help="also print each provider's kernels as the CUDA profiler sees "
                             "them (time, grid, block, registers, shared memory, name): "
                             "cuBLAS's choices beside the tuned configurations")
    args = parser.parse_args(argv)
    dtype = getattr(torch, args.dtype)
    providers = {"terrazzo": SkinnyMatmul(), "terrazzo tma": SkinnyMatmul(tma=True),
                 "torch": torch.matmul}
    for tma in (False, True):
        found = triton_skinny(tma)
        if found is not None:
            providers["triton tma" if tma else "triton"] = found
    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}, {args.dtype}")
    rows, failed = [], False
    for layout, nk, m in ((layout, nk, m) for layout in args.b_layouts for nk in args.nks
                          for m in args.ms):
        inputs, times = {}, {name: [] for name in providers}
        for name, fn in providers.items():
            a = torch.randn(m, nk, device="cuda", dtype=dtype)
            b = torch.randn(nk, nk, device="cuda", dtype=dtype)
            if layout == "nk":
                b = b.t()
            want = a.double() @ b.double()
            err = relative_error(fn(a, b), want)
            failed |= not err < 1e-2
            inputs[name] = (a, b, err)
        for _ in range(args.rounds):
            for name, fn in providers.items():
                a, b, _ = inputs[name]
                times[name].append(triton.testing.do_bench(
                    lambda: fn(a, b), warmup=25, rep=100, return_mode="median"))
        if args.kernels:
            for name, fn in providers.items():
                a, b, _ = inputs[name]
                for line in describe(kernel_times(torch, lambda: fn(a, b), 20)):
                    print(f"{layout} M={m} N=K={nk} {name}: {line}", flush=True)
        base = statistics.median(times["torch"])
        for name, fn in providers.items():
            ms = statistics.median(times[name])
            flops = 2.0 * m * nk * nk
            moved = (m * nk + nk * nk + m * nk) * torch.finfo(dtype).bits // 8
            config = ""
            if isinstance(fn, SkinnyMatmul):
                config = str(fn.best.get((m, nk, nk, dtype, inputs[name][1].stride())))
            rows.append((layout, m, nk, name, ms * 1e3, flops / (ms * 1e-3) * 1e-12,
                         moved / (ms * 1e-3) * 1e-9, base / ms, inputs[name][2], config))
        inputs.clear()
        torch.cuda.empty_cache()
    print(f"\nmedian of {args.rounds} rounds of do_bench medians (L2 flushed before each "
          "call); GB/s counts A, B and C once\n")
    print("| B | M | N = K | provider | us | TFLOP/s | GB/s | x torch | rel err | config "
          "(BM, BN, BK, SPLIT_K, stages, warps) |")
    print("|---|---:|---:|---|---:|---:|---:|---:|---:|---|")
    for layout, m, nk, name, us, tflops, gbs, speedup, err, config in rows:
        print(f"| {layout} | {m} | {nk} | {name} | {us:.1f} | {tflops:.1f} | {gbs:.0f} "
              f"| {speedup:.2f} | {err:.1e}{'' if err < 1e-2 else ' WRONG'} | {config} |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
