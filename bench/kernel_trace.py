"""The kernels of a provider's calls, from a CUDA profile (torch.profiler,
CUPTI): each call's kernels with their times and launch shapes, and the
gap between the L2 flush before the call and its first kernel (the
launch). Used by bench/attention_kernel_times.py, and by the --kernels of
bench/matmul_skinny.py and bench/grouped_gemm_compilers.py (cuBLAS's or
Triton's kernels beside ours: names, grids, registers, shared memory)."""
import collections
import json
import os
import tempfile

#: A call: the kernels' total time and the gap before the first (us), the
#: first kernel's name, and every kernel as a Kernel.
Call = collections.namedtuple("Call", "time gap name kernels")
#: One kernel of a call: name, time (us), grid and block (x, y, z), registers
#: per thread and shared memory (bytes, static and dynamic), where the
#: trace gives them (None otherwise).
Kernel = collections.namedtuple("Kernel", "name time grid block registers shared")


def _kernel(event):
    args = event.get("args", {})
    shared = args.get("shared memory")
    if shared is None and ("static shared memory" in args or "dynamic shared memory" in args):
        shared = args.get("static shared memory", 0) + args.get("dynamic shared memory", 0)
    return Kernel(event["name"], event["dur"], tuple(args["grid"]) if "grid" in args else None,
                  tuple(args["block"]) if "block" in args else None,
                  args.get("registers per thread"), shared)


def calls_in_trace(events):
    """[Call], one per call, from a chrome trace's events (torch.profiler's
    export): the kernels between a flush (a fill or memset of over 20 us)
    and the next, less the last of them, the marker's fill that closes
    each call."""
    kernels = sorted((e for e in events
                      if e.get("ph") == "X" and e.get("cat") in ("kernel", "gpu_memset")),
                     key=lambda e: e["ts"])

    def is_fill(e):
        return e.get("cat") == "gpu_memset" or "fill" in e["name"].lower()

    calls, current, after_flush = [], None, None

    def close():
        if current and is_fill(current[-1]) and len(current) > 1:
            body = current[:-1]
            calls.append(Call(sum(k["dur"] for k in body), body[0]["ts"] - after_flush,
                              body[0]["name"], [_kernel(k) for k in body]))

    for e in kernels:
        if is_fill(e) and e["dur"] > 20:
            close()
            after_flush, current = e["ts"] + e["dur"], []
        elif current is not None:
            current.append(e)
    close()
    return calls


def kernel_times(torch, run, calls):
    """calls_in_trace of a CUDA profile of `calls` calls of `run`, each
    after an L2 flush (256 MB written) and followed by a one-byte write."""
    from terrazzo.runtime import driver  # do_bench's flush
    cache = driver.active.get_empty_cache_for_benchmark()
    marker = torch.empty(1, dtype=torch.int8, device="cuda")
    for _ in range(5):
        run()
    torch.cuda.synchronize()
    activities = [torch.profiler.ProfilerActivity.CUDA]
    with torch.profiler.profile(activities=activities) as prof:
        for _ in range(calls):
            driver.active.clear_cache(cache)
            run()
            marker.zero_()  # closes the call: its kernels lie between two writes
        torch.cuda.synchronize()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "trace.json")
        prof.export_chrome_trace(path)
        with open(path) as f:
            return calls_in_trace(json.load(f)["traceEvents"])


def describe(calls):
    """Lines describing the kernels of `calls` (from calls_in_trace): one per
    kernel of the first call, its time the median over the calls that
    launched as many kernels, with its grid, block, registers and shared
    memory."""
    if not calls:
        return ["no kernels found in the profile"]
    count = len(calls[0].kernels)
    alike = [c for c in calls if len(c.kernels) == count]
    lines = []
    for i, k in enumerate(calls[0].kernels):
        times = sorted(c.kernels[i].time for c in alike)
        lines.append(f"{times[len(times) // 2]:8.1f} us  grid {k.grid}  block {k.block}  "
                     f"{k.registers} registers  {k.shared} B shared  {k.name[:90]}")
    return lines
