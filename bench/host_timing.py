"""Host time per call, for the benchmarks whose calls are small enough that
the host, not the GPU, sets the pace (bench/launch_overhead.py,
bench/matmul_host_cost.py)."""

import statistics
import time

import torch


def host_us_per_call(fn, calls, warmup=1, runs=5):
    """Microseconds per call of `fn`: the median over `runs` runs of `calls`
    calls, one synchronisation at the end of each run, after `warmup` calls
    and a synchronisation."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        torch.cuda.synchronize()
        times.append((time.perf_counter() - start) / calls * 1e6)
    return statistics.median(times)
