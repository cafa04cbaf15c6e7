"""Terrazzo as users install it (DESIGN.md §7, §9): `pip install .` and a wheel
into fresh virtual environments, `cmake --install` with find_package(Terrazzo)
and ahead-of-time kernels embedded in a C++ program (examples/aot), and the
export of a Python kernel to tile IR.

The install tests reuse the CMake build in $TERRAZZO_BUILD_DIR
(TERRAZZO_CMAKE_BUILD_DIR for setup.py), as CI does, so nothing linked to
LLVM is built twice. The example's launch on a GPU, and the wheel's:
scripts/gpu-ecosystem-check.sh.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import PTXAS, REPO, build_dir
from terrazzo.errors import CompilationError
from terrazzo.tools import export

# A kernel compiled to PTX by the installed package, run from outside the
# repository so that nothing but the installed package can be imported.
CHECK_SCRIPT = '''
import terrazzo, terrazzo.language as tl
from terrazzo import MockTensor

@terrazzo.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + i, tl.load(x + i, mask=i < n) + tl.load(y + i, mask=i < n), mask=i < n)

f32 = MockTensor(tl.float32)
ptx = add_kernel.compile(f32, f32, f32, 100, BLOCK=256, stage="ptx", target="cuda:80")
print("package", terrazzo.__file__)
print("extension", terrazzo._C.__file__)
print("entry", ".entry add_kernel" in ptx, ".target sm_80" in ptx)
'''


def cmake_build() -> Path:
    """The CMake build the tests install from; fails in CI when missing."""
    build = build_dir().resolve()
    if not (build / "CMakeCache.txt").is_file():
        message = f"{build} is not a CMake build of Terrazzo (set TERRAZZO_BUILD_DIR)"
        if os.environ.get("TERRAZZO_REQUIRE_EXTENSION", "") not in ("", "0"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    return build


def clean_env(**extra) -> dict:
    """The environment without the test run's PYTHONPATH."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(extra)
    return env


def run(command, **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run([str(c) for c in command], capture_output=True, text=True,
                            timeout=600, **kwargs)
    assert result.returncode == 0, (f"{' '.join(map(str, command))} failed "
                                    f"({result.returncode}):\n{result.stdout}\n{result.stderr}")
    return result


def fresh_venv(path: Path) -> Path:
    """A virtual environment that sees Debian's numpy; its python."""
    run([sys.executable, "-m", "venv", "--system-site-packages", path])
    return path / "bin" / "python"


def check_installed(python: Path, venv: Path, tmp_path: Path):
    script = tmp_path / "check_install.py"
    script.write_text(CHECK_SCRIPT)
    out = run([python, script], cwd=tmp_path, env=clean_env()).stdout
    lines = dict(line.split(" ", 1) for line in out.splitlines())
    # Imported from the environment, not from the sources or the build.
    assert Path(lines["package"]).resolve().is_relative_to(venv.resolve()), out
    assert Path(lines["extension"]).resolve().is_relative_to(venv.resolve()), out
    assert lines["entry"] == "True True", out


def test_pip_install_into_fresh_venv(tmp_path):
    build = cmake_build()
    venv = tmp_path / "venv"
    python = fresh_venv(venv)
    run([python, "-m", "pip", "install", "--no-build-isolation", "--no-index", REPO],
        cwd=tmp_path, env=clean_env(TERRAZZO_CMAKE_BUILD_DIR=str(build)))
    check_installed(python, venv, tmp_path)
    package = next((venv / "lib").glob("python3*/site-packages/terrazzo"))
    # _C finds the two libraries beside it, wherever the package is.
    extension = next(package.glob("_C*.so"))
    dynamic = run(["readelf", "-d", extension]).stdout
    assert re.search(r"RUNPATH.*\[\$ORIGIN\]", dynamic), dynamic
    assert (package / "libterrazzo-core.so").is_file()
    assert (package / "libterrazzo-runtime.so").is_file()


def test_wheel_builds_and_installs(tmp_path):
    build = cmake_build()
    dist = tmp_path / "dist"
    run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", dist, REPO],
        cwd=tmp_path, env=clean_env(TERRAZZO_CMAKE_BUILD_DIR=str(build)))
    wheels = list(dist.glob("terrazzo-*.whl"))
    assert len(wheels) == 1, wheels
    tag = f"cp{sys.version_info.major}{sys.version_info.minor}"
    assert f"-{tag}-{tag}-linux_x86_64.whl" in wheels[0].name, wheels[0].name
    names = zipfile.ZipFile(wheels[0]).namelist()
    for required in ("terrazzo/__init__.py", "terrazzo/libterrazzo-core.so",
                     "terrazzo/libterrazzo-runtime.so", "terrazzo/tools/export.py",
                     "terrazzo/language/extra/libdevice.py", "terrazzo/core/lang.py"):
        assert required in names, required
    assert any(re.fullmatch(r"terrazzo/_C\..*\.so", n) for n in names), names
    assert not any(n.startswith("test/") or "/test_" in n for n in names)

    venv = tmp_path / "venv"
    python = fresh_venv(venv)
    run([python, "-m", "pip", "install", "--no-index", "--no-deps", wheels[0]],
        cwd=tmp_path, env=clean_env())
    check_installed(python, venv, tmp_path)


def test_cmake_package_and_aot_example(tmp_path):
    """scripts/aot-example.sh: install, find_package(Terrazzo), kernels in tile
    IR and in Python compiled at build time for two targets and embedded."""
    build = cmake_build()
    out = tmp_path / "aot"
    result = run(["bash", REPO / "scripts" / "aot-example.sh", build, out],
                 env={**os.environ, "TERRAZZO_PYTHON": sys.executable,
                      "PYTHONPATH": str(build / "python")})
    prefix = out / "prefix"
    for path in ("include/terrazzo/Compiler.h", "include/terrazzo/Runtime.h",
                 "include/terrazzo/AOT.h", "lib/libterrazzo-core.so",
                 "lib/libterrazzo-runtime.so", "bin/terrazzo-compile", "bin/terrazzo-opt",
                 "bin/terrazzo-lsp-server", "lib/cmake/Terrazzo/TerrazzoConfig.cmake",
                 "lib/cmake/Terrazzo/TerrazzoTargets.cmake"):
        assert (prefix / path).exists(), path
    # Only the project's public pieces: no internal static libraries.
    assert not list((prefix / "lib").glob("*.a"))

    # "<name> <target> <kind> <size> bytes, <threads> threads, ..." per kernel.
    listed = {}
    for line in result.stdout.splitlines():
        m = re.match(r"(\w+) (cuda:\d+) (cubin|ptx) (\d+) bytes, (\d+) threads", line)
        if m:
            listed[(m.group(1), m.group(2))] = (m.group(3), int(m.group(4)), int(m.group(5)))
    kind = "cubin" if PTXAS else "ptx"
    binaries = out / "example" / "terrazzo-kernels" / "aot-example-1"
    for name, stem in (("add_kernel", "vector-add"), ("saxpy_kernel", "saxpy")):
        for target in ("cuda:80", "cuda:90"):
            assert (name, target) in listed, result.stdout
            listed_kind, size, threads = listed[(name, target)]
            binary = binaries / f"{stem}.{target.replace(':', '-')}.bin"
            # The embedded bytes are terrazzo-compile's output for that target.
            assert (listed_kind, size, threads) == (kind, binary.stat().st_size, 128)
    assert len(listed) == 4, result.stdout
    # Nothing is compiled at run time: the program needs the runtime, not the core.
    needed = run(["readelf", "-d", out / "example" / "aot-example"]).stdout
    assert "libterrazzo-runtime.so" in needed and "libterrazzo-core.so" not in needed


def test_export_writes_the_kernels_tile_ir(tmp_path):
    output = tmp_path / "saxpy.mlir"
    assert export.main([f"{REPO}/examples/aot/saxpy.py:saxpy_kernel", "--signature",
                        "*fp32:16, *fp32, *fp32, fp32, i32:16", "--constexpr", "BLOCK=256",
                        "-o", str(output)]) == 0
    text = output.read_text()
    header = re.search(r"func\.func @saxpy_kernel\((.*)\) \{", text).group(1)
    params = re.findall(r"%arg\d: ([^ ]+)( \{tile.divisibility = 16 : i32\})?", header)
    assert params == [("!tile.ptr<f32>", " {tile.divisibility = 16 : i32}"),
                      ("!tile.ptr<f32>", ""), ("!tile.ptr<f32>", ""), ("f32", ""),
                      ("i32", " {tile.divisibility = 16 : i32}")], header
    assert "tile.make_range 0 to 256" in text


@pytest.mark.parametrize("signature, constants, message", [
    ("*fp32, *fp32, fp32", {"BLOCK": 8}, "the signature has 3 item(s) but the kernel has 5"),
    ("*fp32, *fp32, *fp32, fp32, i32", {}, "'BLOCK' needs --constexpr BLOCK=VALUE"),
    ("*fp32, *fp32, *fp32, fp32, i32", {"BLOCK": 8, "N": 1}, "--constexpr N: not a"),
    ("*fp99, *fp32, *fp32, fp32, i32", {"BLOCK": 8}, "unknown element type 'fp99'"),
    ("*fp32, *fp32, *fp32, fp32:16, i32", {"BLOCK": 8}, "':16' applies to pointers"),
    ("*fp32, *fp32, *fp32, fp32, u8", {"BLOCK": 8}, "expected *<type>, i32, i64"),
])
def test_export_rejects_bad_signatures(signature, constants, message):
    with pytest.raises(CompilationError) as error:
        export.export(f"{REPO}/examples/aot/saxpy.py:saxpy_kernel", signature, constants)
    assert message in str(error.value)


@pytest.mark.parametrize("blocked", [(), ("wheel", "setuptools.command.bdist_wheel")])
def test_setup_names_a_missing_wheel_package(tmp_path, blocked):
    """With --no-build-isolation the environment's setuptools builds the
    wheel; before setuptools 70.1 that needs the `wheel` package, and
    setup.py says so instead of setuptools' "invalid command 'bdist_wheel'"."""
    code = (f"import runpy, sys\nfor name in {list(blocked)!r}: sys.modules[name] = None\n"
            "sys.argv = ['setup.py', '--version']\n"
            f"runpy.run_path({str(REPO / 'setup.py')!r}, run_name='__main__')\n")
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                            text=True, timeout=120, env=clean_env())
    if blocked:
        assert result.returncode == 1, result
        assert "needs the `wheel` package in that environment" in result.stderr, result.stderr
        assert sys.executable in result.stderr
    else:
        assert result.returncode == 0, result.stderr
        assert re.fullmatch(r"\d+\.\d+\.\d+", result.stdout.strip().splitlines()[-1]), result
