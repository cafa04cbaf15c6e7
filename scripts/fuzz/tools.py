"""Running terrazzo-opt and terrazzo-compile on fuzzed inputs: the command
lines fuzzed, one run with a timeout and a memory limit, the outcome of a run
(ok, crash, recovered crash, hang), its signature, and minimisation of a
crashing input."""

from __future__ import annotations

import hashlib
import os
import re
import resource
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, List, Optional, Sequence

#: Seconds a single run may take before it counts as a hang.
RUN_TIMEOUT = 120.0
#: CPU seconds after which a run that finishes is reported as slow (a
#: finding that does not fail the run: compile time is issue 21's).
SLOW_SECONDS = 20.0
#: Memory a run may use (an input exhausting memory is a finding).
MEMORY_LIMIT = 6 << 30
#: Whether the tools are built with AddressSanitizer (fuzz.py --asan). ASan
#: reserves terabytes of address space for its shadow memory at start and
#: aborts under an address-space limit, so the limit is then ASan's own
#: (hard_rss_limit_mb, on resident memory) instead of RLIMIT_AS.
ASAN = False

#: What a crash leaves in the output when it is not a signal.
CRASH_MARKERS = ("LLVM ERROR", "PLEASE submit", "Stack dump", "UNREACHABLE executed",
                 "Assertion `", "terminate called", "AddressSanitizer", "runtime error:")
#: What lib/CrashRecovery makes of a crash (a located diagnostic).
RECOVERED_MARKER = "internal compiler error"

#: Targets the convert-to-tilegpu pass and the pipelines are run for.
GPU_TARGETS = ("cuda:90", "cuda:80", "cuda:75", "hip:gfx942")
#: Option sets for the passes and pipelines that take a target.
_TARGETED = {
    "terrazzo-convert-tile-to-tilegpu": ["target={t} num-warps={w}"],
    "terrazzo-tilegpu-pipeline": ["target={t} num-warps={w}"],
    "terrazzo-tile-pipeline": ["", "target={t}"],
    "terrazzo-lower-tensor-descriptors": ["", "keep-tma=true"],
    "terrazzo-pipeline": ["", "num-stages=1", "num-stages=4"],
}
_NOT_FUZZED = ("terrazzo-test-crash",)


@dataclass
class Target:
    """One command line fuzzed: the tool and its arguments (the input file
    is added at the end)."""
    tool: str
    args: List[str]

    @property
    def name(self) -> str:
        return " ".join([self.tool] + self.args)

    @property
    def splits(self) -> bool:
        """Whether the tool takes many modules in one file (-split-input-file)."""
        return self.tool == "terrazzo-opt"


def opt_passes(bindir: Path) -> List[str]:
    """The passes and pipelines of terrazzo-opt's --help (Terrazzo's own)."""
    out = subprocess.run([str(bindir / "terrazzo-opt"), "--help"], capture_output=True,
                         text=True, check=True).stdout
    names = re.findall(r"^      --(terrazzo-[a-z0-9-]+)\s+-\s", out, flags=re.M)
    return [n for n in dict.fromkeys(names) if n not in _NOT_FUZZED]


def all_targets(bindir: Path) -> List[Target]:
    """Every pass and pipeline of terrazzo-opt (with the option sets above),
    the three pipelines in a row per GPU target, no pass (parse and verify),
    canonicalisation (the dialects' folders), and terrazzo-compile
    --emit=ptx per target."""
    targets = [Target("terrazzo-opt", []), Target("terrazzo-opt", ["--canonicalize"])]
    for name in opt_passes(bindir):
        for options in _TARGETED.get(name, [""]):
            if "{t}" in options:
                for t in GPU_TARGETS:
                    for w in (4, 1, 8):
                        targets.append(Target("terrazzo-opt", [
                            f"--{name}={options.format(t=t, w=w)}"]))
            else:
                targets.append(Target("terrazzo-opt",
                                      [f"--{name}={options}" if options else f"--{name}"]))
    for t in GPU_TARGETS:
        targets.append(Target("terrazzo-opt", [
            f"--terrazzo-tile-pipeline=target={t}",
            f"--terrazzo-tilegpu-pipeline=target={t} num-warps=4",
            "--terrazzo-llvm-pipeline"]))
    for t in GPU_TARGETS[:3]:
        for w in (4, 1, 8):
            targets.append(Target("terrazzo-compile", [f"--target={t}", f"--num-warps={w}",
                                                       "--emit=ptx", "-o", os.devnull]))
    return targets


@dataclass
class Outcome:
    kind: str  # ok | crash | recovered | hang
    signature: str = ""
    output: str = ""
    returncode: Optional[int] = None
    error_lines: List[int] = field(default_factory=list)  # lines of "error:" diagnostics
    cpu_seconds: float = 0.0


def _limits():
    if not ASAN:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _environment():
    """The environment of a run: this one, with ASan's memory limit under
    ASAN; None (inherit) otherwise."""
    if not ASAN:
        return None
    env = dict(os.environ)
    options = [o for o in env.get("ASAN_OPTIONS", "").split(":") if o]
    options.append(f"hard_rss_limit_mb={MEMORY_LIMIT >> 20}")
    env["ASAN_OPTIONS"] = ":".join(options)
    return env


def _normalise(message: str) -> str:
    """A message without what varies between inputs of one bug: numbers,
    names of values and symbols, quoted types."""
    message = re.sub(r"0x[0-9a-fA-F]+", "N", message)
    message = re.sub(r"\d+", "N", message)
    message = re.sub(r"[%@][\w$.]+", "V", message)
    return message.strip()[:200]


def _stack_signature(output: str) -> Optional[str]:
    """The first frames of a stack dump that name a function outside the
    signal and error handling machinery."""
    frames = []
    for line in output.splitlines():
        m = re.match(r"\s*#\d+\s+0x[0-9a-f]+\s+(?:in\s+)?(.+?)(?:\s+\(|\s+/|$)", line)
        if not m:
            continue
        fn = m.group(1)
        if re.search(r"Signal|PrintStackTrace|CrashRecovery|report_fatal_error|"
                     r"__restore_rt|raise|abort|llvm_unreachable|__assert", fn) or \
                fn.startswith("0x") or fn.startswith("("):
            continue
        frames.append(re.sub(r"\(.*", "", fn))
        if len(frames) == 3:
            break
    return " < ".join(frames) if frames else None


def classify(returncode: Optional[int], output: str, timed_out: bool, tool: str) -> Outcome:
    errors = [int(m.group(1)) for m in re.finditer(r"^[^\n:]*:(\d+):\d+: error:", output,
                                                     flags=re.M)]
    if timed_out:
        return Outcome("hang", f"hang in {tool}", output, returncode, errors)
    if RECOVERED_MARKER in output:
        m = re.search(r"internal compiler error(?: in pass '([^']*)')?:?\s*([^\n]*)", output)
        return Outcome("recovered", f"{tool}: ICE in {m.group(1) or '?'}: "
                       f"{_normalise(m.group(2))}", output, returncode, errors)
    crashed = returncode is not None and returncode < 0
    marker = next((m for m in CRASH_MARKERS if m in output), None)
    if crashed or marker or returncode not in (0, 1):
        m = re.search(r"LLVM ERROR:\s*([^\n]*)", output)
        sig = _stack_signature(output)
        if m:
            sig = f"LLVM ERROR: {_normalise(m.group(1))}" + (f" at {sig}" if sig else "")
        elif not sig:
            m = re.search(r"(Assertion `[^\n]*|UNREACHABLE executed[^\n]*)", output)
            sig = _normalise(m.group(1)) if m else (
                f"signal {-returncode}" if crashed else f"exit status {returncode}")
        return Outcome("crash", f"{tool}: {sig}", output, returncode, errors)
    return Outcome("ok", "", output, returncode, errors)


def run(bindir: Path, target: Target, path: Path, split: bool = False,
        timeout: float = RUN_TIMEOUT) -> Outcome:
    """`target` on the file `path` (its modules one by one with split)."""
    cmd = [str(bindir / target.tool), *target.args, str(path)]
    if target.tool == "terrazzo-opt":
        cmd += ["-o", os.devnull]
        if split:
            cmd.append("-split-input-file")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=timeout, preexec_fn=_limits,
                           env=_environment(), start_new_session=True)
        out = p.stdout.decode(errors="replace")
        outcome = classify(p.returncode, out, False, target.tool)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        outcome.cpu_seconds = (after.ru_utime - before.ru_utime +
                               after.ru_stime - before.ru_stime)
        return outcome
    except subprocess.TimeoutExpired as e:
        out = (e.output or b"").decode(errors="replace")
        return classify(None, out, True, target.tool)


def signature_id(signature: str) -> str:
    return hashlib.sha1(signature.encode()).hexdigest()[:10]


def minimise(text: str, still_fails: Callable[[str], bool], budget_s: float = 120.0) -> str:
    """`text` with as many lines removed as keeps `still_fails` true: chunks
    of lines halving in size down to single lines (delta debugging), within
    a time budget."""
    lines = text.splitlines()
    deadline = time.monotonic() + budget_s
    size = max(1, len(lines) // 2)
    while size >= 1 and time.monotonic() < deadline:
        i, removed = 0, False
        while i < len(lines) and time.monotonic() < deadline:
            candidate = lines[:i] + lines[i + size:]
            if candidate and still_fails("\n".join(candidate) + "\n"):
                lines, removed = candidate, True
            else:
                i += size
        if not removed:
            size //= 2
    return "\n".join(lines) + "\n"


def write_temp(texts: Sequence[str], folder: Path) -> tuple:
    """The modules in one file separated by `// -----`, and the first line of
    each module in it."""
    fd, name = tempfile.mkstemp(suffix=".mlir", dir=folder)
    starts, line, parts = [], 1, []
    for i, t in enumerate(texts):
        if i:
            parts.append("// -----\n")
            line += 1
        starts.append(line)
        parts.append(t)
        line += t.count("\n")
    with os.fdopen(fd, "w") as f:
        f.write("".join(parts))
    return Path(name), starts
