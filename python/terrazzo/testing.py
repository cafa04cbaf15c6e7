"""Benchmarking and checking helpers (`terrazzo.testing`), as in
`triton.testing`."""

from __future__ import annotations

import statistics
import sys
import time
from typing import Callable, List, Optional, Sequence

import numpy as np


def _torch_cuda():
    torch = sys.modules.get("torch")
    if torch is None:
        try:
            import torch  # noqa: F811
        except ImportError:
            return None
    try:
        return torch if torch.cuda.is_available() else None
    except Exception:
        return None


def _summarize(times: List[float], quantiles, return_mode: str):
    if quantiles is not None:
        q = np.quantile(np.array(times), list(quantiles)).tolist()
        return q[0] if len(q) == 1 else q
    if return_mode == "all":
        return times
    if return_mode == "min":
        return min(times)
    if return_mode == "max":
        return max(times)
    if return_mode == "median":
        return statistics.median(times)
    return statistics.fmean(times)


def do_bench(fn: Callable, warmup: float = 25, rep: float = 100, grad_to_none=None,
             quantiles: Optional[Sequence[float]] = None, fast_flush: bool = True,
             return_mode: str = "mean"):
    """Runtime of `fn()` in milliseconds.

    On a CUDA device (through torch) it times with CUDA events and flushes
    the L2 cache between runs; without one it times on the CPU. `warmup` and
    `rep` are target durations in milliseconds."""
    assert return_mode in ("min", "max", "mean", "median", "all")
    torch = _torch_cuda()
    if torch is None:
        fn()
        t0 = time.perf_counter()
        fn()
        est = max((time.perf_counter() - t0) * 1e3, 1e-4)
        n_warmup = max(1, int(warmup / est))
        n_rep = max(1, int(rep / est))
        for _ in range(n_warmup):
            fn()
        times = []
        for _ in range(n_rep):
            t = time.perf_counter()
            fn()
            times.append((time.perf_counter() - t) * 1e3)
        return _summarize(times, quantiles, return_mode)

    fn()
    torch.cuda.synchronize()
    cache = torch.empty(256 * 1024 * 1024 // 4, dtype=torch.int32, device="cuda")
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(5):
        cache.zero_()
        fn()
    end.record()
    torch.cuda.synchronize()
    est = max(start.elapsed_time(end) / 5, 1e-4)
    n_warmup = max(1, int(warmup / est))
    n_rep = max(1, int(rep / est))
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(n_rep)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(n_rep)]
    for _ in range(n_warmup):
        fn()
    for i in range(n_rep):
        if grad_to_none is not None:
            for x in grad_to_none:
                x.grad = None
        cache.zero_()
        starts[i].record()
        fn()
        ends[i].record()
    torch.cuda.synchronize()
    times = [s.elapsed_time(e) for s, e in zip(starts, ends)]
    return _summarize(times, quantiles, return_mode)


def assert_close(x, y, atol=None, rtol=None, err_msg=""):
    """Asserts that two arrays/tensors are close (float64 comparison)."""
    def to_np(v):
        if hasattr(v, "detach"):
            v = v.detach().cpu()
            if str(v.dtype) == "torch.bfloat16":
                v = v.float()
            return v.numpy()
        return np.asarray(v)
    a, b = to_np(x).astype(np.float64), to_np(y).astype(np.float64)
    atol = 1e-2 if atol is None else atol
    rtol = 0.0 if rtol is None else rtol
    np.testing.assert_allclose(a, b, atol=atol, rtol=rtol, equal_nan=True, err_msg=err_msg)


class Benchmark:
    """Describes a benchmark table for `perf_report`."""

    def __init__(self, x_names, x_vals, line_arg, line_vals, line_names, plot_name,
                 args=None, xlabel="", ylabel="", x_log=False, y_log=False, styles=None,
                 color=None):
        self.x_names = list(x_names)
        self.x_vals = list(x_vals)
        self.line_arg = line_arg
        self.line_vals = list(line_vals)
        self.line_names = list(line_names)
        self.plot_name = plot_name
        self.args = dict(args or {})
        self.xlabel, self.ylabel = xlabel, ylabel


class _Mark:
    def __init__(self, fn, benchmarks):
        self.fn = fn
        self.benchmarks = benchmarks

    def run(self, print_data=True, show_plots=False, save_path=None, **kwargs):
        tables = []
        for bench in (self.benchmarks if isinstance(self.benchmarks, list)
                      else [self.benchmarks]):
            header = list(bench.x_names) + list(bench.line_names)
            rows = []
            for x in bench.x_vals:
                xs = x if isinstance(x, (list, tuple)) else [x] * len(bench.x_names)
                xargs = dict(zip(bench.x_names, xs))
                row = list(xs)
                for lv in bench.line_vals:
                    r = self.fn(**xargs, **{bench.line_arg: lv}, **bench.args, **kwargs)
                    row.append(r[0] if isinstance(r, (tuple, list)) else r)
                rows.append(row)
            tables.append((bench.plot_name, header, rows))
            if print_data:
                print(f"{bench.plot_name}:")
                widths = [max(len(str(h)), 12) for h in header]
                print("  ".join(str(h).rjust(w) for h, w in zip(header, widths)))
                for row in rows:
                    print("  ".join((f"{v:.3f}" if isinstance(v, float) else str(v)).rjust(w)
                                    for v, w in zip(row, widths)))
        return tables


def perf_report(benchmarks):
    """Decorator turning a function into a benchmark whose `.run()` prints a
    table (no plots)."""
    return lambda fn: _Mark(fn, benchmarks)


def extension():
    """terrazzo._C, or None where the extension is not built."""
    try:
        from terrazzo import _C
        return _C
    except ImportError:
        return None


def gpu_available() -> bool:
    """Whether kernels can run on a GPU here through torch tensors: the
    extension loads, the driver answers, and torch sees a CUDA device."""
    C = extension()
    if C is None or not C.runtime_available():
        return False
    try:
        import torch
    except ImportError:
        return False
    return torch.cuda.is_available()
