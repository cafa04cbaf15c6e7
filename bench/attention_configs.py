"""Tutorial 06's attention forward under launch configurations other than
its defaults (block sizes, warps, stages, warp specialization, `maxnreg`,
one program per tile or persistent), beside torch's SDPA, on the H100. Each
configuration is checked against SDPA on the same inputs first, then timed
(`do_bench` median after 200 ms of warm-up); the rounds interleave the
configurations and the table gives the median of the rounds, in TFLOP/s
(4 * B * H * N^2 * D, half for causal; B=4, H=32 at D=64, H=16 at D=128).

    python3 bench/attention_configs.py --cases 64:0 64:1 --sizes 1024 4096 16384 \\
        --configs default '{"BLOCK_M": 256, "BLOCK_N": 64, "num_warps": 16}' \\
        --persistent 0 1 --rounds 3 [--triton]

With --triton each configuration also runs under Triton (the tutorial's
kernels through triton.testing.under_triton, as its benchmark does), as
"triton <configuration>". With --dump DIR the kernels compiled go to
DIR/terrazzo (every stage, TERRAZZO_DUMP_IR) and DIR/triton (Triton's
cache: PTX, cubin and metadata JSON), to compare the two compilers' code
for one configuration on another machine (bench/sass_outline.py outlines
either PTX). A configuration is "default" (fwd_config's choice) or a JSON
object laid over fwd_config's choice for the case. A configuration the
compiler rejects, or whose results are wrong, prints why and gets no
figure.
Figures are also printed as "name TFLOP/s" lines, which bench/ab_builds.py
--summarise reads."""
import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attention_case import AttentionCase  # noqa: E402
from loading import load_tutorial  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", nargs="+", default=["64:0", "64:1", "128:0", "128:1"],
                        help="HEAD_DIM:CAUSAL")
    parser.add_argument("--sizes", nargs="+", type=int, default=[1024, 4096, 16384])
    parser.add_argument("--configs", nargs="+", default=["default"])
    parser.add_argument("--persistent", nargs="+", type=int, default=[0],
                        help="1: the persistent kernel, 0: one program per tile")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--dtype", default="float16", choices=["float16", "bfloat16"])
    parser.add_argument("--shapes", nargs="+", default=[None], metavar="B,H",
                        help="batch and heads (default 4,32 at D=64, 4,16 at D=128); with "
                             "several, every case runs at each, its rows named by the shape")
    parser.add_argument("--triton", action="store_true",
                        help="also run each configuration under Triton, when installed")
    parser.add_argument("--dump", metavar="DIR",
                        help="write the compiled kernels under DIR (see above)")
    parser.add_argument("--tutorials", metavar="DIR", nargs="+", default=[None],
                        help="load tutorial 06 from DIR instead of tutorials/; with "
                             "several, each configuration runs under each, its rows "
                             "named by the folder")
    args = parser.parse_args()
    if args.dump:
        # Set for the compilers to read, before anything compiles: Terrazzo
        # reads its variable at each compile, Triton its cache directory when
        # it is first imported.
        os.environ.update({"TERRAZZO_DUMP_IR": os.path.join(args.dump, "terrazzo"),
                           "TRITON_CACHE_DIR": os.path.join(args.dump, "triton")})

    import torch
    import terrazzo as triton
    # (row prefix, tutorial module, kernels: None for Terrazzo's)
    compilers = []
    for directory in args.tutorials:
        t06 = load_tutorial("06-fused-attention.py", directory)
        prefix = os.path.basename(os.path.normpath(directory)) + " " \
            if len(args.tutorials) > 1 else ""
        compilers.append((prefix, t06, None))
        if args.triton:
            triton_kernels = t06.triton_kernels()
            if triton_kernels is None:
                print("Triton is not installed: its rows are left out", flush=True)
            else:
                compilers.append((prefix + "triton ", t06, triton_kernels))
    dtype = getattr(torch, args.dtype)
    torch.manual_seed(int.from_bytes(os.urandom(4), "little"))

    results = {}  # (case, size, label) -> [TFLOP/s per round]
    for head_dim, causal in (map(int, case.split(":")) for case in args.cases):
        causal = bool(causal)
        for shape, n_ctx in ((sh, n) for sh in args.shapes for n in args.sizes):
            case = AttentionCase(torch, head_dim, causal, n_ctx, dtype, shape)
            # Rows of other shapes than the default are named by their shape.
            size = n_ctx if shape is None else f"{n_ctx}@{case.batch}x{case.heads}"
            runs = {"sdpa": case.sdpa}
            for text in args.configs:
                for (compiler, t06, kernels), persistent in (
                        (c, p) for c in compilers for p in args.persistent):
                    base = t06.fwd_config(head_dim, causal, False, n_ctx=n_ctx)
                    if text != "default":
                        base.update(json.loads(text))
                    label = compiler + (text.replace(" ", "") if text != "default"
                                        else "default") + (" persistent" if persistent else "")
                    run = case.forward(t06, kernels, dict(base), bool(persistent))
                    try:
                        err = case.error(run)
                        torch.cuda.synchronize()
                    except Exception as error:  # a configuration the compiler rejects
                        lines = str(error).strip().splitlines() or [""]
                        print(f"D={head_dim} causal={causal} N={n_ctx} {label}: "
                              f"{type(error).__name__}: {lines[-1][:300]}", flush=True)
                        continue
                    if not err < 1e-2:
                        print(f"D={head_dim} causal={causal} N={n_ctx} {label}: "
                              f"relative error {err:.2e} against SDPA", flush=True)
                        continue
                    runs[label] = run
            for _ in range(args.rounds):
                for label, run in runs.items():
                    ms = triton.testing.do_bench(run, warmup=200, rep=100)
                    tflops = case.flops / (ms * 1e-3) / 1e12
                    results.setdefault((head_dim, causal, size, label), []).append(tflops)
                    name = f"d{head_dim}{'c' if causal else 'n'}-{size}-" + \
                        label.replace(" ", "-")
                    print(name, round(tflops, 1), flush=True)
            case.free()

    print()
    for head_dim, causal in (map(int, case.split(":")) for case in args.cases):
        print(f"D={head_dim} {'causal' if causal else 'non-causal'} "
              f"({args.dtype}, TFLOP/s, median of {args.rounds} rounds; ratio to SDPA):")
        sizes = list(dict.fromkeys(n for (d, c, n, _) in results
                                   if (d, c) == (head_dim, bool(causal))))
        for size in sizes:
            sdpa = statistics.median(results.get((head_dim, bool(causal), size, "sdpa"), [0]))
            for (d, c, n, label), values in results.items():
                if (d, c, n) != (head_dim, bool(causal), size):
                    continue
                m = statistics.median(values)
                print(f"  N={size!s:>14} {label:64s} {m:7.1f}  {m / sdpa if sdpa else 0:.3f}")


if __name__ == "__main__":
    main()
