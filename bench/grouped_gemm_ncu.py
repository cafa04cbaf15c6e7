"""One launch of tutorial 08's grouped GEMM per compiler (Terrazzo, then the
same kernel under Triton when installed), one configuration, after warm-up,
between cudaProfilerStart and cudaProfilerStop, for Nsight Compute:

    ncu --profile-from-start off --clock-control none --launch-count 2 \\
        --section SpeedOfLight --section WarpStateStats --section SourceCounters \\
        --section MemoryWorkloadAnalysis -o report \\
        python3 bench/grouped_gemm_ncu.py [PROBLEMS] [CONFIG] [PROVIDER ...]
    ncu --import report.ncu-rep --page source --csv --print-source sass > kernel.csv
    python3 bench/ncu_sass_summary.py kernel.csv

PROBLEMS: "mixed" (the tutorial's eight sizes, default) or MxNxK (one
problem); CONFIG: an index into grouped_configs() (default 0). float16.
PROVIDERS: any of terrazzo, triton (default: both) and t09 (with one
problem: tutorial 09's persistent pointer kernel in its first
configuration, the same K loop without the grouped kernel's problem
lookups).
"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from loading import load_tutorial  # noqa: E402

t08 = load_tutorial("08-grouped-gemm.py")
which = sys.argv[1] if len(sys.argv) > 1 else "mixed"
config = int(sys.argv[2]) if len(sys.argv) > 2 else 0
sizes = t08.MIXED_SIZES if which == "mixed" else [tuple(int(x) for x in which.split("x"))]
a_list, b_list = t08.random_problems(
    sizes, lambda r, c: torch.randn(r, c, device="cuda", dtype=torch.float16))
wanted = sys.argv[3:] or ["terrazzo", "triton"]
providers = {}
if "terrazzo" in wanted:
    providers["terrazzo"] = t08.GroupedMatmul(a_list, b_list,
                                              configs=[t08.grouped_configs()[config]])
found = t08.triton_grouped(a_list, b_list, configs=[config]) if "triton" in wanted else None
if found is not None:
    providers["triton"] = found
if "t09" in wanted and len(sizes) == 1:
    t09 = load_tutorial("09-persistent-matmul.py")
    import terrazzo
    forms = t09.make_matmuls(terrazzo, t09.matmul_persistent_kernel,
                             t09.matmul_tma_persistent_kernel, [t09.persistent_configs()[0]],
                             [t09.persistent_configs(subtile=True)[0]])
    providers["t09-persistent"] = lambda: [forms["persistent"](a_list[0], b_list[0])]
for name, grouped in providers.items():
    errors = t08.relative_errors(a_list, b_list, grouped())
    assert max(errors) < 1e-2, f"{name}: relative errors {errors}"
    for _ in range(3):
        grouped()
torch.cuda.synchronize()
torch.cuda.cudart().cudaProfilerStart()
for grouped in providers.values():
    grouped()
torch.cuda.synchronize()
torch.cuda.cudart().cudaProfilerStop()
print("profiled:", ", ".join(providers), "on", which, "configuration", config)
