"""A grouped GEMM written as Triton's tutorial 08 writes its TMA form:
each problem's addresses, sizes and row strides are loaded from memory in
the kernel and its tensor descriptors are made there, with no alignment
hints. The compiler cannot know those descriptors aligned; on the H100
Terrazzo versions the code using them on a check made at run time (TMA
where the bases and row strides are whole 16 bytes, pointer loads where
not: terrazzo-lower-tensor-descriptors). This script checks both paths
(aligned problems, and problems whose A rows are one element longer than
K, which are not) against float64 and times the kernel, beside the same
source under Triton, tutorial 08's TMA form (whose alignment the launcher
checks and the kernel states with tl.multiple_of), the same kernel with
alignment hints (terrazzo-aligned: no alignment check, no pointer version)
or also clamped coordinates (terrazzo-hinted: no check at all), and a loop of
torch.matmul calls.

    PYTHONPATH=<built terrazzo> python3 bench/grouped_gemm_loaded_strides.py \\
        [--lists mixed 4096^3] [--rounds 3] [--dtype float16]

Median TFLOP/s of the rounds (each a do_bench median, L2 flushed)."""
import argparse
import os
import statistics
import sys

import terrazzo as triton
import terrazzo.language as tl

try:
    import torch
except ImportError:  # the kernel compiles without it (the tests do)
    torch = None

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from loading import load_tutorial  # noqa: E402


@triton.jit
def grouped_gemm_loaded_kernel(addresses, sizes, strides, count, DTYPE: tl.constexpr,
                               PROGRAMS: tl.constexpr, BLOCK_M: tl.constexpr,
                               BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                               HINTED: tl.constexpr = 0):
    # Problem g: C_g (M x N) = A_g (M x K) @ B_g (K x N), all row-major with
    # row strides lda, ldb, ldc, at the addresses 3g, 3g + 1 and 3g + 2 of
    # `addresses`. The tiles of all problems are numbered one after the
    # other; program p takes tiles p, p + PROGRAMS, ... HINTED states
    # what Triton's tutorial does not: 1, that the addresses, row strides
    # and N are whole 16 bytes (tl.multiple_of: no alignment check, no
    # second version, the stores' check of their coordinates kept); 2,
    # also that the tile coordinates are not negative (tl.maximum with 0:
    # no check at all). References for the checked code, for aligned
    # problems only.
    pid = tl.program_id(0)
    before = 0  # tiles of the problems before g
    for g in range(count):
        m = tl.load(sizes + 3 * g)
        n = tl.load(sizes + 3 * g + 1)
        k = tl.load(sizes + 3 * g + 2)
        tiles_n = tl.cdiv(n, BLOCK_N)
        end = before + tl.cdiv(m, BLOCK_M) * tiles_n
        # This program's first tile at or after `before`.
        first = before + (pid - before % PROGRAMS + PROGRAMS) % PROGRAMS
        if first < end:
            lda = tl.load(strides + 3 * g)
            ldb = tl.load(strides + 3 * g + 1)
            ldc = tl.load(strides + 3 * g + 2)
            a_base = tl.load(addresses + 3 * g).to(tl.pointer_type(DTYPE))
            b_base = tl.load(addresses + 3 * g + 1).to(tl.pointer_type(DTYPE))
            c_base = tl.load(addresses + 3 * g + 2).to(tl.pointer_type(DTYPE))
            if HINTED:
                n = tl.multiple_of(n, 8)
                lda = tl.multiple_of(lda, 8)
                ldb = tl.multiple_of(ldb, 8)
                ldc = tl.multiple_of(ldc, 8)
                a_base = tl.multiple_of(a_base, 16)
                b_base = tl.multiple_of(b_base, 16)
                c_base = tl.multiple_of(c_base, 16)
            a_desc = tl.make_tensor_descriptor(a_base, shape=[m, k], strides=[lda, 1],
                                               block_shape=[BLOCK_M, BLOCK_K])
            b_desc = tl.make_tensor_descriptor(b_base, shape=[k, n], strides=[ldb, 1],
                                               block_shape=[BLOCK_K, BLOCK_N])
            c_desc = tl.make_tensor_descriptor(c_base, shape=[m, n], strides=[ldc, 1],
                                               block_shape=[BLOCK_M, BLOCK_N])
            for t in range(first, end, PROGRAMS):
                row = (t - before) // tiles_n * BLOCK_M
                column = (t - before) % tiles_n * BLOCK_N
                if HINTED == 2:  # not negative (TMA stores need that known)
                    row = tl.maximum(row, 0)
                    column = tl.maximum(column, 0)
                accumulator = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
                for kk in range(0, tl.cdiv(k, BLOCK_K)):
                    accumulator = tl.dot(a_desc.load([row, kk * BLOCK_K]),
                                         b_desc.load([kk * BLOCK_K, column]), accumulator)
                c_desc.store([row, column], accumulator.to(DTYPE))
        before = end


CONFIG = dict(BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, num_warps=8, num_stages=4)


def problems(shapes, dtype, aligned=True):
    """Fresh random A, B and C per shape; unaligned: A's rows one element
    longer than K (a view into a wider matrix), so that its row stride is
    not a whole 16 bytes."""
    out = []
    for m, n, k in shapes:
        wide = torch.randn((m, k + (0 if aligned else 1)), device="cuda", dtype=dtype)
        out.append((wide[:, :k], torch.randn((k, n), device="cuda", dtype=dtype),
                    torch.empty((m, n), device="cuda", dtype=dtype)))
    return out


class Grouped:
    """The kernel (compiled by `lib`: Terrazzo, or Triton for the same
    source) over a list of (A, B, C) problems, its tables made once."""

    def __init__(self, lib, kernel, triples, hinted=0):
        self.lib, self.kernel, self.triples, self.hinted = lib, kernel, triples, hinted
        flat = [t for triple in triples for t in triple]
        self.addresses = torch.tensor([t.data_ptr() for t in flat], device="cuda",
                                      dtype=torch.int64)
        self.sizes = torch.tensor([d for a, b, _ in triples
                                   for d in (a.shape[0], b.shape[1], a.shape[1])],
                                  device="cuda", dtype=torch.int32)
        self.strides = torch.tensor([t.stride(0) for t in flat], device="cuda",
                                    dtype=torch.int32)
        self.programs = torch.cuda.get_device_properties(0).multi_processor_count
        # The compiler's own dtype object (Triton checks its type).
        self.dtype = getattr(lib.language, str(triples[0][0].dtype)[len("torch."):])

    def __call__(self):
        self.kernel[(self.programs,)](self.addresses, self.sizes, self.strides,
                                      len(self.triples), DTYPE=self.dtype,
                                      PROGRAMS=self.programs, HINTED=self.hinted, **CONFIG)
        return [c for _, _, c in self.triples]


def triton_kernel():
    """The same source under Triton (None without Triton); Triton builds
    device-made tensor maps in memory its allocator gives."""
    module = triton.testing.under_triton(grouped_gemm_loaded_kernel,
                                         name="triton_grouped_loaded")
    if module is None:
        return None, None
    import triton as real
    real.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8,
                                                               device="cuda"))
    return real, module.grouped_gemm_loaded_kernel


def main():
    t08 = load_tutorial("08-grouped-gemm.py")
    lists = {"mixed": t08.MIXED_SIZES, "4096^3": [(4096, 4096, 4096)]}
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lists", nargs="+", default=list(lists), choices=list(lists))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--dtype", default="float16", choices=["float16", "bfloat16"])
    args = parser.parse_args()
    dtype = getattr(torch, args.dtype)
    real, triton_version = triton_kernel()
    for name in args.lists:
        shapes = lists[name]
        flops = sum(2 * m * n * k for m, n, k in shapes)
        triples = problems(shapes, dtype)
        runs = {"terrazzo": Grouped(triton, grouped_gemm_loaded_kernel, triples)}
        # The pointer path: A's rows not a whole 16 bytes.
        unaligned = problems(shapes, dtype, aligned=False)
        runs["terrazzo-unaligned"] = Grouped(triton, grouped_gemm_loaded_kernel, unaligned)
        runs["terrazzo-aligned"] = Grouped(triton, grouped_gemm_loaded_kernel,
                                           problems(shapes, dtype), hinted=1)
        runs["terrazzo-hinted"] = Grouped(triton, grouped_gemm_loaded_kernel,
                                          problems(shapes, dtype), hinted=2)
        if triton_version is not None:
            runs["triton"] = Grouped(real, triton_version, problems(shapes, dtype))
        a_list = [a.contiguous() for a, _, _ in triples]
        b_list = [b for _, b, _ in triples]
        hinted = t08.GroupedMatmul(a_list, b_list, kernel=t08.grouped_matmul_tma_kernel,
                                   configs=[t08.grouped_configs()[0]])
        runs["tutorial-08-tma"] = hinted
        runs["torch-loop"] = lambda: [a @ b for a, b in zip(a_list, b_list)]
        for label, run in runs.items():
            if isinstance(run, Grouped):
                run()
                torch.cuda.synchronize()
                worst = max(t08.relative_errors(*zip(*run.triples)))
                assert worst < 1e-2, (label, worst)
        assert max(t08.relative_errors(a_list, b_list, hinted())) < 1e-2
        times = {label: [] for label in runs}
        for _ in range(args.rounds):
            for label, run in runs.items():
                ms = triton.testing.do_bench(run, warmup=25, rep=100, return_mode="median")
                times[label].append(flops / ms / 1e9)
        print(f"{name} ({args.dtype}, TFLOP/s, median of {args.rounds} rounds):")
        for label, values in times.items():
            print(f"  {label:20s} {statistics.median(values):7.1f}   "
                  f"{', '.join(f'{v:.1f}' for v in values)}")


if __name__ == "__main__":
    main()
