"""One forward (or, with a fourth argument "bwd", one backward) of
tutorial 06's attention per provider (Terrazzo, the same kernel under Triton
when installed, torch's SDPA), after warm-up, between cudaProfilerStart and
cudaProfilerStop, for Nsight Compute. With a fourth argument "forms",
Terrazzo's forward in both of its forms instead: one program per tile, then
persistent (K = 0 and 1 below, nothing else):

    ncu --profile-from-start off --clock-control none --launch-skip K --launch-count 1 \\
        --section SpeedOfLight --section WarpStateStats --section SourceCounters \\
        -o report python3 bench/attention_ncu.py HEAD_DIM CAUSAL N_CTX
    ncu --import report.ncu-rep --page source --csv --print-source sass > kernel.csv
    python3 bench/ncu_sass_summary.py kernel.csv

(K = 0 for Terrazzo, 1 for Triton, 2 for SDPA, forward; a backward is three
kernels of each compiler, the preprocessing, dK/dV and dQ, then SDPA's;
CAUSAL is 0 or 1; B=4 with
H=32 for D=64 and H=16 for D=128, float16, as the tutorial's benchmark.)
"""
import importlib.util
import math
import sys
from pathlib import Path

import torch

spec = importlib.util.spec_from_file_location(
    "t06", Path(__file__).resolve().parents[1] / "tutorials" / "06-fused-attention.py")
t06 = importlib.util.module_from_spec(spec)
spec.loader.exec_module(t06)

head_dim, causal, n_ctx = int(sys.argv[1]), sys.argv[2] == "1", int(sys.argv[3])
mode = sys.argv[4] if len(sys.argv) > 4 else "fwd"
assert mode in ("fwd", "bwd", "forms"), mode
backward = mode == "bwd"
batch, heads = (4, 32) if head_dim == 64 else (4, 16)
q, k, v = (torch.randn((batch, heads, n_ctx, head_dim), device="cuda", dtype=torch.float16,
                       requires_grad=backward) for _ in range(3))
if mode == "forms":
    providers = {f"terrazzo{' persistent' if p else ''}":
                 t06.make_attention(t06.KERNELS, persistent=p) for p in (False, True)}
else:
    providers = {"terrazzo": t06.make_attention(t06.KERNELS)}
    found = t06.triton_kernels()
    if found is not None:
        providers["triton"] = t06.make_attention(found)
    providers["sdpa"] = lambda q, k, v, c, s: torch.nn.functional.scaled_dot_product_attention(
        q, k, v, is_causal=c, scale=s)
scale = 1 / math.sqrt(head_dim)
do = torch.randn_like(q)
outputs = {}
for name, fn in providers.items():
    for _ in range(3):
        outputs[name] = fn(q, k, v, causal, scale)
        if backward:
            torch.autograd.grad(outputs[name], (q, k, v), do, retain_graph=True)
torch.cuda.synchronize()
torch.cuda.cudart().cudaProfilerStart()
for name, fn in providers.items():
    if backward:
        # (grad, not backward: no accumulation kernels into q.grad)
        torch.autograd.grad(outputs[name], (q, k, v), do, retain_graph=True)
    else:
        fn(q, k, v, causal, scale)
torch.cuda.synchronize()
torch.cuda.cudart().cudaProfilerStop()
print("profiled:", ", ".join(providers))
