#!/usr/bin/env python3
"""Writes the PTX of every lit input and every tutorial kernel to a folder,
so that two builds (before and after a refactor) can be compared with
`diff -r`.

    PYTHONPATH=build/python /usr/bin/python3 scripts/dump-ptx.py build OUT

Lit inputs: each `.mlir` file under test/ and tutorials/, split at
`// -----` and into `split-file` parts, compiled with terrazzo-compile
--emit=ptx for every (target, num-warps) its RUN lines name and for cuda:80
and cuda:90 with the default warps. An input that does not compile writes
its diagnostics instead, so that those are compared too.

Tutorial kernels: each tutorial's kernels at representative arguments,
through `kernel.compile(..., stage="ptx")` with TERRAZZO_TARGET=cuda:90 and
cuda:80 (a failure writes its message).
"""

from __future__ import annotations

import concurrent.futures
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SPLIT_FILE = "/usr/lib/llvm-22/bin/split-file"
RUN_COMPILE = re.compile(r"RUN:.*terrazzo-compile\s+(\S+)(.*)")


def lit_units(workdir: Path):
    """(name, path, [(target, num_warps or None)]) for every compilable unit."""
    units = []
    files = sorted(list((REPO / "test").rglob("*.mlir")) + list((REPO / "tutorials").glob("*.mlir")))
    for path in files:
        rel = path.relative_to(REPO).as_posix().replace("/", "_")
        text = path.read_text()
        combos = {("cuda:80", None), ("cuda:90", None)}
        for line in text.splitlines():
            m = RUN_COMPILE.search(line)
            if not m:
                continue
            target = re.search(r"--target=(\S+)", m.group(2))
            warps = re.search(r"--num-warps=(\d+)", m.group(2))
            if target and target.group(1).startswith("cuda:"):
                combos.add((target.group(1), warps.group(1) if warps else None))
        combos = sorted(combos, key=lambda c: (c[0], c[1] or ""))
        if re.search(r"^//--- ", text, re.M):
            part_dir = workdir / rel
            part_dir.mkdir(parents=True, exist_ok=True)
            subprocess.run([SPLIT_FILE, str(path), str(part_dir)], check=True)
            for part in sorted(part_dir.iterdir()):
                if part.suffix == ".mlir":
                    units.append((f"{rel}.{part.name}", part, combos))
        elif re.search(r"^// -----", text, re.M):
            for i, chunk in enumerate(re.split(r"^// -----.*$", text, flags=re.M)):
                chunk_path = workdir / f"{rel}.{i}.mlir"
                chunk_path.write_text(chunk)
                units.append((f"{rel}.{i}", chunk_path, combos))
        else:
            units.append((rel, path, combos))
    return units


def compile_unit(compiler: str, out: Path, name: str, path: Path, target: str, warps):
    tag = f"{name}.{target.replace(':', '')}.w{warps or 'default'}"
    cmd = [compiler, str(path), f"--target={target}", "--emit=ptx", "-o", "-"]
    if warps:
        cmd.append(f"--num-warps={warps}")
    res = subprocess.run(cmd, capture_output=True, text=True, cwd=path.parent)
    if res.returncode == 0:
        (out / f"{tag}.ptx").write_text(res.stdout)
        return True
    # Paths of temporary chunks differ between runs: keep only the message.
    err = res.stderr.replace(str(path), "<input>")
    (out / f"{tag}.error.txt").write_text(f"rc={res.returncode}\n{err}")
    return False


def tutorial_cases(np):
    """(tutorial file, kernel attribute path, args, keywords) to compile."""
    x16 = np.zeros(16, np.float32)
    cases = [
        ("01-vector-add.py", "add_kernel", (x16, x16, x16, 98432), dict(BLOCK_SIZE=1024)),
        ("02-fused-softmax.py", "softmax_kernel",
         (np.zeros((4, 781), np.float32),) * 2 + (781, 781, 4, 781),
         dict(BLOCK_SIZE=1024, num_stages=2)),
        ("04-low-memory-dropout.py", "_dropout", (x16, x16, x16, 98432, 0.5),
         dict(BLOCK_SIZE=1024)),
        ("04-low-memory-dropout.py", "_seeded_dropout", (x16, x16, 98432, 0.5, 123),
         dict(BLOCK_SIZE=1024)),
        ("07-extern-functions.py", "asin_kernel", (x16, x16, 98432), dict(BLOCK_SIZE=1024)),
    ]
    x = np.zeros((4, 300), np.float32)
    w = np.zeros(300, np.float32)
    cases.append(("05-layer-norm.py", "_layer_norm_fwd_fused",
                  (x, x, w, w, w[:4], w[:4], 300, 300, 1e-5), dict(BLOCK_SIZE=512)))
    lock = np.zeros(64, np.int32)
    cases.append(("05-layer-norm.py", "_layer_norm_bwd_dx_fused",
                  (x, x, x, x, x, w, w[:4], w[:4], lock, 300, 300),
                  dict(GROUP_SIZE_M=32, BLOCK_SIZE_N=512, num_warps=8)))
    cases.append(("05-layer-norm.py", "_layer_norm_bwd_dwdb", (x, x, w, w, 32, 300),
                  dict(BLOCK_SIZE_M=32, BLOCK_SIZE_N=128)))
    a = np.zeros((256, 256), np.float16)
    for i in range(16):
        cases.append(("03-matrix-multiplication.py", f"matmul_kernel.fn#{i}",
                      (a, a, a, 256, 256, 256, 256, 1, 256, 1, 256, 1),
                      dict(ACTIVATION="leaky_relu")))
    q = np.zeros((1, 2, 1024, 64), np.float16)
    lse = np.zeros((1, 2, 1024), np.float32)
    cases.append(("06-fused-attention.py", "_attn_fwd", "fwd", None))
    cases.append(("06-fused-attention.py", "_attn_bwd_preprocess",
                  (q, q, lse, 1024), dict(BLOCK_M=64, HEAD_DIM=64)))
    for name in ("_attn_bwd_dkdv", "_attn_bwd_dq"):
        for causal in (False, True):
            cases.append(("06-fused-attention.py", name,
                          (q, q, q, 0.125, q, q) + ((q,) if name == "_attn_bwd_dkdv" else ())
                          + (lse, lse, 1024),
                          dict(HEAD_DIM=64, CAUSAL=causal, BLOCK_M=64, BLOCK_N=64,
                               num_warps=4, num_stages=3,
                               **(dict(STAGES=3) if name == "_attn_bwd_dq" else {}))))
    return cases


def tutorial_jobs(np):
    """(tag, kernel, args, keywords) of every tutorial kernel compilation of
    tutorial_cases: the matrix multiplication once per autotuning
    configuration, the attention forward causal and not at the tutorial's
    configuration."""
    modules = {}
    jobs = []
    for file, attr, args, kwargs in tutorial_cases(np):
        if file not in modules:
            spec = importlib.util.spec_from_file_location(file[:-3].replace("-", "_"),
                                                          REPO / "tutorials" / file)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            modules[file] = module
        module = modules[file]
        if attr.startswith("matmul_kernel.fn#"):
            i = int(attr.split("#")[1])
            configs = module.get_autotune_configs()
            if i >= len(configs):
                continue
            cfg = configs[i]
            jobs.append((f"{file}.matmul_kernel.cfg{i}", module.matmul_kernel.fn, args,
                         dict(kwargs, num_warps=cfg.num_warps, num_stages=cfg.num_stages,
                              **cfg.kwargs)))
        elif args == "fwd":
            q = np.zeros((1, 2, 1024, 64), np.float16)
            lse = np.zeros((1, 2, 1024), np.float32)
            s = module._strides(q)
            for causal in (False, True):
                cfg = module.fwd_config(64, causal, False)
                if causal:
                    cfg["BLOCK_N"] = min(cfg["BLOCK_N"], cfg["BLOCK_M"])
                jobs.append((f"{file}._attn_fwd.causal{int(causal)}", module._attn_fwd,
                             (q, q, q, 0.125, lse, q, *s, *s, *s, *s, 2, 1024),
                             dict(HEAD_DIM=64, CAUSAL=causal, EVEN_N=True, **cfg)))
        else:
            tag = f"{file}.{attr}"
            if "CAUSAL" in kwargs:
                tag += f".causal{int(kwargs['CAUSAL'])}"
            jobs.append((tag, getattr(module, attr), args, kwargs))
    return jobs


def dump_tutorials(out: Path):
    import numpy as np
    count = 0
    for tag, kernel, kargs, kkw in tutorial_jobs(np):
        for target in ("cuda:80", "cuda:90"):
            os.environ["TERRAZZO_TARGET"] = target
            name = f"{tag}.{target.replace(':', '')}"
            try:
                ptx = kernel.compile(*kargs, stage="ptx", **kkw)
                (out / f"{name}.ptx").write_text(ptx)
                count += 1
            except Exception as e:  # compared like the PTX
                (out / f"{name}.error.txt").write_text(f"{type(e).__name__}: {e}\n")
    return count


def main():
    build, out = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()
    (out / "lit").mkdir(parents=True, exist_ok=True)
    (out / "tutorials").mkdir(parents=True, exist_ok=True)
    compiler = str(build / "bin" / "terrazzo-compile")
    with tempfile.TemporaryDirectory() as tmp:
        units = lit_units(Path(tmp))
        jobs = [(name, path, t, w) for name, path, combos in units for t, w in combos]
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            results = list(pool.map(lambda j: compile_unit(compiler, out / "lit", *j), jobs))
    print(f"lit: {sum(results)} PTX of {len(jobs)} compilations ({len(units)} inputs)")
    n = dump_tutorials(out / "tutorials")
    print(f"tutorials: {n} PTX")


if __name__ == "__main__":
    main()
