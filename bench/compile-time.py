"""Compile time and peak memory against block size (issue 21, item 3).

    PYTHONPATH=build/python /usr/bin/python3 bench/compile-time.py build \
        [--min 10] [--max 20] \
        [--kinds elementwise,reduction,convert,dot,loop] [--timeout 600] \
    [--target cuda:90] [--num-warps 4]

For each kernel kind and block of 2^k elements (k from --min to --max),
the Python frontend writes the kernel's tile IR (no GPU, no extension), then
`terrazzo-compile --emit=ptx` compiles it in a fresh process: the table has
its CPU time (user + system: the machine may be shared) and peak resident
memory, and the wall time of the MLIR passes alone (`terrazzo-opt` with the
same three pipelines and -mlir-timing, the slowest pass named); the rest of
a compile is the translation to LLVM IR, LLVM's O3 and the NVPTX code
generator. A compile must grow no faster than the
elements each thread holds (2^k / (32 * num_warps)): the last column is
the time per element per thread, relative to the smallest block's.

Kinds, all float32 except the dot's float16 operands:
  elementwise  out = x * 2 + y over a 1-D block
  reduction    the row sums of a [2^(k/2), 2^(k-k/2)] block (axis 1)
  convert      a [2^(k/2), 2^(k-k/2)] block stored transposed (tl.trans:
               a layout conversion, through shared memory: over 2^15
               elements it is rejected, as it needs more than a block has)
  dot          a [M, 32] x [32, N] product into an [M, N] = 2^k accumulator,
               whose row sums are stored
  loop         x[i] += 1 over n elements, a masked 1-D block per iteration
               of a loop (in loops, masked accesses branch around each
               access up to 64 per op, and are predicated above)
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
    # The accumulator's row sums, not the accumulator: storing it in a
    # coalesced layout would move it through shared memory, which a block
    # over 2^15 float32 elements does not fit.
    tl.store(c + rm, tl.sum(tl.dot(x, y), axis=1))


@triton.jit
def loop(x, n, BLOCK: tl.constexpr):
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n
        tl.store(x + offs, tl.load(x + offs, mask=mask) + 1.0, mask=mask)


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
    if kind == "loop":
        return loop.ir(f32, 1000, BLOCK=1 << k)
    raise ValueError(kind)


def run(command, timeout):
    """(CPU seconds, peak resident MiB, returncode or None on timeout,
    stderr) of `command`, as /usr/bin/time reports them. CPU time (user +
    system) rather than wall time: the machine may be shared."""
    command = ["/usr/bin/time", "-f", "cost %U %S %M", *command]
    start = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return time.perf_counter() - start, None, None, ""
    err = err.decode(errors="replace")
    cost = re.findall(r"^cost ([\d.]+) ([\d.]+) (\d+)$", err, re.M)
    if not cost:
        return time.perf_counter() - start, None, proc.returncode, err
    user, system, kib = cost[-1]
    return float(user) + float(system), int(kib) / 1024, proc.returncode, err


def compile_time(build: Path, path: Path, target: str, warps: int, timeout: float):
    """(CPU seconds, peak MiB, error or None) of terrazzo-compile --emit=ptx."""
    command = [str(build / "bin" / "terrazzo-compile"), str(path), f"--target={target}",
               f"--num-warps={warps}", "--emit=ptx", "-o", "/dev/null"]
    seconds, mib, code, err = run(command, timeout)
    if code is None:
        return seconds, None, f"timeout after {timeout:.0f} s"
    if code != 0:
        first = next((line for line in err.splitlines() if "error" in line), err.strip())
        return seconds, mib, first.split("error: ", 1)[-1].strip()[:90]
    return seconds, mib, None


def mlir_time(build: Path, path: Path, target: str, warps: int, timeout: float):
    """(seconds of the MLIR passes, the slowest pass and its seconds), wall
    times as -mlir-timing reports them, without parsing and printing (which
    a compile does not do; printing the LLVM dialect of a large dot alone
    takes seconds)."""
    pipeline = (f"builtin.module(terrazzo-tile-pipeline{{target={target}}},"
                f"terrazzo-tilegpu-pipeline{{target={target} num-warps={warps}}},"
                "terrazzo-llvm-pipeline)")
    command = [str(build / "bin" / "terrazzo-opt"), str(path), f"--pass-pipeline={pipeline}",
               "-mlir-timing", "-o", "/dev/null"]
    _, _, code, err = run(command, timeout)
    if code is None:
        return None, "timeout", None
    total, slowest = 0.0, ("", 0.0)
    for line in err.splitlines():
        m = re.match(r"\s*([\d.]+)\s+\(\s*[\d.]+%\)(\s+)(.*\S)\s*$", line)
        if not m or m.group(3) in ("Parser", "Output", "Rest", "Total"):
            continue
        seconds, name = float(m.group(1)), m.group(3)
        if len(m.group(2)) <= 2:  # top level: a pipeline's passes are indented
            total += seconds
        if "Pipeline" not in name and seconds > slowest[1]:
            slowest = (name, seconds)
    return total, slowest[0], slowest[1]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", type=Path)
    parser.add_argument("--min", type=int, default=10)
    parser.add_argument("--max", type=int, default=20)
    parser.add_argument("--kinds", default="elementwise,reduction,convert,dot,loop")
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--target", default="cuda:90")
    parser.add_argument("--num-warps", type=int, default=4)
    args = parser.parse_args(argv)
    threads = 32 * args.num_warps
    print(f"target {args.target}, {args.num_warps} warps ({threads} threads); "
          f"terrazzo-compile --emit=ptx, one process per compile, CPU seconds")
    print()
    print("| kernel | elements | per thread | compile CPU s | peak MiB | MLIR passes s "
          "| slowest MLIR pass s | compile ms per element per thread |")
    print("|---|---:|---:|---:|---:|---:|---|---:|")
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
                slow = f"{slowest} {slowest_s:.2f}" if slowest_s is not None else slowest
                note = f" ({error})" if error else ""
                print(f"| {kind} | 2^{k} | {per_thread} | {seconds:.2f}{note} | {mib_text} "
                      f"| {mlir_text} | {slow} | {rate:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
