"""Tutorial 09's matmuls (and tutorial 03's) against cuBLAS over a
sustained run, with the GPU's clock and power (bench/power_trace.py): per
square size and dtype, each provider runs back to back for a few seconds
(an L2 flush before each call) while nvidia-smi samples the SM clock and
the power; the table gives medians after the first second, the cycles a
call takes at that clock and TFLOP/s per GHz (2 * N^3 flops).

    python3 bench/matmul_power.py --sizes 4096 8192 --dtypes float16 bfloat16 \\
        [--forms tma-ws tma-subtile tutorial-03] [--triton] [--seconds 4]

Every provider is checked first against a float64 product (relative error
under 1e-2); the autotuned forms choose their configuration in that call."""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from loading import load_tutorial  # noqa: E402
from power_trace import Sampler, print_table, sustained  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", nargs="+", type=int, default=[4096, 8192])
    parser.add_argument("--dtypes", nargs="+", default=["float16"],
                        choices=["float16", "bfloat16"])
    parser.add_argument("--forms", nargs="+",
                        default=["tma-persistent", "tma-ws", "tma-subtile", "tma-ws-subtile"],
                        help="tutorial 09's forms (or tutorial-03) to run")
    parser.add_argument("--triton", action="store_true",
                        help="also run the same forms under Triton, when installed")
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--pause", type=float, default=3.0)
    parser.add_argument("--chunks", action="store_true", help="print every chunk")
    args = parser.parse_args()

    import torch
    t09 = load_tutorial("09-persistent-matmul.py", None)
    providers = {f"tz {name}": fn for name, fn in t09.terrazzo_matmuls().items()
                 if name in args.forms}
    providers["cublas"] = torch.matmul
    if args.triton:
        providers.update({f"tr {name}": fn for name, fn in t09.triton_matmuls().items()
                          if name in args.forms})
    torch.manual_seed(int.from_bytes(os.urandom(4), "little"))
    runs = []
    with Sampler() as sampler:
        for n in args.sizes:
            for dtype in args.dtypes:
                a, b = (torch.randn(n, n, device="cuda", dtype=getattr(torch, dtype))
                        for _ in range(2))
                want = a.double() @ b.double()
                case = f"{n}^3 {dtype}"
                for name, fn in providers.items():
                    got = fn(a, b)
                    err = ((got.double() - want).norm() / want.norm()).item()
                    if not err < 1e-2:
                        runs.append((case, name, 0, f"relative error {err:.2e}"))
                        continue
                    time.sleep(args.pause)
                    runs.append((case, name, 2.0 * n ** 3,
                                 sustained(torch, lambda fn=fn, a=a, b=b: fn(a, b), args.seconds)))
                    print(f"{case} {name}: done", flush=True)
                del a, b, want
                torch.cuda.empty_cache()
    print_table(runs, sampler.samples, args.chunks)


if __name__ == "__main__":
    main()
