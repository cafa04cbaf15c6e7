#!/usr/bin/env python3
"""Compiles the GPU test kernels (test/GPU/kernels/*.mlir; those written in
32-lane layouts through their wave64 counterparts, test/GPU/kernels/wave64/)
and the tutorials' kernels (the cases of scripts/dump-ptx.py) for the AMD
CDNA targets and reports, per target, how many became code objects with no
undefined symbol (llvm-nm of LLVM 22) and why the others did not. No AMD
GPU is needed: nothing runs.

    PYTHONPATH=build/python /usr/bin/python3 scripts/amd-compile-check.py build \
        [--attention] [--target=hip:gfx942 ...]

--attention adds tutorial 06's kernels (the forward, causal and not, at the
tutorial's configuration, and the backward's) and prints each one's
compile time; --target restricts the check to the targets named. The
exit status is 1 when a kernel did not compile (scripts/test.sh runs the
check, attention included, as one test). The
kernels compile into a kernel cache of their own (TERRAZZO_CACHE_DIR in the
temporary folder), so that the times are compiles and not cache hits.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TARGETS = ("hip:gfx90a", "hip:gfx942", "hip:gfx950")
LLVM_NM = "/usr/lib/llvm-22/bin/llvm-nm"


def undefined_symbols(path: Path) -> list:
    out = subprocess.run([LLVM_NM, "-D", "--undefined-only", str(path)],
                         capture_output=True, text=True, check=True).stdout
    return out.split()


def first_error(text: str) -> str:
    lines = [line for line in text.splitlines() if "error" in line]
    return (lines or text.splitlines() or ["?"])[0].strip()[:160]


def check_lit_kernels(compiler: Path, target: str, folder: Path, results: list):
    kernels = REPO / "test" / "GPU" / "kernels"
    for source in sorted(kernels.glob("*.mlir")):
        name = f"test/GPU/kernels/{source.name}"
        # Hand-written tilegpu IR in 32-lane layouts has a wave64
        # counterpart (same kernel and results, layouts over 64 lanes),
        # compiled in its place and named in the report.
        counterpart = kernels / "wave64" / source.name
        if counterpart.exists():
            source = counterpart
            name += " (as wave64/" + source.name + ")"
        out = folder / f"{source.stem}.{target.replace(':', '-')}.hsaco"
        res = subprocess.run([str(compiler), str(source), f"--target={target}", "-o", str(out)],
                             capture_output=True, text=True)
        if res.returncode != 0:
            results.append((name, first_error(res.stderr)))
        else:
            missing = undefined_symbols(out)
            results.append((name, f"undefined: {missing}" if missing else None))


def check_tutorials(target: str, folder: Path, attention: bool, results: list,
                    times: list):
    import numpy as np
    spec = importlib.util.spec_from_file_location("dump_ptx", REPO / "scripts" / "dump-ptx.py")
    dump_ptx = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dump_ptx)
    for tag, kernel, args, kw in dump_ptx.tutorial_jobs(np):
        if tag.startswith("06-") and not attention:
            continue
        tag = "tutorials/" + tag
        start = time.perf_counter()
        try:
            hsaco = kernel.compile(*args, target=target, stage="hsaco", **kw)
        except Exception as e:  # reported, not raised
            results.append((tag, first_error(str(e)) or type(e).__name__))
            continue
        finally:
            if tag.startswith("tutorials/06-"):
                times.append((tag, time.perf_counter() - start))
        out = folder / f"tutorial.{target.replace(':', '-')}.hsaco"
        out.write_bytes(hsaco)
        missing = undefined_symbols(out)
        results.append((tag, f"undefined: {missing}" if missing else None))


def main():
    build = Path(sys.argv[1]).resolve()
    options = sys.argv[2:]
    attention = "--attention" in options
    targets = [o.split("=", 1)[1] for o in options if o.startswith("--target=")] or TARGETS
    compiler = build / "bin" / "terrazzo-compile"
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["TERRAZZO_CACHE_DIR"] = str(Path(tmp) / "kernel-cache")
        for target in targets:
            os.environ.pop("TERRAZZO_TARGET", None)
            results, times = [], []
            check_lit_kernels(compiler, target, Path(tmp), results)
            check_tutorials(target, Path(tmp), attention, results, times)
            good = sum(1 for _, why in results if why is None)
            print(f"{target}: {good} of {len(results)} kernels compiled to hsaco files "
                  "with no undefined symbol")
            for name, why in results:
                if why is not None:
                    failed = True
                    print(f"  {name}: {why}")
            for name, seconds in times:
                print(f"  {name}: compiled in {seconds:.1f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
