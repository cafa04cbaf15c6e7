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
symbols with llvm-nm, and the counts per target printed. A kernel that does
not compile fails the session, naming the test that launched it, unless
the chip lacks what it needs and says so at the user's line (REFUSALS,
listed) or no target compiles it (a test's deliberately invalid kernel,
listed).

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
# Located diagnostics of what the AMD side does not have, listed rather
# than failed, each with its cause: inline PTX (a kernel's own
# tl.inline_asm_elementwise; none of this suite's since tl.extra.cuda and
# libdevice's fast_tanhf are tilegpu ops and math.tanh), which Triton's AMD
# backend refuses too; more LDS than the
# chip has (64 KiB on gfx90a and gfx942, 160 KiB on gfx950), as Triton's
# out-of-resources error, where a layout conversion cannot go in rounds
# (none of this suite's kernels since they can); and a libdevice function
# with no AMD counterpart (none since backends/amd/DeviceLibraries.cpp
# defines jn, yn and rcp64h). The summary groups them by cause and
# function.
REFUSALS = {"which the ROCm device libraries have no counterpart of": "libdevice",
            "inline PTX has no lowering for": "inline PTX",
            "of shared memory for buffers live at the same time, more than target": "LDS",
            "of shared memory to move its data between threads, more than target": "LDS"}
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
            if kwargs and not jit._VARIANT_OPTION_SET.isdisjoint(kwargs):
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
        """Compiles every recorded kernel for every target, in as many
        threads as there are cores (the compiler releases the GIL)."""
        import concurrent.futures
        jobs = sorted(self.launches.items(), key=lambda item: (item[0][0], item[0][2]))
        with tempfile.TemporaryDirectory() as tmp, \
                concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
            for target in TARGETS:
                futures = [pool.submit(self._compile, fn, key, target,
                                       Path(tmp) / f"{target[4:]}.{i}.hsaco")
                           for i, (_, (fn, key, _)) in enumerate(jobs)]
                self.results[target] = [
                    (name, test, future.result())
                    for ((name, _, _, _), (_, _, test)), future in zip(jobs, futures)]

    @staticmethod
    def _compile(fn, key, target, path):
        """None, or (category, message): "refused" where the chip lacks what
        the kernel needs (a located diagnostic: REFUSALS), "invalid" where
        no target compiles it (the reference cuda:90 fails too: a test's
        deliberately bad kernel), "failed" otherwise."""
        try:
            hsaco = fn._stage_for_key(key, "hsaco", target)
        except Exception as e:
            lines = [line for line in str(e).splitlines() if "error" in line] or \
                str(e).splitlines() or [type(e).__name__]
            message = lines[0].strip()[:200]
            if any(refusal in message for refusal in REFUSALS):
                from terrazzo.compiler.kernel import split_key
                _, warps, stages = split_key(key, len(fn.arg_names))
                return ("refused", f"{message} [num_warps={warps}, num_stages={stages}]")
            try:
                fn._stage_for_key(key, "ptx", "cuda:90")
            except Exception:
                return ("invalid", message)
            return ("failed", message)
        path.write_bytes(hsaco)
        out = subprocess.run([LLVM_NM, "-D", "--undefined-only", str(path)],
                             capture_output=True, text=True, check=True).stdout.split()
        return ("failed", f"undefined symbols: {out}") if out else None

    def failed(self) -> bool:
        return bool(self.unkeyed) or any(
            error and error[0] == "failed"
            for results in self.results.values() for _, _, error in results)

    def summary(self, write):
        write(f"AMD compile check ({ENV}): {len(self.launches)} distinct kernels "
              "launched by the Python tests")
        for target, results in self.results.items():
            counts = {category: sum(1 for _, _, error in results
                                    if (error and error[0]) == category)
                      for category in (None, "refused", "invalid", "failed")}
            write(f"{target}: {counts[None]} of {len(results)} launched kernels compiled to "
                  f"hsaco files with no undefined symbol; {counts['refused']} refused with a "
                  f"located diagnostic (inline PTX, more LDS than the chip has, libdevice "
                  f"functions without a ROCm counterpart), {counts['invalid']} "
                  f"compile for no target (tests' deliberately invalid kernels), "
                  f"{counts['failed']} failed")
            for name, test, error in results:
                if error is not None:
                    write(f"  {error[0]}: {name} (launched by {test}): {error[1]}")
        self._refusals_by_cause(write)
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

    def _refusals_by_cause(self, write):
        """The refusals grouped by cause and by what causes them: the
        libdevice functions, the kernels that need more LDS (how much), the
        kernels with inline PTX; each with the targets that refuse it."""
        import re
        groups = {}  # (cause, what) -> set of targets
        for target, results in self.results.items():
            for name, _, error in results:
                if not error or error[0] != "refused":
                    continue
                message = error[1]
                cause = next(c for r, c in REFUSALS.items() if r in message)
                if cause == "libdevice":
                    what = re.search(r"libdevice's '(\w+)'", message).group(1)
                elif cause == "LDS":
                    needed = re.search(r"needs (\d+) bytes", message).group(1)
                    config = re.search(r"\[(num_warps=.*)\]$", message).group(1)
                    what = f"{name}: {needed} bytes at {config}"
                else:
                    what = name
                groups.setdefault((cause, what), set()).add(target[4:])
        if groups:
            write("Refusals by cause:")
        for (cause, what), targets in sorted(groups.items()):
            write(f"  {cause}: {what} ({', '.join(sorted(targets))})")
