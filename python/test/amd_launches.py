"""Every kernel the Python tests launch, compiled for the AMD CDNA targets.

With TERRAZZO_AMD_LAUNCHES=1 (conftest.py loads this plugin), each launch
of a @jit function in the session -- interpreted ones included, which is
how the tests run without a GPU -- records the function and its
specialisation key (the dispatcher's: argument types, divisibility,
constexprs, warps and stages; nothing is compiled then, so that tests
which count compiles see none of these). At the end of the session each
distinct (function, key) is compiled to an hsaco file for hip:gfx90a,
hip:gfx942 and hip:gfx950 (`_stage_for_key`, as `kernel.compile(...,
target=..., stage="hsaco")` does), the code object checked for undefined
symbols with llvm-nm, and the counts per target printed; a kernel that does
not compile fails the session, naming the test that launched it.

Launches with GPU-only inputs (torch's CUDA tensors) happen only on a GPU
machine: the summary also lists the @jit functions that GPU-marked tests
launch by name and no launch of this session reached. The kernels of
test/GPU and the tutorials are scripts/amd-compile-check.py's.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

TARGETS = ("hip:gfx90a", "hip:gfx942", "hip:gfx950")
LLVM_NM = "/usr/lib/llvm-22/bin/llvm-nm"
ENV = "TERRAZZO_AMD_LAUNCHES"


def enabled() -> bool:
    return os.environ.get(ENV, "") not in ("", "0")


class LaunchRecorder:
    def __init__(self):
        # (qualified name, function id, key, options) -> (JITFunction, key, test id)
        self.launches = {}
        self.unkeyed = []  # (kernel, test id, reason): launches with no key
        self.current_test = "?"
        self.results = {}  # target -> [(kernel, test, error or None)]
        # The @jit functions that GPU-marked tests launch by name
        # (`kernel[grid](...)`): python function -> (name, [test ids]).
        self.gpu_kernels = {}

    def install(self):
        from terrazzo.runtime import jit
        recorder = self
        original = jit.JITFunction.run

        def run(fn, *args, grid, warmup=False, **kwargs):
            entry = recorder.record(fn, args, kwargs)
            try:
                return original(fn, *args, grid=grid, warmup=warmup, **kwargs)
            except BaseException:
                # A launch the test expects to fail (a frontend error, a
                # bad argument): no kernel of it exists on any target.
                recorder.forget(entry)
                raise

        jit.JITFunction.run = run

    def record(self, fn, args, kwargs):
        from terrazzo.runtime import jit
        name = f"{fn.__module__}.{getattr(fn, '__qualname__', fn.__name__)}"
        try:
            if kwargs and not jit._COMPILE_OPTION_SET.isdisjoint(kwargs):
                fn, kwargs = fn._variant(kwargs)
            kwargs = {k: v for k, v in kwargs.items()
                      if k not in jit.IGNORED_LAUNCH_OPTIONS or k in fn._option_params}
            key = fn.key_for(*args, **kwargs)
            # One Python function (kept alive by the entry, so that its id
            # is not reused) is one kernel, however many JITFunctions wrap
            # it (the tests' interp(kernel) makes one per launch).
            entry = (name, id(fn.fn), repr(key),
                     repr(sorted(fn._compile_options.items())))
        except Exception as e:  # recorded and reported, never raised into the test
            unkeyed = (name, self.current_test, f"{type(e).__name__}: {e}")
            self.unkeyed.append(unkeyed)
            return unkeyed
        if entry in self.launches:
            return None  # launched before: not this launch's to drop
        self.launches[entry] = (fn, key, self.current_test)
        return entry

    def note_gpu_test(self, item):
        """Notes the module-level @jit functions a GPU-marked test's body
        launches by name, which this session runs only where a GPU is."""
        import inspect
        import re
        from terrazzo.runtime.jit import KernelInterface
        try:
            source = inspect.getsource(item.function)
        except (OSError, TypeError):
            return
        for name in set(re.findall(r"\b([A-Za-z_]\w*)\s*\[", source)):
            obj = getattr(item.module, name, None)
            while isinstance(obj, KernelInterface) and not hasattr(obj, "parsed") \
                    and hasattr(obj, "fn"):
                obj = obj.fn  # an autotuner or heuristics around the kernel
            if isinstance(obj, KernelInterface) and hasattr(obj, "fn"):
                label = f"{item.module.__name__}.{name}"
                self.gpu_kernels.setdefault(obj.fn, (label, []))[1].append(item.nodeid)

    def forget(self, entry):
        """Drops what record() added for a launch that then failed."""
        if entry is None:
            return
        if entry in self.launches:
            del self.launches[entry]
        elif entry in self.unkeyed:
            self.unkeyed.remove(entry)

    def compile_all(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "kernel.hsaco"
            for target in TARGETS:
                results = self.results[target] = []
                for (name, _, _, _), (fn, key, test) in sorted(
                        self.launches.items(), key=lambda item: (item[0][0], item[0][2])):
                    results.append((name, test, self._compile(fn, key, target, path)))

    @staticmethod
    def _compile(fn, key, target, path):
        try:
            hsaco = fn._stage_for_key(key, "hsaco", target)
        except Exception as e:
            lines = [line for line in str(e).splitlines() if "error" in line] or \
                str(e).splitlines() or [type(e).__name__]
            return lines[0].strip()[:200]
        path.write_bytes(hsaco)
        out = subprocess.run([LLVM_NM, "-D", "--undefined-only", str(path)],
                             capture_output=True, text=True, check=True).stdout.split()
        return f"undefined symbols: {out}" if out else None

    def failed(self) -> bool:
        return bool(self.unkeyed) or any(
            error for results in self.results.values() for _, _, error in results)

    def summary(self, write):
        write(f"AMD compile check ({ENV}): {len(self.launches)} distinct kernels "
              "launched by the Python tests")
        for target, results in self.results.items():
            good = sum(1 for _, _, error in results if error is None)
            write(f"{target}: {good} of {len(results)} launched kernels compiled to hsaco "
                  "files with no undefined symbol")
            for name, test, error in results:
                if error is not None:
                    write(f"  {name} (launched by {test}): {error}")
        for name, test, reason in self.unkeyed:
            write(f"  launch of {name} by {test} has no specialisation key: {reason}")
        launched = {id(fn.fn) for fn, _, _ in self.launches.values()}
        missing = [(label, tests) for python_fn, (label, tests) in self.gpu_kernels.items()
                   if id(python_fn) not in launched]
        write(f"GPU-marked tests name {len(self.gpu_kernels)} @jit functions; "
              f"{len(self.gpu_kernels) - len(missing)} of them were launched here (compiled "
              f"above, at the interpreted tests' arguments), {len(missing)} only on a GPU:")
        for label, tests in sorted(missing):
            write(f"  {label} (by {len(tests)} GPU tests, e.g. {tests[0]})")
