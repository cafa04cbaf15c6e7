"""Fused softmax and layer norm: GB/s of Terrazzo, torch and Triton 3.x on
the shapes issue 5 names, in one run.

    PYTHONPATH=<built terrazzo> python3 bench/softmax_layernorm_bandwidth.py \
        [--runs 200] [--rounds 3]

Every case uses the kernels of tutorials/02-fused-softmax.py and
tutorials/05-layer-norm.py, for Terrazzo and (the same source) for Triton;
torch runs torch.softmax and torch.nn.functional.layer_norm. Each provider
gets fresh random inputs, its result is checked against torch in float64,
then all providers are timed in --rounds interleaved rounds of --runs
calls (CUDA events around each call); the table reports the median over
all calls and the range of the rounds' medians. Bytes moved: the input
read once and the output written once, as Triton's tutorials count them.
"""

import argparse
import os
import statistics
import sys

import torch

# bench/loading.py, also when this file is loaded by path (the tests do).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from loading import load_tutorial  # noqa: E402


def time_calls(fn, runs, warmup=25):
    """The times (ms) of `runs` calls of `fn` after `warmup` calls, each
    between CUDA events, with L2 flushed before each."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    # A large buffer written between calls keeps the inputs out of L2.
    flush = torch.empty(256 * 1024 * 1024 // 4, dtype=torch.int32, device="cuda")
    times = []
    for _ in range(runs):
        flush.zero_()
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return times


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=200,
                        help="timed calls per provider and round")
    parser.add_argument("--rounds", type=int, default=3,
                        help="rounds over the providers (interleaved, so that "
                             "clock and temperature drift hit all of them)")
    args = parser.parse_args(argv)
    softmax_tutorial = load_tutorial("02-fused-softmax.py")
    layer_norm_tutorial = load_tutorial("05-layer-norm.py")
    triton_softmax = softmax_tutorial.triton_softmax()
    triton_layer_norm = layer_norm_tutorial.triton_forward()
    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}",
          end="")
    try:
        import triton
        print(f", triton {triton.__version__}")
    except ImportError:
        print(", no triton")

    rows = []

    def case(name, make, providers, reference, nbytes):
        providers = [(p, fn) for p, fn in providers if fn is not None]
        inputs, errors, times = {}, {}, {}
        for provider, fn in providers:
            inputs[provider] = make()
            got = fn(*inputs[provider])
            got = got[0] if isinstance(got, tuple) else got
            want = reference(*inputs[provider])
            errors[provider] = (got.double() - want).abs().max().item()
            times[provider] = []
            del got, want
        for _ in range(args.rounds):
            for provider, fn in providers:
                times[provider].append(
                    time_calls(lambda: fn(*inputs[provider]), args.runs))
        for provider, _ in providers:
            gbs = lambda ms: nbytes / (ms * 1e-3) * 1e-9
            every = [t for round_times in times[provider] for t in round_times]
            round_medians = [gbs(statistics.median(r)) for r in times[provider]]
            tol = 2e-2 if inputs[provider][0].dtype == torch.float16 else 1e-4
            rows.append((name, provider, gbs(statistics.median(every)),
                         min(round_medians), max(round_medians), errors[provider],
                         errors[provider] <= tol))
        inputs.clear()

    for (m, n, dtype) in ((8192, 4096, torch.float32), (8192, 8192, torch.float16)):
        make = lambda m=m, n=n, dtype=dtype: (torch.randn(m, n, device="cuda", dtype=dtype) * 3,)
        case(f"softmax {m}x{n} {str(dtype)[6:]}", make,
             [("terrazzo", softmax_tutorial.softmax),
              ("torch", lambda x: torch.softmax(x, dim=-1)),
              ("triton", triton_softmax)],
             lambda x: torch.softmax(x.double(), dim=-1),
             2 * m * n * torch.finfo(dtype).bits // 8)

    m, n, dtype = 4096, 8192, torch.float16

    def make_layer_norm():
        x = -2.3 + 0.5 * torch.randn(m, n, device="cuda", dtype=dtype)
        w = torch.rand(n, device="cuda", dtype=dtype)
        b = torch.rand(n, device="cuda", dtype=dtype)
        return x, w, b

    case(f"layer norm forward {m}x{n} float16", make_layer_norm,
         [("terrazzo", layer_norm_tutorial.layer_norm_forward),
          ("torch", lambda x, w, b: torch.nn.functional.layer_norm(x, (n,), w, b, 1e-5)),
          ("triton", triton_layer_norm)],
         lambda x, w, b: torch.nn.functional.layer_norm(x.double(), (n,), w.double(),
                                                        b.double(), 1e-5),
         2 * m * n * 2)

    print(f"\nGB/s: median of {args.rounds} x {args.runs} calls (rounds interleaved over "
          "the providers, 25 warm-up calls each, L2 flushed before every call), "
          "then the lowest..highest median of a round; max |error| vs torch in float64\n")
    print(f"{'case':38s} {'provider':9s} {'GB/s':>8s} {'round medians':>17s} {'max err':>9s}")
    failed = False
    for name, provider, gbs, low, high, err, ok in rows:
        print(f"{name:38s} {provider:9s} {gbs:8.0f} {low:8.0f}..{high:<8.0f} "
              f"{err:9.2e}{'' if ok else '  WRONG'}")
        failed |= not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
