"""Compile time and peak memory against block size (issue 21, item 3).

    PYTHONPATH=build/python /usr/bin/python3 bench/compile-time.py build \
        [--min 10] [--max 20] [--kinds elementwise,reduction,convert,dot] \
        [--timeout 600] [--target cuda:90] [--num-warps 4]

For each kernel kind and block of 2^k elements (k from --min to --max),
the Python frontend writes the kernel's tile IR (no GPU, no extension), then
`terrazzo-compile --emit=ptx` compiles it in a fresh process: the table has
its wall time and peak resident memory, the time of the MLIR pipelines
alone (`terrazzo-opt` with the same three pipelines and -mlir-timing, with
the slowest pass named) and the rest (translation to LLVM IR, LLVM's O3
and the NVPTX code generator). A compile must grow no faster than the
elements each thread holds (2^k / (32 * num_warps)): the last column is
the time per element per thread, relative to the smallest block's.

Kinds, all float32 except the dot's float16 operands:
  elementwise  out = x * 2 + y over a 1-D block
  reduction    the row sums of a [2^(k/2), 2^(k-k/2)] block (axis 1)
  convert      a [2^(k/2), 2^(k-k/2)] block stored transposed (tl.trans:
               a layout conversion)
  dot          a [M, 32] x [32, N] product into an [M, N] = 2^k accumulator
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import terrazzo as triton
import terrazzo.language as tl


class Pointer:
    """A pointer argument as the frontend's key sees it (no GPU)."""

    def __init__(self, dtype="float32"):
        self.dtype = dtype

    def data_ptr(self):
        return 1 << 20


@triton.jit
def elementwise(x, y, out, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + offs, tl.load(x + offs) * 2.0 + tl.load(y + offs))


@triton.jit
def reduction(x, out, R: tl.constexpr, C: tl.constexpr):
    rows = tl.arange(0, R)
    block = tl.load(x + rows[:, None] * C + tl.arange(0, C)[None, :])
    tl.store(out + rows, tl.sum(block, axis=1))


@triton.jit
def convert(x, out, R: tl.constexpr, C: tl.constexpr):
    rows = tl.arange(0, R)
    cols = tl.arange(0, C)
    block = tl.load(x + rows[:, None] * C + cols[None, :])
    tl.store(out + cols[:, None] * R + rows[None, :], tl.trans(block))


@triton.jit
def dot(a, b, c, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    x = tl.load(a + rm[:, None] * K + rk[None, :])
    y = tl.load(b + rk[:, None] * N + rn[None, :])
    tl.store(c + rm[:, None] * N + rn[None, :], tl.dot(x, y))


def tile_ir(kind: str, k: int) -> str:
    f32 = Pointer()
    rows, cols = 1 << (k // 2), 1 << (k - k // 2)
    if kind == "elementwise":
        return elementwise.ir(f32, f32, f32, BLOCK=1 << k)
    if kind == "reduction":
        return reduction.ir(f32, f32, R=rows, C=cols)
    if kind == "convert":
        return convert.ir(f32, f32, R=rows, C=cols)
    if kind == "dot":
        f16 = Pointer("float16")
        return dot.ir(f16, f16, f32, M=rows, N=cols, K=32)
    raise ValueError(kind)


def run(command, timeout):
    """(seconds, returncode or None on timeout, stderr)."""
    start = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return time.perf_counter() - start, None, ""
    return time.perf_counter() - start, proc.returncode, err.decode(errors="replace")


def compile_time(build: Path, path: Path, target: str, warps: int, timeout: float):
    """(seconds, peak MiB, error or None) of terrazzo-compile --emit=ptx
    (peak resident memory as /usr/bin/time reports it)."""
    command = ["/usr/bin/time", "-f", "peak-kb %M",
               str(build / "bin" / "terrazzo-compile"), str(path), f"--target={target}",
               f"--num-warps={warps}", "--emit=ptx", "-o", "/dev/null"]
    seconds, code, err = run(command, timeout)
    if code is None:
        return seconds, None, f"timeout after {timeout:.0f} s"
    peak = re.search(r"peak-kb (\d+)", err)
    mib = int(peak.group(1)) / 1024 if peak else None
    if code != 0:
        first = next((line for line in err.splitlines() if "error" in line), err.strip())
        return seconds, mib, first.strip()[:120]
    return seconds, mib, None


def mlir_time(build: Path, path: Path, target: str, warps: int, timeout: float):
    """(seconds of the MLIR pipelines, slowest pass and its seconds)."""
    pipeline = (f"builtin.module(terrazzo-tile-pipeline{{target={target}}},"
                f"terrazzo-tilegpu-pipeline{{target={target} num-warps={warps}}},"
                "terrazzo-llvm-pipeline)")
    command = [str(build / "bin" / "terrazzo-opt"), str(path), f"--pass-pipeline={pipeline}",
               "-mlir-timing", "-o", "/dev/null"]
    _, code, err = run(command, timeout)
    if code is None:
        return None, "timeout", None
    total, slowest = None, ("", 0.0)
    for line in err.splitlines():
        m = re.match(r"\s*([\d.]+)\s+\(\s*[\d.]+%\)\s+(.*\S)\s*$", line)
        if not m:
            continue
        seconds, name = float(m.group(1)), m.group(2)
        if name == "Total":
            total = seconds
        elif name not in ("Parser", "Output", "Rest") and "Pipeline" not in name \
                and seconds > slowest[1]:
            slowest = (name, seconds)
    return total, slowest[0], slowest[1]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", type=Path)
    parser.add_argument("--min", type=int, default=10)
    parser.add_argument("--max", type=int, default=20)
    parser.add_argument("--kinds", default="elementwise,reduction,convert,dot")
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--target", default="cuda:90")
    parser.add_argument("--num-warps", type=int, default=4)
    args = parser.parse_args(argv)
    threads = 32 * args.num_warps
    print(f"target {args.target}, {args.num_warps} warps ({threads} threads); "
          f"terrazzo-compile --emit=ptx, one process per compile")
    print()
    print("| kernel | elements | per thread | compile s | peak MiB | MLIR s | slowest MLIR pass "
          "| LLVM s | ms per element per thread |")
    print("|---|---:|---:|---:|---:|---:|---|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for kind in args.kinds.split(","):
            for k in range(args.min, args.max + 1):
                path = Path(tmp) / f"{kind}-{k}.mlir"
                path.write_text(tile_ir(kind, k))
                per_thread = max((1 << k) // threads, 1)
                seconds, mib, error = compile_time(args.build, path, args.target,
                                                   args.num_warps, args.timeout)
                mlir, slowest, slowest_s = mlir_time(args.build, path, args.target,
                                                     args.num_warps, args.timeout)
                rate = 1000 * seconds / per_thread
                mib_text = f"{mib:.0f}" if mib is not None else "-"
                mlir_text = f"{mlir:.2f}" if mlir is not None else "-"
                llvm_text = f"{seconds - mlir:.2f}" if mlir is not None and not error else "-"
                slow = f"{slowest} {slowest_s:.2f}" if slowest_s is not None else slowest
                note = f" ({error})" if error else ""
                print(f"| {kind} | 2^{k} | {per_thread} | {seconds:.2f}{note} | {mib_text} "
                      f"| {mlir_text} | {slow} | {llvm_text} | {rate:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
