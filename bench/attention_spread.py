"""How tutorial 06's attention forward spreads between fresh inputs: each
trial allocates new Q, K, V (new addresses) and times every provider on
them with the tutorial's `do_bench` (median, L2 flushed before each
call), the persistent and the one-program-per-tile forms side by side with
torch's SDPA. Written for the D=128 causal forward at 1k keys, which
measured 283-353 TFLOP/s from run to run while SDPA stayed at 317-320
(bench/RESULTS.md, sessions 33 and 39): does the spread follow the inputs
(their placement in memory), the form, or neither?

    python3 bench/attention_spread.py [--cases 128:1 128:0] [--sizes 1024]
        [--trials 8]

Each provider's output is checked against SDPA's first in every trial;
the trials' figures are printed in order, then each provider's minimum,
median and maximum, in TFLOP/s."""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attention_case import AttentionCase  # noqa: E402
from loading import load_tutorial  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", nargs="+", default=["128:1", "128:0"], help="HEAD_DIM:CAUSAL")
    parser.add_argument("--sizes", nargs="+", type=int, default=[1024])
    parser.add_argument("--trials", type=int, default=8)
    args = parser.parse_args()

    import torch

    import terrazzo as triton
    t06 = load_tutorial("06-fused-attention.py")
    for spec in args.cases:
        head_dim, causal = (int(x) for x in spec.split(":"))
        for n_ctx in args.sizes:
            figures = {}
            for trial in range(args.trials):
                case = AttentionCase(torch, head_dim, bool(causal), n_ctx, torch.float16)
                runs = {"sdpa": case.sdpa,
                        "persistent": case.forward(t06, persistent=True),
                        "per-tile": case.forward(t06, persistent=False)}
                for name, run in runs.items():
                    error = case.error(run)
                    assert error < 1e-2, f"{name}: relative error {error:.2e}"
                    ms = triton.testing.do_bench(run, return_mode="median")
                    figures.setdefault(name, []).append(case.flops / ms / 1e9)
                case.free()
            print(f"D={head_dim} {'causal' if causal else 'non-causal'} N={n_ctx} "
                  f"(TFLOP/s by trial; min / median / max)")
            for name, values in figures.items():
                print(f"  {name:10s} " + " ".join(f"{v:6.1f}" for v in values) +
                      f"   {min(values):.1f} / {statistics.median(values):.1f} / "
                      f"{max(values):.1f}", flush=True)


if __name__ == "__main__":
    main()
