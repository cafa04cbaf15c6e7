"""Launches on the device of the tensors, in a process that sees two GPUs or
more: a kernel runs on the device its tensor arguments live on (whatever
device is current), on that device's current torch stream, with the module
loaded in that device's context; tensors on two devices are an error that
names them. Triton launches on the current device instead (wrong results or
CUDA_ERROR_INVALID_HANDLE); Terrazzo does not.

Every case checks every output element against torch on fresh random
inputs. The cases need two CUDA devices and skip otherwise; the last one
(the interpreter) needs only torch with CUDA.
"""

from __future__ import annotations

import numpy as np
import pytest

import terrazzo as triton
import terrazzo.language as tl

pytestmark = pytest.mark.gpu


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


def test_raw_addresses_run_on_the_current_device(torch2, rng):
    # Integers name no device: the launch runs on the current one.
    torch = torch2
    x, y, out = _inputs(torch, "cuda:1", rng)
    n = x.numel()
    with torch.cuda.device(1):
        axpb_kernel[(triton.cdiv(n, 256),)](x.data_ptr(), y.data_ptr(), out.data_ptr(), n,
                                            1.5, BLOCK=256)
    _check(torch, x, y, out)


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
