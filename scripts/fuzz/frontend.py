"""The Python frontend's fuzzer: random kernels through @jit.

Each kernel is a random program over blocks loaded from two arguments
(arithmetic, comparisons, tl.where, casts, math functions, reductions,
broadcasts, ifs and loops), written to a file of its own and imported. A
well-typed kernel must give its PTX (`kernel.compile(..., stage="ptx")`,
compile only) and run in the interpreter. An ill-typed one (the same kernel
with one wrong statement) must raise a TritonError naming the
kernel's file and a line of it in both modes, with the same message. Kernels
run in a worker process, so that a crash (a signal in the compiler) or a
hang is a finding too, and the worker is started again.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import random
import re
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import List, Optional, Tuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

#: Seconds one kernel (both modes) may take before it counts as a hang.
KERNEL_TIMEOUT = 60.0

FLOATS = ["tl.float32", "tl.float16", "tl.bfloat16"]
INTS = ["tl.int32", "tl.int8", "tl.int16", "tl.int64", "tl.uint32"]
NP_TYPES = {"float32": "float32", "float16": "float16", "int32": "int32", "int16": "int16"}


class KernelGen:
    """A random kernel: values are (expression name, kind) with kind
    "f" (a float block), "i" (an integer block) or "b" (a boolean block);
    every block has BLOCK elements."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.lines: List[str] = []
        self.vals: List[Tuple[str, str]] = []
        self.n = 0

    def fresh(self) -> str:
        self.n += 1
        return f"v{self.n}"

    def pick(self, kind: str) -> str:
        names = [v for v, k in self.vals if k == kind]
        return self.rng.choice(names)

    def emit(self, expr: str, kind: str, indent: int = 1):
        name = self.fresh()
        self.lines.append("    " * indent + f"{name} = {expr}")
        self.vals.append((name, kind))
        return name

    def expr(self) -> Tuple[str, str]:
        r = self.rng
        kind = r.choice("ffib")
        if kind == "f":
            choice = r.randrange(9)
            a, b = self.pick("f"), self.pick("f")
            if choice == 0:
                return f"{a} {r.choice('+-*/')} {b}", "f"
            if choice == 1:
                return f"tl.{r.choice(['exp', 'log', 'sqrt', 'abs', 'sin', 'cos', 'floor'])}" \
                       f"(tl.abs({a}) + 1.0)", "f"
            if choice == 2:
                return f"tl.where({self.pick('b')}, {a}, {b})", "f"
            if choice == 3:
                return f"tl.maximum({a}, {b})" if r.random() < 0.5 else \
                       f"tl.minimum({a}, {b})", "f"
            if choice == 4:
                return f"{self.pick('i')}.to(tl.float32)", "f"
            if choice == 5:
                return f"{a} + tl.{r.choice(['sum', 'max', 'min'])}({b}, axis=0)", "f"
            if choice == 6:
                return f"tl.sum({a}[:, None] * {b}[None, :], axis=1)", "f"
            if choice == 7:
                return r.choice([f"tl.cumsum({a}, axis=0)", f"tl.clamp({a}, -1.0, 1.0)",
                                 f"tl.fma({a}, {b}, 1.0)", f"tl.flip({a}, 0)"]), "f"
            return f"({a}.to({r.choice(FLOATS)}) * {r.choice(['2', '0.5', '3.0'])})" \
                   ".to(tl.float32)", "f"
        if kind == "i":
            choice = r.randrange(6)
            a, b = self.pick("i"), self.pick("i")
            if choice == 0:
                return f"{a} {r.choice(['+', '-', '*', '&', '|', '^'])} {b}", "i"
            if choice == 1:
                return f"{a} {r.choice(['//', '%'])} ({b} | 1)", "i"
            if choice == 2:
                return f"{a} {r.choice(['<<', '>>'])} ({b} & 7)", "i"
            if choice == 3:
                return f"tl.where({self.pick('b')}, {a}, {b})", "i"
            if choice == 4:
                return f"{self.pick('f')}.to({r.choice(INTS)}).to(tl.int32)", "i"
            return f"{a} + tl.sum({b}, axis=0)", "i"
        choice = r.randrange(3)
        if choice == 0:
            return f"{self.pick('f')} {r.choice(['<', '<=', '>', '==', '!='])} " \
                   f"{self.pick('f')}", "b"
        if choice == 1:
            return f"{self.pick('i')} {r.choice(['<', '>=', '=='])} {self.pick('i')}", "b"
        return f"{self.pick('b')} {r.choice(['&', '|', '^'])} {self.pick('b')}", "b"

    def statements(self, count: int):
        r = self.rng
        for _ in range(count):
            shape = r.random()
            if shape < 0.7:
                self.emit(*self.expr())
            elif shape < 0.75:
                # A dot on tensor cores (16 x 16 blocks of a random dtype)
                # reduced to a scalar.
                dt = r.choice(["tl.float16", "tl.bfloat16", "tl.float32"])
                s = self.pick("f")
                self.emit(f"{s} + tl.sum(tl.sum(tl.dot(tl.full([16, 16], 0.5, {dt}), "
                          f"(tl.full([16, 16], 1.0, tl.float32) * tl.sum({s}, axis=0))"
                          f".to({dt})), axis=1), axis=0)", "f")
            elif shape < 0.8:
                # An atomic on the float output (programs do not race).
                op = r.choice(["add", "max", "min", "xchg"])
                self.lines.append(f"    tl.atomic_{op}(out_ptr + offs, {self.pick('f')}, "
                                  "mask=mask)")
            elif shape < 0.85:
                # An if on a runtime scalar: both branches give one type.
                e1, k = self.expr()
                e2 = self.pick(k)
                name = self.fresh()
                self.lines += [f"    if n > {r.randrange(200)}:", f"        {name} = {e1}",
                               "    else:", f"        {name} = {e2}"]
                self.vals.append((name, k))
            else:
                acc = self.fresh()
                f = self.pick("f")
                if r.random() < 0.7:
                    self.lines += [f"    {acc} = {f} * 0.0",
                                   f"    for it in range({r.choice(['0', '3', 'n % 4'])}):",
                                   f"        {acc} = {acc} + {f} * it"]
                else:
                    self.lines += [f"    {acc} = {f}", "    k = 0",
                                   "    while k < n % 3:",
                                   f"        {acc} = {acc} * 0.5 + {self.pick('f')}",
                                   "        k += 1"]
                self.vals.append((acc, "f"))

    def kernel(self, bad: Optional[str], count: int) -> Tuple[str, dict]:
        r = self.rng
        xt = r.choice(["float32", "float16"])
        it = r.choice(["int32", "int16"])
        self.lines = [
            "    pid = tl.program_id(0)",
            "    offs = pid * BLOCK + tl.arange(0, BLOCK)",
            "    mask = offs < n",
        ]
        self.vals = []
        self.emit("tl.load(x_ptr + offs, mask=mask, other=1.0).to(tl.float32)", "f")
        self.emit("tl.load(i_ptr + offs, mask=mask, other=1).to(tl.int32)", "i")
        self.emit(f"{self.pick('f')} > 0.5", "b")
        self.statements(count)
        if bad is not None:
            at = r.randrange(6, len(self.lines) + 1)
            # Not inside an if or a loop body (an indented line follows them).
            while at < len(self.lines) and (self.lines[at].startswith("        ") or
                                            self.lines[at].strip() == "else:"):
                at += 1
            self.lines.insert(at, "    " + self.bad_statement(bad))
        self.lines.append(f"    tl.store(out_ptr + offs, {self.pick('f')}, mask=mask)")
        self.lines.append(f"    tl.store(iout_ptr + offs, {self.pick('i')}, mask=mask)")
        src = ("import terrazzo\nimport terrazzo.language as tl\n\n\n@terrazzo.jit\n"
               "def kernel(x_ptr, i_ptr, out_ptr, iout_ptr, n, BLOCK: tl.constexpr):\n" +
               "\n".join(self.lines) + "\n")
        return src, {"x": xt, "i": it, "block": r.choice([16, 32, 64, 128]),
                     "n": r.choice([1, 37, 100, 128, 300]),
                     "target": r.choice(["cuda:90", "cuda:80"]),
                     "num_warps": r.choice([1, 4, 8])}

    def bad_statement(self, kind: str) -> str:
        f, i, b = self.pick("f"), self.pick("i"), self.pick("b")
        return {
            "float_bitwise": f"bad = {f} ^ {f}",
            "shape": f"bad = {f} + tl.arange(0, 2 * BLOCK)",
            "if_types": f"bad = {f}\n    if n > 3:\n        bad = {i}",
            "loop_type": f"bad = {i}\n    for it in range(2):\n        bad = {f}",
            "arity": "bad = tl.arange(0)",
            "unknown": "bad = tl.not_a_function(x_ptr)",
            "runtime_shape": "bad = tl.arange(0, n)",
            "pow2": "bad = tl.arange(0, 3 * BLOCK)",
            "axis": f"bad = tl.sum({f}, axis=2)",
            "load_scalar": "bad = tl.load(n)",
            "store_value": f"tl.store({f}, {f})",
            "string": f"bad = {f} + 'a'",
            "call_kernel_arg": "bad = x_ptr(1)",
            "dot_1d": f"bad = tl.dot({f}, {f})",
            "reshape": f"bad = tl.reshape({f}, (3, 5))",
            "lambda": "bad = (lambda q: q)(1)",
            "undefined": "bad = undefined_name + 1",
            "return_value": f"return {f}",
            "pointer_mul": "bad = x_ptr * 2",
            "where_shapes": f"bad = tl.where({b}, {f}, tl.zeros([2 * BLOCK], tl.float32))",
            "expand_axis": f"bad = tl.expand_dims({f}, 5)",
            "cast_name": f"bad = {f}.to('float32x')",
            "program_id": "bad = tl.program_id(3)",
            "static_assert": "tl.static_assert(BLOCK < 0, 'BLOCK must be negative')",
            "bool_float_shift": f"bad = {f} << 1",
            "keyword": f"bad = tl.load(x_ptr + offs, maks=mask)",
        }[kind]


BAD_KINDS = ["float_bitwise", "shape", "if_types", "loop_type", "arity", "unknown",
             "runtime_shape", "pow2", "axis", "load_scalar", "store_value", "string",
             "call_kernel_arg", "dot_1d", "reshape", "lambda", "undefined", "return_value",
             "pointer_mul", "where_shapes", "expand_axis", "cast_name", "program_id",
             "static_assert", "bool_float_shift", "keyword"]


# ---------------------------------------------------------------------------
# The worker: one kernel, both modes
# ---------------------------------------------------------------------------

def _located(e: BaseException, path: str, lines: int) -> bool:
    return getattr(e, "file", None) == path and 1 <= (getattr(e, "line", 0) or 0) <= lines


def _message(e: BaseException) -> str:
    text = getattr(e, "message", None) or str(e)
    return text.splitlines()[0] if text else type(e).__name__


def check_kernel(path: str, meta: dict, bad: Optional[str]) -> dict:
    """What happened to the kernel in `path` in each mode."""
    import importlib.util
    import numpy as np
    import terrazzo
    spec = importlib.util.spec_from_file_location(Path(path).stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    n, block = meta["n"], meta["block"]
    rng = np.random.default_rng(0)
    x = rng.uniform(-2, 2, n).astype(meta["x"])
    i = rng.integers(-50, 50, n).astype(meta["i"])
    out = np.zeros(n, np.float32)
    iout = np.zeros(n, np.int32)
    lines = len(Path(path).read_text().splitlines())
    result = {}
    for mode in ("compile", "interpret"):
        try:
            if mode == "compile":
                module.kernel.compile(x, i, out, iout, n, BLOCK=block, stage="ptx",
                                      target=meta["target"], num_warps=meta["num_warps"])
            else:
                terrazzo.jit(module.kernel.fn, interpret=True)[
                    (terrazzo.cdiv(n, block),)](x, i, out, iout, n, BLOCK=block,
                                                num_warps=meta["num_warps"])
            result[mode] = {"ok": True}
        except Exception as e:  # noqa: BLE001 -- every exception is judged below
            result[mode] = {
                "ok": False, "type": type(e).__name__,
                "triton_error": isinstance(e, terrazzo.TritonError),
                "located": _located(e, path, lines), "message": _message(e),
                "line": getattr(e, "line", None),
                "trace": "".join(traceback.format_exception(type(e), e, e.__traceback__))[-3000:]}
    return result


def _worker(conn):
    while True:
        job = conn.recv()
        if job is None:
            return
        try:
            conn.send(check_kernel(*job))
        except BaseException as e:  # noqa: BLE001
            conn.send({"worker_error": f"{type(e).__name__}: {e}\n{traceback.format_exc()}"})


class Worker:
    def __init__(self):
        self.start()

    def start(self):
        ctx = mp.get_context("spawn")
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker, args=(child,), daemon=True)
        self.proc.start()

    def run(self, job, timeout: float):
        """(result, None), or (None, "crash: ..."/"hang") after which the
        worker is started again."""
        self.conn.send(job)
        if self.conn.poll(timeout):
            try:
                return self.conn.recv(), None
            except EOFError:
                pass
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join()
            self.start()
            return None, "hang"
        code = self.proc.exitcode
        self.proc.join()
        self.start()
        return None, f"crash: worker exit status {code}"

    def stop(self):
        try:
            self.conn.send(None)
        except OSError:
            pass
        self.proc.join(5)


# ---------------------------------------------------------------------------
# Judging
# ---------------------------------------------------------------------------

def _normalise(message: str) -> str:
    message = re.sub(r"v\d+", "V", message)
    message = re.sub(r"\d+", "N", message)
    message = re.sub(r"<[^>]*>", "T", message)
    return message[:160]


def judge(result: dict, bad: Optional[str]) -> List[Tuple[str, str]]:
    """(kind, signature) of each problem: a well-typed kernel rejected, an
    ill-typed one accepted, an error that is not a located TritonError, the
    two modes disagreeing."""
    if "worker_error" in result:
        return [("defect", "worker error: " + _normalise(result["worker_error"].splitlines()[0]))]
    problems = []
    for mode in ("compile", "interpret"):
        r = result[mode]
        if bad is None and not r["ok"]:
            kind = "crash" if "internal" in r["message"] and mode == "compile" else "defect"
            problems.append((kind, f"{mode}: well-typed kernel rejected: {r['type']}: "
                                   f"{_normalise(r['message'])}"))
        elif bad is not None and r["ok"]:
            problems.append(("defect", f"{mode}: ill-typed kernel ({bad}) accepted"))
        elif bad is not None and not (r["triton_error"] and r["located"]):
            problems.append(("defect", f"{mode}: {bad}: not a located TritonError: "
                                       f"{r['type']}: {_normalise(r['message'])}"))
    c, i = result["compile"], result["interpret"]
    if bad is not None and not c["ok"] and not i["ok"] and c["message"] != i["message"]:
        problems.append(("defect", f"modes disagree on {bad}: {_normalise(c['message'])} | "
                                   f"{_normalise(i['message'])}"))
    return problems


class Found:
    def __init__(self, out: Path):
        self.out = out
        self.by_signature = {}
        self.counts = {"crash": 0, "hang": 0, "defect": 0}

    def add(self, kind: str, signature: str, src: str, detail: str):
        self.counts[kind] += 1
        entry = self.by_signature.get(signature)
        if entry:
            entry["count"] += 1
            return
        folder = self.out / f"{kind}-{abs(hash(signature)) % 10 ** 10:010d}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "kernel.py").write_text(src)
        (folder / "detail.txt").write_text(detail)
        self.by_signature[signature] = {"kind": kind, "count": 1, "folder": str(folder),
                                        "command": "compile + interpret"}
        print(f"  new {kind}: {signature}\n    ({folder})", flush=True)

    def total(self) -> int:
        return sum(self.counts.values())


def fuzz(args) -> Found:
    build = Path(args.build).resolve()
    sys.path.insert(0, str(build / "python"))
    os.environ.setdefault("TERRAZZO_BUILD_DIR", str(build))
    os.environ["PYTHONPATH"] = os.pathsep.join(
        [str(build / "python")] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep)
                                   if p])
    rng = random.Random(args.seed)
    out = Path(args.out)
    found = Found(out)
    folder = Path(tempfile.mkdtemp(prefix="terrazzo-fuzz-kernels-"))
    worker = Worker()
    start = time.monotonic()
    kernels = bad_kernels = 0
    last = start
    try:
        while kernels < args.kernels and time.monotonic() - start < args.time:
            bad = rng.choice(BAD_KINDS) if rng.random() < 0.4 else None
            src, meta = KernelGen(rng).kernel(bad, rng.randint(2, 12))
            path = folder / f"k{kernels}.py"
            path.write_text(src)
            result, failure = worker.run((str(path), meta, bad), KERNEL_TIMEOUT)
            kernels += 1
            bad_kernels += bad is not None
            if failure:
                found.add("hang" if failure == "hang" else "crash", failure, src, failure)
            else:
                for kind, sig in judge(result, bad):
                    found.add(kind, sig, src, json.dumps(result, indent=1))
            path.unlink()
            if time.monotonic() - last > 60:
                last = time.monotonic()
                print(f"{kernels} kernels ({bad_kernels} ill-typed) in "
                      f"{time.monotonic() - start:.0f} s: {found.counts}", flush=True)
    finally:
        worker.stop()
    print(f"{kernels} kernels ({bad_kernels} ill-typed), 2 modes each, in "
          f"{time.monotonic() - start:.0f} s: {found.counts['crash']} crashes, "
          f"{found.counts['hang']} hangs, {found.counts['defect']} defects, "
          f"{len(found.by_signature)} signatures", flush=True)
    out.mkdir(parents=True, exist_ok=True)
    (out / "summary.json").write_text(json.dumps(
        {"kernels": kernels, "ill_typed": bad_kernels, **found.counts,
         "signatures": found.by_signature}, indent=1))
    return found
