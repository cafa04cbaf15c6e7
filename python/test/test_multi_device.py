"""Launches on the device of the tensors, in a process that sees two GPUs or
more: a kernel runs on the device its tensor arguments live on (whatever
device is current), on that device's current torch stream, with the module
loaded in that device's context; tensors on two devices are an error that
names them. Triton launches on the current device instead (wrong results or
CUDA_ERROR_INVALID_HANDLE); Terrazzo does not.

The GPU cases check every output element against torch on fresh random
inputs; they need two CUDA devices and skip otherwise (the interpreter's
needs only torch with CUDA). The dry-run cases run anywhere: the launcher
is told that the process sees several GPUs, and fake tensors say which
device they are on.
"""

from __future__ import annotations

import numpy as np
import pytest

import terrazzo as triton
import terrazzo.language as tl

try:
    from terrazzo import _C
except ImportError:  # not built
    _C = None


@triton.jit
def axpb_kernel(x_ptr, y_ptr, out_ptr, n, alpha, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x * alpha + y, mask=mask)


@triton.autotune(configs=[triton.Config({"BLOCK": 128}, num_warps=4),
                          triton.Config({"BLOCK": 512}, num_warps=8)], key=["n"])
@triton.jit
def tuned_axpb_kernel(x_ptr, y_ptr, out_ptr, n, alpha, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x * alpha + y, mask=mask)


@triton.jit
def tma_scale_kernel(x_ptr, y_ptr, M, N, stride_m, BM: tl.constexpr, BN: tl.constexpr):
    # Device-side descriptors: on sm_90 the tensor maps live in the launch's
    # global scratch, which must be memory of the launch's device.
    xd = tl.make_tensor_descriptor(x_ptr, [M, N], [stride_m, 1], [BM, BN])
    yd = tl.make_tensor_descriptor(y_ptr, [M, N], [stride_m, 1], [BM, BN])
    off_m = tl.program_id(0) * BM
    off_n = tl.program_id(1) * BN
    yd.store([off_m, off_n], xd.load([off_m, off_n]) * 2 + 1)


@pytest.fixture
def torch2(torch_cuda):
    """torch, with two CUDA devices or more (skipped otherwise); device 0
    current before and after the test."""
    torch = torch_cuda
    if torch.cuda.device_count() < 2:
        pytest.skip("needs two CUDA devices")
    torch.cuda.set_device(0)
    yield torch
    torch.cuda.set_device(0)


N = 10_000  # not a multiple of any block: masked tails


def _inputs(torch, device, rng, n=N):
    x = torch.from_numpy(rng.standard_normal(n).astype(np.float32)).to(device)
    y = torch.from_numpy(rng.standard_normal(n).astype(np.float32)).to(device)
    out = torch.full((n,), float("nan"), device=device)
    return x, y, out


def _launch(x, y, out, alpha=1.5, block=256):
    n = x.numel()
    axpb_kernel[(triton.cdiv(n, block),)](x, y, out, n, alpha, BLOCK=block)


def _check(torch, x, y, out, alpha=1.5):
    torch.cuda.synchronize(out.device)
    want = x.double() * alpha + y.double()
    got = out.double()
    assert got.device == x.device
    assert not torch.isnan(got).any(), "elements were not written"
    assert torch.allclose(got, want, rtol=1e-6, atol=1e-6), (got - want).abs().max()


@pytest.mark.gpu
def test_tensors_on_cuda1_with_cuda0_current(torch2, rng):
    torch = torch2
    assert torch.cuda.current_device() == 0
    x, y, out = _inputs(torch, "cuda:1", rng)
    _launch(x, y, out)
    _check(torch, x, y, out)
    # The launch switched back: device 0 is still current, and a launch
    # there (the same kernel, compiled for and loaded on device 0) works.
    assert torch.cuda.current_device() == 0
    x0, y0, out0 = _inputs(torch, "cuda:0", rng)
    _launch(x0, y0, out0)
    _check(torch, x0, y0, out0)
    # And device 1 again, after device 0.
    x, y, out = _inputs(torch, "cuda:1", rng)
    _launch(x, y, out, alpha=-2.0)
    _check(torch, x, y, out, alpha=-2.0)
    # One specialisation per device.
    assert axpb_kernel._dispatcher.cache_size() >= 2


@pytest.mark.gpu
def test_tensors_on_cuda0_with_cuda1_current(torch2, rng):
    torch = torch2
    x, y, out = _inputs(torch, "cuda:0", rng)
    with torch.cuda.device(1):
        _launch(x, y, out)
        assert torch.cuda.current_device() == 1
        # torch's work on device 1 after the launch still runs on device 1.
        z = torch.ones(4, device="cuda") * 3
        assert z.device.index == 1 and z.sum().item() == 12
    _check(torch, x, y, out)


@pytest.mark.gpu
@pytest.mark.parametrize("current", [1, 0])
def test_side_stream_of_cuda1(torch2, rng, current):
    # The launch takes device 1's current stream (a side stream), whichever
    # device is current.
    torch = torch2
    x, y, out = _inputs(torch, "cuda:1", rng)
    source = torch.from_numpy(rng.standard_normal(N).astype(np.float32)).to("cuda:1")
    torch.cuda.synchronize(1)
    side = torch.cuda.Stream(device=1)
    with torch.cuda.device(1), torch.cuda.stream(side):
        # The side stream is busy, then writes x: a launch on any other
        # stream would read the old x.
        torch.cuda._sleep(50_000_000)
        x.copy_(source)
        with torch.cuda.device(current):
            _launch(x, y, out)
        done = torch.cuda.Event()
        done.record(side)
    done.synchronize()
    want = source.double() * 1.5 + y.double()
    assert torch.allclose(out.double(), want, rtol=1e-6, atol=1e-6)


class _AddressOnly:
    """A pointer argument that says nothing of its device: data_ptr() and
    dtype only (the dispatcher asks the driver where the address lives)."""

    def __init__(self, tensor):
        self._tensor = tensor
        self.dtype = tensor.dtype

    def data_ptr(self):
        return self._tensor.data_ptr()


@pytest.mark.gpu
def test_address_only_arguments_run_where_their_memory_is(torch2, rng):
    # Memory on cuda:1, cuda:0 current, arguments that name no device: the
    # driver's answer for the address picks cuda:1. (Plain integers are
    # integers, not pointers, as in Triton.)
    torch = torch2
    x, y, out = _inputs(torch, "cuda:1", rng)
    n = x.numel()
    with torch.cuda.device(0):
        axpb_kernel[(triton.cdiv(n, 256),)](_AddressOnly(x), _AddressOnly(y),
                                            _AddressOnly(out), n, 1.5, BLOCK=256)
    _check(torch, x, y, out)


@pytest.mark.gpu
def test_mixed_devices_are_an_error_naming_the_arguments(torch2, rng):
    torch = torch2
    x, y, _ = _inputs(torch, "cuda:1", rng)
    out = torch.full((N,), float("nan"), device="cuda:0")
    with pytest.raises(ValueError, match=r"axpb_kernel\(\): argument 2 \('out_ptr'\) is on "
                                         r"cuda:0 but argument 0 \('x_ptr'\) is on cuda:1"):
        _launch(x, y, out)
    with pytest.raises(ValueError, match=r"argument 1 \('y_ptr'\) is on cuda:0"):
        _launch(x, y.to("cuda:0"), out)
    torch.cuda.synchronize(0)
    assert torch.isnan(out).all(), "nothing may be written"


@pytest.mark.gpu
def test_autotuner_on_cuda1(torch2, rng):
    torch = torch2
    x, y, out = _inputs(torch, "cuda:1", rng)
    grid = lambda meta: (triton.cdiv(N, meta["BLOCK"]),)
    tuned_axpb_kernel[grid](x, y, out, N, 1.5)
    _check(torch, x, y, out)
    assert tuned_axpb_kernel.best_config.kwargs["BLOCK"] in (128, 512)
    out.fill_(float("nan"))
    tuned_axpb_kernel[grid](x, y, out, N, 1.5)  # the cached choice
    _check(torch, x, y, out)
    assert torch.cuda.current_device() == 0


@pytest.mark.gpu
@pytest.mark.parametrize("allocator", [False, True])
def test_global_scratch_on_the_launch_device(torch2, rng, allocator):
    # Device-side descriptors on sm_90: the tensor maps are written to
    # global scratch, which must be device 1's memory for a launch there.
    torch = torch2
    if torch.cuda.get_device_capability(1)[0] != 9:
        pytest.skip("tensor maps in global scratch are for sm_90")
    devices = []

    def alloc(size, alignment, stream):
        buffer = torch.empty(size, dtype=torch.int8, device="cuda")
        devices.append(buffer.device.index)
        return buffer

    m, n, bm, bn = 100, 72, 32, 32
    width = 80
    xs = torch.from_numpy(rng.standard_normal((m, width)).astype(np.float16)).to("cuda:1")
    ys = torch.full((m, width), float("nan"), dtype=torch.float16, device="cuda:1")
    triton.set_allocator(alloc if allocator else None)
    try:
        tma_scale_kernel[(triton.cdiv(m, bm), triton.cdiv(n, bn))](xs, ys, m, n, width,
                                                                   BM=bm, BN=bn)
    finally:
        triton.set_allocator(None)
    torch.cuda.synchronize(1)
    want = (xs.double()[:, :n] * 2 + 1).half().double()
    assert torch.equal(ys.double()[:, :n], want)
    assert torch.isnan(ys[:, n:].double()).all()
    if allocator:
        assert devices and set(devices) == {1}
    assert torch.cuda.current_device() == 0


@pytest.mark.parametrize("config", [0, 1])
def test_interpreter_tuned_axpb_configurations(config, rng):
    # test_autotuner_on_cuda1's kernel at its arguments,
    # in the interpreter: checked here without a GPU, and
    # (TERRAZZO_AMD_LAUNCHES) compiled at that key for the AMD targets.
    # Each of the autotuner's configurations, as its benchmark launches them.
    cfg = tuned_axpb_kernel.configs[config]
    x = rng.standard_normal(N).astype(np.float32)
    y = rng.standard_normal(N).astype(np.float32)
    out = np.full(N, np.nan, np.float32)
    kernel = triton.jit(tuned_axpb_kernel.fn.fn, interpret=True)
    kernel[(triton.cdiv(N, cfg.kwargs["BLOCK"]),)](x, y, out, N, 1.5, **cfg.kwargs,
                                                   num_warps=cfg.num_warps)
    np.testing.assert_allclose(out, x.astype(np.float64) * 1.5 + y, rtol=1e-6, atol=1e-6)


def test_interpreter_tma_scale(rng):
    # test_global_scratch_on_the_launch_device's kernel at its arguments,
    # in the interpreter: checked here without a GPU, and
    # (TERRAZZO_AMD_LAUNCHES) compiled at that key for the AMD targets.
    m, n, bm, bn, width = 100, 72, 32, 32, 80
    xs = rng.standard_normal((m, width)).astype(np.float16)
    ys = np.full((m, width), np.nan, np.float16)
    triton.jit(tma_scale_kernel.fn, interpret=True)[(triton.cdiv(m, bm), triton.cdiv(n, bn))](
        xs, ys, m, n, width, BM=bm, BN=bn)
    want = (xs.astype(np.float64)[:, :n] * 2 + 1).astype(np.float16)
    np.testing.assert_array_equal(ys[:, :n], want)
    assert np.isnan(ys[:, n:].astype(np.float32)).all()


@pytest.mark.gpu
def test_cuda_graph_on_cuda1(torch2, rng):
    torch = torch2
    x, y, out = _inputs(torch, "cuda:1", rng)
    with torch.cuda.device(1):
        _launch(x, y, out)  # compiled and loaded before the capture
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            _launch(x, y, out, alpha=3.0)
        out.fill_(float("nan"))
        graph.replay()
    _check(torch, x, y, out, alpha=3.0)


@pytest.mark.gpu
def test_interpreter_is_untouched(torch_cuda, rng):
    # The interpreter copies tensors to the host and back, whatever their
    # device.
    torch = torch_cuda
    device = "cuda:1" if torch.cuda.device_count() >= 2 else "cuda:0"
    kernel = triton.jit(axpb_kernel.fn, interpret=True)
    n = 1000
    x, y, out = _inputs(torch, device, rng, n)
    kernel[(triton.cdiv(n, 128),)](x, y, out, n, 1.5, BLOCK=128)
    _check(torch, x, y, out)


# ---------------------------------------------------------------------------
# Dry runs (no GPU needed): the launcher believes it sees several GPUs
# ---------------------------------------------------------------------------

class DeviceTensor:
    """Looks like a CUDA tensor on `device` to the dispatcher."""

    def __init__(self, address, device, dtype="float32"):
        self.address, self.device, self.dtype = address, device, dtype

    def data_ptr(self):
        return self.address

    def get_device(self):
        return self.device

    def element_size(self):
        return 4


class NoDeviceQueries(DeviceTensor):
    def get_device(self):
        raise AssertionError("get_device() was called with one GPU")


class DLPackOnDevice:
    """Exports host memory through DLPack but says it is on CUDA device
    `device`."""

    def __init__(self, array, device):
        self.array, self.device = array, device

    def __dlpack_device__(self):
        return (2, self.device)  # kDLCUDA

    def __dlpack__(self, stream=None):
        return self.array.__dlpack__()


@pytest.fixture
def several_gpus(monkeypatch):
    if _C is None:
        pytest.skip("terrazzo._C is not built")
    monkeypatch.setenv("TERRAZZO_DRY_LAUNCH", "1")
    _C._set_multiple_devices(True)
    yield _C
    _C._set_multiple_devices(None)


class Recorder:
    """A compile callback returning dry-run kernels of signature `pppi`."""

    def __init__(self):
        self.keys = []

    def __call__(self, key, bound):
        self.keys.append(key)
        return _C.Kernel(b"not a binary", f"k{len(self.keys)}", 128, 0, "pppi", dry_run=True)


def _dispatcher(recorder, current_stream):
    return _C.Dispatcher(["x", "y", "out", "n"], [False] * 4, [False] * 4,
                         [_C.NO_DEFAULT] * 4, recorder, "axpb",
                         current_stream=current_stream)


def test_dry_run_launch_device_picks_stream_and_kernel(several_gpus):
    streams = []

    def current_stream(device):
        streams.append(device)
        return 1000 + device

    recorder = Recorder()
    dispatcher = _dispatcher(recorder, current_stream)
    on1 = [DeviceTensor(0x1000 * (i + 1), 1) for i in range(3)]
    kernel1 = dispatcher.run((4,), (*on1, 100), {})
    assert kernel1.last_launch()["stream"] == 1001
    assert kernel1.last_launch()["args"] == (0x1000, 0x2000, 0x3000, 100)
    on0 = [DeviceTensor(0x1000 * (i + 1), 0) for i in range(3)]
    kernel0 = dispatcher.run((4,), (*on0, 100), {})
    assert kernel0.last_launch()["stream"] == 1000
    # One kernel per device for the same key; each device's again after.
    assert kernel0 is not kernel1 and len(recorder.keys) == 2
    assert recorder.keys[0] == recorder.keys[1]
    assert dispatcher.run((4,), (*on1, 100), {}) is kernel1
    assert streams == [1, 0, 1]
    # An explicit stream is used as given.
    assert dispatcher.run((4,), (*on1, 100), {}, 77).last_launch()["stream"] == 77
    # None and integer addresses name no device; the tensor decides.
    kernel = dispatcher.run((1,), (None, 0x5000, on1[2], 100), {})
    assert kernel.last_launch()["stream"] == 1001 and streams[-1] == 1
    assert kernel.last_launch()["args"] == (0, 0x5000, 0x3000, 100)


def test_dry_run_mixed_devices_raise_value_error(several_gpus):
    dispatcher = _dispatcher(Recorder(), lambda device: 0)
    with pytest.raises(ValueError, match=r"axpb\(\): argument 2 \('out'\) is on cuda:0 but "
                                         r"argument 0 \('x'\) is on cuda:1; the tensors of one "
                                         r"launch must be on one device"):
        dispatcher.run((1,), (DeviceTensor(16, 1), DeviceTensor(32, 1), DeviceTensor(48, 0), 4),
                       {})
    np = pytest.importorskip("numpy")
    array = np.zeros(16, np.float32)
    with pytest.raises(ValueError, match=r"argument 1 \('y'\) is on cuda:3 but argument 0 "
                                         r"\('x'\) is on cuda:2"):
        dispatcher.run((1,), (DLPackOnDevice(array, 2), DLPackOnDevice(array, 3), None, 4), {})
    # Kernel.launch checks too (a kernel that is not a dry run; the error
    # comes before the driver).
    kernel = _C.Kernel(b"not a binary", "k", 32, 0, "ppi", dry_run=False)
    with pytest.raises(ValueError, match=r"k\(\): argument 1 is on cuda:0 but argument 0 is on "
                                         r"cuda:1"):
        kernel.launch((1, 1, 1), 0, (DeviceTensor(16, 1), DeviceTensor(32, 0), 4))


def test_dry_run_one_gpu_reads_no_device(monkeypatch):
    if _C is None:
        pytest.skip("terrazzo._C is not built")
    monkeypatch.setenv("TERRAZZO_DRY_LAUNCH", "1")
    _C._set_multiple_devices(False)
    try:
        seen = []
        dispatcher = _dispatcher(Recorder(), lambda device: seen.append(device) or 5)
        tensors = [NoDeviceQueries(0x100 * (i + 1), 1) for i in range(3)]
        kernel = dispatcher.run((1,), (*tensors, 8), {})
        # The current device's stream (None: whichever is current).
        assert seen == [None] and kernel.last_launch()["stream"] == 5
    finally:
        _C._set_multiple_devices(None)


def test_dry_run_host_descriptor_base_names_the_device(several_gpus, monkeypatch):
    from terrazzo.runtime import driver
    from terrazzo.tools.tensor_descriptor import TensorDescriptor

    @triton.jit
    def desc_copy(x_desc, out_ptr, BM: tl.constexpr, BN: tl.constexpr):
        block = x_desc.load([0, 0])
        tl.store(out_ptr + tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :], block)

    streams = []
    # The jit function's dispatcher asks driver.current_stream for the
    # launch device's stream.
    monkeypatch.setattr(driver, "current_stream", lambda device=None: streams.append(device) or 0)
    kernel = triton.jit(desc_copy.fn)
    desc = TensorDescriptor(DeviceTensor(0x1000, 1), [64, 32], [32, 1], [16, 32])
    launched = kernel[(1,)](desc, DeviceTensor(0x2000, 1), BM=16, BN=32)
    assert streams == [1]
    assert launched.last_launch()["args"][:1] == (0x1000,)
    with pytest.raises(ValueError, match=r"argument 1 \('out_ptr'\) is on cuda:0 but argument "
                                         r"0 \('x_desc'\) is on cuda:1"):
        kernel[(1,)](desc, DeviceTensor(0x2000, 0), BM=16, BN=32)


def test_current_stream_must_be_callable_and_give_an_int(several_gpus):
    with pytest.raises(TypeError, match="current_stream must be callable"):
        _dispatcher(Recorder(), 3)
    dispatcher = _dispatcher(Recorder(), lambda device: "stream")
    with pytest.raises(TypeError, match="the stream must be an int"):
        dispatcher.run((1,), (DeviceTensor(16, 1), DeviceTensor(32, 1), DeviceTensor(48, 1), 4),
                       {})
