"""`@jit` and the launch path.

`kernel[grid](*args, num_warps=..., num_stages=..., **meta)` (by default
compiler.kernel.DEFAULT_NUM_WARPS and DEFAULT_NUM_STAGES):

* interpreter mode (`TERRAZZO_INTERPRET=1` / `@jit(interpret=True)`): runs
  every program instance with NumPy;
* otherwise the C++ dispatcher (`_C.Dispatcher`, created once per function)
  binds the arguments, computes the specialisation key, finds the kernel in
  its in-memory cache and launches it. On a miss it calls back
  `JITFunction._compile_for_key`, which generates the tile IR for the key,
  looks in the disk cache and otherwise compiles with `_C.compile`.
"""

from __future__ import annotations

import abc
import ast
import copy
import contextlib
import functools
import hashlib
import inspect
import json
import linecache
import os
import re
import threading
from concurrent.futures import Future
from pathlib import Path
from typing import Any, Callable, Dict, Optional

from ..compiler.codegen import _is_jit_function
from ..compiler.parsed_function import ParsedFunction
from ..compiler.kernel import (DEFAULT_NUM_STAGES, DEFAULT_NUM_WARPS, KernelIR,
                               check_maxnreg, check_num_stages, check_num_warps, compute_key,
                               generate_kernel_ir, interpret, key_digest, launch_option,
                               member_mode, specialisation_modes, specs_from_key, split_key,
                               type_name)
from ..errors import CompilationError, OutOfResourcesCompilationError, SourceLocation
from ..core.lang import constexpr, dtype
from . import async_compile, driver
from .cache import DiskCache
from .tensor_wrapper import MockTensor, TensorWrapper, reinterpret  # noqa: F401 (Triton's names here)
from .tuple_args import TupleLaunches, has_structures

#: Launch options that Triton accepts and Terrazzo ignores. `extern_libs`
#: (Triton's tutorial 07 passes libdevice's path): Terrazzo links the
#: libdevice of the CUDA installation, or TERRAZZO_LIBDEVICE.
IGNORED_LAUNCH_OPTIONS = ("num_ctas",
                          "enable_warp_specialization", "num_buffers_warp_spec",
                          "num_consumer_groups", "reg_dec_producer", "reg_inc_consumer",
                          "extern_libs")
#: Launch options that change the code compiled: a launch that gives one
#: runs a variant of the function compiled with it (its own dispatcher and
#: keys). `enable_fp_fusion` (default TRITON_DEFAULT_FP_FUSION, else on):
#: whether a*b+c may become one fma; `arch` ("sm80", "sm_90a", 90): the
#: architecture compiled for instead of the device's; `maxnreg`: registers
#: per thread the kernel may use (NVIDIA; fewer registers, more programs
#: per multiprocessor).
COMPILE_OPTIONS = ("enable_fp_fusion", "arch", "maxnreg")
#: Launch options that change how the driver runs the grid, not the code:
#: `launch_cooperative_grid` (every program resident at once, or the launch
#: fails, so that programs may wait for each other) and `launch_pdl`
#: (programmatic dependent launch, CUDA on sm_90 and later: the grid may
#: start before the stream's previous kernel has finished, once each of its
#: programs has called `tl.extra.cuda.gdc_launch_dependents()` or exited;
#: the kernel waits for that kernel's memory with `gdc_wait()`; an ordinary
#: launch on AMD GPUs). As with COMPILE_OPTIONS, a launch that gives one runs
#: a variant of the function (its own dispatcher), whose kernels, compiled
#: as the function's, launch so.
LAUNCH_ATTRIBUTE_OPTIONS = ("launch_cooperative_grid", "launch_pdl")
VARIANT_OPTIONS = COMPILE_OPTIONS + LAUNCH_ATTRIBUTE_OPTIONS
LAUNCH_OPTIONS = ("num_warps", "num_stages") + IGNORED_LAUNCH_OPTIONS + VARIANT_OPTIONS
_IGNORED = frozenset(IGNORED_LAUNCH_OPTIONS)
_VARIANT_OPTION_SET = frozenset(VARIANT_OPTIONS)
#: Keywords that a launch must take through JITFunction.run.
_RUN_KEYWORDS = _IGNORED | _VARIANT_OPTION_SET
#: Launch options the C++ dispatcher reads from keywords, so that a kernel
#: parameter of the same name is given to it under another name.
_DISPATCHER_OPTIONS = ("num_warps", "num_stages")

#: The stages TERRAZZO_DUMP_IR writes, and their files' suffixes; then the
#: target's assembly (ptx, amdgcn), whose stage names its suffix.
STAGES_TO_DUMP = (("tile", "mlir"), ("tilegpu", "mlir"), ("llvm", "mlir"))


#: The threads in which `kernel[grid](...)` launches nothing (skipping_launches).
_SKIPPING_THREADS: Dict[int, int] = {}


def _skipped_launch(*args, **kwargs):
    return None


@contextlib.contextmanager
def skipping_launches():
    """Within the block, in this thread, `kernel[grid](...)` returns None and
    launches nothing (nor compiles, nor tunes): torch's fake implementation of
    an operator (torch_ops.torch_op) runs the operator's Python function on
    fake tensors this way, to learn its outputs' shapes."""
    me = threading.get_ident()
    _SKIPPING_THREADS[me] = _SKIPPING_THREADS.get(me, 0) + 1
    try:
        yield
    finally:
        if _SKIPPING_THREADS[me] == 1:
            del _SKIPPING_THREADS[me]
        else:
            _SKIPPING_THREADS[me] -= 1


class KernelInterface(abc.ABC):
    """`kernel[grid](...)` for every launchable object."""

    def __getitem__(self, grid) -> Callable:
        if _SKIPPING_THREADS and threading.get_ident() in _SKIPPING_THREADS:
            return _skipped_launch
        return lambda *args, **kwargs: self.run(*args, grid=grid, **kwargs)

    @abc.abstractmethod
    def run(self, *args, grid, **kwargs): ...


def _global_dependencies(parsed: ParsedFunction):
    """@jit functions and simple global values a function's body refers to."""
    jit_fns, values = [], []
    seen = set()
    for node in ast.walk(parsed.tree):
        chain = []
        n = node
        while isinstance(n, ast.Attribute):
            chain.append(n.attr)
            n = n.value
        if not isinstance(n, ast.Name) or not isinstance(getattr(node, "ctx", None), ast.Load):
            continue
        if isinstance(node, ast.Name) and node.id in parsed.arg_names:
            continue
        found, obj = parsed.lookup_global(n.id)
        if not found:
            continue
        path = [n.id]
        for attr in reversed(chain):
            try:
                obj = getattr(obj, attr)
            except Exception:
                break
            path.append(attr)
        name = ".".join(path)
        if name in seen:
            continue
        seen.add(name)
        inner = obj
        while not _is_jit_function(inner) and hasattr(inner, "fn") and \
                isinstance(inner, KernelInterface):
            inner = inner.fn
        if _is_jit_function(inner):
            jit_fns.append(inner)
        elif isinstance(obj, ConstexprFunction):
            values.append((name, obj.source))
        elif isinstance(obj, (int, float, bool, str, type(None), constexpr, dtype)):
            values.append((name, repr(obj)))
    return jit_fns, values


class JITFunction(KernelInterface):
    """A Python function compiled to a GPU kernel (or run in the
    interpreter)."""

    _terrazzo_jit_function = True
    #: The VARIANT_OPTIONS this function (a variant) compiles and launches with.
    _compile_options: Dict[str, Any] = {}
    _variants: Optional[Dict[Any, "JITFunction"]] = None

    def __init__(self, fn, version=None, do_not_specialize=None,
                 do_not_specialize_on_alignment=None, debug=None, noinline=None,
                 interpret=None, repr=None, launch_metadata=None):
        self.fn = fn
        self.module = fn.__module__
        self.version = version
        self.parsed = ParsedFunction(fn)
        self.arg_names = self.parsed.arg_names
        self.constexprs = self.parsed.constexprs
        self.params = self.parsed.params
        self.signature = self.parsed.signature
        self.src = self.parsed.source
        self.debug = debug
        self.noinline = noinline
        self.interpret = interpret
        # Per parameter, how it is specialised (compiler/kernel.py's
        # specialisation_modes: a mode, or modes by tuple member).
        self.do_not_specialize = specialisation_modes(self.arg_names, do_not_specialize,
                                                      do_not_specialize_on_alignment)
        # Parameters named like a launch option (Triton's tutorial 02 has
        # `num_stages: tl.constexpr`): a keyword of that name gives both the
        # parameter and the option, as in Triton; a positional value only
        # the parameter.
        self._option_params = frozenset(n for n in self.arg_names if n in LAUNCH_OPTIONS)
        self._dispatcher_names = [_param_alias(n) if n in _DISPATCHER_OPTIONS else n
                                  for n in self.arg_names]
        self._dispatcher = None
        # The dispatcher that kernel[grid](...) may call directly (None:
        # every launch goes through run()); see __getitem__.
        self._direct = None
        self._tuple_launches: Optional[TupleLaunches] = None  # launches with tuples
        self._cache_key: Optional[str] = None
        self._disk_cache: Optional[DiskCache] = None
        # Kernels compiled ahead of their first launch (warmup, an
        # autotuner's parallel compiles), by key, until the dispatcher asks.
        self._prepared: Dict[Any, Any] = {}
        # The AsyncCompileMode of an autotuner's compiles (compiling_in).
        self._compile_mode = None
        functools.update_wrapper(self, fn)

    def __repr__(self):
        return f"JITFunction({self.module}:{self.fn.__qualname__})"

    def __getitem__(self, grid) -> Callable:
        """`kernel[grid](...)`. A launch that needs none of run()'s
        handling (no interpreter, compile options, ignored options,
        parameters named like options or tuple arguments seen before) goes
        straight to the C++ dispatcher: what run() decides from the
        function alone is decided once, when the dispatcher is made
        (_direct), and per launch only the keywords and the environment
        are looked at."""
        if _SKIPPING_THREADS and threading.get_ident() in _SKIPPING_THREADS:
            return _skipped_launch
        direct = self._direct

        def launch(*args, **kwargs):
            if direct is not None and (not kwargs or _RUN_KEYWORDS.isdisjoint(kwargs)) and \
                    not driver.interpret_requested():
                try:
                    return direct.run(grid, args, kwargs)
                except TypeError:
                    if not has_structures(args, kwargs):
                        raise
            return self.run(*args, grid=grid, **kwargs)
        return launch

    def __call__(self, *args, **kwargs):
        raise RuntimeError(f"{self.__name__} is a @jit function: launch it with "
                           f"{self.__name__}[grid](...), or call it from another @jit "
                           "function")

    # ------------------------------------------------------------------
    # Identity for caching
    # ------------------------------------------------------------------
    @property
    def cache_key(self) -> str:
        """Hash of this function's source (from its `def` line: decorators,
        an autotuner's configurations say, do not change the code) and of
        every @jit function and global value it uses (transitively)."""
        if self._cache_key is None:
            h = hashlib.sha256()
            visited = set()

            def add(jf):
                if id(jf) in visited:
                    return
                visited.add(id(jf))
                h.update(_source_from_def(jf.parsed).encode())
                h.update(repr(jf.version).encode())
                fns, values = _global_dependencies(jf.parsed)
                h.update(json.dumps(values).encode())
                for f in fns:
                    add(f)
            add(self)
            self._cache_key = h.hexdigest()
        return self._cache_key

    # ------------------------------------------------------------------
    # Binding
    # ------------------------------------------------------------------
    def _bind(self, args, kwargs) -> Dict[str, Any]:
        """All parameters (defaults applied) plus the launch options given."""
        kw = {k: v for k, v in kwargs.items()
              if k not in LAUNCH_OPTIONS or k in self._option_params}
        try:
            bound = self.signature.bind(*args, **kw)
        except TypeError as e:
            raise TypeError(f"{self.__name__}: {e}") from None
        bound.apply_defaults()
        meta = dict(bound.arguments)
        for k in LAUNCH_OPTIONS:
            if k in kwargs:
                meta[k] = kwargs[k]
        return meta

    def _interpreting(self) -> bool:
        if self.interpret is not None:
            return bool(self.interpret)
        return driver.interpret_requested()

    def _debug(self) -> bool:
        if self.debug is not None:
            return bool(self.debug)
        return driver.env_flag("TERRAZZO_DEBUG") or driver.env_flag("TRITON_DEBUG")

    # ------------------------------------------------------------------
    # Launching
    # ------------------------------------------------------------------
    def run(self, *args, grid, warmup=False, **kwargs):
        if self.interpret if self.interpret is not None else driver.interpret_requested():
            meta = self._bind(args, kwargs)
            check_launch_options({k: v for k, v in kwargs.items()
                                  if k not in self._option_params})
            if callable(grid):
                grid = grid(meta)
            if warmup:
                return None
            interpret(self.parsed, grid, meta, kwargs.get("num_warps"),
                      kwargs.get("num_stages"), self.do_not_specialize)
            return None
        if kwargs and not _VARIANT_OPTION_SET.isdisjoint(kwargs):
            variant, kwargs = self._variant(kwargs)
            if variant is not self:
                return variant.run(*args, grid=grid, warmup=warmup, **kwargs)
        dispatcher = self._dispatcher or self._make_dispatcher()
        if kwargs and not _IGNORED.isdisjoint(kwargs):
            # num_warps and num_stages: the dispatcher checks them.
            check_launch_options({k: v for k, v in kwargs.items()
                                  if k in _IGNORED and k not in self._option_params})
            kwargs = {k: v for k, v in kwargs.items()
                      if k not in IGNORED_LAUNCH_OPTIONS or k in self._option_params}
        if self._option_params:
            kwargs, grid = self._dispatcher_view(kwargs, grid)
        if warmup:
            try:
                key = dispatcher.key_for(args, kwargs)
            except TypeError:
                if not has_structures(args, kwargs):
                    raise
                key = self._tuples().key(args, kwargs)
            mode = self._compile_mode or async_compile.active_mode()
            if mode is not None:  # a FutureKernel (async_compile.py)
                return mode.submit((self, key),
                                   lambda: CompiledKernel(self, self._kernel_for_key(key)),
                                   lambda compiled: self._prepared.setdefault(key,
                                                                              compiled.kernel))
            return CompiledKernel(self, self._prepare(key))
        return self._launch(dispatcher, grid, args, kwargs)

    def _launch(self, dispatcher, grid, args, kwargs):
        """Launches through the C++ dispatcher, which calls a grid callable
        with the bound arguments and driver.current_stream with the
        launch's device; a launch with tuple or aggregate arguments (which
        it refuses) through runtime/tuple_args.py."""
        if self._tuple_launches is not None and has_structures(args, kwargs):
            return self._tuple_launches.run(grid, args, kwargs)  # seen before: no detour
        try:
            return dispatcher.run(grid, args, kwargs)
        except TypeError:
            if not has_structures(args, kwargs):
                raise
            return self._tuples().run(grid, args, kwargs)

    def _tuples(self) -> TupleLaunches:
        if self._tuple_launches is None:
            self._tuple_launches = TupleLaunches(self)
            self._direct = None  # launches with tuples skip the C++ TypeError
        return self._tuple_launches

    def _variant(self, kwargs):
        """(the function compiled with the COMPILE_OPTIONS of `kwargs` and
        launched with its LAUNCH_ATTRIBUTE_OPTIONS, the other keywords);
        itself when they are its own."""
        given = {k: kwargs[k] for k in VARIANT_OPTIONS
                 if k in kwargs and k not in self._option_params}
        check_launch_options(given)
        kwargs = {k: v for k, v in kwargs.items() if k not in given}
        options = dict(self._compile_options)
        for name, value in given.items():
            if value is None:
                options.pop(name, None)
            elif name == "arch":
                options[name] = driver.target_for_arch(value)
            elif name == "maxnreg":
                options[name] = int(value)
            elif name in LAUNCH_ATTRIBUTE_OPTIONS and not value:
                options.pop(name, None)  # an ordinary launch
            else:
                options[name] = bool(value)
        if options == self._compile_options:
            return self, kwargs
        base = self._base if self._compile_options else self
        if base._variants is None:
            base._variants = {}
        key = tuple(sorted(options.items()))
        variant = base._variants.get(key)
        if variant is None:
            variant = copy.copy(base)
            variant._base, variant._compile_options = base, options
            variant._dispatcher, variant._prepared, variant._variants = None, {}, None
            variant._direct = None
            variant._tuple_launches = None
            # Its own compiles: a copy made while an autotuner compiles the
            # parent in threads must not send them to that (closing) pool.
            variant._compile_mode = None
            variant = base._variants[key] = variant
        return variant, kwargs

    def _target(self, C) -> str:
        """The target this function compiles for."""
        return self._compile_options.get("arch") or _default_target(C)

    def _fp_fusion(self) -> bool:
        fusion = self._compile_options.get("enable_fp_fusion")
        return driver.default_fp_fusion() if fusion is None else fusion

    def _codegen_options(self) -> Dict[str, Any]:
        """The keywords of `_C.compile` that COMPILE_OPTIONS set."""
        # The launcher (_C.Kernel) builds the tensor maps of arguments
        # (TERRAZZO_HOST_TENSORMAPS=0: every map is built in the kernel, in
        # global scratch, as before; for comparisons).
        return {"enable_fp_fusion": self._fp_fusion(),
                "maxnreg": self._compile_options.get("maxnreg", 0),
                "host_tensormaps": os.environ.get("TERRAZZO_HOST_TENSORMAPS") != "0"}

    def _run_with_options(self, grid, args, kwargs, num_warps: int, num_stages: int):
        """Launches with these launch options whatever the keywords say
        (a CompiledKernel's launch)."""
        dispatcher = self._dispatcher or self._make_dispatcher()
        if self._option_params:
            kwargs, grid = self._dispatcher_view(kwargs, grid)
        # Parameters named like the options are known to the dispatcher by
        # another name, so these keywords are the options only.
        kwargs = {**kwargs, "num_warps": num_warps, "num_stages": num_stages}
        return self._launch(dispatcher, grid, args, kwargs)

    def _dispatcher_view(self, kwargs, grid):
        """The keywords and grid callable in the dispatcher's names, for a
        kernel with parameters named like launch options."""
        kwargs = dict(kwargs)
        for name in self._option_params.intersection(_DISPATCHER_OPTIONS):
            if name in kwargs:  # the parameter, and the option too
                kwargs[_param_alias(name)] = kwargs[name]
        if callable(grid):
            user_grid = grid
            names = dict(zip(self._dispatcher_names, self.arg_names))

            def grid(meta):
                return user_grid({names.get(k, k): v for k, v in meta.items()})
        return kwargs, grid

    def warmup(self, *args, grid=(1,), **kwargs):
        """Compile for these arguments without launching (the first launch
        with them then takes this kernel)."""
        return self.run(*args, grid=grid, warmup=True, **kwargs)

    @contextlib.contextmanager
    def compiling_in(self, pool):
        """Within the block `warmup` of this function (not of others, as in
        an AsyncCompileMode block) computes the launch's key at once, in
        the calling thread, and submits its compilation to `pool` (a
        concurrent.futures executor), returning a FutureKernel: an
        autotuner compiles its configurations in parallel threads (the
        compiler releases the GIL)."""
        self._dispatcher or self._make_dispatcher()
        self._compile_mode = async_compile.AsyncCompileMode(pool)
        try:
            yield
        finally:
            self._compile_mode = None

    def _prepare(self, key):
        """The kernel for `key`, kept for the first launch with that key."""
        kernel = self._prepared[key] = self._kernel_for_key(key)
        return kernel

    def _make_dispatcher(self):
        C = driver.get_C()
        if not C.runtime_available() and not driver.env_flag("TERRAZZO_DRY_LAUNCH"):
            raise RuntimeError(
                f"cannot launch {self.__name__}: no GPU runtime ({C.runtime_error()}). "
                "Set TERRAZZO_INTERPRET=1 to run kernels on the CPU.")
        defaults = [p.default if p.default is not inspect.Parameter.empty else C.NO_DEFAULT
                    for p in self.params]
        self._dispatcher = C.Dispatcher(list(self._dispatcher_names), list(self.constexprs),
                                        [member_mode(m) for m in self.do_not_specialize],
                                        defaults,
                                        self._compile_for_key, self.__name__,
                                        current_stream=driver.current_stream)
        if self.interpret is None and not self._option_params and \
                self._tuple_launches is None:
            self._direct = self._dispatcher
        return self._dispatcher

    # ------------------------------------------------------------------
    # Compiling
    # ------------------------------------------------------------------
    def key_for(self, *args, **kwargs) -> tuple:
        """The specialisation key of a launch, computed in Python."""
        meta = self._bind(args, kwargs)
        values = [meta[n] for n in self.arg_names]
        return compute_key(self.parsed, values, self.do_not_specialize,
                           kwargs.get("num_warps", DEFAULT_NUM_WARPS),
                           kwargs.get("num_stages", DEFAULT_NUM_STAGES))

    def ir_for_key(self, key) -> KernelIR:
        entries, num_warps, _ = split_key(key, len(self.arg_names))
        specs = specs_from_key(self.parsed, entries)
        return generate_kernel_ir(self.parsed, specs, debug=self._debug(), num_warps=num_warps)

    def ir(self, *args, **kwargs) -> str:
        """The tile IR the frontend generates for these arguments (no
        extension needed)."""
        return self.ir_for_key(self.key_for(*args, **kwargs)).text

    def compile(self, *args, stage: Optional[str] = None, target: Optional[str] = None,
                **kwargs):
        """This kernel, specialised for these arguments, at `stage` (tile,
        tilegpu, llvm, llvmir; ptx or cubin for cuda targets, amdgcn or hsaco
        for hip targets; by default the target's assembly) for `target` (by
        default the one launches compile for, e.g. "hip:gfx942"): text, or
        bytes for the binaries. Compiling for a target needs no GPU of it.
        `num_warps`, `num_stages` and the COMPILE_OPTIONS (`maxnreg`, ...)
        are keywords, as at a launch."""
        if kwargs and not _VARIANT_OPTION_SET.isdisjoint(kwargs):
            variant, kwargs = self._variant(kwargs)
            if variant is not self:
                return variant.compile(*args, stage=stage, target=target, **kwargs)
        return self._stage_for_key(self.key_for(*args, **kwargs), stage, target)

    def _compile_for_key(self, key, bound_args=None):
        """The dispatcher's callback: the kernel for `key`, which every launch
        with that key returns (a `_C.Kernel` with Triton's `asm`, `metadata`
        and `name`)."""
        kernel = self._prepared.pop(key, None) if self._prepared else None
        return kernel if kernel is not None else self._kernel_for_key(key)

    def _stage_for_key(self, key, stage: Optional[str], target: Optional[str] = None):
        """The kernel for `key` at `stage` ("tile", "tilegpu", "llvm",
        "llvmir", the assembly "ptx" or "amdgcn": text; the binary "cubin" or
        "hsaco": bytes; by default the target's assembly), for `target` (by
        default the one launches compile for)."""
        kir = self.ir_for_key(key)
        C = driver.get_C()
        _, num_warps, num_stages = split_key(key, len(self.arg_names))
        target = driver.target_for_arch(target) if target else self._target(C)
        stages = driver.target_stages(target, C)
        stage = stage or stages.assembly
        res = C.compile(kir.text, f"{kir.name}.mlir", target, num_warps, stage,
                        num_stages=num_stages, **self._codegen_options())
        if not res.success:
            raise compile_error(res.diagnostics, kir, self, target)
        out = res.output
        if stage != stages.binary and isinstance(out, (bytes, bytearray)):
            out = bytes(out).decode()
        return out

    def _kernel_for_key(self, key):
        """The launched kernel (`_C.Kernel`) for `key`, from the disk cache or
        compiled (an entry the runtime rejects is recompiled)."""
        C = driver.get_C()
        binary, meta, cached = self._binary_for_key(key)
        try:
            return _launched_kernel(C, self, key, binary, meta)
        except Exception:
            if not cached:
                raise
        binary, meta, _ = self._binary_for_key(key, use_cache=False)
        return _launched_kernel(C, self, key, binary, meta)

    def compile_environment(self) -> Dict[str, Any]:
        """What besides the source, the key and the target changes the
        compiled code: debug mode, TERRAZZO_TMA (=0 turns TMA for
        descriptors on sm_90 off: another compilation) and
        TERRAZZO_PROMOTE_OFFSETS (=1 computes offsets that may pass 2^31 in
        i64 for every pointer, =0 for none; unset, for the pointers that the
        key does not say fit in 2^31 bytes), TERRAZZO_NARROW_BARRIERS (=0
        turns off the barriers of a warp or warp group where they suffice,
        and the rows banded by warp in warp-specialized functions)."""
        return {"debug": self._debug(), "tma": os.environ.get("TERRAZZO_TMA", ""),
                "promote_offsets": os.environ.get("TERRAZZO_PROMOTE_OFFSETS", ""),
                "narrow_barriers": os.environ.get("TERRAZZO_NARROW_BARRIERS", ""),
                **self._codegen_options()}

    def _binary_for_key(self, key, use_cache: bool = True):
        """(cubin, metadata, whether it came from the disk cache) for `key`."""
        C = driver.get_C()
        entries, num_warps, num_stages = split_key(key, len(self.arg_names))
        target = self._target(C)
        environment = self.compile_environment()
        digest = key_digest("terrazzo-kernel", self.cache_key, C.version(), target,
                            {"num_warps": num_warps, "num_stages": num_stages, **environment},
                            [repr(e) for e in entries])
        dump_dir = os.environ.get("TERRAZZO_DUMP_IR")
        cache = self._disk_cache or DiskCache()
        if not use_cache or dump_dir:
            return self._compile_binary(key, digest, cache, target)
        return _IN_FLIGHT.share((str(cache.root), digest),
                                lambda: self._cached_binary(key, digest, cache, target))

    def _cached_binary(self, key, digest: str, cache: DiskCache, target: str):
        """_binary_for_key from the disk cache, else compiled and stored
        there, with other processes that compile it waiting meanwhile."""
        hit = cache.load(digest, self.parsed.name)
        if hit is None:
            with cache.compiling(digest):
                hit = cache.load(digest, self.parsed.name)  # another process's
                if hit is None:
                    return self._compile_binary(key, digest, cache, target)
        return hit[0], hit[1], True

    def _compile_binary(self, key, digest: str, cache: DiskCache, target: str):
        """(cubin, metadata, False) for `key`, compiled and stored in `cache`."""
        C = driver.get_C()
        entries, num_warps, num_stages = split_key(key, len(self.arg_names))
        environment = self.compile_environment()
        debug = environment["debug"]
        dump_dir = os.environ.get("TERRAZZO_DUMP_IR")
        specs = specs_from_key(self.parsed, entries)
        kir = generate_kernel_ir(self.parsed, specs, debug=debug, num_warps=num_warps)
        if dump_dir:
            dump_stages(C, kir, target, num_warps, Path(dump_dir), digest[:8],
                        num_stages, self._codegen_options())
        # Code for another architecture than the device's (arch=) goes to the
        # driver as PTX, which it compiles for the device.
        assembler = driver.assembler_for(target, C)
        res = C.compile(kir.text, f"{kir.name}.mlir", target, num_warps,
                        driver.target_stages(target, C).binary, assembler,
                        num_stages=num_stages, **self._codegen_options())
        if not res.success:
            raise compile_error(res.diagnostics, kir, self, target)
        md = dict(res.metadata)
        binary = bytes(res.output)
        meta = {"name": md.get("name") or kir.name,
                "threads_per_block": int(md["threads_per_block"]),
                "shared_memory_bytes": int(md.get("shared_memory_bytes") or 0),
                "global_scratch_bytes": int(md.get("global_scratch_bytes") or 0),
                "host_tensormaps": [dict(m) for m in md.get("host_tensormaps") or []],
                "signature": kir.signature, "target": target,
                "kernel": self.__name__, "source": self.parsed.file}
        cache.store(digest, binary, meta)
        return binary, meta, False


class _SharedCompiles:
    """One compile of a key at a time in this process: the first thread to
    ask runs it, the others wait for its result (or its exception) instead
    of compiling it again. Eight threads launching a new kernel together
    compiled it about five times."""

    def __init__(self):
        self._lock = threading.Lock()
        self._running: Dict[Any, Future] = {}

    def share(self, key, compute: Callable[[], Any]):
        with self._lock:
            future = self._running.get(key)
            owner = future is None
            if owner:
                future = self._running[key] = Future()
        if not owner:
            return future.result()
        try:
            result = compute()
        except BaseException as e:
            future.set_exception(e)
            raise
        else:
            future.set_result(result)
            return result
        finally:
            with self._lock:
                del self._running[key]


_IN_FLIGHT = _SharedCompiles()


class CompiledKernel:
    """What `kernel.warmup(...)` returns (Triton's CompiledKernel): the
    kernel compiled for those arguments and launch options.

    `metadata` has name, num_warps, num_stages, shared (bytes of shared
    memory) and target; `asm` has the binary ("cubin") and the text of
    every stage (KernelAsm); `n_regs`, `n_spills`
    and `n_max_threads` are the driver's figures once `_init_handles()` has
    loaded it. `compiled[grid](*args)` launches it with every parameter
    given positionally (constexprs included) and its own launch options.
    Other attributes are the runtime kernel's (threads_per_block, ...)."""

    def __init__(self, fn: "JITFunction", kernel):
        # `kernel`: the launched kernel (_launched_kernel), whose asm and
        # metadata these are.
        self.fn = fn
        self.kernel = kernel
        self.asm = kernel.asm
        self.metadata = kernel.metadata
        self.name = kernel.metadata.name
        self.n_regs = self.n_spills = self.n_max_threads = None

    def _init_handles(self) -> None:
        if self.n_regs is None:
            attributes = driver.kernel_attributes(self.asm["cubin"], self.name)
            self.n_regs = attributes["num_regs"]
            self.n_spills = attributes["local_bytes"] // 4
            self.n_max_threads = attributes["max_threads"]

    def __getitem__(self, grid) -> Callable:
        md = self.metadata
        return lambda *args, **kwargs: self.fn._run_with_options(
            grid, args, kwargs, md.num_warps, md.num_stages)

    def __getattr__(self, name):
        return getattr(self.kernel, name)

    def __repr__(self):
        return f"CompiledKernel({self.name}, num_warps={self.metadata.num_warps})"


def check_launch_options(options: Dict[str, Any]) -> None:
    """Raises for a launch option (LAUNCH_OPTIONS) of the wrong type or out
    of range, naming it (num_warps and num_stages as the C++ dispatcher
    does); options Terrazzo ignores are checked too, so that a typo in a
    value is not silently dropped."""
    for name, value in options.items():
        if value is None:
            continue
        if name == "num_warps":
            check_num_warps(value)
        elif name == "num_stages":
            check_num_stages(value)
        elif name == "maxnreg":
            check_maxnreg(value)
        elif name in ("num_ctas", "num_buffers_warp_spec", "num_consumer_groups",
                      "reg_dec_producer", "reg_inc_consumer"):
            launch_option(value, name, 1 if name == "num_ctas" else 0, 0)
        elif name in ("enable_fp_fusion", "launch_cooperative_grid", "launch_pdl",
                      "enable_warp_specialization"):
            if not isinstance(value, bool):
                raise TypeError(f"{name} must be a bool, got {type_name(value)}")
        elif name == "extern_libs":
            if not isinstance(value, dict):
                raise TypeError(f"extern_libs must be a dict, got {type_name(value)}")
        elif name == "arch":
            driver.target_for_arch(value)


def _source_from_def(parsed: ParsedFunction) -> str:
    """A function's source from its `def` line on (without decorators)."""
    return "".join(parsed.source.splitlines(keepends=True)[parsed.tree.lineno - 1:])


def _param_alias(name: str) -> str:
    """The name the C++ dispatcher knows a parameter by when the parameter
    is named like one of its launch options."""
    return f"{name} (parameter)"


class KernelAsm(dict):
    """`kernel.asm` (Triton's): "cubin" is the binary; "ptx", "llvmir",
    "llvm", "tilegpu" and "tile" (Terrazzo's stages) are compiled again on
    first access and kept. Triton's names of the stages ("ttir", "ttgir",
    "llir") give Terrazzo's stages at the same level."""

    _STAGES = ("ptx", "llvmir", "llvm", "tilegpu", "tile")
    _TRITON_NAMES = {"ttir": "tile", "ttgir": "tilegpu", "llir": "llvmir"}

    def __init__(self, fn: "JITFunction", key, binary: bytes, target: Optional[str] = None):
        super().__init__(cubin=binary)
        # `target`: the one the binary was compiled for, whatever the
        # environment says when a stage is asked for.
        self._fn, self._key, self._target = fn, key, target

    def __missing__(self, stage):
        if stage in self._TRITON_NAMES:
            text = self[stage] = self[self._TRITON_NAMES[stage]]
            return text
        if stage not in self._STAGES:
            raise KeyError(f"{stage!r}: Terrazzo's kernels have the stages "
                           f"{['cubin', *self._STAGES]}")
        # "tile": the frontend's IR, as it goes to the compiler.
        text = self[stage] = (self._fn.ir_for_key(self._key).text if stage == "tile" else
                              self._fn._stage_for_key(self._key, stage, self._target))
        return text

    def __contains__(self, stage):
        return stage == "cubin" or stage in self._STAGES or stage in self._TRITON_NAMES

    def keys(self):
        return ["cubin", *self._STAGES]


_LAUNCHED_KERNEL_TYPES: Dict[Any, type] = {}


def _launched_kernel(C, fn: "JITFunction", key, binary: bytes, meta: Dict[str, Any]):
    """The `_C.Kernel` for `key`, as an instance of a Python subclass that
    also carries what Triton's launches return: `asm`, `metadata`, `name`."""
    cls = _LAUNCHED_KERNEL_TYPES.get(C.Kernel)
    if cls is None:
        cls = type("LaunchedKernel", (C.Kernel,), {
            "__doc__": "A compiled kernel as launches return it (Triton's "
                       "CompiledKernel fields asm, metadata and name)."})
        _LAUNCHED_KERNEL_TYPES[C.Kernel] = cls
    kernel = _make_kernel_from(C, binary, meta, cls, fn._compile_options)
    _, num_warps, num_stages = split_key(key, len(fn.arg_names))
    from types import SimpleNamespace
    kernel.asm = KernelAsm(fn, key, binary, meta.get("target"))
    kernel.metadata = SimpleNamespace(name=meta["name"], num_warps=num_warps,
                                      num_stages=num_stages,
                                      shared=meta["shared_memory_bytes"],
                                      target=meta.get("target"))
    return kernel


def _make_kernel_from(C, binary, meta, cls=None, options=None):
    """`options`: a function's variant options, of which the
    LAUNCH_ATTRIBUTE_OPTIONS say how the kernel launches."""
    options = options or {}
    return _make_kernel(C, binary, meta["name"], meta["threads_per_block"],
                        meta["shared_memory_bytes"], meta["signature"],
                        meta.get("global_scratch_bytes", 0), cls, meta.get("target"),
                        meta.get("host_tensormaps") or None,
                        cooperative=bool(options.get("launch_cooperative_grid")),
                        pdl=bool(options.get("launch_pdl")))


def _make_kernel(C, binary, name, threads, smem, signature, scratch=0, cls=None,
                 target=None, host_tensormaps=None, cooperative=False, pdl=False):
    # `scratch`: global scratch per program instance (TMA descriptors' tensor
    # maps), which the kernel takes as a hidden last argument. `target`: what
    # the binary was compiled for, which picks the driver that launches it
    # (CUDA for cuda:*, HIP for hip:*). `host_tensormaps`: the tensor maps
    # the launch builds from the arguments (the compiler's metadata).
    # `cooperative`, `pdl`: how each launch asks the driver to run the grid
    # (LAUNCH_ATTRIBUTE_OPTIONS).
    cls = cls or C.Kernel
    launch = dict(cooperative=cooperative, programmatic_dependent_launch=pdl)
    if driver.env_flag("TERRAZZO_DRY_LAUNCH"):
        # Pack the arguments and stop before the driver (tests without a GPU).
        return cls(binary, name, threads, smem, signature, dry_run=True,
                   global_scratch_bytes=scratch, target=target,
                   host_tensormaps=host_tensormaps, **launch)
    return cls(binary, name, threads, smem, signature, global_scratch_bytes=scratch,
               target=target, host_tensormaps=host_tensormaps, **launch)


def _default_target(C) -> str:
    """The target kernels are compiled for (see driver.current_target_name)."""
    return driver.current_target_name(C)


def dump_stages(C, kir: KernelIR, target: str, num_warps: int, folder: Path, tag: str,
                num_stages: int = 3, codegen: Optional[Dict[str, Any]] = None):
    """Writes the frontend's IR and every stage's output to `folder`
    (`codegen`: JITFunction._codegen_options)."""
    folder.mkdir(parents=True, exist_ok=True)
    base = f"{kir.name}-{tag}"
    (folder / f"{base}.source.mlir").write_text(kir.text)
    assembly = driver.target_stages(target, C).assembly
    for stage, ext in STAGES_TO_DUMP + ((assembly, assembly),):
        res = C.compile(kir.text, f"{kir.name}.mlir", target, num_warps, stage,
                        num_stages=num_stages, **(codegen or {}))
        out = res.output
        if isinstance(out, (bytes, bytearray)):
            out = bytes(out).decode(errors="replace")
        if not res.success:
            out = "\n".join(str(d) for d in res.diagnostics)
            ext = "errors.txt"
        (folder / f"{base}.{stage}.{ext}").write_text(out)


def compile_error(diagnostics, kir: KernelIR, jitfn: Optional[JITFunction],
                  target: str) -> CompilationError:
    """A CompilationError pointing at the user's line from the compiler's
    diagnostics."""
    diags = list(diagnostics)
    errors = [d for d in diags if "error" in str(getattr(d, "severity", "error")).lower()] \
        or diags
    ir_lines = kir.text.splitlines()
    notes = []
    first_loc, first_msg = None, None
    for d in errors + [d for d in diags if d not in errors]:
        file, line, col = getattr(d, "file", ""), getattr(d, "line", 0), getattr(d, "column", 0)
        msg = getattr(d, "message", str(d))
        sev = str(getattr(d, "severity", "error")).split(".")[-1].lower()
        if file and line and not file.endswith(".mlir") and os.path.exists(file):
            text = linecache.getline(file, line) or None
            loc = SourceLocation(file, line, max(col - 1, 0), text)
        elif file.endswith(".mlir") and line and line <= len(ir_lines):
            loc = None
            msg = f"{msg}\n    (tile IR line {line}: {ir_lines[line - 1].strip()})"
        else:
            loc = None
        if first_msg is None:
            first_loc, first_msg = loc, msg
            if loc is None and file.endswith(".mlir"):
                first_msg = ("internal error: the compiler rejected the IR generated by "
                             f"the frontend: {msg}")
        else:
            where = f"{loc}: " if loc is not None else ""
            notes.append(f"  {where}{sev}: {msg}")
    if first_msg is None:
        first_msg = "compilation failed without diagnostics"
    name = kir.name
    notes.append(f"  while compiling kernel {name!r} for {target}")
    shared = _SHARED_MEMORY_EXCEEDED.search(first_msg)
    if shared:
        return OutOfResourcesCompilationError(first_msg, first_loc, notes, kernel=name,
                                              required=int(shared.group(1)),
                                              limit=int(shared.group(2)))
    return CompilationError(first_msg, first_loc, notes, kernel=name)


# The compiler's diagnostic for a kernel needing too much shared memory.
_SHARED_MEMORY_EXCEEDED = re.compile(r"needs (\d+) bytes of shared memory.*?\((\d+) bytes\)",
                                     re.S)


class ConstexprFunction:
    """A Python function that kernels call on compile-time values
    (`@triton.constexpr_function`): called from a kernel, its arguments are
    the constexprs' values and its result is a compile-time value; called
    from Python, it is the function itself. Its source is part of the cache
    key of the kernels that call it."""

    def __init__(self, fn):
        self.fn = fn
        functools.update_wrapper(self, fn)
        try:
            self.source = inspect.getsource(fn)
        except (OSError, TypeError):  # no source file: its identity instead
            self.source = f"{fn.__module__}.{fn.__qualname__}"

    def __call__(self, *args, **kwargs):
        args = [a.value if isinstance(a, constexpr) else a for a in args]
        kwargs = {k: v.value if isinstance(v, constexpr) else v for k, v in kwargs.items()}
        return self.fn(*args, **kwargs)

    def __repr__(self):
        return f"ConstexprFunction({self.fn.__module__}:{self.fn.__qualname__})"


def constexpr_function(fn):
    """Decorator: `fn` may be called from kernels on compile-time values
    (see ConstexprFunction)."""
    return ConstexprFunction(fn)


def must_use_result(fn, message=True):
    """Decorator: a kernel that calls `fn` (a @jit function or a function
    kernels call) and drops the result fails to compile. With a string,
    `@must_use_result("why")` uses it as the error's explanation."""
    if isinstance(fn, str):
        return lambda f: must_use_result(f, fn)
    fn._must_use_result = message
    return fn


def jit(fn=None, *, version=None, do_not_specialize=None, do_not_specialize_on_alignment=None,
        debug=None, noinline=None, interpret=None, repr=None, launch_metadata=None):
    """Decorator: compile `fn` as a kernel (or a function kernels call).

    `@jit`, `@jit(interpret=True)`, `@jit(do_not_specialize=["n"])`,
    `@jit(debug=True)` (compile device_assert in)."""
    def decorate(f):
        return JITFunction(f, version=version, do_not_specialize=do_not_specialize,
                           do_not_specialize_on_alignment=do_not_specialize_on_alignment,
                           debug=debug, noinline=noinline, interpret=interpret, repr=repr,
                           launch_metadata=launch_metadata)
    if fn is not None:
        return decorate(fn)
    return decorate
