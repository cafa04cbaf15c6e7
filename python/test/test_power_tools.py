"""bench/power_trace.py and bench/kernel_trace.py without a GPU:
nvidia-smi's lines parsed (and the malformed ones left out), a run's
chunks joined with the samples taken during them, and a profile's trace
split into calls, on inputs whose answers are known."""

from __future__ import annotations

import math
import time

import pytest
from conftest import bench_module


def load(name):
    with bench_module(name) as module:
        return module


@pytest.fixture(scope="module")
def power():
    return load("power_trace")


@pytest.fixture(scope="module")
def kernel_times():
    return load("kernel_trace")


def test_samples_parsed(power, tmp_path):
    log = tmp_path / "smi.csv"
    log.write_text(
        "2026/11/28 17:37:12.250, 1755 MHz, 690.50 W, 59, 0x0000000000000004\n"
        "2026/11/28 17:37:12.270, 1980 MHz, [N/A], 51, 0x0000000000000000\n"  # no power
        "Failed to query\n"
        "2026/11/28 17:37:12.290, 1620 MHz, 688.00 W, 60, 0x0000000000000000\n")
    samples = power.parse_samples(str(log))
    assert len(samples) == 2
    base = time.mktime(time.strptime("2026/11/28 17:37:12", "%Y/%m/%d %H:%M:%S"))
    (t0, mhz0, w0, c0, mask0), (t1, mhz1, w1, c1, mask1) = samples
    assert t0 == pytest.approx(base + 0.25) and t1 == pytest.approx(base + 0.29)
    assert (mhz0, w0, c0, mask0) == (1755.0, 690.5, 59.0, 4)
    assert (mhz1, w1, c1, mask1) == (1620.0, 688.0, 60.0, 0)


def test_summary_of_chunks(power):
    # Five chunks of 0.5 s; the first two start within the first second and
    # are left out; the fourth has no sample (its clock is not known).
    chunks = [(0.5 * i, 0.5 * i + 0.4, [2.0 + 0.1 * i, 2.0 + 0.1 * i]) for i in range(5)]
    samples = [(0.1, 1980.0, 300.0, 50.0, 0),    # chunk 0
               (1.1, 1700.0, 690.0, 55.0, 4),    # chunk 2
               (1.2, 1600.0, 700.0, 58.0, 4),    # chunk 2
               (2.1, 1500.0, 695.0, 57.0, 4)]    # chunk 4
    line = power.summarise("case", "name", 4e12, chunks, samples, every=False)
    fields = line.split()
    # Calls: medians 2.2, 2.3, 2.4 ms -> 2.3 ms; 4e12 flops in 2.3 ms.
    assert fields[2] == "2.300"
    assert float(fields[3]) == pytest.approx(4e12 / 2.3e-3 / 1e12, abs=0.05)
    # Clock and power: chunk 2's means (1650 MHz, 695 W) and chunk 4's
    # (1500, 695): medians 1575 MHz, 695 W; the hottest sample 58 C.
    assert float(fields[4]) == 1575.0 and float(fields[5]) == 695.0
    assert fields[6] == "58"
    assert float(fields[7]) == pytest.approx(2.3 * 1575 / 1e3, abs=1e-3)
    assert fields[-1] == "0x4"
    every = power.summarise("case", "name", 4e12, chunks, samples, every=True)
    assert len(every.splitlines()) == 6  # one per chunk, then the summary
    assert "nan MHz" in every.splitlines()[3]


def test_run_shorter_than_a_second(power):
    line = power.summarise("case", "name", 1e12, [(0.0, 0.1, [1.0])], [], every=False)
    assert line.endswith("run shorter than a second")


def test_no_samples_at_all(power):
    chunks = [(1.0 + i, 1.5 + i, [1.0]) for i in range(3)]
    fields = power.summarise("case", "name", 1e12, chunks, [], every=False).split()
    assert fields[2] == "1.000" and math.isnan(float(fields[4]))


def kernel(name, ts, dur, cat="kernel", **args):
    return {"ph": "X", "cat": cat, "name": name, "ts": ts, "dur": dur, "args": args}


def test_trace_split_into_calls(kernel_times):
    events = [
        kernel("vectorized_elementwise_kernel<FillFunctor<int>>", 0.0, 80.0),  # flush
        kernel("_attn_fwd", 82.0, 50.0, grid=[16, 128, 1], block=[384, 1, 1],
               **{"registers per thread": 168, "shared memory": 230400}),
        kernel("vectorized_elementwise_kernel<FillFunctor<signed char>>", 133.0, 1.0),
        {"ph": "X", "cat": "cpu_op", "name": "aten::zero_", "ts": 140.0, "dur": 5.0},
        kernel("vectorized_elementwise_kernel<FillFunctor<int>>", 200.0, 80.0),
        kernel("Memset (Device)", 281.5, 1.5, cat="gpu_memset"),  # the provider's own
        kernel("cudnn_sdpa", 284.0, 40.0),
        kernel("vectorized_elementwise_kernel<FillFunctor<signed char>>", 325.0, 1.0),
    ]
    calls = kernel_times.calls_in_trace(list(reversed(events)))  # any order
    assert [call[:3] for call in calls] == [(50.0, 2.0, "_attn_fwd"),
                                            (41.5, 1.5, "Memset (Device)")]
    # Each call's kernels, with the launch shapes the trace gives.
    assert calls[0].kernels == [("_attn_fwd", 50.0, (16, 128, 1), (384, 1, 1), 168, 230400)]
    assert [k.name for k in calls[1].kernels] == ["Memset (Device)", "cudnn_sdpa"]
    assert calls[1].kernels[1].grid is None and calls[1].kernels[1].registers is None


def test_kernels_described(kernel_times):
    # One line per kernel of a call, its time the median over the calls.
    calls = [kernel_times.Call(t + 1.0, 2.0, "gemm", [
        kernel_times.Kernel("gemm", t, (132, 1, 1), (384, 1, 1), 168, 200000),
        kernel_times.Kernel("reduce", 1.0, (8, 1, 1), (128, 1, 1), 32, 0)])
        for t in (40.0, 44.0, 41.0)]
    lines = kernel_times.describe(calls)
    assert len(lines) == 2
    assert lines[0].split()[0] == "41.0" and "grid (132, 1, 1)" in lines[0]
    assert "168 registers" in lines[0] and lines[0].endswith("gemm")
    assert lines[1].split()[0] == "1.0" and lines[1].endswith("reduce")
    assert kernel_times.describe([]) == ["no kernels found in the profile"]


def test_trace_without_a_closing_marker(kernel_times):
    # A call cut short (its marker missing) is left out.
    events = [kernel("fill flush", 0.0, 80.0), kernel("_attn_fwd", 82.0, 50.0)]
    assert kernel_times.calls_in_trace(events) == []
