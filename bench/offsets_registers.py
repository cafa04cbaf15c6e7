#!/usr/bin/env python3
"""What 64-bit offsets (terrazzo-promote-offsets) cost in registers: the
register count and spills ptxas reports for tutorial 06's attention forward
and the matmul kernels of tutorials 03 and 09, compiled for sm_90 with the
promotion off (TERRAZZO_PROMOTE_OFFSETS=0) and on for every pointer
(TERRAZZO_PROMOTE_OFFSETS=1: what tensors of 2 GiB or more, or of unknown
size, get by default). By default (the variable unset) a tensor smaller
than 2 GiB, as here, keeps its offsets: the "default = off" column says
whether that PTX is byte-identical to the PTX with the promotion off. No
GPU needed: ptxas from $CUDA_HOME/bin (default /usr/local/cuda).

    PYTHONPATH=build/python /usr/bin/python3 bench/offsets_registers.py [--target cuda:90]

Prints one Markdown row per kernel: registers and spill bytes (stores +
loads) off and on, and the number of 64-bit integer instructions
(add/mul/mad/shl/cvt on .s64/.u64) in the PTX off and on, and whether the
global accesses (loads, stores, cp.async, by width) are the same. Exits 1
if a kernel needs more registers, spills more or accesses memory
differently with the promotion on, or if the default's PTX is not that
of the promotion off.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
PTXAS = Path(os.environ.get("CUDA_HOME", "/usr/local/cuda")) / "bin" / "ptxas"
# The environment variable that turns the promotion off ("0") or on for
# every pointer ("1"); unset, for the pointers that may address 2 GiB or
# more.
SWITCH = "TERRAZZO_PROMOTE_OFFSETS"
WIDE_OP = re.compile(r"^\s*(?:add|sub|mul|mad|shl|cvt)(?:\.\w+)*\.[su]64\b", re.M)
# Global memory accesses with their widths: the promotion must not narrow a
# vector access (AxisInfo has to see through the rewritten offsets).
ACCESS = re.compile(r"^\s*(?:@%p\d+\s+)?((?:ld|st)\.global[.\w]*|cp\.async\.c[ag]\.shared\.global)"
                    r"(?:.*,\s*(\d+)\s*(?:,\s*%r\d+)?;)?", re.M)


def load_tutorial(file: str):
    spec = importlib.util.spec_from_file_location(file[:-3].replace("-", "_"),
                                                  REPO / "tutorials" / file)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def cases():
    """(name, kernel, args, keywords) of every kernel measured."""
    attn = load_tutorial("06-fused-attention.py")
    for head_dim in (64, 128):
        q = np.zeros((1, 2, 1024, head_dim), np.float16)
        lse = np.zeros((1, 2, 1024), np.float32)
        s = attn._strides(q)
        for causal in (True, False):
            cfg = attn.fwd_config(head_dim, causal, False)
            if causal:
                cfg["BLOCK_N"] = min(cfg["BLOCK_N"], cfg["BLOCK_M"])
            yield (f"06 _attn_fwd D={head_dim} {'causal' if causal else 'full'}",
                   attn._attn_fwd, (q, q, q, 0.125, lse, q, *s, *s, *s, *s, 2, 1024),
                   dict(HEAD_DIM=head_dim, CAUSAL=causal, EVEN_N=True, **cfg))
    mm = load_tutorial("03-matrix-multiplication.py")
    a = np.zeros((256, 256), np.float16)
    for i, cfg in enumerate(mm.get_autotune_configs()):
        c = cfg.kwargs
        yield (f"03 matmul {c['BLOCK_SIZE_M']}x{c['BLOCK_SIZE_N']}x{c['BLOCK_SIZE_K']} "
               f"w{cfg.num_warps} s{cfg.num_stages}",
               mm.matmul_kernel.fn, (a, a, a, 256, 256, 256, 256, 1, 256, 1, 256, 1),
               dict(ACTIVATION="", num_warps=cfg.num_warps, num_stages=cfg.num_stages, **c))
    pm = load_tutorial("09-persistent-matmul.py")
    scale = np.zeros(256, np.float32)
    for cfg in pm.persistent_configs():
        c = cfg.kwargs
        shape = (f"{c['BLOCK_SIZE_M']}x{c['BLOCK_SIZE_N']}x{c['BLOCK_SIZE_K']} "
                 f"w{cfg.num_warps} s{cfg.num_stages}")
        common = dict(num_warps=cfg.num_warps, num_stages=cfg.num_stages, SCALING=0, **c)
        yield (f"09 persistent {shape}", pm.matmul_persistent_kernel,
               (a, a, a, scale, scale, 256, 256, 256, 256, 1, 256, 1, 256, 1), common)
        for flat in (False, True):
            yield (f"09 tma{' flat' if flat else ''} {shape}", pm.matmul_tma_persistent_kernel,
                   (a, a, a, scale, scale, 256, 256, 256),
                   dict(common, B_COLUMN_MAJOR=False, FLAT=flat, WARP_SPECIALIZE=False))


def ptxas_usage(ptx: str, tmp: Path):
    """(registers, spill bytes) of the one kernel in `ptx`."""
    arch = re.search(r"^\.target\s+(\w+)", ptx, re.M).group(1)
    path = tmp / "kernel.ptx"
    path.write_text(ptx)
    res = subprocess.run([str(PTXAS), f"--gpu-name={arch}", "-v", str(path), "-o",
                          str(tmp / "kernel.cubin")], capture_output=True, text=True)
    if res.returncode:
        raise RuntimeError(f"ptxas failed: {res.stderr}")
    regs = int(re.search(r"Used (\d+) registers", res.stderr).group(1))
    spills = sum(int(n) for n in re.findall(r"(\d+) bytes spill (?:stores|loads)", res.stderr))
    return regs, spills


def accesses(ptx: str):
    """The global loads, stores and asynchronous copies, with their widths."""
    counts = {}
    for m in ACCESS.finditer(ptx):
        key = m.group(1) if m.group(1).startswith(("ld", "st")) else f"cp.async {m.group(2)}"
        counts[key] = counts.get(key, 0) + 1
    return counts


def measure(kernel, args, kwargs, setting, tmp: Path):
    """(registers, spill bytes, 64-bit integer ops, accesses, PTX) with
    SWITCH set to `setting` (None: unset)."""
    if setting is None:
        os.environ.pop(SWITCH, None)
    else:
        os.environ[SWITCH] = setting
    ptx = kernel.compile(*args, stage="ptx", **kwargs)
    regs, spills = ptxas_usage(ptx, tmp)
    return regs, spills, len(WIDE_OP.findall(ptx)), accesses(ptx), ptx


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", default="cuda:90")
    parser.add_argument("--only", default="", help="substring of the kernels' names")
    opts = parser.parse_args()
    os.environ["TERRAZZO_TARGET"] = opts.target
    saved = os.environ.get(SWITCH)
    worse = []
    print("| kernel | registers off | registers on | spill bytes off | spill bytes on "
          "| 64-bit int ops off | 64-bit int ops on | accesses | default = off |")
    print("|---|---:|---:|---:|---:|---:|---:|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for name, kernel, args, kwargs in cases():
            if opts.only not in name:
                continue
            off = measure(kernel, args, kwargs, "0", Path(tmp))
            on = measure(kernel, args, kwargs, "1", Path(tmp))
            default = measure(kernel, args, kwargs, None, Path(tmp))
            same = "same" if on[3] == off[3] else f"differ: {off[3]} -> {on[3]}"
            identical = "yes" if default[4] == off[4] else "NO"
            print(f"| {name} | {off[0]} | {on[0]} | {off[1]} | {on[1]} | {off[2]} | {on[2]} "
                  f"| {same} | {identical} |", flush=True)
            if on[0] > off[0] or on[1] > off[1] or on[3] != off[3] or default[4] != off[4]:
                worse.append(name)
    if saved is None:
        os.environ.pop(SWITCH, None)
    else:
        os.environ[SWITCH] = saved
    if worse:
        print(f"more registers or spills, or other accesses, with the promotion on, or "
              f"a default unlike the promotion off: {', '.join(worse)}")
    return 1 if worse else 0


if __name__ == "__main__":
    sys.exit(main())
