"""Lazy access to the compiled extension `terrazzo._C` and to the current
stream.

The interpreter and IR generation never need the extension; everything that
compiles to a binary or launches goes through `get_C()`, which explains what
is missing when the extension cannot be loaded.
"""

from __future__ import annotations

import importlib
import os
import re
import sys
from typing import Dict, NamedTuple, Optional

_C_module = None
_C_error: Optional[BaseException] = None


def get_C(required: bool = True):
    """The `terrazzo._C` module; raises ImportError with guidance when it is
    not built (or returns None when `required` is False)."""
    global _C_module, _C_error
    if _C_module is None and _C_error is None:
        try:
            _C_module = importlib.import_module("terrazzo._C")
        except ImportError as e:  # not built, or built for another Python
            _C_error = e
    if _C_module is None and required:
        raise ImportError(
            "terrazzo._C, the compiled extension, is not available "
            f"({_C_error}). Build it (python/CMakeLists.txt) and put "
            "build-core/python on PYTHONPATH, or run kernels in the interpreter "
            "with TERRAZZO_INTERPRET=1.") from _C_error
    return _C_module


def extension_available() -> bool:
    return get_C(required=False) is not None


def env_flag(name: str) -> bool:
    v = os.environ.get(name, "")
    return v.strip().lower() not in ("", "0", "false", "no", "off")


# os.environ keeps its contents in `_data` (bytes keys on POSIX); reading it
# directly costs tens of nanoseconds instead of half a microsecond, which
# matters on the launch path. Writes through os.environ update it.
_ENV_DATA = getattr(os.environ, "_data", None) if os.name == "posix" else None


def interpret_requested() -> bool:
    """TERRAZZO_INTERPRET (or TRITON_INTERPRET) is set to a true value."""
    if _ENV_DATA is not None:
        if _ENV_DATA.get(b"TERRAZZO_INTERPRET") is None and \
                _ENV_DATA.get(b"TRITON_INTERPRET") is None:
            return False
    return env_flag("TERRAZZO_INTERPRET") or env_flag("TRITON_INTERPRET")


_stream_broken = False


_raw_stream_functions = None


def current_stream(device: Optional[int] = None) -> int:
    """torch's current CUDA stream of `device` (None: of the current device)
    when torch is imported, else 0 (the default stream). On every launch
    (the dispatcher calls it with the launch's device), so it asks torch's C
    layer for the raw stream: `torch.cuda.current_stream()` builds a Python
    Stream object each time, which costs several microseconds."""
    global _stream_broken, _raw_stream_functions
    if _stream_broken:
        return 0
    if _raw_stream_functions is not None:
        raw_stream, current_device = _raw_stream_functions
        return raw_stream(current_device() if device is None else device)
    torch = sys.modules.get("torch")
    if torch is None:
        return 0
    try:
        stream = torch.cuda.current_stream(device).cuda_stream
    except Exception:  # torch without CUDA
        _stream_broken = True
        return 0
    try:
        _raw_stream_functions = (torch._C._cuda_getCurrentRawStream,
                                 torch._C._cuda_getDevice)
    except AttributeError:  # a torch without these: keep the public API
        pass
    return stream


# ---------------------------------------------------------------------------
# `driver.active`: Triton's `triton.runtime.driver.active`
# ---------------------------------------------------------------------------
#
# The device queries that Triton's tutorials and tests make through
# `triton.runtime.driver.active`, answered for the device Terrazzo launches
# on (CUDA's, else HIP's: `_C.platform()`), by the extension's runtime
# (`_C.device_properties`, `current_device`, `set_current_device`,
# `kernel_attributes`): one implementation talks to the driver, without
# torch, for CUDA and HIP devices alike. On a machine without
# a GPU the active driver is the interpreter's: `get_current_target()` says
# so (backend "interpreter") and device queries raise RuntimeError.

#: The target the frontend compiles for when no device answers.
DEFAULT_TARGET = "cuda:90"


class GPUTarget:
    """What code is generated for: `backend` ("cuda", or "interpreter" on a
    machine without a GPU), `arch` (the compute capability as an int, e.g.
    90) and `warp_size` (threads per warp)."""

    __slots__ = ("backend", "arch", "warp_size")

    def __init__(self, backend: str, arch: int, warp_size: int):
        self.backend, self.arch, self.warp_size = backend, arch, warp_size

    def __eq__(self, other):
        return isinstance(other, GPUTarget) and \
            (self.backend, self.arch, self.warp_size) == \
            (other.backend, other.arch, other.warp_size)

    def __hash__(self):
        return hash((self.backend, self.arch, self.warp_size))

    def __repr__(self):
        return f"GPUTarget({self.backend!r}, {self.arch!r}, {self.warp_size})"


def target_for_arch(arch) -> str:
    """The target string of an architecture as Triton's `arch` option and
    TRITON_OVERRIDE_ARCH spell it ("sm80", "sm_90a", "90", 90; an AMD
    processor "gfx942") or a target string ("cuda:80", "hip:gfx942")."""
    text = str(arch).strip().lower()
    if text.startswith(("cuda:", "hip:")):
        return text
    if re.fullmatch(r"gfx[0-9a-f]+", text):
        return f"hip:{text}"
    match = re.fullmatch(r"(?:sm_?)?(\d+)a?", text)
    if not match:
        raise ValueError(f"arch={arch!r}: expected an architecture such as 'sm80', 'sm_90a' "
                         "or 'gfx942'")
    return f"cuda:{int(match.group(1))}"


class TargetStages(NamedTuple):
    """A target's own stages: its assembly and its loadable binary."""
    assembly: str  # "ptx", "amdgcn"
    binary: str  # "cubin", "hsaco"


def target_stages(target: str, C=None) -> TargetStages:
    """The assembly and binary stages of `target` ("cuda:90": ptx and cubin,
    "hip:gfx942": amdgcn and hsaco), as the compiler names them."""
    description = (C or get_C()).describe_target(target)
    return TargetStages(description["assembly_stage"], description["binary_stage"])


def assembler_for(target: str, C=None) -> str:
    """How kernels for `target` become loadable: "auto" (a cubin) where the
    current device runs that architecture's binaries (same major version,
    not an older minor one), else "driver": the PTX, which the driver
    compiles for the device (code for another architecture, from arch= or
    TRITON_OVERRIDE_ARCH)."""
    if C is None:
        C = get_C(required=False)
    try:
        device = C.current_target() if C is not None else None
    except Exception:
        device = None
    if not device or device == target:
        return "auto"
    try:
        have, want = (int(t.split(":")[1].rstrip("a")) for t in (device, target))
    except (IndexError, ValueError):
        return "auto"
    return "auto" if have // 10 == want // 10 and have >= want else "driver"


def default_fp_fusion() -> bool:
    """Whether kernels let the code generator contract a*b+c into one fma
    unless a launch says (enable_fp_fusion): TRITON_DEFAULT_FP_FUSION, else
    yes, as in Triton."""
    value = os.environ.get("TRITON_DEFAULT_FP_FUSION")
    return True if value is None else env_flag("TRITON_DEFAULT_FP_FUSION")


def rocm_torch_target() -> Optional[str]:
    """The target of torch's current device when torch is a ROCm build
    (`torch.version.hip` set) that sees a GPU: "hip:" and the device's
    gcnArchName without its features ("gfx942:sramecc+:xnack-" -> "hip:gfx942");
    None otherwise (no torch imported, a CUDA or CPU build, no device)."""
    torch = sys.modules.get("torch")
    if torch is None or not getattr(getattr(torch, "version", None), "hip", None):
        return None
    try:
        if not torch.cuda.is_available():  # ROCm's torch speaks through torch.cuda
            return None
        arch = torch.cuda.get_device_properties(torch.cuda.current_device()).gcnArchName
    except Exception:
        return None
    processor = str(arch).split(":")[0]
    return f"hip:{processor}" if processor.startswith("gfx") else None


def current_target_name(C=None) -> str:
    """The target string kernels are compiled for: $TERRAZZO_TARGET (e.g.
    "cuda:80" or "hip:gfx942", code for another architecture, to inspect or
    cache; a cubin only runs on devices of its own major architecture, an
    hsaco on its own processor) or Triton's TRITON_OVERRIDE_ARCH ("sm80"),
    else, with a ROCm build of torch, its current device's (rocm_torch_target),
    else the current device's (asked of `C`, by default the extension: CUDA's
    device, else HIP's), else DEFAULT_TARGET. The target's platform picks the
    driver that launches the kernel (CUDA for cuda:*, HIP for hip:*)."""
    forced = os.environ.get("TERRAZZO_TARGET")
    if forced:
        return forced
    if os.environ.get("TRITON_OVERRIDE_ARCH"):
        return target_for_arch(os.environ["TRITON_OVERRIDE_ARCH"])
    rocm = rocm_torch_target()
    if rocm:
        return rocm
    if C is None:
        C = get_C(required=False)
    try:
        t = C.current_target() if C is not None else None
    except Exception:
        t = None
    return t or DEFAULT_TARGET


# Triton's keys of `get_device_properties` and the runtime's
# (runtime::DeviceProperties, `_C.device_properties`) they are read from: one
# query for CUDA and HIP devices alike.
_PROPERTY_KEYS = {
    "max_shared_mem": "max_shared_memory_per_block_optin",
    "max_num_regs": "max_registers_per_block",
    "multiprocessor_count": "multiprocessor_count",
    "warpSize": "warp_size",
    "sm_clock_rate": "clock_rate_khz",
    "mem_clock_rate": "memory_clock_rate_khz",
    "mem_bus_width": "memory_bus_width_bits",
    "max_threads_per_sm": "max_threads_per_multiprocessor",
}


def _torch_cuda():
    """torch when it is imported and sees a CUDA device, else None."""
    torch = sys.modules.get("torch")
    try:
        return torch if torch is not None and torch.cuda.is_available() else None
    except Exception:
        return None


def _device_index(device) -> int:
    """An ordinal from an int, "cuda:1", a torch.device or None (current)."""
    if device is None:
        return active.get_current_device()
    index = device if isinstance(device, (int, str)) else getattr(device, "index", None)
    if index is None:
        return active.get_current_device()
    if isinstance(index, str):
        index = index.rpartition(":")[2] or "0"
        if not index.isdigit():
            return active.get_current_device()
    return int(index)


def device_arch(device=None) -> int:
    """The compute capability of a device as an int (90 for sm_90), from the
    runtime."""
    major, minor = get_C().device_properties(_device_index(device))["compute_capability"]
    return major * 10 + minor


def kernel_attributes(binary: bytes, name: str) -> Dict[str, int]:
    """What the driver reports of kernel `name` in the cubin `binary`
    (loaded into the current context by the runtime): num_regs,
    local_bytes, shared_bytes and max_threads."""
    return get_C().kernel_attributes(bytes(binary), name)


class DeviceUtils:
    """`driver.active.utils`."""

    def __init__(self):
        self._properties: Dict[int, Dict[str, int]] = {}

    def get_device_properties(self, device=None) -> Dict[str, int]:
        """The device's limits, with Triton's keys: multiprocessor_count,
        max_shared_mem (bytes a block may opt in to), max_num_regs (per
        block), warpSize, sm_clock_rate and mem_clock_rate (kHz),
        mem_bus_width (bits) and max_threads_per_sm."""
        index = _device_index(device)
        if index not in self._properties:
            runtime = get_C().device_properties(index)
            self._properties[index] = {key: runtime[field]
                                       for key, field in _PROPERTY_KEYS.items()}
        return dict(self._properties[index])


class CudaDriver:
    """The active driver on a machine with a CUDA GPU (Triton's
    `triton.runtime.driver.active`)."""

    backend = "cuda"

    def __init__(self):
        self.utils = DeviceUtils()

    @staticmethod
    def is_active() -> bool:
        C = get_C(required=False)
        return C is not None and bool(C.runtime_available())

    def get_current_target(self) -> GPUTarget:
        C = get_C()
        name = current_target_name(C)
        backend, _, arch = name.partition(":")
        # The warp size is the compiler's (64 on CDNA).
        warp_size = C.describe_target(name)["warp_size"]
        return GPUTarget(backend, int(arch) if arch.isdigit() else arch, warp_size)

    def get_current_device(self) -> int:
        torch = _torch_cuda()
        if torch is not None:
            return torch.cuda.current_device()
        return get_C().current_device()

    def set_current_device(self, device) -> None:
        index = _device_index(device)
        torch = _torch_cuda()
        if torch is not None:
            torch.cuda.set_device(index)
        else:
            get_C().set_current_device(index)

    def get_current_stream(self, device=None) -> int:
        """The raw current stream of `device` (default: the current device):
        torch's when torch is imported, else 0 (the default stream)."""
        return current_stream(None if device is None else _device_index(device))

    def get_active_torch_device(self):
        import torch
        return torch.device("cuda", self.get_current_device())

    def get_device_interface(self):
        import torch
        return torch.cuda

    def get_empty_cache_for_benchmark(self):
        """A 256 MiB buffer whose zeroing evicts the L2 cache between timed
        runs (`clear_cache`)."""
        import torch
        return torch.empty(256 * 1024 * 1024 // 4, dtype=torch.int32,
                           device=self.get_active_torch_device())

    @staticmethod
    def clear_cache(cache) -> None:
        cache.zero_()


def _no_device(what: str):
    C = get_C(required=False)
    why = C.runtime_error() if C is not None else "terrazzo._C is not built"
    raise RuntimeError(f"{what}: no GPU here ({why}); kernels run in the interpreter")


class _InterpreterUtils(DeviceUtils):
    def get_device_properties(self, device=None):
        _no_device("get_device_properties")


class InterpreterDriver(CudaDriver):
    """The active driver on a machine without a GPU: kernels run in the
    interpreter on the CPU. The target says so; device queries raise."""

    backend = "interpreter"

    def __init__(self):
        super().__init__()
        self.utils = _InterpreterUtils()

    @staticmethod
    def is_active() -> bool:
        return True

    def get_current_target(self) -> GPUTarget:
        return GPUTarget("interpreter", 0, 32)

    def get_current_device(self) -> int:
        return 0

    def set_current_device(self, device) -> None:
        _no_device("set_current_device")

    def get_current_stream(self, device=None) -> int:
        return 0

    def get_active_torch_device(self):
        """torch's CPU device (the string "cpu" without torch)."""
        try:
            import torch
        except ImportError:
            return "cpu"
        return torch.device("cpu")

    def get_device_interface(self):
        _no_device("get_device_interface")

    def get_empty_cache_for_benchmark(self):
        return None

    @staticmethod
    def clear_cache(cache) -> None:
        pass


def _make_active():
    return CudaDriver() if CudaDriver.is_active() else InterpreterDriver()


class _ActiveDriver:
    """`driver.active`: the CUDA driver where a GPU answers, else the
    interpreter's; chosen on first use (so that importing Terrazzo does not
    initialise CUDA)."""

    def __getattr__(self, name):
        global _active_driver
        if _active_driver is None:
            _active_driver = _make_active()
        return getattr(_active_driver, name)

    def __repr__(self):
        return f"<active driver: {type(_active_driver).__name__ if _active_driver else 'not chosen yet'}>"


_active_driver = None
active = _ActiveDriver()


def set_active(driver_object) -> None:
    """Makes `driver_object` the active driver (tests, other backends)."""
    global _active_driver
    _active_driver = driver_object


def reset_active() -> None:
    """Chooses the active driver again on next use."""
    global _active_driver
    _active_driver = None
