#!/usr/bin/env python3
"""Where ptxas put a kernel's waits, dots and exponentials, without a GPU.

Assembles a PTX file with ptxas for sm_90a (or reads a cubin), takes the
kernel's code section out with llvm-objcopy, and prints one character per
SASS instruction, classified by its opcode bits:

    H   HGMMA (wgmma.mma_async, either operand form)
    A   WARPGROUP.ARRIVE (wgmma.fence)
    D0  WARPGROUP.DEPBAR.LE gsb0, 0 (wgmma.wait_group 0; D1 for 1, ...)
    E   MUFU (ex2.approx and the other special functions)
    m   FMNMX (max.f32, min.f32)
    p   F2FP (cvt.rn.f16x2.f32 and the other packing conversions)
    B   BAR.SYNC (bar.sync, barrier.sync)      b   BAR.ARRIVE
        (with the thread count immediate or in a register)
    |   BRA
    .   anything else

followed by the count of each class (and with `--loops`, each loop apart:
the instructions from a backward branch's target to the branch). That is
enough to see, for instance,
whether ptxas kept a wait for a dot after the softmax that should overlap
it (session 27: `...HHD1mmmm...D0mmm...E...` against `...EEEED0ppp`).
Nsight Compute and cuobjdump give the full listing on a machine with the
CUDA toolkit's binaries; this needs only ptxas and LLVM's objcopy, which
the development machine has.

The opcodes are not documented by NVIDIA: they were read off ptxas's
output for PTX whose instructions are known, and `--self-test` checks
them again the same way against the installed ptxas (python/test/
test_sass_outline.py runs it where ptxas is installed).

    python3 bench/sass_outline.py KERNEL.ptx [--kernel NAME] [--loops]
    python3 bench/sass_outline.py KERNEL.cubin --kernel NAME
    python3 bench/sass_outline.py --self-test
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

OBJCOPY_CANDIDATES = ("llvm-objcopy-22", "llvm-objcopy", "/usr/lib/llvm-22/bin/llvm-objcopy")

# Low 12 bits of an instruction's first 64-bit word -> class. Two classes
# need more bits (see classify).
OPCODES = {
    0x9F0: "H",  # HGMMA, both operands from shared memory
    0xDF0: "H",  # HGMMA, A from registers
    0x9C5: "A",  # WARPGROUP.ARRIVE, or WARPGROUP.DEPBAR with bit 47 set
    0x308: "E",  # MUFU
    0x209: "m",  # FMNMX
    0x23E: "p",  # F2FP
    0xB1D: "B",  # BAR.SYNC, or BAR.ARRIVE (see classify)
    0x91D: "B",  # the same with the thread count in a register
    0x947: "|",  # BRA
}
CLASSES = "HADEmpBb|"


def find_tool(names, env=None):
    if env and os.environ.get(env):
        return os.environ[env]
    for name in names:
        found = shutil.which(name) or (name if os.path.isabs(name) and os.path.exists(name) else None)
        if found:
            return found
    return None


def find_ptxas():
    """As the tests find it (python/test/conftest.py): $PTXAS, PATH, then
    the CUDA installations."""
    roots = (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda")
    return find_tool(("ptxas",) + tuple(os.path.join(root, "bin", "ptxas") for root in roots if root),
                     env="PTXAS")


def classify(lo: int, hi: int) -> str:
    """The class of one instruction (its two 64-bit words)."""
    cls = OPCODES.get(lo & 0xFFF, ".")
    if cls == "A" and (lo >> 47) & 1:
        return "D%d" % ((hi >> 8) & 0x3)
    if cls == "B" and (hi >> 13) & 0x1 and not (hi >> 16) & 0x1:
        return "b"
    return cls


def instructions(code: bytes):
    for offset in range(0, len(code) - 15, 16):
        yield struct.unpack_from("<QQ", code, offset)


def outline(code: bytes) -> list[str]:
    return [classify(lo, hi) for lo, hi in instructions(code)]


def branch_target(index: int, lo: int) -> int:
    """The instruction a BRA at `index` jumps to: its offset from the next
    instruction, in 4-byte units, is bits 16-23 of the first word with the
    sign and high bits from bit 34 up (read off ptxas's loops of known
    length, as the opcodes)."""
    units = ((lo >> 34) << 8) | ((lo >> 16) & 0xFF)
    if units >= 1 << 37:
        units -= 1 << 38
    return index + 1 + (4 * units) // 16


def loops(code: bytes) -> list[tuple[int, int]]:
    """(first, last) instruction of each backward branch's loop, innermost
    first: the branch's target and the branch itself."""
    found = []
    for index, (lo, hi) in enumerate(instructions(code)):
        if classify(lo, hi) == "|":
            target = branch_target(index, lo)
            if target < index:
                found.append((target, index))
    return sorted(found, key=lambda loop: loop[1] - loop[0])


def kernel_names(ptx: str) -> list[str]:
    return re.findall(r"\.entry\s+([A-Za-z_$][\w$]*)", ptx)


def assemble(ptx_path: Path, cubin: Path, arch: str, ptxas: str) -> None:
    run = subprocess.run([ptxas, f"-arch={arch}", str(ptx_path), "-o", str(cubin)],
                         capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"ptxas failed on {ptx_path}:\n{run.stderr}")


def code_section(cubin: Path, kernel: str, objcopy: str) -> bytes:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "text"
        run = subprocess.run([objcopy, "-O", "binary", f"--only-section=.text.{kernel}",
                              str(cubin), str(out)], capture_output=True, text=True)
        if run.returncode != 0 or not out.exists() or out.stat().st_size == 0:
            raise SystemExit(f"no code section .text.{kernel} in {cubin}: {run.stderr.strip()}")
        return out.read_bytes()


def kernel_outline(path: Path, kernel: str | None, arch: str, ptxas: str | None,
                   objcopy: str) -> tuple[str, list[str], list[tuple[int, int]]]:
    """The kernel's name, its instructions' classes and its loops."""
    with tempfile.TemporaryDirectory() as tmp:
        cubin = path
        if path.suffix != ".cubin":
            if not ptxas:
                raise SystemExit("no ptxas: set PTXAS or CUDA_HOME, or pass a cubin")
            if kernel is None:
                names = kernel_names(path.read_text())
                if not names:
                    raise SystemExit(f"no .entry in {path}")
                kernel = names[0]
            cubin = Path(tmp) / "kernel.cubin"
            assemble(path, cubin, arch, ptxas)
        elif kernel is None:
            raise SystemExit("a cubin needs --kernel")
        code = code_section(cubin, kernel, objcopy)
        return kernel, outline(code), loops(code)


def report(kernel: str, classes: list[str], kernel_loops=(), out=sys.stdout) -> None:
    counts = collections.Counter(c if not c.startswith("D") else "D" for c in classes)
    print(f"{kernel}: {len(classes)} instructions", file=out)
    print("".join(classes), file=out)
    print("  ".join(f"{c}:{counts[c]}" for c in CLASSES if counts[c]), file=out)
    for first, last in kernel_loops:
        print(f"loop, instructions {first}-{last} ({last - first + 1}):", file=out)
        print("".join(classes[first:last + 1]), file=out)


# --- self-test -------------------------------------------------------------

_PROBE = """.version 8.3
.target sm_90a
.address_size 64
.visible .entry probe(.param .u64 p)
{{
.reg .b32 %r<16>; .reg .f32 %f<16>; .reg .b64 %rd<4>; .reg .pred %q<2>;
ld.param.u64 %rd1, [p];
ld.global.v4.f32 {{%f1, %f2, %f3, %f4}}, [%rd1];
ld.global.v4.b32 {{%r1, %r2, %r3, %r4}}, [%rd1+16];
ld.global.u64 %rd2, [%rd1+32];
ld.global.u64 %rd3, [%rd1+40];
{body}
st.global.v4.f32 [%rd1], {{%f5, %f6, %f7, %f8}};
ret;
}}
"""
_COPY = "mov.f32 %f5, %f1; mov.f32 %f6, %f2; mov.f32 %f7, %f3; mov.f32 %f8, %f4;"
_WGMMA = ("wgmma.fence.sync.aligned; {{ .reg .pred z; setp.ne.b32 z, %r1, 0; "
          "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {{%f5, %f6, %f7, %f8}}, "
          "{a}, %rd3, z, 1, 1, {trans}; }} wgmma.commit_group.sync.aligned; {waits}")
# (body, the classes it must add to the baseline's outline and how many).
SELF_TEST = {
    "ex2.approx": (" ".join(f"ex2.approx.ftz.f32 %f{5 + i}, %f{1 + i};" for i in range(4)),
                   {"E": 4}),
    "max.f32": (" ".join(f"max.f32 %f{5 + i}, %f{1 + i}, %f{1 + (i + 1) % 4};" for i in range(4)),
                {"m": 4}),
    "cvt.rn.f16x2.f32": ("cvt.rn.f16x2.f32 %r5, %f1, %f2; mov.b32 %f5, %r5; "
                         "cvt.rn.f16x2.f32 %r6, %f3, %f4; mov.b32 %f6, %r6; "
                         "mov.f32 %f7, %f3; mov.f32 %f8, %f4;", {"p": 2}),
    "bar.sync": ("bar.sync 1, 128; " + _COPY, {"B": 1}),
    "bar.arrive": ("bar.arrive 1, 128; " + _COPY, {"b": 1}),
    "bar.arrive, count in a register": (
        "{ .reg .b32 n; or.b32 n, %r1, 128; and.b32 n, n, 224; bar.arrive 1, n; } " + _COPY,
        {"b": 1}),
    "bar.sync, count in a register": (
        "{ .reg .b32 n; or.b32 n, %r1, 128; and.b32 n, n, 224; bar.sync 1, n; } " + _COPY,
        {"B": 1}),
    "wgmma, A from shared memory": (
        _COPY + _WGMMA.format(a="%rd2", trans="0, 0",
                              waits="wgmma.wait_group.sync.aligned 0;"),
        {"A": 1, "H": 1, "D0": 1}),
    "wgmma, A from registers": (
        _COPY + _WGMMA.format(a="{%r1, %r2, %r3, %r4}", trans="1",
                              waits="wgmma.wait_group.sync.aligned 1; "
                                    "wgmma.wait_group.sync.aligned 0;"),
        {"A": 1, "H": 1, "D1": 1, "D0": 1}),
}


def self_test(ptxas: str, objcopy: str) -> list[str]:
    """Assembles each probe and checks that its instructions, and only
    those, add to the classes of a baseline probe; returns the failures."""
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        def classes_of(body):
            ptx = Path(tmp) / "probe.ptx"
            ptx.write_text(_PROBE.format(body=body))
            return kernel_outline(ptx, "probe", "sm_90a", ptxas, objcopy)[1]

        base = collections.Counter(c for c in classes_of(_COPY) if c != ".")
        for name, (body, want) in SELF_TEST.items():
            got = collections.Counter(c for c in classes_of(body) if c != ".")
            got.subtract(base)
            added = {c: n for c, n in got.items() if n}
            if added != want:
                failures.append(f"{name}: classes added {added}, expected {want}")
    return failures


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input", nargs="?", type=Path, help="a .ptx file, or a .cubin")
    parser.add_argument("--kernel", help="the kernel (default: the PTX's first .entry)")
    parser.add_argument("--arch", default="sm_90a")
    parser.add_argument("--loops", action="store_true",
                        help="also print each loop (a backward branch's range) apart")
    parser.add_argument("--self-test", action="store_true",
                        help="check the opcode classes against the installed ptxas")
    args = parser.parse_args(argv)
    ptxas = find_ptxas()
    objcopy = find_tool(OBJCOPY_CANDIDATES, env="OBJCOPY")
    if not objcopy:
        raise SystemExit("no llvm-objcopy: install llvm-22-tools or set OBJCOPY")
    if args.self_test:
        if not ptxas:
            raise SystemExit("no ptxas: set PTXAS or CUDA_HOME")
        failures = self_test(ptxas, objcopy)
        for failure in failures:
            print(failure)
        print(f"{len(SELF_TEST) - len(failures)} of {len(SELF_TEST)} probes classified as expected")
        return 1 if failures else 0
    if args.input is None:
        parser.error("give a .ptx or .cubin, or --self-test")
    kernel, classes, kernel_loops = kernel_outline(args.input, args.kernel, args.arch, ptxas,
                                                   objcopy)
    report(kernel, classes, kernel_loops if args.loops else ())
    return 0


if __name__ == "__main__":
    sys.exit(main())
