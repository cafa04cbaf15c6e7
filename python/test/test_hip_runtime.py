"""Launching on AMD GPUs through HIP, checked without one.

* The target follows the machine: a ROCm build of torch (`torch.version.hip`
  set) selects `hip:<gcnArchName>` of its current device, with everything
  else as before for CUDA (torch is faked with monkeypatching: no ROCm torch
  is installed here).
* A kernel's target picks the driver that launches it (`_C.Kernel(...,
  target=)`; the JIT passes the target it compiled for).
* End to end, in a child process whose HIP is the fake library the C++ tests
  build (test/Unit/FakeHip.cpp, through TERRAZZO_HIP_LIBRARY) and whose CUDA
  driver is missing: the extension reports the HIP device and target (and
  its properties, Triton's get_device_properties included, current device
  and a kernel's attributes), a hip
  kernel launches with its grid, block and arguments as the fake received
  them, on the device of its pointer arguments, HIP's errors come back as
  RuntimeError naming the call, and a cuda kernel still goes to the CUDA
  driver (and says it is missing).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import types
from pathlib import Path

import pytest

from terrazzo.runtime import driver, jit

from conftest import build_dir

try:
    from terrazzo import _C
except ImportError:  # not built
    _C = None


def _require_extension():
    if _C is None:
        if os.environ.get("TERRAZZO_REQUIRE_EXTENSION", "") not in ("", "0"):
            pytest.fail("terrazzo._C is not importable")
        pytest.skip("terrazzo._C is not built")
    return _C


# ---------------------------------------------------------------------------
# Target selection
# ---------------------------------------------------------------------------


class _FakeCuda:
    def __init__(self, archs, current=0, available=True):
        self._archs, self._current, self._available = archs, current, available

    def is_available(self):
        return self._available

    def current_device(self):
        return self._current

    def get_device_properties(self, index):
        return types.SimpleNamespace(gcnArchName=self._archs[index], name="AMD Instinct")


def _fake_torch(hip, archs=("gfx942:sramecc+:xnack-",), current=0, available=True):
    torch = types.ModuleType("torch")
    torch.version = types.SimpleNamespace(hip=hip, cuda=None if hip else "12.8")
    torch.cuda = _FakeCuda(list(archs), current, available)
    return torch


class _DeviceOf:
    """A stand-in for the extension: its current device's target."""

    def __init__(self, target):
        self.target = target

    def current_target(self):
        return self.target


@pytest.fixture
def no_overrides(monkeypatch):
    monkeypatch.delenv("TERRAZZO_TARGET", raising=False)
    monkeypatch.delenv("TRITON_OVERRIDE_ARCH", raising=False)
    return monkeypatch


def test_rocm_torch_selects_the_hip_target_of_its_device(no_overrides):
    no_overrides.setitem(sys.modules, "torch", _fake_torch("6.2.41133"))
    assert driver.rocm_torch_target() == "hip:gfx942"
    # The ROCm torch's device wins over what the extension would say.
    assert driver.current_target_name(_DeviceOf("cuda:90")) == "hip:gfx942"

    # Torch's current device decides: the second GPU is a gfx950.
    no_overrides.setitem(sys.modules, "torch",
                         _fake_torch("6.4.0", ("gfx942:sramecc+:xnack-", "gfx950:sramecc+"),
                                     current=1))
    assert driver.current_target_name(_DeviceOf("cuda:90")) == "hip:gfx950"
    assert driver.current_target_name(None) == "hip:gfx950"


def test_explicit_targets_win_over_rocm_torch(no_overrides):
    no_overrides.setitem(sys.modules, "torch", _fake_torch("6.2.41133"))
    no_overrides.setenv("TERRAZZO_TARGET", "hip:gfx90a")
    assert driver.current_target_name(_DeviceOf("cuda:90")) == "hip:gfx90a"
    no_overrides.delenv("TERRAZZO_TARGET")
    no_overrides.setenv("TRITON_OVERRIDE_ARCH", "sm80")
    assert driver.current_target_name(_DeviceOf("cuda:90")) == "cuda:80"


def test_cuda_and_cpu_torch_leave_the_target_to_the_device(no_overrides):
    # A CUDA build of torch: the extension's device, as before.
    no_overrides.setitem(sys.modules, "torch", _fake_torch(None))
    assert driver.rocm_torch_target() is None
    assert driver.current_target_name(_DeviceOf("cuda:80")) == "cuda:80"
    # A ROCm build that sees no GPU, or whose device has no gfx name.
    no_overrides.setitem(sys.modules, "torch", _fake_torch("6.2", available=False))
    assert driver.current_target_name(_DeviceOf("cuda:80")) == "cuda:80"
    no_overrides.setitem(sys.modules, "torch", _fake_torch("6.2", archs=("",)))
    assert driver.rocm_torch_target() is None
    # No torch and no device: the default.
    no_overrides.delitem(sys.modules, "torch", raising=False)
    assert driver.current_target_name(_DeviceOf(None)) == driver.DEFAULT_TARGET


# ---------------------------------------------------------------------------
# The kernel's target picks its driver
# ---------------------------------------------------------------------------


def test_kernel_target_picks_the_platform():
    C = _require_extension()
    assert C.Kernel(b"x", "k", 256, 0, "p", dry_run=True).platform == "cuda"
    assert C.Kernel(b"x", "k", 128, 0, "p", dry_run=True, target="cuda:90").platform == "cuda"
    assert C.Kernel(b"x", "k", 256, 0, "p", dry_run=True,
                    target="hip:gfx942").platform == "hip"
    with pytest.raises(ValueError, match="target 'rocm:gfx942' names no GPU platform"):
        C.Kernel(b"x", "k", 256, 0, "p", dry_run=True, target="rocm:gfx942")


@pytest.mark.parametrize("target, platform", [("hip:gfx942", "hip"), ("cuda:90", "cuda"),
                                              (None, "cuda")])
def test_the_jit_passes_the_target_it_compiled_for(target, platform, monkeypatch):
    C = _require_extension()
    monkeypatch.setenv("TERRAZZO_DRY_LAUNCH", "1")
    meta = {"name": "k", "threads_per_block": 256, "shared_memory_bytes": 0,
            "signature": "pi", "target": target}
    kernel = jit._make_kernel_from(C, b"binary", meta)
    assert kernel.platform == platform
    assert kernel.threads_per_block == 256
    kernel.launch((3, 1, 1), 0, (0x1000, 7))
    assert kernel.last_launch()["args"] == (0x1000, 7)


# ---------------------------------------------------------------------------
# End to end against the fake HIP library
# ---------------------------------------------------------------------------

_CHILD = textwrap.dedent(r"""
    import ctypes, json, os, random, sys
    from terrazzo.runtime import driver
    from terrazzo import _C

    MAX_ARGS = 32
    class Launch(ctypes.Structure):  # FakeHipLaunch (test/Unit/FakeHip.h)
        _fields_ = [("grid", ctypes.c_uint * 3), ("block", ctypes.c_uint * 3),
                    ("shared_bytes", ctypes.c_uint), ("device", ctypes.c_int),
                    ("stream", ctypes.c_uint64), ("argument_count", ctypes.c_int),
                    ("argument_sizes", ctypes.c_int * MAX_ARGS),
                    ("arguments", ctypes.c_uint64 * MAX_ARGS)]

    fake = ctypes.CDLL(os.environ["TERRAZZO_HIP_LIBRARY"])
    fake.terrazzo_fake_hip_calls.restype = ctypes.c_char_p

    def last_launch():
        launch, name = Launch(), ctypes.create_string_buffer(128)
        assert fake.terrazzo_fake_hip_last_launch(ctypes.byref(launch), name, 128) == 1
        return {"kernel": name.value.decode(), "grid": list(launch.grid),
                "block": list(launch.block), "shared": launch.shared_bytes,
                "device": launch.device, "stream": launch.stream,
                "args": list(launch.arguments[:launch.argument_count])}

    from terrazzo.language import target_info
    active = driver.active.get_current_target()
    out = {"platform": _C.platform(), "available": _C.runtime_available(),
           "error": _C.runtime_error(), "target": _C.current_target(),
           "target_name": driver.current_target_name(),
           "active": [active.backend, active.arch, active.warp_size],
           "is_hip": target_info.is_hip(), "is_cuda": target_info.is_cuda()}

    # The runtime's device queries behind driver.active, answered by HIP.
    props = _C.device_properties(0)
    out["properties"] = {key: props[key] for key in
                         ("target", "architecture", "compute_capability", "warp_size",
                          "multiprocessor_count", "max_shared_memory_per_block_optin")}
    out["device_count"] = _C.device_count()
    out["triton_properties"] = driver.active.utils.get_device_properties(0)
    out["current_device"] = _C.current_device()
    out["arch"] = driver.device_arch()

    image = b"fake-hsaco\nkernel affine 8,8,4\n\0"
    attributes = _C.kernel_attributes(image, "affine")
    out["kernel_attributes"] = [attributes["num_regs"], attributes["max_threads"]]
    x, y, n = random.getrandbits(64), random.getrandbits(64), random.getrandbits(31)
    out["sent"] = [x, y, n]
    kernel = _C.Kernel(image, "affine", 256, 0, "ppi", target="hip:gfx942")
    kernel.launch((5, 2, 1), 0, (x, y, n))
    out["launch"] = last_launch()
    out["loaded"] = kernel.loaded
    _C.synchronize()

    # A launch the driver refuses: RuntimeError with HIP's name and text.
    os.environ["TERRAZZO_FAKE_HIP_FAIL"] = "hipModuleLaunchKernel=719"
    try:
        kernel.launch((1, 1, 1), 0, (x, y, n))
    except RuntimeError as e:
        out["launch_error"] = str(e)
    del os.environ["TERRAZZO_FAKE_HIP_FAIL"]

    # A kernel whose module does not load.
    bad = _C.Kernel(b"not a code object\0", "affine", 64, 0, "ppi", target="hip:gfx942")
    try:
        bad.launch((1, 1, 1), 0, (x, y, n))
    except RuntimeError as e:
        out["load_error"] = str(e)

    # A cuda kernel still goes to the CUDA driver, which is missing here.
    cuda = _C.Kernel(b"\x7fELF", "affine", 128, 0, "ppi", target="cuda:90")
    try:
        cuda.launch((1, 1, 1), 0, (x, y, n))
    except RuntimeError as e:
        out["cuda_error"] = str(e)

    # Memory of device 1 (allocated through the fake) sends the launch there.
    if os.environ.get("TERRAZZO_FAKE_HIP_DEVICES") == "2":
        pointer = ctypes.c_void_p()
        assert fake.hipSetDevice(1) == 0
        assert fake.hipMalloc(ctypes.byref(pointer), ctypes.c_size_t(4096)) == 0
        assert fake.hipSetDevice(0) == 0
        class Buffer:  # a tensor-like object without get_device()
            def __init__(self, address):
                self.address = address
            def data_ptr(self):
                return self.address
        kernel.launch((4, 1, 1), 0, (Buffer(pointer.value), y, n))
        out["device_launch"] = last_launch()
        out["device_sent"] = pointer.value
        out["calls"] = fake.terrazzo_fake_hip_calls().decode()
    print("RESULT " + json.dumps(out))
""")


def _fake_hip() -> Path:
    path = build_dir() / "test" / "Unit" / "fake-hip" / "libamdhip64.so"
    if not path.exists():
        pytest.fail(f"{path} is missing: build the fake HIP library "
                    f"(ninja -C {build_dir()} TerrazzoHipRuntimeTests) or set "
                    "TERRAZZO_BUILD_DIR", pytrace=False)
    return path


def _run_child(devices: int = 1) -> dict:
    _require_extension()
    env = dict(os.environ)
    env.update({"TERRAZZO_HIP_LIBRARY": str(_fake_hip()),
                "TERRAZZO_LIBCUDA": "/nonexistent/terrazzo-test/libcuda.so.1",
                "TERRAZZO_FAKE_HIP_DEVICES": str(devices)})
    for name in ("TERRAZZO_TARGET", "TRITON_OVERRIDE_ARCH", "TERRAZZO_DRY_LAUNCH",
                 "TERRAZZO_FAKE_HIP_FAIL", "TERRAZZO_FAKE_HIP_ARCH"):
        env.pop(name, None)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    proc = subprocess.run([sys.executable, "-c", _CHILD], env=env, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    line = next(l for l in proc.stdout.splitlines() if l.startswith("RESULT "))
    return json.loads(line[len("RESULT "):])


def test_hip_launch_end_to_end_against_the_fake_library():
    out = _run_child()
    assert out["platform"] == "hip"
    assert out["available"] is True
    assert out["error"] == ""
    assert out["target"] == "hip:gfx942"
    assert out["target_name"] == "hip:gfx942"
    # Triton's driver.active and target queries see the AMD device.
    assert out["active"] == ["hip", "gfx942", 64]
    assert out["is_hip"] is True and out["is_cuda"] is False
    assert out["properties"] == {"target": "hip:gfx942",
                                 "architecture": "gfx942:sramecc+:xnack-",
                                 "compute_capability": [9, 4], "warp_size": 64,
                                 "multiprocessor_count": 304,
                                 "max_shared_memory_per_block_optin": 65536}
    # Triton's get_device_properties: every key from hipDeviceGetAttribute
    # (the fake answers as an MI300X).
    assert out["triton_properties"] == {
        "max_shared_mem": 65536, "max_num_regs": 65536, "multiprocessor_count": 304,
        "warpSize": 64, "sm_clock_rate": 2100000, "mem_clock_rate": 1300000,
        "mem_bus_width": 8192, "max_threads_per_sm": 2048}
    assert out["device_count"] == 1 and out["current_device"] == 0
    assert out["arch"] == 94  # HIP's compute capability of a gfx942
    assert out["kernel_attributes"] == [32, 1024]  # the fake's answers

    launch = out["launch"]
    assert launch["kernel"] == "affine"
    assert launch["grid"] == [5, 2, 1]
    assert launch["block"] == [256, 1, 1]
    assert launch["shared"] == 0
    assert launch["device"] == 0
    assert launch["stream"] == 0
    assert launch["args"] == out["sent"]
    assert out["loaded"] is True

    assert out["launch_error"] == (
        "hipModuleLaunchKernel failed for kernel 'affine' (grid 1x1x1, block 256x1x1, 0 bytes "
        "of dynamic shared memory, stream default): hipErrorLaunchFailure (unspecified "
        "launch failure)")
    assert out["load_error"] == (
        "hipModuleLoadData failed for a 18-byte image on device 0: hipErrorInvalidImage "
        "(device kernel image is invalid)")
    assert out["cuda_error"].startswith(
        'dlopen("/nonexistent/terrazzo-test/libcuda.so.1") failed: '), out["cuda_error"]
    assert "(path from TERRAZZO_LIBCUDA)" in out["cuda_error"]


def test_hip_launch_runs_on_the_device_of_its_arguments():
    out = _run_child(devices=2)
    launch = out["device_launch"]
    assert launch["device"] == 1, out["calls"]
    assert launch["args"][0] == out["device_sent"]
    assert launch["grid"] == [4, 1, 1]
    # The module was loaded on device 1 for it, and device 0 made current
    # again after the launch.
    calls = out["calls"]
    assert "hipModuleLoadData(1)" in calls, calls
    assert calls.rstrip().endswith("hipSetDevice(0)"), calls
