#!/usr/bin/env python3
"""Terrazzo's fuzzer (see README.md in this folder).

  fuzz.py ir --build build [--seed 0] [--mutants N] [--time S] [--sweep]
  fuzz.py frontend --build build [--seed 0] [--kernels N] [--time S]

`ir`: mutants of the lit inputs' modules through terrazzo-opt (no pass,
every pass and pipeline) and terrazzo-compile --emit=ptx. `frontend`:
random well-typed and ill-typed kernels through @jit (tile IR, PTX) and the
interpreter. Both exit with 1 when they found a crash, a recovered crash
(an "internal compiler error") or a hang, and write what they found under
--out (each finding's input, minimised input, command and output).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections import OrderedDict
from pathlib import Path
from typing import Dict, List

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import mutate  # noqa: E402
import tools  # noqa: E402

ROOT = HERE.parent.parent
#: Modules per terrazzo-opt process (-split-input-file).
BATCH = 32


class Findings:
    """Crashes, recovered crashes and hangs by signature."""

    def __init__(self, out: Path, bindir: Path, minimise_s: float):
        self.out, self.bindir, self.minimise_s = out, bindir, minimise_s
        self.by_signature: Dict[str, dict] = OrderedDict()
        self.counts = {"crash": 0, "recovered": 0, "hang": 0, "slow": 0}

    def add(self, outcome: tools.Outcome, target: tools.Target, text: str):
        self.counts[outcome.kind] += 1
        entry = self.by_signature.get(outcome.signature)
        if entry is not None:
            entry["count"] += 1
            return
        sid = tools.signature_id(outcome.signature)
        folder = self.out / f"{outcome.kind}-{sid}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "input.mlir").write_text(text)
        (folder / "output.txt").write_text(outcome.output)
        (folder / "command.txt").write_text(target.name + " input.mlir\n")
        print(f"  new {outcome.kind}: {outcome.signature}\n    ({target.name}; {folder})",
              flush=True)

        def still_fails(candidate: str) -> bool:
            path = folder / "candidate.mlir"
            path.write_text(candidate)
            got = tools.run(self.bindir, target, path,
                            timeout=tools.RUN_TIMEOUT if outcome.kind == "hang" else 30)
            return got.kind == outcome.kind and got.signature == outcome.signature

        small = text
        if self.minimise_s > 0 and outcome.kind != "slow":
            small = tools.minimise(text, still_fails, self.minimise_s)
            (folder / "candidate.mlir").unlink(missing_ok=True)
        (folder / "minimised.mlir").write_text(small)
        self.by_signature[outcome.signature] = {
            "kind": outcome.kind, "count": 1, "command": target.name,
            "folder": str(folder), "minimised_lines": small.count("\n")}

    def total(self) -> int:
        """Findings that fail the run (slow compiles do not)."""
        return sum(n for kind, n in self.counts.items() if kind != "slow")


class IRFuzzer:
    def __init__(self, args):
        self.bindir = Path(args.build) / "bin"
        self.rng = random.Random(args.seed)
        self.tmp = Path(tempfile.mkdtemp(prefix="terrazzo-fuzz-"))
        self.mutants = self.runs = self.valid = 0
        self.findings = Findings(Path(args.out), self.bindir, args.minimise_time)
        targets = tools.all_targets(self.bindir)
        self.verify = targets[0]
        self.opt_targets = [t for t in targets[1:] if t.splits]
        self.compile_targets = [t for t in targets if not t.splits]
        self.seeds = self._seeds(args.seeds)
        # Mutants are mostly of the seeds the verifier accepts (the others
        # are the lit tests' invalid inputs).
        ok = self._run_batch(self.verify, self.seeds) if self.seeds else []
        self.valid_seeds = [s for s, good in zip(self.seeds, ok) if good] or self.seeds
        self.runs = 0

    @staticmethod
    def _seeds(folders: List[str]) -> List[str]:
        seeds = []
        for folder in folders:
            for path in sorted(Path(folder).rglob("*.mlir")):
                seeds.extend(mutate.seed_modules(path.read_text(errors="replace")))
        return seeds

    def _run_batch(self, target: tools.Target, texts: List[str]) -> List[bool]:
        """`texts` through `target` (in one process when the tool splits);
        whether each had no error. Crashes and hangs go to the findings, the
        batch's found again one module at a time."""
        if target.splits and len(texts) > 1:
            path, starts = tools.write_temp(texts, self.tmp)
            got = tools.run(self.bindir, target, path, split=True,
                            timeout=tools.RUN_TIMEOUT * 2)
            path.unlink()
            self.runs += len(texts)
            # An error without a line in the file (an unknown location) is
            # found again one module at a time.
            if got.kind == "ok" and all(line >= 1 for line in got.error_lines):
                clean = [True] * len(texts)
                for line in got.error_lines:
                    clean[max(k for k, s in enumerate(starts) if s <= line)] = False
                return clean
            self.runs -= len(texts)  # counted again below
        result = []
        self.runs += len(texts)
        for text in texts:
            path, _ = tools.write_temp([text], self.tmp)
            got = tools.run(self.bindir, target, path)
            path.unlink()
            if got.kind == "ok" and got.cpu_seconds > tools.SLOW_SECONDS:
                self.findings.add(tools.Outcome("slow", f"slow: {target.name}", got.output,
                                                got.returncode), target, text)
            elif got.kind != "ok":
                self.findings.add(got, target, text)
            result.append(got.kind == "ok" and got.returncode == 0)
        return result

    def sweep(self):
        """Every seed, unmutated, through every command line."""
        for target in [self.verify] + self.opt_targets + self.compile_targets:
            for i in range(0, len(self.seeds), BATCH):
                self._run_batch(target, self.seeds[i:i + BATCH])
        print(f"sweep: {len(self.seeds)} modules ({len(self.valid_seeds)} verified), "
              f"{self.runs} runs: {self.findings.counts}", flush=True)
        self.sweep_runs, self.runs = self.runs, 0

    def fuzz(self, mutants: int, seconds: float):
        start = time.monotonic()
        batch_no = 0
        last_report = start
        while self.mutants < mutants and time.monotonic() - start < seconds:
            n = min(BATCH, mutants - self.mutants)
            texts = [mutate.mutate(self.rng.choice(
                self.valid_seeds if self.rng.random() < 0.9 else self.seeds), self.rng)
                for _ in range(n)]
            self.mutants += n
            ok = self._run_batch(self.verify, texts)
            valid = [t for t, good in zip(texts, ok) if good]
            self.valid += len(valid)
            if valid:
                # Each batch through the next pass or pipeline, and each valid
                # mutant through the next terrazzo-compile command line.
                self._run_batch(self.opt_targets[batch_no % len(self.opt_targets)], valid)
                for j, text in enumerate(valid):
                    ct = self.compile_targets[(self.valid + j) % len(self.compile_targets)]
                    self._run_batch(ct, [text])
            batch_no += 1
            if time.monotonic() - last_report > 60:
                last_report = time.monotonic()
                self.report(start, final=False)
        self.report(start, final=True)

    def report(self, start: float, final: bool):
        c = self.findings.counts
        line = (f"{self.mutants} mutants ({self.valid} verified), {self.runs} runs in "
                f"{time.monotonic() - start:.0f} s: {c['crash']} crashes, {c['recovered']} "
                f"recovered crashes, {c['hang']} hangs, {c['slow']} slow runs, "
                f"{len(self.findings.by_signature)} signatures")
        print(line, flush=True)
        if final:
            summary = {"sweep_runs": getattr(self, "sweep_runs", 0),
                       "mutants": self.mutants, "verified": self.valid, "runs": self.runs,
                       "seconds": round(time.monotonic() - start), **c,
                       "signatures": self.findings.by_signature}
            self.findings.out.mkdir(parents=True, exist_ok=True)
            (self.findings.out / "summary.json").write_text(json.dumps(summary, indent=1))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="mode", required=True)
    for name in ("ir", "frontend"):
        s = sub.add_parser(name)
        s.add_argument("--build", default=str(ROOT / "build"))
        s.add_argument("--seed", type=int, default=0)
        s.add_argument("--time", type=float, default=float("inf"),
                       help="stop after this many seconds")
        s.add_argument("--out", default=str(ROOT / "build" / f"fuzz-{name}"))
        s.add_argument("--asan", action="store_true",
                       help="the build is instrumented with AddressSanitizer: limit each "
                            "run's memory through ASan (hard_rss_limit_mb), not RLIMIT_AS")
    ir = sub.choices["ir"]
    ir.add_argument("--mutants", type=int, default=1 << 62)
    ir.add_argument("--seeds", nargs="*", default=[str(ROOT / "test")],
                    help="folders whose .mlir files are the seeds")
    ir.add_argument("--sweep", action="store_true",
                    help="first run every seed unmutated through every command line")
    ir.add_argument("--minimise-time", type=float, default=60.0,
                    help="seconds spent minimising each new finding (0: none)")
    fe = sub.choices["frontend"]
    fe.add_argument("--kernels", type=int, default=1 << 62)
    args = p.parse_args(argv)
    tools.ASAN = args.asan

    if args.mode == "ir":
        fuzzer = IRFuzzer(args)
        if args.sweep:
            fuzzer.sweep()
        fuzzer.fuzz(args.mutants, args.time)
        found = fuzzer.findings
    else:
        import frontend
        found = frontend.fuzz(args)
    for sig, entry in found.by_signature.items():
        print(f"{entry['kind']} x{entry['count']}: {sig}\n    {entry['command']}; "
              f"{entry['folder']}")
    return 1 if found.total() else 0


if __name__ == "__main__":
    sys.exit(main())
