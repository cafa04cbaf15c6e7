"""Host-side launch cost and first-call time of a tiny vector add: Terrazzo
against Triton and torch.add, on one GPU in one run.

    python3 bench/launch_overhead.py

* Launch cost: 20,000 launches of an already-compiled kernel on 1024
  elements, one synchronisation at the end, time per launch (the median of
  5 such runs). The kernel is tiny, so this is the host's cost unless the
  GPU runs each launch slower than the host issues them.
* First call: a fresh Python process imports the package, calls the kernel
  once with an empty cache directory and waits for it (cold: compile +
  load + launch); then a second process calls it with the cache the first
  one filled (warm start: must not compile).
Every result is checked against torch.
"""
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import torch

# bench/host_timing.py, also when this file is loaded by path.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from host_timing import host_us_per_call  # noqa: E402

LAUNCHES = 20000
N = 1024

KERNEL_SOURCE = '''
import {package} as jit_package
import {package}.language as tl

@jit_package.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)
'''

FIRST_CALL = KERNEL_SOURCE + '''
import json, time, torch
x = torch.rand({n}, device="cuda")
y = torch.rand({n}, device="cuda")
out = torch.empty_like(x)
torch.cuda.synchronize()
start = time.perf_counter()
add_kernel[(1,)](x, y, out, {n}, BLOCK=1024)
torch.cuda.synchronize()
elapsed = time.perf_counter() - start
assert torch.equal(out, x + y), "wrong result"
print(json.dumps({{"first_call_ms": elapsed * 1e3}}))
'''


# @jit reads the kernel's source file (as Triton's does), so the kernels and
# the first-call scripts are written to real files.
SCRATCH = tempfile.mkdtemp(prefix="launch-overhead-")


def write_script(name, text):
    path = os.path.join(SCRATCH, name)
    with open(path, "w") as file:
        file.write(text)
    return path


def load_kernel(package):
    path = write_script(f"{package}_add.py", KERNEL_SOURCE.format(package=package))
    spec = importlib.util.spec_from_file_location(f"{package}_add", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.add_kernel


def issue_cost_us(launch, launches=256, repeats=21):
    """Host time to enqueue `launches` launches (fewer than the driver's
    launch queue holds, so none waits for the GPU), per launch."""
    launch()
    torch.cuda.synchronize()
    runs = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(launches):
            launch()
        runs.append((time.perf_counter() - start) / launches * 1e6)
        torch.cuda.synchronize()
    return statistics.median(runs)


def first_call_ms(package, cache_variable, cache_dir):
    env = dict(os.environ)
    env[cache_variable] = cache_dir
    script = write_script(f"{package}_first_call.py",
                          FIRST_CALL.format(package=package, n=N))
    result = subprocess.run([sys.executable, script], env=env,
                            capture_output=True, text=True)
    if result.returncode:
        raise RuntimeError(f"{package} first call failed:\n{result.stderr}")
    return json.loads(result.stdout.strip().splitlines()[-1])["first_call_ms"]


def count_files(folder):
    return sum(len(files) for _, _, files in os.walk(folder))


def main():
    x = torch.rand(N, device="cuda")
    y = torch.rand(N, device="cuda")
    out = torch.empty_like(x)
    launchers = []
    terrazzo_add = load_kernel("terrazzo")
    launchers.append(("terrazzo",
                      lambda: terrazzo_add[(1,)](x, y, out, N, BLOCK=1024)))
    try:
        triton_add = load_kernel("triton")
        launchers.append(("triton " + __import__("triton").__version__,
                          lambda: triton_add[(1,)](x, y, out, N, BLOCK=1024)))
    except ImportError:
        pass
    launchers.append(("torch.add", lambda: torch.add(x, y, out=out)))

    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}")
    print(f"{'per launch, us':24s} {LAUNCHES} launches + sync   "
          "issue only (256 launches)")
    for name, launch in launchers:
        out.fill_(float("nan"))
        cost = host_us_per_call(launch, LAUNCHES)
        assert torch.equal(out, x + y), f"{name}: wrong result"
        issue = issue_cost_us(launch)
        print(f"  {name:22s} {cost:10.2f} {issue:26.2f}")

    print("first call in a fresh process (import excluded):")
    with tempfile.TemporaryDirectory() as cache:
        cold = first_call_ms("terrazzo", "TERRAZZO_CACHE_DIR", cache)
        entries = count_files(cache)
        warm = first_call_ms("terrazzo", "TERRAZZO_CACHE_DIR", cache)
        compiled_again = count_files(cache) != entries
        print(f"  terrazzo, empty cache     {cold:8.1f} ms")
        print(f"  terrazzo, disk cache warm {warm:8.1f} ms "
              f"({'compiled again' if compiled_again else 'no new cache entries'})")
    try:
        with tempfile.TemporaryDirectory() as cache:
            cold = first_call_ms("triton", "TRITON_CACHE_DIR", cache)
            warm = first_call_ms("triton", "TRITON_CACHE_DIR", cache)
            print(f"  triton, empty cache       {cold:8.1f} ms")
            print(f"  triton, disk cache warm   {warm:8.1f} ms")
    except (ImportError, RuntimeError) as error:
        print(f"  triton: {error}")


if __name__ == "__main__":
    main()
