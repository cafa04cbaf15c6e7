"""Speed against the GPU's clock and power over a sustained run, for the
benchmarks that need it (bench/attention_power.py, bench/matmul_power.py).
On the H100 and H200 a kernel that keeps the tensor cores busy reaches the
board's power limit within a second, and the SM clock then falls to
whatever that power allows, so two kernels' speeds under `do_bench`
depend on the energy each spends per operation as well as on their
cycles (bench/RESULTS.md, session 35). `Sampler` runs `nvidia-smi` in the
background (SM clock, power, temperature and the active clock-event
reasons, every 20 ms); `sustained` runs a callable back to back, an L2
flush before each call as `do_bench` does, in chunks of about 100 ms that
end in a synchronize; `summarise` joins the two per chunk and gives the
medians over the chunks after the first second: the call's time, its
TFLOP/s, the clock and power, the cycles a call takes at that clock and
the TFLOP/s per GHz."""
import math
import os
import statistics
import subprocess
import tempfile
import time

FIELDS = "timestamp,clocks.sm,power.draw,temperature.gpu,clocks_event_reasons.active"


def parse_samples(path):
    """(host time, MHz, W, C, throttle mask) per nvidia-smi line."""
    out = []
    with open(path) as f:
        for line in f:
            parts = [p.strip() for p in line.split(",")]
            if len(parts) != 5:
                continue
            try:
                stamp = time.mktime(time.strptime(parts[0].split(".")[0], "%Y/%m/%d %H:%M:%S"))
                stamp += float("0." + parts[0].split(".")[1]) if "." in parts[0] else 0.0
                out.append((stamp, float(parts[1].split()[0]), float(parts[2].split()[0]),
                            float(parts[3]), int(parts[4], 16)))
            except (ValueError, IndexError):
                continue
    return out


def sustained(torch, run, seconds, chunk_ms=100.0):
    """[(host start, host end, [call ms])] per chunk over `seconds`."""
    from terrazzo.runtime import driver  # do_bench's flush
    cache = driver.active.get_empty_cache_for_benchmark()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(3):
        driver.active.clear_cache(cache)
        run()
    end.record()
    torch.cuda.synchronize()
    per_call = max(start.elapsed_time(end) / 3, 1e-3)
    n = max(1, int(chunk_ms / per_call))
    chunks, t_end = [], time.time() + seconds
    while time.time() < t_end:
        starts = [torch.cuda.Event(enable_timing=True) for _ in range(n)]
        ends = [torch.cuda.Event(enable_timing=True) for _ in range(n)]
        t0 = time.time()
        for i in range(n):
            driver.active.clear_cache(cache)
            starts[i].record()
            run()
            ends[i].record()
        torch.cuda.synchronize()
        chunks.append((t0, time.time(), [s.elapsed_time(e) for s, e in zip(starts, ends)]))
    return chunks


class Sampler:
    """nvidia-smi sampling while the `with` block runs; `samples` holds
    (host time, MHz, W, C, clock-event mask) once it is left (the tool's
    output is buffered, so it is read after the tool has exited)."""

    def __enter__(self):
        self._tmp = tempfile.TemporaryDirectory()
        self._log = os.path.join(self._tmp.name, "smi.csv")
        with open(self._log, "w") as sink:
            self._smi = subprocess.Popen(["nvidia-smi", f"--query-gpu={FIELDS}",
                                          "--format=csv,noheader", "-lms", "20"],
                                         stdout=sink, stderr=subprocess.DEVNULL)
        self.samples = []
        return self

    def __exit__(self, *exc):
        self._smi.terminate()
        self._smi.wait()
        self.samples = parse_samples(self._log)
        self._tmp.cleanup()
        return False


HEADER = (f"{'case':28s} {'provider':9s} {'ms':>8s} {'TFLOP/s':>8s} {'MHz':>6s} {'W':>6s} "
          f"{'C':>4s} {'Mcycles':>8s} {'TF/GHz':>7s} clock events")


def summarise(case, name, flops, chunks, samples, every):
    """The table's line for one provider: medians over the chunks after the
    first second (each chunk's clock and power from the samples taken
    during it); with `every`, a line per chunk before it."""
    lines, kept, t_first = [], [], chunks[0][0]
    for t0, t1, calls in chunks:
        inside = [s for s in samples if t0 <= s[0] <= t1]
        ms = statistics.median(calls)
        mhz = statistics.mean(s[1] for s in inside) if inside else float("nan")
        watts = statistics.mean(s[2] for s in inside) if inside else float("nan")
        temp = max((s[3] for s in inside), default=float("nan"))
        mask = 0
        for s in inside:
            mask |= s[4]
        if every:
            lines.append(f"  {case} {name} t={t0 - t_first:5.2f}s {ms:8.3f} ms "
                         f"{flops / ms / 1e9:7.1f} TF {mhz:6.0f} MHz {watts:6.1f} W "
                         f"{temp:3.0f} C throttle {mask:#x}")
        if t0 - t_first >= 1.0:
            kept.append((ms, mhz, watts, temp, mask))
    if not kept:
        return "\n".join(lines + [f"{case:28s} {name:9s} run shorter than a second"])
    ms = statistics.median(c[0] for c in kept)
    # Chunks without a sample (nvidia-smi's period is not exact) have no clock.
    sampled = [c for c in kept if not math.isnan(c[1])] or [(0, math.nan, math.nan, math.nan)]
    mhz = statistics.median(c[1] for c in sampled)
    watts = statistics.median(c[2] for c in sampled)
    temp = max(c[3] for c in sampled)
    mask = 0
    for c in kept:
        mask |= c[4]
    tflops = flops / ms / 1e9
    return "\n".join(lines + [
        f"{case:28s} {name:9s} {ms:8.3f} {tflops:8.1f} {mhz:6.0f} {watts:6.1f} {temp:4.0f} "
        f"{ms * mhz / 1e3:8.3f} {tflops / (mhz / 1e3):7.1f} {mask:#x}"])


def print_table(runs, samples, every):
    """The table of `runs`, [(case, provider, flops, chunks, or why not)],
    after HEADER."""
    print()
    print(HEADER)
    for case, name, flops, chunks in runs:
        if isinstance(chunks, str):
            print(f"{case:28s} {name:9s} {chunks}")
            continue
        print(summarise(case, name, flops, chunks, samples, every))
