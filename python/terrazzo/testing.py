"""Benchmarking and checking helpers (`terrazzo.testing`), as in
`triton.testing`."""

from __future__ import annotations

import contextlib
import os
import re
import statistics
import sys
import time
from typing import Callable, List, Optional, Sequence

import numpy as np

from .core.lang import dtype_from_name
from .runtime import driver


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
    cache = driver.active.get_empty_cache_for_benchmark()
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(5):
        driver.active.clear_cache(cache)
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
        driver.active.clear_cache(cache)
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
    """One benchmark table (and plot) for `perf_report`: the function is run
    for every value of `x_vals` (given to each name of `x_names`; a tuple
    gives one value per name) and every value of `line_arg` in `line_vals`
    (shown as `line_names`), with `args` as further keywords. A function
    returns a number, or (value, min, max) to shade a range in the plot."""

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
        self.x_log, self.y_log = x_log, y_log
        self.styles = styles
        self.color = color


def _file_stem(plot_name: str) -> str:
    """A plot name as a file name: "vector-add (GB/s)" -> "vector-add_GB_s"."""
    return re.sub(r"[^\w.+-]+", "_", plot_name).strip("_.") or "benchmark"


class _Table:
    """The results of one Benchmark: a row per x value, with the x values
    then each line's value (and its min and max)."""

    def __init__(self, bench: Benchmark):
        self.bench = bench
        self.rows: List[list] = []  # x values + per line (value, min, max)

    def columns(self) -> List[str]:
        return self.bench.x_names + self.bench.line_names

    def values(self) -> List[list]:
        n = len(self.bench.x_names)
        return [row[:n] + [v for v, _, _ in row[n:]] for row in self.rows]

    def format(self) -> str:
        header = self.columns()
        body = [[(f"{v:.6g}" if isinstance(v, float) else str(v)) for v in row]
                for row in self.values()]
        widths = [max([len(str(h))] + [len(r[i]) for r in body]) for i, h in enumerate(header)]
        lines = ["  ".join(str(h).rjust(w) for h, w in zip(header, widths))]
        lines += ["  ".join(v.rjust(w) for v, w in zip(r, widths)) for r in body]
        return "\n".join(lines)

    def write_csv(self, path: str) -> None:
        import csv
        with open(path, "w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(self.columns())
            writer.writerows(self.values())

    def plot(self, show: bool, save_path: Optional[str]) -> Optional[str]:
        """Draws the table with matplotlib: shows it (`show`), writes
        `<save_path>/<plot name>.png` and returns its path (or "" when not
        saved); None where matplotlib is not installed."""
        try:
            import matplotlib
            if not show:
                matplotlib.use("Agg")  # no display needed
            import matplotlib.pyplot as plt
        except ImportError:
            return None
        b = self.bench
        n = len(b.x_names)
        xs = [row[0] for row in self.rows]
        fig, ax = plt.subplots()
        for i, name in enumerate(b.line_names):
            vals = [row[n + i] for row in self.rows]
            style = b.styles[i] if b.styles and i < len(b.styles) else None
            kw = {"color": style[0], "ls": style[1]} if style else {}
            ax.plot(xs, [v for v, _, _ in vals], label=name, **kw)
            lo, hi = [v[1] for v in vals], [v[2] for v in vals]
            if all(v is not None for v in lo + hi):
                ax.fill_between(xs, lo, hi, alpha=0.15, color=kw.get("color"))
        ax.legend()
        ax.set_xlabel(b.xlabel or b.x_names[0])
        ax.set_ylabel(b.ylabel)
        if b.x_log:
            ax.set_xscale("log")
        if b.y_log:
            ax.set_yscale("log")
        ax.set_title(b.plot_name)
        path = ""
        if save_path:
            path = os.path.join(save_path, f"{_file_stem(b.plot_name)}.png")
            fig.savefig(path)
        if show:
            plt.show()
        plt.close(fig)
        return path


class Mark:
    """A function decorated by `perf_report`: `.run()` measures it over its
    benchmarks."""

    def __init__(self, fn, benchmarks):
        self.fn = fn
        self.benchmarks = benchmarks

    def _measure(self, bench: Benchmark, **kwargs) -> _Table:
        table = _Table(bench)
        for x in bench.x_vals:
            xs = list(x) if isinstance(x, (list, tuple)) else [x] * len(bench.x_names)
            row = list(xs)
            for lv in bench.line_vals:
                r = self.fn(**dict(zip(bench.x_names, xs)), **{bench.line_arg: lv},
                            **bench.args, **kwargs)
                row.append(tuple(r[:3]) if isinstance(r, (tuple, list)) else (r, None, None))
            table.rows.append(row)
        return table

    def run(self, show_plots: bool = False, print_data: bool = False, save_path: str = "",
            return_df: bool = False, **kwargs):
        """Measures every benchmark; prints the tables (`print_data`), draws
        them where matplotlib is importable (`show_plots`), writes each
        table as `<plot name>.csv` and its plot as `.png` (with matplotlib)
        under `save_path` (the plot name made a file name: "add (GB/s)" ->
        "add_GB_s"), saying where with `print_data`. With `return_df`
        returns the tables (pandas DataFrames where pandas is importable,
        else lists of rows with the column names first)."""
        benches = self.benchmarks if isinstance(self.benchmarks, list) else [self.benchmarks]
        results = []
        if save_path:
            os.makedirs(save_path, exist_ok=True)
        for bench in benches:
            table = self._measure(bench, **kwargs)
            if print_data:
                print(f"{bench.plot_name}:")
                print(table.format())
            written = []
            if save_path:
                written.append(os.path.join(save_path, f"{_file_stem(bench.plot_name)}.csv"))
                table.write_csv(written[0])
            if show_plots or save_path:
                png = table.plot(show_plots, save_path)
                if png:
                    written.append(png)
                elif png is None and print_data:
                    print("(no plot: matplotlib is not installed)")
            if written and print_data:
                print("wrote " + " and ".join(written))
            results.append(table)
        if not return_df:
            return None
        try:
            import pandas as pd
            frames = [pd.DataFrame(t.values(), columns=t.columns()) for t in results]
        except ImportError:
            frames = [[t.columns()] + t.values() for t in results]
        return frames[0] if len(frames) == 1 else frames


def perf_report(benchmarks):
    """Decorator turning a function into a benchmark (a `Mark`) whose
    `.run()` measures it over `benchmarks` (one Benchmark or a list)."""
    return lambda fn: Mark(fn, benchmarks)


# ---------------------------------------------------------------------------
# CUDA graphs and device peaks
# ---------------------------------------------------------------------------

def do_bench_cudagraph(fn: Callable, rep: float = 20, grad_to_none=None,
                       quantiles: Optional[Sequence[float]] = None,
                       return_mode: str = "mean"):
    """Runtime of `fn()` in milliseconds, launched from a CUDA graph (so
    that launch overheads are not measured): `fn` is captured repeated
    enough times to last about `rep` ms, and the graph is replayed ten
    times. Needs torch and a CUDA device."""
    assert return_mode in ("min", "max", "mean", "median", "all")
    torch = _torch_cuda()
    if torch is None:
        raise RuntimeError("do_bench_cudagraph needs torch with a CUDA device")
    with torch.cuda.stream(torch.cuda.Stream()):
        fn()  # compile and warm up outside the capture

        def capture(n: int):
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph):
                for _ in range(n):
                    if grad_to_none is not None:
                        for x in grad_to_none:
                            x.grad = None
                    fn()
            torch.cuda.synchronize()
            return graph

        def time_replay(graph) -> float:
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            graph.replay()
            end.record()
            torch.cuda.synchronize()
            return start.elapsed_time(end)

        one = capture(1)
        est = max(statistics.fmean(time_replay(one) for _ in range(5)), 1e-4)
        n_repeat = max(1, int(rep / est))
        graph = capture(n_repeat)
        times = [time_replay(graph) / n_repeat for _ in range(10)]
    return _summarize(times, quantiles, return_mode)


def _device_properties(device=None):
    return driver.active.utils.get_device_properties(device)


def _capability(device=None) -> int:
    return driver.device_arch(device)


def _nearest(table: dict, arch: int) -> int:
    """The entry of `table` for `arch`, or for the newest older one."""
    older = [a for a in table if a <= arch]
    return table[max(older) if older else min(table)]


def get_dram_gbps(device=None) -> float:
    """The device memory's peak bandwidth in GB/s: memory clock (kHz) x bus
    width (bits) x 2 (double data rate) / 8 bits."""
    p = _device_properties(device)
    return p["mem_clock_rate"] * 1e3 * 2 * p["mem_bus_width"] / 8 / 1e9


def _dtype_name(dtype) -> str:
    name = str(dtype).replace("torch.", "")
    d = dtype_from_name(name)
    return d.name if d is not None else name


# Dense fp16 tensor-core operations per clock of one SM sub-partition (an
# SM has four), from NVIDIA's published peak rates, e.g. sm_80: A100, 312
# TFLOPS from 108 SMs at 1410 MHz; sm_90: H100 SXM, 989 TFLOPS from 132 SMs
# at 1830 MHz; sm_86: RTX 3090, 71 TFLOPS from 82 SMs at 1695 MHz. tf32 is
# half the fp16 rate, 8-bit types twice.
_TENSORCORE_FP16_OPS = {70: 256, 75: 256, 80: 512, 86: 128, 89: 128, 90: 1024}


def get_max_tensorcore_tflops(dtype, clock_rate, device=None) -> float:
    """Peak dense tensor-core TFLOPS for `dtype` inputs at `clock_rate`
    (kHz, as get_device_properties reports sm_clock_rate)."""
    base = _nearest(_TENSORCORE_FP16_OPS, _capability(device))
    name = _dtype_name(dtype)
    if name in ("fp32", "tf32"):
        ops = base // 2
    elif name in ("fp16", "bf16"):
        ops = base
    elif name in ("int8", "fp8e4nv", "fp8e5", "float8_e4m3fn", "float8_e5m2"):
        ops = base * 2
    else:
        raise RuntimeError(f"no tensor-core peak for {dtype}")
    subcores = _device_properties(device)["multiprocessor_count"] * 4
    return subcores * clock_rate * ops * 1e-9


# FP32 and FP64 units per SM sub-partition (the whitepapers' per-SM counts
# / 4), and fp16's rate as a multiple of fp32's (A100: 78 against 19.5
# TFLOPS; packed pairs elsewhere).
_SIMD_FP32_LANES = {70: 16, 75: 16, 80: 16, 86: 32, 89: 32, 90: 32}
_SIMD_FP64_LANES = {70: 8, 75: 0.5, 80: 8, 86: 0.5, 89: 0.5, 90: 16}
_SIMD_FP16_PER_FP32 = {70: 2, 75: 2, 80: 4, 86: 1, 89: 1, 90: 2}


def get_max_simd_tflops(dtype, clock_rate, device=None) -> float:
    """Peak TFLOPS of the CUDA cores (fused multiply-adds, two operations)
    for `dtype` at `clock_rate` (kHz)."""
    arch = _capability(device)
    name = _dtype_name(dtype)
    if name == "fp32":
        lanes = _nearest(_SIMD_FP32_LANES, arch)
    elif name in ("fp16", "bf16"):
        lanes = _nearest(_SIMD_FP16_PER_FP32, arch) * _nearest(_SIMD_FP32_LANES, arch)
    elif name == "fp64":
        lanes = _nearest(_SIMD_FP64_LANES, arch)
    else:
        raise RuntimeError(f"no CUDA-core peak for {dtype}")
    subcores = _device_properties(device)["multiprocessor_count"] * 4
    return subcores * clock_rate * lanes * 2 * 1e-9


def nvsmi(attrs: Sequence[str], device=None) -> List[int]:
    """Integer values of nvidia-smi's `--query-gpu` attributes (e.g.
    "clocks.max.sm") for the device (default: the current one)."""
    import subprocess
    index = driver.active.get_current_device() if device is None else int(device)
    out = subprocess.check_output(["nvidia-smi", "-i", str(index),
                                   "--query-gpu=" + ",".join(attrs),
                                   "--format=csv,noheader,nounits"], text=True)
    return [int(float(v)) for v in out.strip().split(",")]


@contextlib.contextmanager
def set_gpu_clock(ref_sm_clock: int = 1350, ref_mem_clock: int = 1215):
    """Locks the SM and memory clocks with nvidia-smi (needs the rights to)
    for the block, and yields (peak fp16 tensor-core TFLOPS, peak GB/s) at
    those clocks; the clocks are unlocked afterwards."""
    import subprocess
    try:
        subprocess.check_output(["nvidia-smi", "-i", "0", "-pm", "1"])
        subprocess.check_output(["nvidia-smi", "-i", "0", f"--lock-gpu-clocks={ref_sm_clock},"
                                 f"{ref_sm_clock}"])
        subprocess.check_output(["nvidia-smi", "-i", "0", f"--lock-memory-clocks="
                                 f"{ref_mem_clock},{ref_mem_clock}"])
        cur_sm, cur_mem = nvsmi(["clocks.current.sm", "clocks.current.memory"], 0)
        if abs(cur_sm - ref_sm_clock) > 10 or abs(cur_mem - ref_mem_clock) > 10:
            raise RuntimeError(f"the clocks did not lock: SM {cur_sm} MHz, memory "
                               f"{cur_mem} MHz")
        tflops = get_max_tensorcore_tflops("float16", ref_sm_clock * 1e3, 0)
        bus_bits = _device_properties(0)["mem_bus_width"]
        gbps = ref_mem_clock * 1e6 * 2 * bus_bits / 8 / 1e9
        yield tflops, gbps
    finally:
        subprocess.call(["nvidia-smi", "-i", "0", "-pm", "0"])
        subprocess.call(["nvidia-smi", "-i", "0", "-rgc"])
        subprocess.call(["nvidia-smi", "-i", "0", "-rmc"])


#: Set in the environment of a test that cuda_memcheck runs under the
#: sanitizer, so that there it runs the test itself (scripts/gpu-sanitize.sh
#: sets it too, for the tests it runs under the sanitizer).
_UNDER_SANITIZER = "TERRAZZO_UNDER_COMPUTE_SANITIZER"


def _compute_sanitizer() -> str:
    """The compute-sanitizer executable: from PATH, else from the CUDA
    installation ($CUDA_HOME, $CUDA_PATH, /usr/local/cuda)."""
    import shutil
    found = shutil.which("compute-sanitizer")
    roots = [os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"]
    for candidate in [found] + [os.path.join(r, "bin", "compute-sanitizer") for r in roots if r]:
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    raise RuntimeError("cuda_memcheck needs compute-sanitizer (CUDA toolkit): put it on PATH "
                       "or set CUDA_HOME")


def cuda_memcheck(**target_kwargs):
    """A decorator for a pytest test: where the test's keyword arguments
    include `target_kwargs` (its parametrization, say), the test runs again
    in a pytest of its own under compute-sanitizer (memcheck), which must
    report no errors; otherwise, and inside that run, it runs as it is.
    The test needs a (possibly unused) `request` fixture, as in Triton.
    (Triton calls the sanitizer's predecessor cuda-memcheck, gone since
    CUDA 12.)"""
    import functools

    def decorator(test_fn):
        @functools.wraps(test_fn)
        def wrapper(*args, **kwargs):
            if not target_kwargs.items() <= kwargs.items() or os.environ.get(_UNDER_SANITIZER):
                return test_fn(*args, **kwargs)
            import subprocess
            request = kwargs.get("request")
            if request is None:
                raise TypeError(f"{test_fn.__name__}: a test checked by cuda_memcheck needs a "
                                "(possibly unused) `request` fixture")
            path = os.path.realpath(test_fn.__globals__["__file__"])
            test = f"{path}::{request.node.name}"  # the name has the parameters' id
            env = {**os.environ, _UNDER_SANITIZER: "1", "PYTORCH_NO_CUDA_MEMORY_CACHING": "1"}
            out = subprocess.run([_compute_sanitizer(), "--tool", "memcheck", sys.executable,
                                  "-m", "pytest", "-vs", "-p", "no:cacheprovider", test],
                                 capture_output=True, text=True, env=env)
            report = out.stdout + out.stderr
            if out.returncode != 0 or "ERROR SUMMARY: 0 errors" not in report:
                raise AssertionError(f"compute-sanitizer found errors in {test} (exit status "
                                     f"{out.returncode}):\n{report[-4000:]}")
            return None
        return wrapper
    return decorator


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


def _check_helpers_given(kernels, name: str):
    """under_triton's check: every @jit or constexpr function that the
    kernels call by name is among them."""
    import ast
    import inspect
    import textwrap
    from .runtime.jit import ConstexprFunction, JITFunction
    given = {k.fn.__name__ for k in kernels}
    for k in kernels:
        tree = ast.parse(textwrap.dedent(inspect.getsource(k.fn)))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            callee = k.fn.__globals__.get(node.func.id)
            if (isinstance(callee, (JITFunction, ConstexprFunction)) and
                    callee.fn.__name__ not in given):
                raise ValueError(
                    f"under_triton({name!r}): {k.fn.__name__} calls "
                    f"{node.func.id}, which is not among the kernels given")


def under_triton(*kernels, name: str):
    """The same @jit kernels compiled by the real Triton, for side-by-side
    benchmarks: their sources, with `import triton` / `import
    triton.language as tl` in place of Terrazzo's, written to a module of
    their own (Triton reads a kernel's source from its file) and imported as
    `name`. Returns that module, or None where Triton is not installed.
    Kernels are given in dependency order (helpers first); a @jit function
    that one of them calls but that is not given raises ValueError (Triton
    would only say, at compile time, that the name is not defined), on any
    machine, Triton installed or not."""
    import importlib
    import importlib.util
    import inspect
    import tempfile
    import textwrap
    _check_helpers_given(kernels, name)
    try:
        real = importlib.import_module("triton")
    except ImportError:
        return None
    if not hasattr(real, "jit") or real.__name__ != "triton":
        return None  # `triton` is Terrazzo under another name
    source = "import triton\nimport triton.language as tl\n\n\n" + "\n\n".join(
        textwrap.dedent(inspect.getsource(k.fn)) for k in kernels)
    path = os.path.join(tempfile.mkdtemp(), f"{name}.py")
    with open(path, "w") as f:
        f.write(source)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
