"""One round of the GPU measurements that compare two builds of Terrazzo
(two core libraries, or one under two settings): tutorial 08's grouped GEMM
(one configuration at a time, the mixed list and 4096^3, float16 and
bfloat16), tutorial 03's autotuned matmul (4096 and 8192, float16),
tutorial 09's persistent forms at one configuration (4096 and
8192, float16) and tutorial 06's attention forward (its default forms,
D = 64 and 128, causal and not, 1k-16k), each checked first (against
float64, or torch's SDPA), printed as "name TFLOP/s" lines. A/B: run it in
turns under each build and summarise the medians (scripts/ab-cores.sh does
this for two packaged cores):

    for r in 1 2 3; do for v in A B; do
      PYTHONPATH=/tmp/tzpy$v TERRAZZO_CACHE_DIR=/tmp/cache$v \\
        python3 bench/ab_builds.py > ab-$v-$r.txt; done; done
    python3 bench/ab_builds.py --summarise ab-*.txt   # build = the name's second field

`--only grouped` (or matmul, gemm, attention, backward: attention's, not
part of the default run) runs one part; `--sizes` sets attention's sequence
lengths (1024 4096 16384); `--tutorials DIR` loads the tutorials from DIR,
to compare two versions of a kernel under one build. (bench/RESULTS.md,
session 18: the wgmma descriptor and K-tail changes, TERRAZZO_PROMOTE_OFFSETS.)
"""
import argparse
import collections
import math
import os
import statistics
import sys


def measure(only, sizes, tutorials=None):
    import torch

    import terrazzo as triton
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from loading import load_tutorial
    torch.manual_seed(int.from_bytes(os.urandom(4), "little"))

    def bench(name, fn, flops):
        # A second of the case itself before it is timed: the GPU reaches
        # its power limit's clock within about a second of dense work, and
        # a measurement right after a pause (the process's start, a
        # compilation, the float64 reference) ran above it: tutorial 09's
        # pointer form at 720-735 TFLOP/s first in a process where the
        # tutorial's interleaved rounds gave 623-640, also after two
        # seconds of cuBLAS products at the process's start (bench/
        # RESULTS.md, sessions 37 and 38).
        ms = triton.testing.do_bench(fn, warmup=1000, rep=100, return_mode="median")
        print(name, round(flops / ms / 1e9, 1), flush=True)

    def bench_squares(matmuls):
        """Each fn(a, b) of `matmuls` (name -> fn) on 4096^3 and 8192^3
        float16, checked against float64, as "name-N"."""
        for n in (4096, 8192):
            a = torch.randn(n, n, device="cuda", dtype=torch.float16)
            b = torch.randn(n, n, device="cuda", dtype=torch.float16)
            want = a.double() @ b.double()
            for name, fn in matmuls.items():
                got = fn(a, b).double()
                assert ((got - want).norm() / want.norm()).item() < 1e-2, name
                bench(f"{name}-{n}", lambda: fn(a, b), 2 * n ** 3)

    if only in (None, "grouped"):
        t08 = load_tutorial("08-grouped-gemm.py", tutorials)
        for dtype in (torch.float16, torch.bfloat16):
            for label, shapes in (("mixed", t08.MIXED_SIZES), ("4096^3", [(4096, 4096, 4096)])):
                flops = sum(2 * m * n * k for m, n, k in shapes)
                a, b = t08.random_problems(
                    shapes, lambda r, c: torch.randn(r, c, device="cuda", dtype=dtype))
                for index in (0, 1):
                    grouped = t08.GroupedMatmul(a, b, configs=[t08.grouped_configs()[index]])
                    assert max(t08.relative_errors(a, b, grouped())) < 1e-2
                    bench(f"grouped-{str(dtype)[6:]}-{label}-cfg{index}", grouped, flops)
    if only in (None, "matmul"):
        # Tutorial 03's autotuned kernel (one program per tile of C).
        t03 = load_tutorial("03-matrix-multiplication.py", tutorials)
        bench_squares({"t03": t03.matmul})
    if only in (None, "gemm"):
        t09 = load_tutorial("09-persistent-matmul.py", tutorials)
        forms = t09.make_matmuls(triton, t09.matmul_persistent_kernel,
                                 t09.matmul_tma_persistent_kernel, [t09.persistent_configs()[0]],
                                 [t09.persistent_configs(subtile=True)[0]])
        bench_squares({f"t09-{form}": forms[form]
                       for form in ("persistent", "tma-persistent", "tma-ws")})
    if only in (None, "attention", "backward"):
        # The forward by default; with "backward" its three kernels, through
        # autograd. Each case's output (or gradients) checked against SDPA's
        # first.
        backward = only == "backward"
        t06 = load_tutorial("06-fused-attention.py", tutorials)
        attention = t06.make_attention(t06.KERNELS)
        cases = (((64, False), (64, True), (128, False), (128, True)) if backward
                 else ((64, True), (64, False), (128, False), (128, True)))
        for head_dim, causal in cases:
            for n_ctx in sizes:
                batch, heads = (4, 32) if head_dim == 64 else (4, 16)
                q, k, v = (torch.randn((batch, heads, n_ctx, head_dim), device="cuda",
                                       dtype=torch.float16, requires_grad=backward)
                           for _ in range(3))
                scale = 1 / math.sqrt(head_dim)
                flops = 4.0 * batch * heads * n_ctx * n_ctx * head_dim * (0.5 if causal else 1)
                case = f"d{head_dim}-{'causal' if causal else 'full'}-{n_ctx}"
                if not backward:
                    want = torch.nn.functional.scaled_dot_product_attention(
                        q, k, v, is_causal=causal, scale=scale)
                    got = attention(q, k, v, causal, scale)
                    assert (got.float() - want.float()).abs().max().item() < 2e-2
                    bench(f"attn-{case}", lambda: attention(q, k, v, causal, scale), flops)
                    continue
                do = torch.randn_like(q)
                want = torch.autograd.grad(torch.nn.functional.scaled_dot_product_attention(
                    q, k, v, is_causal=causal, scale=scale), (q, k, v), do)
                o = attention(q, k, v, causal, scale)
                got = torch.autograd.grad(o, (q, k, v), do, retain_graph=True)
                for g, w in zip(got, want):
                    assert ((g.float() - w.float()).norm() / w.float().norm()).item() < 1e-2
                bench(f"bwd-{case}",
                      lambda: torch.autograd.grad(o, (q, k, v), do, retain_graph=True),
                      2.5 * flops)

def summarise(paths):
    """Medians per name and build (the file name's second '-' field)."""
    values = collections.defaultdict(lambda: collections.defaultdict(list))
    for path in paths:
        build = os.path.basename(path).split("-")[1]
        for line in open(path):
            parts = line.split()
            if len(parts) == 2:
                try:
                    values[parts[0]][build].append(float(parts[1]))
                except ValueError:
                    pass
    builds = sorted({b for per in values.values() for b in per})
    for name, per in values.items():
        medians = [statistics.median(per[b]) if per[b] else float("nan") for b in builds]
        ratio = medians[-1] / medians[0] if len(medians) > 1 and medians[0] else float("nan")
        print(f"{name:36s} " + "  ".join(f"{b} {m:7.1f}" for b, m in zip(builds, medians)) +
              f"  {builds[-1]}/{builds[0]} {ratio:.3f}   " +
              "  ".join(str(per[b]) for b in builds))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=["grouped", "matmul", "gemm", "attention", "backward"])
    parser.add_argument("--summarise", nargs="+", metavar="FILE")
    parser.add_argument("--sizes", nargs="+", type=int, default=[1024, 4096, 16384],
                        help="attention's sequence lengths")
    parser.add_argument("--tutorials", metavar="DIR",
                        help="load the tutorials from DIR instead of tutorials/ (A/B of "
                             "two versions of a kernel under one build)")
    args = parser.parse_args()
    if args.summarise:
        summarise(args.summarise)
    else:
        measure(args.only, args.sizes, args.tutorials)


if __name__ == "__main__":
    main()
