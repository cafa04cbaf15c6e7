"""Tutorial 09's persistent matmul forms, one configuration at a time, under
Terrazzo and under Triton (3.6), on the same sources: with `--time`, the
median TFLOP/s of each (form, configuration, compiler), results checked
against float64 first; without it, one launch of each compiler's kernel
after warm-up between cudaProfilerStart and cudaProfilerStop, for Nsight
Compute:

    python3 bench/matmul_forms_ncu.py --time --form tma-ws --size 8192 --dtype bfloat16
    ncu --profile-from-start off --clock-control none --launch-count 2 \\
        --section SpeedOfLight --section WarpStateStats --section SourceCounters \\
        -o report python3 bench/matmul_forms_ncu.py --form tma-ws --config 0
    ncu --import report.ncu-rep --page source --csv --print-source sass > kernels.csv

(the first launch is Terrazzo's, the second Triton's;
bench/ncu_sass_summary.py summarises a report of one kernel.)
"""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from loading import load_tutorial  # noqa: E402

t09 = load_tutorial("09-persistent-matmul.py")


def launchers(form, index):
    """form -> {compiler: fn(a, b)} for configuration `index` (of the
    subtiled list for the -subtile forms)."""
    subtile = form.endswith("subtile")
    out = {}
    import terrazzo
    configs = t09.persistent_configs(subtile=subtile)
    out["terrazzo"] = t09.make_matmuls(terrazzo, t09.matmul_persistent_kernel,
                                       t09.matmul_tma_persistent_kernel,
                                       [configs[index]], [configs[index]])[form]
    module = terrazzo.testing.under_triton(
        t09.tile_coordinates, t09.apply_scales, t09.accumulate_k_blocks,
        t09.matmul_persistent_kernel, t09.matmul_tma_persistent_kernel,
        name="triton_persistent_matmul_ncu")
    if module is not None:
        import triton as real
        real.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8,
                                                                   device="cuda"))
        real_configs = t09.persistent_configs(real.Config, subtile=subtile)
        out["triton"] = t09.make_matmuls(real, module.matmul_persistent_kernel,
                                         module.matmul_tma_persistent_kernel,
                                         [real_configs[index]], [real_configs[index]])[form]
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--form", default="tma-ws")
    parser.add_argument("--config", type=int, nargs="+", default=[0])
    parser.add_argument("--size", type=int, default=8192)
    parser.add_argument("--dtype", default="bfloat16", choices=["float16", "bfloat16"])
    parser.add_argument("--time", action="store_true")
    args = parser.parse_args()
    dtype = getattr(torch, args.dtype)
    torch.manual_seed(int.from_bytes(os.urandom(4), "little"))
    n = args.size
    a = torch.randn(n, n, device="cuda", dtype=dtype)
    b = torch.randn(n, n, device="cuda", dtype=dtype)
    want = a.double() @ b.double()
    import terrazzo
    for index in args.config:
        fns = launchers(args.form, index)
        for name, fn in fns.items():
            got = fn(a, b).double()
            assert ((got - want).norm() / want.norm()).item() < 1e-2, name
        if args.time:
            for name, fn in fns.items():
                ms = terrazzo.testing.do_bench(lambda: fn(a, b), warmup=200, rep=200,
                                               return_mode="median")
                print(f"{args.form}-cfg{index}-{name}", round(2 * n ** 3 / ms / 1e9, 1),
                      flush=True)
            continue
        for fn in fns.values():
            for _ in range(3):
                fn(a, b)
        torch.cuda.synchronize()
        torch.cuda.cudart().cudaProfilerStart()
        for fn in fns.values():
            fn(a, b)
        torch.cuda.synchronize()
        torch.cuda.cudart().cudaProfilerStop()
        print("profiled:", ", ".join(fns))


if __name__ == "__main__":
    main()
