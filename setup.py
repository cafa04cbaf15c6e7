"""Builds the Python package `terrazzo` with its extension (DESIGN.md §7).

The pure-Python package is python/terrazzo. Its compiled part, the extension
terrazzo._C with libterrazzo-core and libterrazzo-runtime beside it, comes
from the CMake build: this file configures it where needed, builds the
targets the package needs with Ninja and installs CMake's component "python"
(cmake/Install.cmake) into the package.

Which CMake build (environment):
  TERRAZZO_CMAKE_BUILD_DIR  a build folder to use as it is, configured or not
                            (e.g. `build`, which scripts/setup.sh makes): only
                            the extension's targets are brought up to date, so
                            nothing linked to LLVM is built twice.
  otherwise                 build-portable/ in the source tree, configured with
                            -DTERRAZZO_PORTABLE=ON as scripts/package-core.sh
                            does: LLVM and MLIR are linked into the core, and
                            the wheel runs on a Linux machine with only glibc
                            and, for kernels, the GPU driver.
  TERRAZZO_PREBUILT_CORE=1   no CMake and no LLVM: the extension is built with
                            g++ (scripts/build-python-ext.sh) against the
                            portable core in dist/terrazzo-core.tar.zst, which
                            scripts/package-core.sh wrote on another machine;
                            how the GPU machine builds a wheel for its Python.
A package built from the development flavour (TERRAZZO_PORTABLE off) loads
the machine's shared LLVM 22; setup.py says so when it builds one.
"""

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def project_version() -> str:
    """The version in CMakeLists.txt's project(), the one definition."""
    text = (ROOT / "CMakeLists.txt").read_text()
    match = re.search(r"project\(\s*terrazzo\s+VERSION\s+([0-9.]+)", text)
    if not match:
        raise RuntimeError("CMakeLists.txt: no project(terrazzo VERSION x.y.z)")
    return match.group(1)


def cmake_cache(build_dir: Path) -> dict:
    """NAME -> value of a configured build's CMakeCache.txt."""
    values = {}
    cache = build_dir / "CMakeCache.txt"
    if cache.is_file():
        for line in cache.read_text(errors="replace").splitlines():
            match = re.match(r"([A-Za-z0-9_.-]+):[A-Z_]+=(.*)", line)
            if match:
                values[match.group(1)] = match.group(2)
    return values


def run(command, **kwargs):
    print("$ " + " ".join(str(c) for c in command), flush=True)
    subprocess.run([str(c) for c in command], check=True, **kwargs)


class CMakeExtension(Extension):
    """An extension that CMake builds (no sources for setuptools)."""

    def __init__(self, name: str):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        package_dir = Path(self.get_ext_fullpath(ext.name)).resolve().parent
        package_dir.mkdir(parents=True, exist_ok=True)
        if os.environ.get("TERRAZZO_PREBUILT_CORE"):
            self.build_against_prebuilt_core(package_dir)
        else:
            self.build_with_cmake(package_dir)

    def build_against_prebuilt_core(self, package_dir: Path):
        """g++ alone, against dist/terrazzo-core.tar.zst (no CMake, no LLVM)."""
        archive = ROOT / "dist" / "terrazzo-core.tar.zst"
        if not archive.is_file():
            raise RuntimeError(f"TERRAZZO_PREBUILT_CORE is set but {archive} is missing "
                               "(scripts/package-core.sh writes it)")
        scratch = Path(self.build_temp).resolve() / "prebuilt-core"
        run(["bash", ROOT / "scripts" / "build-python-ext.sh", scratch],
            env={**os.environ, "PYTHON": sys.executable})
        # The extension is compiled with the source tree's headers: they
        # must be the ones the packaged core was built with.
        packaged = scratch / ".build" / "terrazzo-core" / "include" / "terrazzo" / "Compiler.h"
        if packaged.read_bytes() != (ROOT / "include" / "terrazzo" / "Compiler.h").read_bytes():
            raise RuntimeError(f"{archive} was built from another include/terrazzo/Compiler.h "
                               "than this source tree's: run scripts/package-core.sh again")
        built = scratch / "terrazzo"
        for library in [*built.glob("_C*.so"), built / "libterrazzo-core.so",
                        built / "libterrazzo-runtime.so"]:
            shutil.copy2(library, package_dir / library.name)

    def build_with_cmake(self, package_dir: Path):
        given = os.environ.get("TERRAZZO_CMAKE_BUILD_DIR")
        build_dir = Path(given).resolve() if given else ROOT / "build-portable"
        for tool in ("cmake", "ninja"):
            if shutil.which(tool) is None:
                raise RuntimeError(f"building terrazzo needs {tool} (Debian: apt install "
                                   "cmake ninja-build; scripts/setup.sh installs "
                                   "everything)")

        if not (build_dir / "build.ninja").is_file():
            flavour = [] if given else ["-DTERRAZZO_PORTABLE=ON"]
            run(["cmake", "-G", "Ninja", "-S", ROOT, "-B", build_dir,
                 "-DCMAKE_BUILD_TYPE=Release", f"-DPython3_EXECUTABLE={sys.executable}",
                 *flavour])
        cache = cmake_cache(build_dir)
        source = cache.get("CMAKE_HOME_DIRECTORY") or cache.get("terrazzo_SOURCE_DIR")
        if source and Path(source).resolve() != ROOT:
            raise RuntimeError(f"{build_dir} is a build of {source}, not of {ROOT}")

        env = dict(os.environ)
        # ccache (when the build uses it) shares objects between checkouts.
        env.setdefault("CCACHE_BASEDIR", str(ROOT.parent))
        run(["ninja", "-C", build_dir, "_C", "terrazzo-python-package"], env=env)

        # The extension must be this interpreter's (its ABI tag).
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        built = build_dir / "python" / "terrazzo" / f"_C{suffix}"
        if not built.is_file():
            found = sorted(p.name for p in (build_dir / "python" / "terrazzo").glob("_C*"))
            raise RuntimeError(
                f"{build_dir} has no _C{suffix} for {sys.executable} (it has "
                f"{', '.join(found) or 'none'}: its Python is "
                f"{cache.get('Python3_EXECUTABLE', 'unknown')}); use a build folder "
                "configured for this interpreter")

        run(["cmake", "--install", build_dir, "--component", "python", "--strip",
             "--prefix", package_dir])

        core = package_dir / "libterrazzo-core.so"
        linked = subprocess.run(["ldd", str(core)], capture_output=True, text=True).stdout
        shared_llvm = [line.split()[0] for line in linked.splitlines()
                       if re.search(r"llvm|mlir", line, re.IGNORECASE)]
        if cache.get("TERRAZZO_PORTABLE", "OFF").upper() in ("ON", "TRUE", "1"):
            if shared_llvm:
                raise RuntimeError(f"{core} links {', '.join(shared_llvm)} although "
                                   "the build is portable")
        elif shared_llvm:
            print(f"note: {build_dir} is the development flavour: the package loads "
                  f"{', '.join(shared_llvm)} from this machine (a wheel for other "
                  "machines comes from the portable build, without "
                  "TERRAZZO_CMAKE_BUILD_DIR)", flush=True)


def wheel_command_available() -> bool:
    """Whether setuptools can build a wheel here: itself from 70.1 on, with
    the `wheel` package before. pip builds a wheel even to install, and with
    --no-build-isolation it uses this environment's setuptools without
    installing pyproject.toml's build requirements."""
    try:
        import setuptools.command.bdist_wheel  # noqa: F401
        return True
    except ImportError:
        return importlib.util.find_spec("wheel") is not None


if not wheel_command_available():
    # Instead of setuptools' "invalid command 'bdist_wheel'".
    import setuptools
    sys.exit(f"building terrazzo with setuptools {setuptools.__version__} ({sys.executable}) "
             "needs the `wheel` package in that environment: --no-build-isolation uses "
             "the environment's build tools (Debian: apt install python3-wheel, and make "
             "the environment from /usr/bin/python3 with --system-site-packages)")

SCRATCH = "build-python"
(ROOT / SCRATCH).mkdir(exist_ok=True)

setup(
    version=project_version(),
    package_dir={"": "python"},
    ext_modules=[CMakeExtension("terrazzo._C")],
    cmdclass={"build_ext": CMakeBuild},
    # setuptools' scratch space (and its egg-info), out of the CMake build
    # folder build/ and the sources.
    options={"build": {"build_base": SCRATCH}, "egg_info": {"egg_base": SCRATCH}},
    zip_safe=False,
)
