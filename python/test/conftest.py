"""Shared fixtures of the Python tests.

* The compiler binaries (`terrazzo-opt`, `terrazzo-compile`) are found in
  `$TERRAZZO_BUILD_DIR/bin`, by default the repository's `build-core`; tests
  that validate IR fail (not skip) when they are missing.
* Every test gets its own disk cache (`TERRAZZO_CACHE_DIR`).
* Tests marked `gpu` are skipped unless the extension loads and reports a
  usable GPU runtime.
* With TERRAZZO_AMD_LAUNCHES=1, every kernel the session launches is also
  compiled for the AMD targets at its end (amd_launches.py).
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
try:
    import terrazzo  # noqa: F401
except ImportError:  # run without PYTHONPATH: use the source tree
    sys.path.insert(0, str(REPO / "python"))


def _extension_importable() -> bool:
    try:
        import terrazzo._C  # noqa: F401
        return True
    except ImportError:
        return False


_REQUIRE_EXTENSION = os.environ.get("TERRAZZO_REQUIRE_EXTENSION", "") not in ("", "0")
_HAVE_EXTENSION = _extension_importable()

# The extension's own tests cannot even be collected without it; leave them
# out (the frontend's tests still run) unless CI requires the extension.
collect_ignore = [] if _HAVE_EXTENSION or _REQUIRE_EXTENSION else ["test_extension.py"]


def pytest_report_header(config):
    if not _HAVE_EXTENSION:
        return ("terrazzo._C is not importable: test_extension.py is not collected and "
                "test_jit_compile.py is skipped" + (" (TERRAZZO_REQUIRE_EXTENSION is set: "
                                                    "they fail)" if _REQUIRE_EXTENSION else ""))
    return None


def build_dir() -> Path:
    return Path(os.environ.get("TERRAZZO_BUILD_DIR", REPO / "build-core"))


def tool(name: str) -> Path:
    path = build_dir() / "bin" / name
    if not path.exists():
        pytest.fail(f"{path} is missing: build the compiler (ninja -C {build_dir()}) or set "
                    "TERRAZZO_BUILD_DIR", pytrace=False)
    return path


@contextlib.contextmanager
def bench_module(name: str):
    """bench/`name`.py as a module, with bench/ on sys.path meanwhile (for
    its imports of its neighbours)."""
    sys.path.insert(0, str(REPO / "bench"))
    try:
        spec = importlib.util.spec_from_file_location(name, REPO / "bench" / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.path.remove(str(REPO / "bench"))


def find_ptxas():
    """ptxas from $PTXAS, PATH or the CUDA installation; None without one."""
    import shutil
    candidates = [os.environ.get("PTXAS"), shutil.which("ptxas")]
    for root in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if root:
            candidates.append(os.path.join(root, "bin", "ptxas"))
    for candidate in candidates:
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


PTXAS = find_ptxas()


def assemble_ptx(ptx: str, arch: str = "sm_90a"):
    """Assembles `ptx` for `arch` with ptxas, where one is installed, and
    asserts that it assembles; returns ptxas's verbose report (registers,
    spills, its warnings), or None without ptxas."""
    if not PTXAS:
        return None
    import subprocess
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "kernel.ptx")
        with open(path, "w") as f:
            f.write(ptx)
        r = subprocess.run([PTXAS, f"-arch={arch}", "-v", path, "-o",
                            os.path.join(tmp, "kernel.cubin")],
                           capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stderr


def assert_no_spills(ptx: str, arch: str = "sm_90a", allowed_bytes: int = 0):
    """Where ptxas is installed: `ptx` assembles and ptxas spills no
    register to local memory (at most `allowed_bytes` of spill stores)."""
    report = assemble_ptx(ptx, arch)
    if report is None:
        return
    match = re.search(r"(\d+) bytes spill stores", report)
    assert match and int(match.group(1)) <= allowed_bytes, report


def ptx_loops(ptx: str):
    """The bodies of the PTX's loops: from a label to a branch back to it
    (an outer loop's body holds its inner loops')."""
    lines = ptx.splitlines()
    labels = {line.strip()[:-1]: i for i, line in enumerate(lines)
              if line.startswith("$L__BB") and line.strip().endswith(":")}
    loops = []
    for i, line in enumerate(lines):
        found = re.search(r"\bbra(?:\.uni)?\s+(\$L__BB\w+);", line)
        if found and labels.get(found.group(1), i) < i:
            loops.append("\n".join(lines[labels[found.group(1)]:i + 1]))
    return loops


def ptx_arch(target: str) -> str:
    """The ptxas -arch of a target string ("cuda:90" -> "sm_90a")."""
    capability = int(target.split(":")[1])
    return f"sm_{capability}a" if capability >= 90 else f"sm_{capability}"


class IRChecker:
    """Runs the compiler binaries on IR text."""

    def __init__(self, tmp_path: Path):
        self.tmp = tmp_path
        self.count = 0

    def _write(self, text: str) -> Path:
        self.count += 1
        path = self.tmp / f"kernel{self.count}.mlir"
        path.write_text(text)
        return path

    def opt(self, text: str, *flags) -> str:
        """Parses and verifies (and runs `flags`); returns the output."""
        path = self._write(text)
        r = subprocess.run([str(tool("terrazzo-opt")), str(path), *flags],
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, f"terrazzo-opt rejected the IR:\n{r.stderr}\n{text}"
        return r.stdout

    def compile(self, text: str, emit: str = "ptx", target: str = "cuda:90",
                num_warps: int = 4) -> str:
        path = self._write(text)
        out = path.with_suffix("." + emit)
        r = subprocess.run([str(tool("terrazzo-compile")), str(path), f"--emit={emit}",
                            f"--target={target}", f"--num-warps={num_warps}", "-o", str(out)],
                           capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, f"terrazzo-compile failed:\n{r.stderr}\n{text}"
        output = out.read_text()
        if emit == "ptx" and PTXAS:
            # Every PTX the frontend's kernels lower to must assemble.
            a = subprocess.run([PTXAS, f"-arch={ptx_arch(target)}", str(out), "-o",
                                str(out.with_suffix(".cubin"))],
                               capture_output=True, text=True, timeout=300)
            assert a.returncode == 0, f"ptxas rejected the PTX:\n{a.stderr}\n{output}"
        return output

    def compile_fails(self, text: str, emit: str = "ptx") -> str:
        path = self._write(text)
        r = subprocess.run([str(tool("terrazzo-compile")), str(path), f"--emit={emit}",
                            "-o", str(path.with_suffix(".out"))],
                           capture_output=True, text=True, timeout=300)
        assert r.returncode != 0, "terrazzo-compile accepted the IR"
        return r.stderr

    def __call__(self, text: str, ptx: bool = True) -> str:
        """Verifies the IR and lowers it to PTX; returns the PTX."""
        self.opt(text)
        return self.compile(text) if ptx else ""


@pytest.fixture
def check_ir(tmp_path):
    return IRChecker(tmp_path)


@pytest.fixture(autouse=True)
def _private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TERRAZZO_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("TERRAZZO_INTERPRET", raising=False)
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    monkeypatch.delenv("TERRAZZO_DUMP_IR", raising=False)


def _gpu_available() -> bool:
    try:
        from terrazzo import _C
    except ImportError:
        return False
    try:
        return bool(_C.runtime_available())
    except Exception:
        return False


def _keep_shard(items):
    """TERRAZZO_TEST_SHARD=i/n keeps every n-th test starting at the i-th
    (0-based), so that one slow file can run as n processes at once."""
    shard = os.environ.get("TERRAZZO_TEST_SHARD")
    if not shard:
        return
    index, count = (int(v) for v in shard.split("/"))
    items[:] = [item for i, item in enumerate(items) if i % count == index]


def pytest_collection_modifyitems(config, items):
    _keep_shard(items)
    if _AMD_LAUNCHES is not None:
        for item in items:
            if "gpu" in item.keywords and hasattr(item, "function"):
                _AMD_LAUNCHES.note_gpu_test(item)
    if _gpu_available():
        return
    skip = pytest.mark.skip(reason="no GPU runtime (terrazzo._C.runtime_available() is false "
                            "or the extension is missing)")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def rng(request):
    """A fresh random generator per test; the seed is printed on failure."""
    import numpy as np
    seed = int.from_bytes(os.urandom(4), "little")
    print(f"random seed: {seed}")
    return np.random.default_rng(seed)


@pytest.fixture
def torch_cuda(monkeypatch):
    """torch, for tests that run kernels on a CUDA device through it
    (skipped where torch or the device is missing)."""
    monkeypatch.delenv("TERRAZZO_DRY_LAUNCH", raising=False)
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch has no CUDA device")
    return torch


if _HAVE_EXTENSION:
    import amd_launches

    _AMD_LAUNCHES = amd_launches.LaunchRecorder() if amd_launches.enabled() else None
else:
    _AMD_LAUNCHES = None


def pytest_configure(config):
    if _AMD_LAUNCHES is not None:
        _AMD_LAUNCHES.install()


def pytest_runtest_setup(item):
    if _AMD_LAUNCHES is not None:
        _AMD_LAUNCHES.current_test = item.nodeid


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session, exitstatus):
    if _AMD_LAUNCHES is not None:
        _AMD_LAUNCHES.compile_all()
        if _AMD_LAUNCHES.failed():
            session.exitstatus = 1


def pytest_terminal_summary(terminalreporter):
    if _AMD_LAUNCHES is not None:
        _AMD_LAUNCHES.summary(terminalreporter.write_line)
