"""`@autotune`, `Config` and `@heuristics`, as in Triton.

`autotune` times every configuration (after pruning) the first time it sees
a new value of its `key` (the key arguments' values and the tensors'
dtypes) and then launches the fastest, `kernel.best_config`:

* the configurations not timed yet are compiled first, in parallel threads
  (the compiler releases the GIL), then timed one after the other;
* each configuration's time is kept on disk (cache.TuningCache) per kernel
  source, device, compiler and key: another process, or the same kernel with
  one configuration more, times only what it has not seen
  (TERRAZZO_AUTOTUNE_CACHE=0 turns this off for kernels without
  `cache_results=True`);
* while it times, a progress line is rewritten on stderr when stderr is a
  terminal; TERRAZZO_PRINT_AUTOTUNING=1 (or TRITON_PRINT_AUTOTUNING) prints
  the winner and its time.

Every timed call runs, in this order: the configuration's `pre_hook`, the
zeroing of the `reset_to_zero` arguments, the autotuner's `pre_hook`, the
launch, `post_hook(args, exception=...)`, and the restoring of the
`restore_value` arguments to their values from before tuning. After tuning the
`reset_to_zero` arguments are zeroed once more, then the chosen
configuration launches (its `pre_hook` first, as on every launch).

In the interpreter it does not time (the CPU says nothing of the GPU) and
takes the first configuration, unless a `do_bench` was given.
"""

from __future__ import annotations

import builtins
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Dict, List, Optional, Sequence

from .. import testing
from ..compiler.kernel import DEFAULT_NUM_STAGES, DEFAULT_NUM_WARPS, key_digest
from ..errors import CompilationError, OutOfResources
from .async_compile import FutureKernel
from . import driver
from .cache import TuningCache
from .jit import KernelInterface


# Types the autotuner's key skips without looking for a dtype (the common
# scalars; their subclasses, numpy's float64 say, are skipped further on).
_SCALAR_TYPES = frozenset((int, float, bool, str, type(None)))
# str(dtype) by dtype, filled as launches meet them.
_DTYPE_NAMES: Dict[Any, str] = {}
# What do_bench is asked for: the median first, as Triton's autotuner.
_QUANTILES = (0.5, 0.2, 0.8)


class Config:
    """One set of meta-parameters and launch options to try."""

    def __init__(self, kwargs: Dict[str, Any], num_warps: int = DEFAULT_NUM_WARPS,
                 num_stages: int = DEFAULT_NUM_STAGES,
                 num_ctas: int = 1, maxnreg: Optional[int] = None, pre_hook=None):
        self.kwargs = dict(kwargs)
        self.num_warps = num_warps
        self.num_stages = num_stages
        self.num_ctas = num_ctas
        self.maxnreg = maxnreg
        self.pre_hook = pre_hook

    def all_kwargs(self) -> Dict[str, Any]:
        out = dict(self.kwargs)
        out["num_warps"] = self.num_warps
        out["num_stages"] = self.num_stages
        if self.maxnreg is not None:
            out["maxnreg"] = self.maxnreg
        return out

    def cache_id(self) -> str:
        """This configuration in the tuning cache: every field, the meta-
        parameters sorted, a pre_hook by its qualified name."""
        parts = [f"{k}={v!r}" for k, v in sorted(self.kwargs.items())]
        parts += [f"num_warps={self.num_warps}", f"num_stages={self.num_stages}",
                  f"num_ctas={self.num_ctas}", f"maxnreg={self.maxnreg}"]
        if self.pre_hook is not None:
            hook = self.pre_hook
            parts.append(f"pre_hook={getattr(hook, '__module__', '')}."
                         f"{getattr(hook, '__qualname__', type(hook).__qualname__)}")
        return ", ".join(parts)

    def __str__(self):
        parts = [f"{k}: {v}" for k, v in self.kwargs.items()]
        parts += [f"num_warps: {self.num_warps}", f"num_stages: {self.num_stages}"]
        return ", ".join(parts)

    __repr__ = __str__


def _inner_jit(fn):
    while isinstance(fn, KernelInterface) and not getattr(fn, "_terrazzo_jit_function", False):
        fn = fn.fn
    return fn


def _milliseconds(timing) -> float:
    """The time (median) of a do_bench result; inf for a failed run."""
    if timing is None:
        return float("inf")
    if isinstance(timing, (list, tuple)):
        return float(timing[0]) if timing else float("inf")
    return float(timing)


def _as_list(timing) -> Optional[List[float]]:
    """A do_bench result as the tuning cache keeps it."""
    if timing is None:
        return None
    ms = [float(t) for t in (timing if isinstance(timing, (list, tuple)) else [timing])]
    return ms if ms and all(t == t and t != float("inf") for t in ms) else None


# Arguments that reset_to_zero and restore_value name: torch tensors (zero_,
# clone, copy_) or NumPy arrays (the interpreter's).
def _zero(value) -> None:
    if value is None:
        return
    if hasattr(value, "zero_"):
        value.zero_()
    else:
        value[...] = 0


def _snapshot(value):
    return value.clone() if hasattr(value, "clone") else value.copy()


def _restore(value, saved) -> None:
    if hasattr(value, "copy_"):
        value.copy_(saved)
    else:
        value[...] = saved


def _device_identity(C) -> str:
    """The device timings are for: the target, and the properties that tell
    two parts of one architecture apart (an H100 PCIe from an SXM)."""
    target = driver.current_target_name(C)
    try:
        props = driver.active.utils.get_device_properties()
    except Exception:  # no device answers (dry launches)
        return target
    return f"{target} " + ",".join(f"{k}={v}" for k, v in sorted(props.items()))


class _Progress:
    """The one line on stderr that says how tuning goes, rewritten in place
    when stderr is a terminal (nothing otherwise)."""

    def __init__(self, title: str):
        self.stream = sys.stderr
        try:
            self.live = self.stream.isatty()
        except (AttributeError, ValueError):
            self.live = False
        self.title = title

    def show(self, what: str) -> None:
        if self.live:
            self.stream.write(f"\r\x1b[K{self.title}: {what}")
            self.stream.flush()

    def done(self) -> None:
        if self.live:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def _print_autotuning() -> bool:
    return driver.env_flag("TERRAZZO_PRINT_AUTOTUNING") or \
        driver.env_flag("TRITON_PRINT_AUTOTUNING")


class Autotuner(KernelInterface):
    def __init__(self, fn, arg_names: Sequence[str], configs: Sequence[Config],
                 key: Sequence[str], reset_to_zero=None, restore_value=None, pre_hook=None,
                 post_hook=None, prune_configs_by: Optional[Dict] = None, warmup=None,
                 rep=None, use_cuda_graph=False, do_bench=None, cache_results=False):
        self.fn = fn
        self.arg_names = list(arg_names)
        self.configs = list(configs) if configs else [Config({})]
        self.keys = list(key)
        unknown = [n for n in list(reset_to_zero or []) + list(restore_value or [])
                   if n not in self.arg_names]
        if unknown:
            raise ValueError(f"autotune: reset_to_zero/restore_value name unknown "
                             f"parameters {unknown} of {getattr(fn, '__name__', fn)}")
        self.reset_to_zero = list(reset_to_zero or [])
        self.restore_value = list(restore_value or [])
        self.pre_hook = pre_hook
        self.post_hook = post_hook
        prune_configs_by = prune_configs_by or {}
        self.perf_model = prune_configs_by.get("perf_model")
        self.configs_top_k = prune_configs_by.get("top_k", 1.0)
        self.early_config_prune = prune_configs_by.get("early_config_prune")
        self.num_warmups = warmup if warmup is not None else 25
        self.num_reps = rep if rep is not None else 100
        self.use_cuda_graph = use_cuda_graph
        self._do_bench = do_bench
        self.cache_results = cache_results
        self.cache: Dict[Any, Config] = {}
        self.best_config: Optional[Config] = None
        self.configs_timings: Optional[Dict[Config, Any]] = None
        self.bench_time: Optional[float] = None
        self.__name__ = getattr(fn, "__name__", "autotuned")
        self.__doc__ = getattr(fn, "__doc__", None)

    def _key(self, all_args: Dict[str, Any]):
        # On every launch: a tensor's dtype name comes from a cache, since
        # str(torch.dtype) costs more than the rest of the key.
        key = [all_args[k] for k in self.keys if k in all_args]
        for v in all_args.values():
            if type(v) in _SCALAR_TYPES:
                continue
            dt = getattr(v, "dtype", None)
            if dt is not None and not isinstance(v, (int, float, bool)):
                name = _DTYPE_NAMES.get(dt)
                if name is None:
                    name = _DTYPE_NAMES[dt] = str(dt)
                key.append(name)
        return tuple(key)

    def prune_configs(self, kwargs: Dict[str, Any], nargs: Optional[Dict[str, Any]] = None
                      ) -> List[Config]:
        """The configurations to time: `early_config_prune(configs, nargs,
        **kwargs)`, then the `top_k` best by `perf_model(**nargs, **kwargs,
        **config.all_kwargs())` (a fraction <= 1.0 of them, or a count), as
        in Triton. `nargs`: the positional arguments by name."""
        nargs = nargs or {}
        configs = self.configs
        if self.early_config_prune:
            configs = self.early_config_prune(configs, nargs, **kwargs)
            if not configs:
                raise ValueError(f"{self.__name__}: early_config_prune returned no "
                                 "configuration; it must keep at least one")
        if self.perf_model:
            top_k = self.configs_top_k
            if isinstance(top_k, float) and top_k <= 1.0:
                top_k = int(len(configs) * top_k)
            elif not isinstance(top_k, int):
                raise TypeError(f"{self.__name__}: prune_configs_by's top_k must be a "
                                f"fraction <= 1.0 or a count, not {top_k!r}")
            top_k = builtins.max(int(top_k), 1)
            if len(configs) > top_k:
                est = {c: self.perf_model(**nargs, **kwargs, **c.all_kwargs()) for c in configs}
                configs = sorted(est, key=est.get)[:top_k]
        return list(configs)

    def _meta(self, kwargs, config: Config) -> Dict[str, Any]:
        """The launch's keywords and the configuration's (which the launch
        may not give)."""
        if kwargs and not config.kwargs.keys().isdisjoint(kwargs):
            conflicts = set(kwargs) & set(config.kwargs)
            raise ValueError(f"conflicting meta-parameters: {', '.join(sorted(conflicts))}; "
                             "they are set by the autotuner's configurations")
        return {**kwargs, **config.all_kwargs()}

    def _launch(self, args, grid, kwargs, config: Config, nargs):
        meta = self._meta(kwargs, config)
        if config.pre_hook:
            config.pre_hook({**nargs, **meta})
        return self.fn.run(*args, grid=grid, **meta)

    # ------------------------------------------------------------------
    # Tuning
    # ------------------------------------------------------------------
    def _benchmarker(self) -> Callable:
        """do_bench(fn, quantiles=...) as Triton's autotuner calls it."""
        if self._do_bench is not None:
            return self._do_bench
        if self.use_cuda_graph and testing._torch_cuda() is not None:
            return lambda fn, quantiles: testing.do_bench_cudagraph(
                fn, rep=self.num_reps, quantiles=quantiles)
        return lambda fn, quantiles: testing.do_bench(
            fn, warmup=self.num_warmups, rep=self.num_reps, quantiles=quantiles)

    def _bench(self, args, grid, kwargs, config: Config, nargs, saved):
        meta = self._meta(kwargs, config)
        full = {**nargs, **meta}

        def call():
            if config.pre_hook:
                config.pre_hook(full)
            for name in self.reset_to_zero:
                _zero(full.get(name))
            if self.pre_hook:
                self.pre_hook(full)
            try:
                self.fn.run(*args, grid=grid, **meta)
            except Exception as e:
                try:
                    if self.post_hook:
                        self.post_hook(full, exception=e)
                finally:
                    self._restore(full, saved)
                raise
            if self.post_hook:
                self.post_hook(full, exception=None)
            self._restore(full, saved)
        try:
            return self._benchmarker()(call, quantiles=_QUANTILES)
        except (OutOfResources, CompilationError):
            return None

    def _restore(self, full, saved) -> None:
        for name, value in saved.items():
            _restore(full[name], value)

    def _compile_all(self, configs: List[Config], args, kwargs, nargs) -> Dict[Config, Exception]:
        """Compiles `configs` in parallel threads (keys in this thread, after
        each configuration's pre_hook, which may change an argument's
        specialisation); returns the configurations that cannot compile."""
        inner = _inner_jit(self.fn)
        failed: Dict[Config, Exception] = {}
        if not hasattr(inner, "compiling_in") or len(configs) < 2:
            return failed
        threads = builtins.min(len(configs), os.cpu_count() or 1)
        with ThreadPoolExecutor(max_workers=threads,
                                thread_name_prefix="terrazzo-autotune") as pool:
            futures = {}
            with inner.compiling_in(pool):
                for config in configs:
                    meta = self._meta(kwargs, config)
                    if config.pre_hook:
                        config.pre_hook({**nargs, **meta})
                    try:
                        futures[config] = self.fn.warmup(*args, **meta)
                    except (OutOfResources, CompilationError) as e:
                        failed[config] = e
            for config, future in futures.items():
                if isinstance(future, FutureKernel):
                    try:
                        future.result()
                    except (OutOfResources, CompilationError) as e:
                        failed[config] = e
        return failed

    def _cache_key(self, key, inner, interpreting: bool) -> Optional[str]:
        """The tuning cache's key for `key`, or None where results are not
        kept (the interpreter, TERRAZZO_AUTOTUNE_CACHE=0)."""
        if interpreting or not hasattr(inner, "cache_key"):
            return None
        if not self.cache_results and os.environ.get("TERRAZZO_AUTOTUNE_CACHE", "") \
                .strip().lower() in ("0", "false", "no", "off"):
            return None
        C = driver.get_C(required=False)
        return key_digest("terrazzo-autotune", inner.cache_key,
                          C.version() if C is not None else "no extension",
                          _device_identity(C), inner.compile_environment(),
                          self.keys, repr(key))

    def _describe(self, key) -> str:
        names = self.keys
        parts = [f"{n}={v}" for n, v in zip(names, key)] + [str(v) for v in key[len(names):]]
        return ", ".join(parts)

    def _tune(self, key, configs: List[Config], args, grid, kwargs, nargs,
              interpreting: bool) -> Config:
        inner = _inner_jit(self.fn)
        store = TuningCache()
        digest = self._cache_key(key, inner, interpreting)
        known = store.load(digest) if digest else {}
        timings: Dict[Config, Any] = {}
        todo = []
        for config in configs:
            cid = config.cache_id()
            if cid in known:
                timings[config] = known[cid]
            else:
                todo.append(config)
        start = time.perf_counter()
        title = f"terrazzo: autotuning {self.__name__} ({self._describe(key)})"
        progress = _Progress(title)
        named = {**nargs, **kwargs}
        if todo:
            saved = {n: _snapshot(named[n]) for n in self.restore_value
                     if named.get(n) is not None}
            try:
                failed = {}
                if not interpreting:
                    progress.show(f"compiling {len(todo)} configurations")
                    failed = self._compile_all(todo, args, kwargs, nargs)
                for i, config in enumerate(todo):
                    progress.show(f"timing configuration {i + 1}/{len(todo)}")
                    timings[config] = None if config in failed else \
                        self._bench(args, grid, kwargs, config, nargs, saved)
            finally:
                progress.done()
            for name in self.reset_to_zero:
                _zero(named.get(name))
            if digest:
                store.store(digest, {c.cache_id(): _as_list(timings[c]) for c in todo},
                            {"kernel": self.__name__, "tuning_key": self._describe(key)})
        self.bench_time = time.perf_counter() - start
        self.configs_timings = timings
        best = builtins.min(configs, key=lambda c: _milliseconds(timings[c]))
        if _print_autotuning():
            cached = len(configs) - len(todo)
            how = ", ".join(([f"{len(todo)} timed in {self.bench_time:.2f} s"] if todo else []) +
                            ([f"{cached} from the cache"] if cached else []))
            sys.stderr.write(f"{title}: best {best} at {_milliseconds(timings[best]):.4f} ms "
                             f"({how})\n")
            sys.stderr.flush()
        return best

    def run(self, *args, grid, **kwargs):
        nargs = dict(zip(self.arg_names, args))
        all_args = {**nargs, **kwargs}
        key = self._key(all_args)
        if key not in self.cache:
            configs = self.prune_configs(kwargs, nargs)
            inner = _inner_jit(self.fn)
            interpreting = getattr(inner, "_interpreting", lambda: False)()
            if len(configs) == 1 or (interpreting and self._do_bench is None):
                best = configs[0]
            else:
                best = self._tune(key, configs, args, grid, kwargs, nargs, interpreting)
            self.cache[key] = best
        config = self.cache[key]
        self.best_config = config
        return self._launch(args, grid, kwargs, config, nargs)

    def warmup(self, *args, **kwargs):
        """Compiles every configuration (after pruning) for these arguments."""
        nargs = dict(zip(self.arg_names, args))
        return [self.fn.warmup(*args, **{**kwargs, **c.all_kwargs()})
                for c in self.prune_configs(kwargs, nargs)]


def autotune(configs, key, prune_configs_by=None, reset_to_zero=None, restore_value=None,
             pre_hook=None, post_hook=None, warmup=None, rep=None, use_cuda_graph=False,
             do_bench=None, cache_results=False):
    """Decorator: choose among `configs` by timing them, per value of the
    `key` arguments (and the tensors' dtypes); see the module's
    documentation. `prune_configs_by`: {"early_config_prune": f, "perf_model":
    f, "top_k": n}; `reset_to_zero`, `restore_value`: names of tensor
    arguments the kernel writes; `pre_hook(args)`, `post_hook(args,
    exception)`: called around every timed launch; `warmup`, `rep`: do_bench's
    target durations (ms); `use_cuda_graph`: time with do_bench_cudagraph;
    `do_bench(fn, quantiles)`: another timer; `cache_results`: keep the times
    on disk even where TERRAZZO_AUTOTUNE_CACHE=0 (they are kept by default)."""
    def decorate(fn):
        return Autotuner(fn, fn.arg_names, configs, key, reset_to_zero, restore_value,
                         pre_hook, post_hook, prune_configs_by, warmup, rep, use_cuda_graph,
                         do_bench, cache_results)
    return decorate


class Heuristics(KernelInterface):
    def __init__(self, fn, arg_names: Sequence[str], values: Dict[str, Callable]):
        self.fn = fn
        self.arg_names = list(arg_names)
        self.values = dict(values)
        self.__name__ = getattr(fn, "__name__", "heuristics")

    def run(self, *args, grid, **kwargs):
        for name, heur in self.values.items():
            kwargs[name] = heur({**dict(zip(self.arg_names, args)), **kwargs})
        return self.fn.run(*args, grid=grid, **kwargs)

    def warmup(self, *args, **kwargs):
        for name, heur in self.values.items():
            kwargs[name] = heur({**dict(zip(self.arg_names, args)), **kwargs})
        return self.fn.warmup(*args, **kwargs)


def heuristics(values: Dict[str, Callable]):
    """Decorator: compute meta-parameters from the other arguments, e.g.
    `@heuristics({"EVEN": lambda args: args["n"] % args["BLOCK"] == 0})`."""
    def decorate(fn):
        return Heuristics(fn, fn.arg_names, values)
    return decorate
