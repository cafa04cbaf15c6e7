"""`@autotune`, `Config` and `@heuristics`, as in Triton.

`autotune` benchmarks every configuration (after pruning) the first time it
sees a new value of its `key` arguments and then launches the fastest. In
the interpreter it does not benchmark: it takes the first configuration.
"""

from __future__ import annotations

import builtins
from typing import Any, Callable, Dict, List, Optional, Sequence

from ..errors import CompilationError, OutOfResources
from .jit import KernelInterface


# Types the autotuner's key skips without looking for a dtype (the common
# scalars; their subclasses, numpy's float64 say, are skipped further on).
_SCALAR_TYPES = frozenset((int, float, bool, str, type(None)))
# str(dtype) by dtype, filled as launches meet them.
_DTYPE_NAMES: Dict[Any, str] = {}


class Config:
    """One set of meta-parameters and launch options to try."""

    def __init__(self, kwargs: Dict[str, Any], num_warps: int = 4, num_stages: int = 3,
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
        return out

    def __str__(self):
        parts = [f"{k}: {v}" for k, v in self.kwargs.items()]
        parts += [f"num_warps: {self.num_warps}", f"num_stages: {self.num_stages}"]
        return ", ".join(parts)

    __repr__ = __str__


def _inner_jit(fn):
    while isinstance(fn, KernelInterface) and not getattr(fn, "_terrazzo_jit_function", False):
        fn = fn.fn
    return fn


class Autotuner(KernelInterface):
    def __init__(self, fn, arg_names: Sequence[str], configs: Sequence[Config],
                 key: Sequence[str], reset_to_zero=None, restore_value=None, pre_hook=None,
                 post_hook=None, prune_configs_by: Optional[Dict] = None, warmup=None,
                 rep=None, use_cuda_graph=False, do_bench=None, cache_results=False):
        self.fn = fn
        self.arg_names = list(arg_names)
        self.configs = list(configs) if configs else [Config({})]
        self.keys = list(key)
        self.reset_to_zero = list(reset_to_zero or [])
        self.restore_value = list(restore_value or [])
        self.pre_hook = pre_hook
        self.post_hook = post_hook
        prune_configs_by = prune_configs_by or {}
        self.perf_model = prune_configs_by.get("perf_model")
        self.configs_top_k = prune_configs_by.get("top_k", 1.0)
        self.early_config_prune = prune_configs_by.get("early_config_prune")
        self.warmup = warmup if warmup is not None else 25
        self.rep = rep if rep is not None else 100
        self._do_bench = do_bench
        self.cache: Dict[Any, Config] = {}
        self.best_config: Optional[Config] = None
        self.configs_timings: Optional[Dict[Config, Any]] = None
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

    def prune_configs(self, kwargs: Dict[str, Any]) -> List[Config]:
        configs = self.configs
        if self.early_config_prune:
            configs = self.early_config_prune(configs, kwargs)
        if self.perf_model:
            top_k = self.configs_top_k
            if isinstance(top_k, float) and top_k <= 1.0:
                top_k = int(len(configs) * top_k)
            top_k = builtins.max(int(top_k), 1)
            if len(configs) > top_k:
                est = {c: self.perf_model(**kwargs, **c.all_kwargs()) for c in configs}
                configs = sorted(est, key=est.get)[:top_k]
        return list(configs)

    def _launch(self, args, grid, kwargs, config: Config):
        if kwargs and not config.kwargs.keys().isdisjoint(kwargs):
            conflicts = set(kwargs) & set(config.kwargs)
            raise ValueError(f"conflicting meta-parameters: {', '.join(sorted(conflicts))}; "
                             "they are set by the autotuner's configurations")
        full = {**kwargs, **config.kwargs, "num_warps": config.num_warps,
                "num_stages": config.num_stages}
        if config.pre_hook:
            config.pre_hook({**dict(zip(self.arg_names, args)), **full})
        return self.fn.run(*args, grid=grid, **full)

    def _bench(self, args, grid, kwargs, config: Config):
        from ..testing import do_bench
        named = dict(zip(self.arg_names, args))
        restore = {n: named[n].clone() for n in self.restore_value if n in named}

        def call():
            for n in self.reset_to_zero:
                if n in named:
                    named[n].zero_()
            if self.pre_hook:
                self.pre_hook(named)
            self._launch(args, grid, kwargs, config)
            if self.post_hook:
                self.post_hook(named, None)
        try:
            bench = self._do_bench or (lambda f: do_bench(f, warmup=self.warmup, rep=self.rep,
                                                          quantiles=(0.5, 0.2, 0.8)))
            r = bench(call)
        except (OutOfResources, CompilationError):
            r = [float("inf")] * 3
        finally:
            for n, v in restore.items():
                named[n].copy_(v)
        return r

    def run(self, *args, grid, **kwargs):
        all_args = {**dict(zip(self.arg_names, args)), **kwargs}
        key = self._key(all_args)
        if key not in self.cache:
            configs = self.prune_configs(all_args)
            inner = _inner_jit(self.fn)
            interpreting = getattr(inner, "_interpreting", lambda: False)()
            if len(configs) == 1 or interpreting:
                best = configs[0]
            else:
                timings = {c: self._bench(args, grid, kwargs, c) for c in configs}
                self.configs_timings = timings
                best = min(timings, key=lambda c: timings[c][0]
                           if isinstance(timings[c], (list, tuple)) else timings[c])
            self.cache[key] = best
        config = self.cache[key]
        self.best_config = config
        return self._launch(args, grid, kwargs, config)

    def warmup(self, *args, **kwargs):
        return [self.fn.warmup(*args, **{**kwargs, **c.all_kwargs()})
                for c in self.prune_configs(kwargs)]


def autotune(configs, key, prune_configs_by=None, reset_to_zero=None, restore_value=None,
             pre_hook=None, post_hook=None, warmup=None, rep=None, use_cuda_graph=False,
             do_bench=None, cache_results=False):
    """Decorator: choose among `configs` by benchmarking, per value of the
    `key` arguments."""
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
