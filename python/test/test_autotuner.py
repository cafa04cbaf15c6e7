"""@autotune: the tuning cache on disk, parallel compiles, hooks, pruning,
progress and best_config.

Timings come from a do_bench that the tests give (so they are known); the
launch path is the real one: dry launches through the compiled extension
(TERRAZZO_DRY_LAUNCH, the compiler runs, the driver does not) or the
interpreter, where reset_to_zero and restore_value act on NumPy arrays the
kernels really write.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import terrazzo as triton
import terrazzo.language as tl
from test_jit_compile import extension, ptrs  # noqa: F401 (a fixture)


class Timer:
    """A do_bench whose times are known: each configuration's time is
    TIMES[BLOCK] (read by the autotuner's pre_hook, which sees the
    configuration's meta-parameters); counts the timed calls."""

    def __init__(self, times, calls_per_bench=1):
        self.times = times
        self.calls_per_bench = calls_per_bench
        self.benched = []
        self.block = None

    def pre_hook(self, nargs):
        self.block = nargs["BLOCK"]

    def __call__(self, fn, quantiles):
        for _ in range(self.calls_per_bench):
            fn()
        self.benched.append(self.block)
        ms = self.times[self.block]
        return [ms, ms * 0.9, ms + ms / 10]


def tuned_copy(configs, timer, **options):
    @triton.autotune(configs=configs, key=["n"], do_bench=timer, pre_hook=timer.pre_hook,
                     **options)
    @triton.jit
    def copy(src, dst, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(dst + offs, tl.load(src + offs, mask=offs < n), mask=offs < n)
    return copy


def blocks(*sizes, **options):
    return [triton.Config({"BLOCK": b}, **options) for b in sizes]


def grid(meta):
    return (triton.cdiv(1000, meta["BLOCK"]),)


# ---------------------------------------------------------------------------
# The tuning cache
# ---------------------------------------------------------------------------

def test_a_fresh_autotuner_reuses_the_timings_on_disk(extension):
    timer = Timer({32: 3.0, 64: 1.0, 128: 2.0})
    k = tuned_copy(blocks(32, 64, 128), timer)
    k[grid](*ptrs("float32", "float32"), 1000)
    assert sorted(timer.benched) == [32, 64, 128]
    assert k.best_config.kwargs == {"BLOCK": 64}
    assert {c.kwargs["BLOCK"]: t[0] for c, t in k.configs_timings.items()} == \
        {32: 3.0, 64: 1.0, 128: 2.0}
    k[grid](*ptrs("float32", "float32"), 1000)  # the same key: in memory
    assert len(timer.benched) == 3

    again = Timer({32: 0.1, 64: 9.0, 128: 9.0})  # would choose 32 if it timed
    k2 = tuned_copy(blocks(32, 64, 128), again)
    k2[grid](*ptrs("float32", "float32"), 1000)
    assert again.benched == [] and k2.best_config.kwargs == {"BLOCK": 64}
    # Another key, another dtype: timed.
    k2[grid](*ptrs("float32", "float32"), 2000)
    k2[grid](*ptrs("float16", "float16"), 1000)
    assert len(again.benched) == 6


def test_an_added_configuration_is_the_only_one_timed(extension):
    timer = Timer({32: 3.0, 64: 1.0, 256: 0.5})
    tuned_copy(blocks(32, 64), timer)[grid](*ptrs("float32", "float32"), 1000)
    assert sorted(timer.benched) == [32, 64]
    more = Timer({32: 3.0, 64: 1.0, 256: 0.5})
    k = tuned_copy(blocks(32, 64, 256), more)
    k[grid](*ptrs("float32", "float32"), 1000)
    assert more.benched == [256] and k.best_config.kwargs == {"BLOCK": 256}
    # Other launch options are other configurations.
    warps = Timer({32: 0.2, 64: 1.0, 256: 0.5})
    k = tuned_copy(blocks(32, 64, 256) + blocks(32, num_warps=8), warps)
    k[grid](*ptrs("float32", "float32"), 1000)
    assert warps.benched == [32]
    assert k.best_config.kwargs == {"BLOCK": 32} and k.best_config.num_warps == 8


def test_a_corrupt_or_foreign_cache_file_is_ignored(extension, tmp_path):
    timer = Timer({32: 3.0, 64: 1.0})
    tuned_copy(blocks(32, 64), timer)[grid](*ptrs("float32", "float32"), 1000)
    files = list((tmp_path / "cache" / "autotune").rglob("*.json"))
    assert len(files) == 1
    data = json.loads(files[0].read_text())
    assert data["timings"] == {
        "BLOCK=32, num_warps=4, num_stages=3, num_ctas=1, maxnreg=None": [3.0, 2.7, 3.3],
        "BLOCK=64, num_warps=4, num_stages=3, num_ctas=1, maxnreg=None": [1.0, 0.9, 1.1]}
    for garbage in ["{not json", json.dumps(dict(data, timings={"x": "fast"})),
                    json.dumps(dict(data, key="another")), json.dumps([1, 2]), "\xff"]:
        files[0].write_text(garbage, errors="surrogateescape")
        again = Timer({32: 0.5, 64: 1.0})
        k = tuned_copy(blocks(32, 64), again)
        k[grid](*ptrs("float32", "float32"), 1000)
        assert sorted(again.benched) == [32, 64], garbage
        assert k.best_config.kwargs == {"BLOCK": 32}
    # ... and rewritten whole.
    assert json.loads(files[0].read_text())["timings"][
        "BLOCK=32, num_warps=4, num_stages=3, num_ctas=1, maxnreg=None"] == [0.5, 0.45, 0.55]


def test_the_cache_can_be_turned_off(extension, monkeypatch):
    monkeypatch.setenv("TERRAZZO_AUTOTUNE_CACHE", "0")
    for _ in range(2):
        timer = Timer({32: 3.0, 64: 1.0})
        tuned_copy(blocks(32, 64), timer)[grid](*ptrs("float32", "float32"), 1000)
        assert sorted(timer.benched) == [32, 64]
    first = Timer({32: 3.0, 64: 1.0})
    tuned_copy(blocks(32, 64), first, cache_results=True)[grid](
        *ptrs("float32", "float32"), 1000)
    second = Timer({32: 3.0, 64: 1.0})
    tuned_copy(blocks(32, 64), second, cache_results=True)[grid](
        *ptrs("float32", "float32"), 1000)
    assert len(first.benched) == 2 and second.benched == []


SCRIPT = '''
import sys
import terrazzo as triton
import terrazzo.language as tl
from terrazzo import _C

compiles = []
compile = _C.compile
_C.compile = lambda *a, **k: compiles.append(a[1]) or compile(*a, **k)
TIMES = {{32: 3.0, 64: 1.0, 128: 2.0, 256: 0.5}}
benched = []
block = []

def do_bench(fn, quantiles):
    fn()
    benched.append(block[-1])
    return [TIMES[block[-1]]] * 3

@triton.autotune(configs=[triton.Config({{"BLOCK": b}}) for b in {blocks}], key=["n"],
                 do_bench=do_bench, pre_hook=lambda nargs: block.append(nargs["BLOCK"]))
@triton.jit
def copy(src, dst, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(dst + offs, tl.load(src + offs, mask=offs < n), mask=offs < n)

class T:
    dtype = "float32"
    def __init__(self, p): self.p = p
    def data_ptr(self): return self.p

copy[lambda m: (triton.cdiv(1000, m["BLOCK"]),)](T(1 << 20), T(1 << 21), 1000)
print("benched", sorted(benched), "best", copy.best_config.kwargs["BLOCK"],
      "compiles", len(compiles))
'''


def test_a_second_process_reuses_the_timings_without_timing(tmp_path):
    if triton.testing.extension() is None:
        pytest.skip("terrazzo._C is not built")

    def run(blocks):
        path = tmp_path / "tune.py"
        path.write_text(SCRIPT.format(blocks=blocks))
        env = dict(os.environ, TERRAZZO_DRY_LAUNCH="1",
                   PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
        r = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                           env=env, timeout=300)
        assert r.returncode == 0, r.stderr
        return r.stdout.strip()

    assert run([32, 64, 128]) == "benched [32, 64, 128] best 64 compiles 3"
    # The timings and the kernel's binary come from the disk caches.
    assert run([32, 64, 128]) == "benched [] best 64 compiles 0"
    # One configuration more (in the decorator, not in the kernel's source):
    # only it is compiled and timed.
    assert run([32, 64, 128, 256]) == "benched [256] best 256 compiles 1"
    assert run([64, 128]) == "benched [] best 64 compiles 0"


# ---------------------------------------------------------------------------
# Parallel compiles
# ---------------------------------------------------------------------------

def test_configurations_compile_in_parallel_threads_once_each(extension, monkeypatch):
    lock = threading.Lock()
    running, most, threads, names = [0], [0], set(), []
    compile = extension.compile

    def slow_compile(*args, **kwargs):
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
            names.append(args[1])
            threads.add(threading.current_thread().name)
        time.sleep(0.3)  # the compiler releases the GIL: others go on
        try:
            return compile(*args, **kwargs)
        finally:
            with lock:
                running[0] -= 1

    monkeypatch.setattr(extension, "compile", slow_compile)
    timer = Timer({16: 4.0, 32: 3.0, 64: 1.0, 128: 2.0})
    k = tuned_copy(blocks(16, 32, 64, 128), timer)
    k[grid](*ptrs("float32", "float32"), 1000)
    assert len(names) == 4  # one compile per configuration, none at the launches
    assert most[0] == min(4, os.cpu_count() or 1)
    assert all(t.startswith("terrazzo-autotune") for t in threads)
    assert sorted(timer.benched) == [16, 32, 64, 128]
    assert not k.fn._prepared  # each launch took its configuration's kernel
    kernel = k[grid](*ptrs("float32", "float32"), 1000, num_warps=2)  # the config's win
    assert kernel.metadata.num_warps == 4
    assert len(names) == 4
    assert kernel.last_launch()["grid"] == (16, 1, 1)  # BLOCK 64


def test_a_configuration_that_does_not_compile_is_never_chosen(extension):
    timer = Timer({48: 0.1, 64: 1.0})  # 48: arange needs a power of two
    k = tuned_copy(blocks(48, 64), timer)
    k[grid](*ptrs("float32", "float32"), 1000)
    assert timer.benched == [64] and k.best_config.kwargs == {"BLOCK": 64}
    assert [t for c, t in k.configs_timings.items() if c.kwargs["BLOCK"] == 48] == [None]
    again = Timer({48: 0.1, 64: 1.0})
    k = tuned_copy(blocks(48, 64), again)
    k[grid](*ptrs("float32", "float32"), 1000)
    assert again.benched == [] and k.best_config.kwargs == {"BLOCK": 64}


# ---------------------------------------------------------------------------
# Reporting
# ---------------------------------------------------------------------------

class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_line_on_a_terminal_and_the_winner(extension, monkeypatch):
    err = Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    timer = Timer({32: 3.0, 64: 1.25, 128: 2.0})
    tuned_copy(blocks(32, 64, 128), timer)[grid](*ptrs("float32", "float32"), 1000)
    text = err.getvalue()
    title = "terrazzo: autotuning copy (n=1000, float32, float32)"
    assert f"\r\x1b[K{title}: compiling 3 configurations" in text
    assert f"\r\x1b[K{title}: timing configuration 3/3" in text
    assert text.endswith("\r\x1b[K") and "\n" not in text  # one line, erased

    monkeypatch.setenv("TERRAZZO_PRINT_AUTOTUNING", "1")
    err = Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    timer = Timer({32: 3.0, 64: 1.25, 128: 2.0, 256: 5.0})
    tuned_copy(blocks(32, 64, 128, 256), timer)[grid](*ptrs("float32", "float32"), 1000)
    last = err.getvalue().split("\r\x1b[K")[-1]
    assert last.startswith(f"{title}: best BLOCK: 64, num_warps: 4, num_stages: 3 at "
                           "1.2500 ms (1 timed in ")
    assert last.endswith(" s, 3 from the cache)\n")
    err = io.StringIO()  # not a terminal: no progress line, the winner still
    monkeypatch.setattr(sys, "stderr", err)
    tuned_copy(blocks(32, 64), Timer({}))[grid](*ptrs("float32", "float32"), 1000)
    assert err.getvalue() == f"{title}: best BLOCK: 64, num_warps: 4, num_stages: 3 at " \
                             "1.2500 ms (2 from the cache)\n"


def test_warmup_rep_and_cuda_graphs_reach_the_timer(extension, monkeypatch):
    seen = []
    monkeypatch.setattr(triton.testing, "do_bench",
                        lambda fn, warmup, rep, quantiles: seen.append(("do_bench", warmup, rep))
                        or [1.0, 1.0, 1.0])
    monkeypatch.setattr(triton.testing, "do_bench_cudagraph",
                        lambda fn, rep, quantiles: seen.append(("cudagraph", rep))
                        or [1.0, 1.0, 1.0])

    @triton.autotune(configs=blocks(32, 64), key=["n"], warmup=7, rep=11)
    @triton.jit
    def k1(src, dst, n, BLOCK: tl.constexpr):
        tl.store(dst + tl.arange(0, BLOCK), tl.load(src + tl.arange(0, BLOCK)))

    k1[grid](*ptrs("float32", "float32"), 1000)
    assert seen == [("do_bench", 7, 11)] * 2

    @triton.autotune(configs=blocks(32, 64), key=["n"], rep=13, use_cuda_graph=True)
    @triton.jit
    def k2(src, dst, n, BLOCK: tl.constexpr):
        tl.store(dst + tl.arange(0, BLOCK), tl.load(src + tl.arange(0, BLOCK)) + 1)

    monkeypatch.setattr(triton.testing, "_torch_cuda", lambda: object())  # "a CUDA device"
    seen.clear()
    k2[grid](*ptrs("float32", "float32"), 1000)
    assert seen == [("cudagraph", 13)] * 2


# ---------------------------------------------------------------------------
# Hooks, reset_to_zero, restore_value (in the interpreter, on real data)
# ---------------------------------------------------------------------------

@triton.jit(interpret=True)
def _accumulate(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.atomic_add(out + offs, tl.load(x + offs, mask=offs < n), mask=offs < n)


@triton.jit(interpret=True)
def _increment(x, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x + offs, tl.load(x + offs, mask=offs < n) + 1.0, mask=offs < n)


def _grid(n):
    return lambda meta: (triton.cdiv(n, meta["BLOCK"]),)


@pytest.mark.parametrize("reset", [True, False])
def test_reset_to_zero_zeroes_before_every_timed_run_and_after_tuning(rng, reset):
    n = 100
    x = rng.standard_normal(n).astype(np.float32)
    out = np.zeros(n, np.float32)
    seen = []
    timer = Timer({32: 2.0, 64: 1.0}, calls_per_bench=3)

    def pre_hook(nargs):
        timer.pre_hook(nargs)
        seen.append(nargs["out"].copy())

    k = triton.autotune(blocks(32, 64), key=["n"], do_bench=timer, pre_hook=pre_hook,
                        reset_to_zero=["out"] if reset else None)(_accumulate)
    k[_grid(n)](x, out, n)
    if reset:
        assert all(not s.any() for s in seen)  # zero before each of the 6 runs
        np.testing.assert_array_equal(out, x)  # and before the real launch
    else:
        np.testing.assert_allclose(out, 7 * x.astype(np.float64), rtol=1e-5, atol=1e-5)


def test_restore_value_gives_back_the_values_from_before_tuning(rng):
    n = 100
    x0 = rng.standard_normal(n).astype(np.float32)
    x = x0.copy()
    seen = []
    timer = Timer({32: 2.0, 64: 1.0}, calls_per_bench=3)
    k = triton.autotune(blocks(32, 64), key=["n"], restore_value=["x"], do_bench=timer,
                        pre_hook=timer.pre_hook,
                        post_hook=lambda nargs, exception: seen.append(nargs["x"].copy()))(
        _increment)
    k[_grid(n)](x, n)
    # Each timed run starts from the original values (the post hook sees one
    # increment), and the real launch too.
    assert len(seen) == 6
    for s in seen:
        np.testing.assert_array_equal(s, x0 + np.float32(1))
    np.testing.assert_array_equal(x, x0 + np.float32(1))


def test_hooks_run_in_order_around_every_timed_launch(rng):
    n = 64
    x = np.ones(n, np.float32)
    out = np.full(n, 5.0, np.float32)
    events = []

    def config_hook(nargs):
        events.append(("config", nargs["BLOCK"], float(nargs["out"][0])))

    def pre_hook(nargs):
        events.append(("pre", nargs["BLOCK"], float(nargs["out"][0])))

    def post_hook(nargs, exception):
        events.append(("post", nargs["BLOCK"], float(nargs["out"][0]), exception))

    def do_bench(fn, quantiles):
        events.append(("bench",))
        fn()
        return 1.0

    k = triton.autotune([triton.Config({"BLOCK": 32}, pre_hook=config_hook),
                         triton.Config({"BLOCK": 64}, pre_hook=config_hook)],
                        key=["n"], reset_to_zero=["out"], restore_value=["x"],
                        pre_hook=pre_hook, post_hook=post_hook, do_bench=do_bench)(_accumulate)
    k[_grid(n)](x, out, n)
    assert events == [
        ("bench",), ("config", 32, 5.0), ("pre", 32, 0.0), ("post", 32, 1.0, None),
        ("bench",), ("config", 64, 1.0), ("pre", 64, 0.0), ("post", 64, 1.0, None),
        ("config", 32, 0.0),  # the chosen configuration's hook at the real launch
    ]
    np.testing.assert_array_equal(out, x)


def test_post_hook_sees_the_exception_of_a_failed_launch():
    seen = []
    k = triton.autotune(blocks(32, 64), key=["n"], restore_value=["x"],
                        do_bench=lambda fn, quantiles: fn(),
                        post_hook=lambda nargs, exception: seen.append(exception))(_increment)
    x = np.zeros(8, np.float32)

    def no_grid(meta):
        raise RuntimeError("no grid")

    with pytest.raises(RuntimeError, match="no grid"):
        k[no_grid](x, 8)
    assert len(seen) == 1 and isinstance(seen[0], RuntimeError)
    np.testing.assert_array_equal(x, 0)


def test_reset_to_zero_names_a_parameter():
    with pytest.raises(ValueError, match=r"unknown parameters \['y'\] of _increment"):
        triton.autotune(blocks(32), key=["n"], reset_to_zero=["y"])(_increment)


# ---------------------------------------------------------------------------
# prune_configs_by, best_config
# ---------------------------------------------------------------------------

def test_prune_configs_by_early_prune_and_perf_model(rng):
    n = 100
    calls = []

    def early(configs, nargs, **kwargs):
        calls.append((sorted(nargs), sorted(kwargs)))
        return [c for c in configs if c.kwargs["BLOCK"] <= nargs["n"]]

    def perf_model(**kwargs):
        assert {"x", "out", "n", "BLOCK", "num_warps", "num_stages"} <= set(kwargs)
        return abs(kwargs["BLOCK"] - 50)  # 32 and 64 are the closest

    timer = Timer({b: 1.0 / b for b in (16, 32, 64, 128, 256)})
    k = triton.autotune(blocks(16, 32, 64, 128, 256), key=["n"], do_bench=timer,
                        pre_hook=timer.pre_hook, reset_to_zero=["out"],
                        prune_configs_by={"early_config_prune": early, "perf_model": perf_model,
                                          "top_k": 2})(_accumulate)
    x = rng.standard_normal(n).astype(np.float32)
    out = np.zeros(n, np.float32)
    k[_grid(n)](x, out, n)
    assert calls == [(["n", "out", "x"], [])]
    assert sorted(timer.benched) == [32, 64] and k.best_config.kwargs == {"BLOCK": 64}
    np.testing.assert_array_equal(out, x)
    # A fraction of the configurations.
    timer = Timer({b: 1.0 / b for b in (16, 32, 64, 128, 256)})
    k = triton.autotune(blocks(16, 32, 64, 128, 256), key=["n"], do_bench=timer,
                        pre_hook=timer.pre_hook,
                        prune_configs_by={"perf_model": perf_model, "top_k": 0.6})(_accumulate)
    k[_grid(n)](x, np.zeros(n, np.float32), n)
    assert sorted(timer.benched) == [16, 32, 64]
    with pytest.raises(ValueError, match="early_config_prune returned no configuration"):
        triton.autotune(blocks(16, 32), key=["n"], do_bench=timer, prune_configs_by={
            "early_config_prune": lambda configs, nargs, **kw: []})(_accumulate)[_grid(n)](
            x, out, n)


def test_in_the_interpreter_without_a_timer_the_first_configuration(rng):
    k = triton.autotune(blocks(64, 32), key=["n"])(_increment)
    x = np.zeros(100, np.float32)
    k[_grid(100)](x, 100)
    assert k.best_config.kwargs == {"BLOCK": 64} and k.configs_timings is None
    np.testing.assert_array_equal(x, 1)
    with pytest.raises(ValueError, match="conflicting meta-parameters: BLOCK; they are set by "
                                         "the autotuner's configurations"):
        k[_grid(100)](x, 100, BLOCK=16)


def test_config_cache_id_is_independent_of_keyword_order():
    a = triton.Config({"BLOCK_M": 64, "BLOCK_N": 32}, num_warps=8)
    b = triton.Config({"BLOCK_N": 32, "BLOCK_M": 64}, num_warps=8)
    assert a.cache_id() == b.cache_id() == \
        "BLOCK_M=64, BLOCK_N=32, num_warps=8, num_stages=3, num_ctas=1, maxnreg=None"
    assert a.cache_id() != triton.Config({"BLOCK_M": 64, "BLOCK_N": 32}, num_stages=4).cache_id()


# ---------------------------------------------------------------------------
# On a GPU: real timings, torch tensors
# ---------------------------------------------------------------------------

@pytest.mark.gpu
@pytest.mark.parametrize("use_cuda_graph", [False, True])
def test_gpu_autotune_with_reset_restore_and_the_disk(torch_cuda, rng, use_cuda_graph):
    torch = torch_cuda

    def make():
        @triton.autotune(configs=blocks(128, 512) + blocks(1024, num_warps=8), key=["n"],
                         reset_to_zero=["out"], restore_value=["x"], warmup=5, rep=10,
                         use_cuda_graph=use_cuda_graph)
        @triton.jit
        def accumulate(x, y, out, n, BLOCK: tl.constexpr):
            offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            mask = offs < n
            xv = tl.load(x + offs, mask=mask)
            tl.atomic_add(out + offs, 2 * xv + tl.load(y + offs, mask=mask), mask=mask)
            tl.store(x + offs, xv + 1, mask=mask)
        return accumulate

    n = 300_001
    x = torch.from_numpy(rng.standard_normal(n).astype(np.float32)).cuda()
    y = torch.from_numpy(rng.standard_normal(n).astype(np.float32)).cuda()
    x0 = x.clone()
    out = torch.zeros_like(x)
    k = make()
    k[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, y, out, n)
    torch.cuda.synchronize()
    # Many timed runs, one launch's effect.
    assert torch.allclose(out.double(), 2 * x0.double() + y.double(), rtol=1e-6, atol=1e-5)
    assert torch.equal(x, x0 + 1)
    times = {c.cache_id(): t for c, t in k.configs_timings.items()}
    assert len(times) == 3 and all(0 < t[0] < 100 for t in times.values()), times
    assert k.best_config.cache_id() == min(times, key=lambda c: times[c][0])
    # A fresh autotuner takes the times from disk, untouched.
    again = make()
    out.zero_()
    again[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, y, out, n)
    torch.cuda.synchronize()
    assert {c.cache_id(): t for c, t in again.configs_timings.items()} == times
    assert again.best_config.cache_id() == k.best_config.cache_id()
    assert torch.allclose(out.double(), 2 * (x0.double() + 1) + y.double(), rtol=1e-6,
                          atol=1e-5)
