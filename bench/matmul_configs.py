"""Tutorial 03's matmul configuration by configuration: TFLOP/s of Terrazzo
and Triton for each of the tutorial's autotune configurations (and any
given with --config), on one square size and dtype, so that a gap in
bench/matmul.py can be traced to a block shape rather than to the
autotuners' choices.

    PYTHONPATH=<built terrazzo> python3 bench/matmul_configs.py [--size 8192] \
        [--dtype float16] [--runs 30] [--config 128,256,64,3,8 ...] [--dump DIR]

Each configuration is launched directly (no autotuning) on fresh
torch.randn inputs, its result checked against a float64 product
(relative Frobenius error < 1e-2), then timed over --rounds interleaved
rounds of --runs CUDA-event-timed calls (bench/matmul.py's method; the
median of all calls). --dump writes both compilers' PTX of every
configuration to DIR.
"""

import argparse
import os
import statistics
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import matmul as bench  # noqa: E402  (bench/matmul.py: loaders and timing)


def parse_config(text):
    m, n, k, stages, warps = (int(x) for x in text.split(","))
    return m, n, k, stages, warps


def terrazzo_launcher(tutorial, config):
    m, n, k, stages, warps = config
    kernel = tutorial.matmul_kernel.fn  # the jitted kernel under the autotuner

    def run(a, b):
        M, K = a.shape
        _, N = b.shape
        c = torch.empty((M, N), device=a.device, dtype=a.dtype)
        grid = (tutorial.triton.cdiv(M, m) * tutorial.triton.cdiv(N, n),)
        kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                     c.stride(0), c.stride(1), BLOCK_SIZE_M=m, BLOCK_SIZE_N=n,
                     BLOCK_SIZE_K=k, GROUP_SIZE_M=8, ACTIVATION="",
                     num_warps=warps, num_stages=stages)
        return c
    return run, kernel


def triton_launcher(module, triton, config):
    m, n, k, stages, warps = config
    kernel = module.make_kernel([triton.Config(
        {"BLOCK_SIZE_M": m, "BLOCK_SIZE_N": n, "BLOCK_SIZE_K": k, "GROUP_SIZE_M": 8},
        num_warps=warps, num_stages=stages)])
    compiled = []  # what the launch returns: the compiled kernel, for --dump

    def run(a, b):
        M, K = a.shape
        _, N = b.shape
        c = torch.empty((M, N), device=a.device, dtype=a.dtype)
        grid = (triton.cdiv(M, m) * triton.cdiv(N, n),)
        launched = kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0),
                                b.stride(1), c.stride(0), c.stride(1), ACTIVATION="")
        if not compiled:
            compiled.append(launched)
        return c
    return run, compiled


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=8192)
    parser.add_argument("--dtype", default="float16", choices=["float16", "bfloat16"])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--config", action="append", type=parse_config, default=[],
                        help="BLOCK_M,BLOCK_N,BLOCK_K,num_stages,num_warps (repeatable)")
    parser.add_argument("--only", action="store_true",
                        help="run only the --config configurations (e.g. under a profiler)")
    parser.add_argument("--dump", help="write each compiler's PTX here")
    parser.add_argument("--method", choices=["device", "latency"], default="device",
                        help="as bench/matmul.py's time_calls")
    args = parser.parse_args(argv)

    tutorial = bench.load_tutorial("03-matrix-multiplication.py")
    configs = [] if args.only else [
        (c.kwargs["BLOCK_SIZE_M"], c.kwargs["BLOCK_SIZE_N"], c.kwargs["BLOCK_SIZE_K"],
         c.num_stages, c.num_warps) for c in tutorial.get_autotune_configs()]
    configs += [c for c in args.config if c not in configs]
    try:
        import triton
        module = bench.load_triton_module()
    except ImportError:
        triton = module = None
    dtype = getattr(torch, args.dtype)
    n = args.size
    flops = 2.0 * n ** 3
    print(f"device: {torch.cuda.get_device_name()}, {n}^3 {args.dtype}, "
          f"median of {args.rounds} x {args.runs} calls, {args.method} times")
    print(f"{'config (M,N,K,stages,warps)':30} {'terrazzo':>10} {'triton':>10}  rel err (T / Tr)")
    if args.dump:
        os.makedirs(args.dump, exist_ok=True)
    for config in configs:
        providers = [("terrazzo",) + terrazzo_launcher(tutorial, config)]
        if triton is not None:
            providers.append(("triton",) + triton_launcher(module, triton, config))
        inputs, errors, times, failed = {}, {}, {}, {}
        for name, run, _ in providers:
            inputs[name] = (torch.randn(n, n, device="cuda", dtype=dtype),
                            torch.randn(n, n, device="cuda", dtype=dtype))
            try:
                got = run(*inputs[name])
            except Exception as e:  # noqa: BLE001 - reported in the table
                failed[name] = str(e).splitlines()[0][:60]
                continue
            a, b = inputs[name]
            errors[name] = bench.relative_error(got, a.double() @ b.double())
            times[name] = []
        for _ in range(args.rounds):
            for name, run, _ in providers:
                if name in times:
                    times[name].extend(bench.time_calls(lambda: run(*inputs[name]), args.runs,
                                                        method=args.method))
        cells = []
        for name, _, _ in providers:
            if name in failed:
                cells.append(f"{'failed':>10}")
            else:
                cells.append(f"{flops / (statistics.median(times[name]) * 1e-3) * 1e-12:10.1f}")
        errs = " / ".join(f"{errors[p]:.1e}" if p in errors else "-" for p, _, _ in providers)
        print(f"{str(config):30} {' '.join(cells)}  {errs}", flush=True)
        for name, message in failed.items():
            print(f"    {name}: {message}")
        if args.dump:
            tag = "_".join(str(x) for x in config)
            for name, _, kernel in providers:
                if name in failed:
                    continue
                try:
                    if name == "triton":
                        ptx = kernel[0].asm["ptx"]
                    else:
                        a, b = inputs[name]
                        m, nn, k, stages, warps = config
                        ptx = kernel.compile(a, b, a, n, n, n, n, 1, n, 1, n, 1,
                                             BLOCK_SIZE_M=m, BLOCK_SIZE_N=nn, BLOCK_SIZE_K=k,
                                             GROUP_SIZE_M=8, ACTIVATION="", stage="ptx",
                                             num_warps=warps, num_stages=stages)
                    with open(os.path.join(args.dump, f"{name}_{tag}.ptx"), "w") as f:
                        f.write(ptx)
                except Exception as e:  # noqa: BLE001 - a missing dump is not fatal
                    print(f"    no {name} PTX: {e}")
        inputs.clear()
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
