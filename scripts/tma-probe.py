"""Which TMA descriptor accesses fault or go wrong on this GPU (sm_90).

    PYTHONPATH=<built terrazzo> python3 scripts/tma-probe.py [--case NAME]

TMA faulted on the H100 (an illegal instruction, which poisons the CUDA
context) for some descriptor accesses. This runs each case, a sequence of
descriptor loads and stores, in a process of its own, and prints for every
step whether it was right, wrong (and where) or never ran because the
process faulted. Cases run with TERRAZZO_TMA=all (also the kinds not
validated yet), with the launcher's reused scratch buffer or with a fresh
allocation per launch, and the same sequences under Triton's device- and
host-side descriptors, so that a fault can be told apart by order, scratch
reuse and compiler. What it found (H100, session 6): every fault is a box
whose innermost coordinate is not a whole number of 16 bytes (float32
column 30 faults; 0, 16, 40 and 60 do not, whatever the row, the extents or
the memory after the tensor), in Triton 3.6 too, host-encoded maps
included; canLowerToTma keeps such accesses on the pointer path.
"""

import argparse
import json
import os
import subprocess
import sys

M, WIDTH, BM, BN = 37, 64, 16, 32

# name -> (allocator, steps); a step is (compiler, access, dtype, n, (row, col)).
CASES = {
    "edges-f32-in-order": ("cached", [("terrazzo", "load", "float32", 45, off)
                                      for off in [(30, 40), (8, 16), (0, 0), (36, 30)]]),
    "edge-f32-36-30-alone": ("cached", [("terrazzo", "load", "float32", 45, (36, 30))]),
    "edges-f32-fresh-scratch": ("fresh", [("terrazzo", "load", "float32", 45, off)
                                          for off in [(30, 40), (8, 16), (0, 0), (36, 30)]]),
    "edges-f16-in-order": ("cached", [("terrazzo", "load", "float16", n, off)
                                      for n in (45, 48)
                                      for off in [(30, 40), (8, 16), (0, 0), (36, 60)]]),
    "store-45-alone": ("cached", [("terrazzo", "store", "float32", 45, (0, 0))]),
    "store-48-then-45": ("cached", [("terrazzo", "store", "float32", 48, (0, 0)),
                                    ("terrazzo", "store", "float32", 45, (0, 0))]),
    "store-48-then-45-fresh": ("fresh", [("terrazzo", "store", "float32", 48, (0, 0)),
                                         ("terrazzo", "store", "float32", 45, (0, 0))]),
    "store-edges": ("cached", [("terrazzo", "store", "float32", 48, off)
                               for off in [(30, 40), (8, 16), (36, 30)]]),
    "1d-f32": ("cached", [("terrazzo", "copy1d", "float32", 1000, (0, 0))]),
    "1d-f16": ("cached", [("terrazzo", "copy1d", "float16", 1000, (0, 0))]),
    "triton-edges-f32": ("fresh", [("triton", "load", "float32", 45, off)
                                   for off in [(30, 40), (8, 16), (0, 0), (36, 30)]]),
    "triton-store-48-then-45": ("fresh", [("triton", "store", "float32", 48, (0, 0)),
                                          ("triton", "store", "float32", 45, (0, 0))]),
    "triton-1d-f32": ("fresh", [("triton", "copy1d", "float32", 1000, (0, 0))]),
    # Host-encoded maps (cuTensorMapEncodeTiled, a kernel parameter).
    "triton-host-edge-f32-36-30": ("fresh", [("triton", "hostload", "float32", 45, (36, 30))]),
    "triton-host-edge-f32-36-0": ("fresh", [("triton", "hostload", "float32", 64, (36, 0))]),
}
# Rows of the box inside the tensor (M = 37, BM = 16): where faults start.
for row in (21, 25, 29, 30, 33, 35, 36, 37):
    CASES[f"rows-in-{M - row}"] = ("cached", [("terrazzo", "load", "float32", 64, (row, 0))])
# Kinds TERRAZZO_TMA=1 still keeps on the pointer path (isTmaValidated).
CASES["unswizzled-4x64"] = ("cached", [("terrazzo", "load", "float32", 45, off, {"bm": 4, "bn": 64})
                                       for off in [(0, 0), (36, 0), (30, 16)]])
CASES["store-45-edges"] = ("cached", [("terrazzo", "store", "float32", 45, off)
                                      for off in [(8, 16), (30, 32), (36, 16), (0, 0)]])
CASES["1d-int8"] = ("cached", [("terrazzo", "copy1d", "int8", 1000, (0, 0))])
CASES["1d-f32-small"] = ("cached", [("terrazzo", "copy1d", "float32", 77, (0, 0))])
CASES["3d-f32"] = ("cached", [("terrazzo", "copy3d", "float32", 0, (0, 0))])
CASES["3d-f16"] = ("cached", [("terrazzo", "copy3d", "float16", 0, (0, 0))])
# The faulting (36, 30) box with one thing changed at a time.
CASES["36-30-n48"] = ("cached", [("terrazzo", "load", "float32", 48, (36, 30))])
CASES["36-0-n45"] = ("cached", [("terrazzo", "load", "float32", 45, (36, 0))])
CASES["36-16-n45"] = ("cached", [("terrazzo", "load", "float32", 45, (36, 16))])
CASES["35-30-n45"] = ("cached", [("terrazzo", "load", "float32", 45, (35, 30))])
CASES["36-30-n45-m40"] = ("cached", [("terrazzo", "load", "float32", 45, (36, 30), {"m": 40})])
CASES["36-30-n45-padded"] = ("cached", [("terrazzo", "load", "float32", 45, (36, 30),
                                         {"rows": 64})])
CASES["20-30-n45-m21"] = ("cached", [("terrazzo", "load", "float32", 45, (20, 30), {"m": 21})])
for col in (16, 40, 60, 64):
    CASES[f"cols-from-{col}"] = ("cached", [("terrazzo", "load", "float32", 64, (0, col))])

# Negative coordinates, the innermost one a whole number of 16 bytes
# (session 4 saw negative coordinates fault, before the innermost rule was
# known): the kernels without the clamp at 0, so that TMA gets them as given.
CASES["negative-f32"] = ("cached", [("terrazzo", "load_any", "float32", 64, off)
                                    for off in [(-8, -16), (-16, 0), (0, -32), (-20, -64),
                                                (30, -16)]])
CASES["negative-f16"] = ("cached", [("terrazzo", "load_any", "float16", 64, off)
                                    for off in [(-8, -32), (-1, 0), (5, -64)]])
CASES["negative-store-f32"] = ("cached", [("terrazzo", "store_any", "float32", 48, off)
                                          for off in [(-8, -16), (-16, 0), (30, -16)]])
CASES["triton-negative-f32"] = ("fresh", [("triton", "load_any", "float32", 64, off)
                                          for off in [(-8, -16), (0, -32)]])

KERNELS = '''
def read_block(x_ptr, out_ptr, M, N, stride_xm, off_m, off_n, BM: tl.constexpr,
               BN: tl.constexpr):
    xd = tl.make_tensor_descriptor(x_ptr, [M, N], [stride_xm, 1], [BM, BN])
    block = xd.load([tl.maximum(off_m, 0), tl.maximum(off_n, 0)])
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    tl.store(out_ptr + rm[:, None] * BN + rn[None, :], block)


def write_block(out_ptr, M, N, stride_m, off_m, off_n, BM: tl.constexpr, BN: tl.constexpr):
    od = tl.make_tensor_descriptor(out_ptr, [M, N], [stride_m, 1], [BM, BN])
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    values = (rm[:, None] * 1000 + rn[None, :]).to(out_ptr.dtype.element_ty)
    od.store([tl.maximum(off_m, 0), tl.maximum(off_n, 0)], values)


def read_block_any(x_ptr, out_ptr, M, N, stride_xm, off_m, off_n, BM: tl.constexpr,
                   BN: tl.constexpr):
    xd = tl.make_tensor_descriptor(x_ptr, [M, N], [stride_xm, 1], [BM, BN])
    block = xd.load([off_m, off_n])
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    tl.store(out_ptr + rm[:, None] * BN + rn[None, :], block)


def write_block_any(out_ptr, M, N, stride_m, off_m, off_n, BM: tl.constexpr,
                    BN: tl.constexpr):
    od = tl.make_tensor_descriptor(out_ptr, [M, N], [stride_m, 1], [BM, BN])
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    values = (rm[:, None] * 1000 + rn[None, :]).to(out_ptr.dtype.element_ty)
    od.store([off_m, off_n], values)


def read_host_block(xd, out_ptr, off_m, off_n, BM: tl.constexpr, BN: tl.constexpr):
    block = xd.load([off_m, off_n])
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    tl.store(out_ptr + rm[:, None] * BN + rn[None, :], block)


def copy3d(x_ptr, y_ptr, A, B, C, sa, sb, BA: tl.constexpr, BB: tl.constexpr,
           BC: tl.constexpr):
    xd = tl.make_tensor_descriptor(x_ptr, [A, B, C], [sa, sb, 1], [BA, BB, BC])
    yd = tl.make_tensor_descriptor(y_ptr, [A, B, C], [sa, sb, 1], [BA, BB, BC])
    off = tl.program_id(0) * BA
    yd.store([off, 0, 0], xd.load([off, 0, 0]) + 1)


def copy1d(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    xd = tl.make_tensor_descriptor(x_ptr, [n], [1], [BLOCK])
    yd = tl.make_tensor_descriptor(y_ptr, [n], [1], [BLOCK])
    off = tl.program_id(0) * BLOCK
    yd.store([off], xd.load([off]))
'''


def load_kernels(compiler):
    """KERNELS compiled by `compiler` ("terrazzo" or "triton"), from a file
    (both read their kernels' source from one)."""
    import importlib.util
    import tempfile
    module = "terrazzo" if compiler == "terrazzo" else "triton"
    source = f"import {module} as triton\nimport {module}.language as tl\n"
    for chunk in KERNELS.strip().split("\n\n\n"):
        if compiler == "terrazzo" and "read_host_block" in chunk:
            continue  # a descriptor argument: Triton's host-side API only
        source += "\n\n@triton.jit\n" + chunk + "\n"
    path = os.path.join(tempfile.mkdtemp(), f"tma_probe_{compiler}.py")
    with open(path, "w") as f:
        f.write(source)
    spec = importlib.util.spec_from_file_location(f"tma_probe_{compiler}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def run_step(torch, kernels, access, dtype, n, off, shape=None):
    """Runs one access; returns None when right, else what was wrong.
    `shape` may set "m" (the tensor's rows, default M) and "rows" (the rows
    allocated, default m: more leaves memory after the tensor)."""
    shape = shape or {}
    m = shape.get("m", M)
    bm, bn = shape.get("bm", BM), shape.get("bn", BN)
    tdt = getattr(torch, dtype)
    gen = torch.Generator(device="cuda").manual_seed(n * 100 + off[0] + off[1])
    if access == "copy3d":
        a, b, c = 5, 3, 32
        x = torch.randn(a, b, c, device="cuda", generator=gen).to(tdt)
        y = torch.zeros_like(x)
        kernels.copy3d[((a + 1) // 2,)](x, y, a, b, c, b * c, c, BA=2, BB=4, BC=32)
        torch.cuda.synchronize()
        bad = (y != x + 1).sum().item()
        return None if bad == 0 else f"{bad} elements wrong"
    if access == "copy1d":
        x = torch.randn(n, device="cuda", generator=gen).to(tdt)
        y = torch.zeros(n + 256, dtype=tdt, device="cuda")
        kernels.copy1d[((n + 127) // 128,)](x, y, n, BLOCK=128)
        torch.cuda.synchronize()
        bad = (y[:n] != x).sum().item() + (y[n:] != 0).sum().item()
        return None if bad == 0 else f"{bad} elements wrong"
    if access in ("load", "load_any", "hostload"):
        x = torch.randn(shape.get("rows", m), WIDTH, device="cuda", generator=gen).to(tdt)
        out = torch.full((bm, bn), float("nan"), dtype=tdt, device="cuda")
        if access == "hostload":
            from triton.tools.tensor_descriptor import TensorDescriptor
            xd = TensorDescriptor(x, [m, n], [WIDTH, 1], [BM, BN])
            kernels.read_host_block[(1,)](xd, out, off[0], off[1], BM=BM, BN=BN)
        else:
            kernel = kernels.read_block_any if access == "load_any" else kernels.read_block
            kernel[(1,)](x, out, m, n, WIDTH, off[0], off[1], BM=bm, BN=bn)
        torch.cuda.synchronize()
        want = torch.zeros(bm, bn, dtype=tdt, device="cuda")
        r0, c0 = off
        rows = range(max(r0, 0), min(r0 + bm, m))
        cols = range(max(c0, 0), min(c0 + bn, n))
        if len(rows) and len(cols):
            want[rows.start - r0:rows.stop - r0, cols.start - c0:cols.stop - c0] = \
                x[rows.start:rows.stop, cols.start:cols.stop]
        wrong = (out != want) & ~(out.isnan() & want.isnan())
        return None if not wrong.any() else f"{wrong.sum().item()} elements wrong"
    out = torch.full((M, WIDTH), -1.0, dtype=tdt, device="cuda")
    kernel = kernels.write_block_any if access == "store_any" else kernels.write_block
    kernel[(1,)](out, M, n, WIDTH, off[0], off[1], BM=BM, BN=BN)
    torch.cuda.synchronize()
    want = torch.full((M, WIDTH), -1.0, dtype=tdt, device="cuda")
    for i in range(BM):
        for j in range(BN):
            r, c = off[0] + i, off[1] + j
            if 0 <= r < M and 0 <= c < n:
                want[r, c] = i * 1000 + j
    wrong = (out != want).nonzero().tolist()
    if not wrong:
        return None
    cols = sorted({c for _, c in wrong})
    return f"{len(wrong)} elements wrong, columns {cols[:8]}"


def child(name):
    import torch
    allocator, steps = CASES[name]
    keep = []

    class Scratch:
        def __init__(self, address):
            self.address = address

        def data_ptr(self):
            return self.address

    def fresh(size, alignment, stream):
        # Never reused while the process lives: no two launches share a slot.
        buffer = torch.empty(size + alignment, dtype=torch.int8, device="cuda")
        keep.append(buffer)
        return Scratch(buffer.data_ptr() + (-buffer.data_ptr()) % alignment)
    compilers = {}
    for compiler, access, dtype, n, off, *extra in steps:
        if compiler not in compilers:
            compilers[compiler] = load_kernels(compiler)
            module = __import__(compiler)
            if compiler == "triton":
                module.set_allocator(fresh)
            elif allocator == "fresh":
                module.set_allocator(fresh)
        result = run_step(torch, compilers[compiler], access, dtype, n, off, *extra)
        print(json.dumps({"step": [compiler, access, dtype, n, list(off)],
                          "result": result or "ok"}), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--case", action="append", choices=sorted(CASES))
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return 0
    env = dict(os.environ, TERRAZZO_TMA="all")
    for name in args.case or CASES:
        r = subprocess.run([sys.executable, __file__, "--child", name], env=env,
                           capture_output=True, text=True, timeout=300)
        done = [json.loads(line) for line in r.stdout.splitlines() if line.startswith("{")]
        print(f"== {name} ({CASES[name][0]} scratch): rc {r.returncode}")
        for step in done:
            print(f"   {step['step']}: {step['result']}")
        steps = CASES[name][1]
        for step in steps[len(done):]:
            print(f"   {list(step)}: did not finish")
        if r.returncode:
            print("   " + "\n   ".join(r.stderr.strip().splitlines()[-4:]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
