"""Triton's host API in Terrazzo: `reinterpret`/`TensorWrapper`,
`runtime.driver.active`, kernel parameters named like launch options and
`terrazzo.testing`.

Interpreter tests run everywhere (NumPy arrays stand for tensors); the
compile path is checked through the tile IR and, with the extension, through
the C++ dispatcher in dry-run mode; tests marked `gpu` launch on the device
through torch.
"""

from __future__ import annotations

import math
import os

import numpy as np
import pytest

import terrazzo as triton
import terrazzo.language as tl
from terrazzo.runtime.jit import MockTensor, TensorWrapper, reinterpret
from test_frontend import _kernel_from_source

try:
    from terrazzo import _C
except ImportError:  # not built: the dispatcher tests are skipped
    _C = None

needs_extension = pytest.mark.skipif(_C is None, reason="terrazzo._C is not built")

UNSIGNED = [(tl.uint8, np.int8, np.uint8), (tl.uint16, np.int16, np.uint16),
            (tl.uint32, np.int32, np.uint32), (tl.uint64, np.int64, np.uint64)]


def interpreted(kernel):
    return triton.jit(kernel.fn, interpret=True)


# ---------------------------------------------------------------------------
# reinterpret and TensorWrapper
# ---------------------------------------------------------------------------

def test_tensor_wrapper_describes_its_base():
    base = np.arange(24, dtype=np.int32).reshape(4, 6)
    w = triton.reinterpret(base, tl.uint32)
    assert isinstance(w, TensorWrapper) and triton.TensorWrapper is TensorWrapper
    assert triton.reinterpret is reinterpret
    assert w.dtype is tl.uint32 and w.base is base
    assert w.shape == (4, 6) and w.numel() == 24 and w.element_size() == 4
    assert w.stride() == (6, 1) and w.stride(0) == 6 and w.dim() == 2
    assert w.data_ptr() == base.__array_interface__["data"][0]
    assert "uint32" in str(w)
    assert w.cpu().base is base and w.cpu().dtype is tl.uint32
    # A wrapper reinterpreted as its base's own type is the base again;
    # as another type, a wrapper of the same base.
    assert triton.reinterpret(w, tl.int32) is base
    w8 = triton.reinterpret(w, tl.float8e5)
    assert isinstance(w8, TensorWrapper) and w8.base is base and w8.dtype is tl.float8e5
    # dtype names are accepted too.
    assert triton.reinterpret(base, "uint32").dtype is tl.uint32
    other = np.full((4, 6), 7, dtype=np.int32)
    w.copy_(triton.reinterpret(other, tl.uint32))
    assert np.array_equal(base, other)


def test_reinterpret_rejects_what_is_not_a_tensor():
    with pytest.raises(TypeError, match="cannot reinterpret a list"):
        triton.reinterpret([1, 2, 3], tl.uint8)
    with pytest.raises(TypeError, match="is not a tl dtype"):
        triton.reinterpret(np.zeros(4, np.int8), "not_a_type")


@triton.jit
def unsigned_ops(x_ptr, y_ptr, q_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask, other=1)
    tl.store(q_ptr + offs, x // y + (x >> 1), mask=mask)
    tl.store(c_ptr + offs, (x > y).to(tl.int8), mask=mask)


@pytest.mark.parametrize("ty,signed,unsigned", UNSIGNED, ids=lambda v: str(v))
def test_interpreter_reads_and_writes_unsigned_views_of_signed_arrays(ty, signed, unsigned,
                                                                      rng):
    n = 300
    info = np.iinfo(signed)
    x = rng.integers(info.min, info.max, n, dtype=signed, endpoint=True)
    y = rng.integers(info.min, info.max, n, dtype=signed, endpoint=True)
    y[y == 0] = 3
    q = np.full(n + 5, 99, dtype=signed)  # the tail must stay untouched
    c = np.full(n, -1, dtype=np.int8)
    interpreted(unsigned_ops)[(triton.cdiv(n, 128),)](
        reinterpret(x, ty), reinterpret(y, ty), reinterpret(q, ty), c, n, BLOCK=128)
    xu, yu = x.view(unsigned), y.view(unsigned)
    # Unsigned semantics: the signed values would compare and divide otherwise.
    expect_q = (xu // yu + (xu >> unsigned(1))).astype(unsigned)
    assert np.array_equal(q[:n].view(unsigned), expect_q)
    assert np.array_equal(c, (xu > yu).astype(np.int8))
    assert (q[n:] == 99).all()


def test_unsigned_views_compile_to_unsigned_operations():
    x = np.zeros(16, np.int32)
    text = unsigned_ops.ir(reinterpret(x, tl.uint32), reinterpret(x, tl.uint32),
                           reinterpret(x, tl.uint32), np.zeros(16, np.int8), 16, BLOCK=16)
    assert "arith.divui" in text and "arith.shrui" in text and "cmpi ugt" in text
    signed = unsigned_ops.ir(x, x, x, np.zeros(16, np.int8), 16, BLOCK=16)
    assert "arith.divsi" in signed and "cmpi sgt" in signed and "divui" not in signed


def _fp8_reference(bits: np.ndarray, name: str) -> np.ndarray:
    """float64 values of fp8 bit patterns, from the formats' definitions:
    e4m3fn (bias 7, no infinities, S.1111.111 is NaN) and e5m2 (bias 15,
    IEEE-like with infinities)."""
    b = bits.astype(np.int64) & 0xFF
    sign = np.where(b >> 7, -1.0, 1.0)
    if name == "fp8e4nv":
        e, m, mbits, bias = (b >> 3) & 0xF, b & 0x7, 3, 7
        special = (e == 15) & (m == 7)
        special_value = np.full(b.shape, np.nan)
    else:
        e, m, mbits, bias = (b >> 2) & 0x1F, b & 0x3, 2, 15
        special = e == 31
        special_value = np.where(m == 0, np.inf, np.nan)
    frac = m / float(1 << mbits)
    normal = (1.0 + frac) * np.exp2(e.astype(np.float64) - bias)
    subnormal = frac * 2.0 ** (1 - bias)
    value = sign * np.where(e == 0, subnormal, normal)
    return np.where(special, sign * special_value, value)


@triton.jit
def fp8_widen_and_copy(x_ptr, wide_ptr, copy_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(wide_ptr + offs, x.to(tl.float32), mask=mask)
    tl.store(copy_ptr + offs, x, mask=mask)


@pytest.mark.parametrize("ty", [tl.float8e4nv, tl.float8e5], ids=str)
def test_interpreter_reads_fp8_views_of_int8_arrays(ty):
    bits = np.arange(-128, 128, dtype=np.int8)  # every pattern
    wide = np.zeros(256, np.float32)
    copy = np.zeros(256, np.int8)
    interpreted(fp8_widen_and_copy)[(1,)](reinterpret(bits, ty), wide,
                                          reinterpret(copy, ty), 256, BLOCK=256)
    expect = _fp8_reference(bits.view(np.uint8), ty.name)
    np.testing.assert_array_equal(wide.astype(np.float64), expect)
    finite = ~np.isnan(expect)
    assert np.array_equal(copy[finite], bits[finite])  # bytes round-trip


def test_fp8_views_compile_to_fp8_pointers():
    bits = np.zeros(16, np.int8)
    text = fp8_widen_and_copy.ir(reinterpret(bits, tl.float8e4nv), np.zeros(16, np.float32),
                                 reinterpret(bits, tl.float8e4nv), 16, BLOCK=16)
    assert "!tile.ptr<f8E4M3FN>" in text
    text = fp8_widen_and_copy.ir(reinterpret(bits, tl.float8e5), np.zeros(16, np.float32),
                                 reinterpret(bits, tl.float8e5), 16, BLOCK=16)
    assert "!tile.ptr<f8E5M2>" in text


class FakeTensor:
    """Looks like a CUDA tensor to the dispatcher (data_ptr, dtype, shape)."""

    def __init__(self, address, dtype="int32", shape=(16,)):
        self.address, self.dtype, self.shape = address, dtype, shape

    def data_ptr(self):
        return self.address


@needs_extension
@pytest.mark.parametrize("ty", [tl.uint8, tl.uint16, tl.uint32, tl.uint64, tl.float8e4nv,
                                tl.float8e5, tl.bfloat16], ids=str)
def test_dispatcher_keys_wrappers_by_their_element_type(ty, monkeypatch):
    monkeypatch.setenv("TERRAZZO_DRY_LAUNCH", "1")
    k = triton.jit(fp8_widen_and_copy.fn)
    x = reinterpret(FakeTensor(1 << 20, "int8"), ty)
    c = reinterpret(FakeTensor(3 << 20, "int8"), ty)
    wide = FakeTensor(2 << 20, "float32")
    kern = k[(1,)](x, wide, c, 10, BLOCK=16)
    assert kern.last_launch()["args"] == (1 << 20, 2 << 20, 3 << 20, 10)
    key = k._dispatcher.key_for((x, wide, c, 10), {"BLOCK": 16})
    # The fakes have no storage to ask: not known to fit in 2^31 bytes.
    assert key[0] == ("p", ty.name, True, False) and key[2] == ("p", ty.name, True, False)
    assert key == k.key_for(x, wide, c, 10, BLOCK=16)  # one key, in C++ and Python
    # The wrapped base's own type is another kernel.
    k[(1,)](FakeTensor(1 << 20, "int8"), wide, FakeTensor(3 << 20, "int8"), 10, BLOCK=16)
    assert k._dispatcher.cache_size() == 2


@needs_extension
def test_mock_tensor_warms_up_a_kernel(monkeypatch):
    monkeypatch.setenv("TERRAZZO_DRY_LAUNCH", "1")
    k = triton.jit(fp8_widen_and_copy.fn)
    kern = k.warmup(MockTensor("float16"), MockTensor("float32"), MockTensor("float16"), 10,
                    BLOCK=16, grid=(1,))
    assert kern.signature == "pppi"
    assert triton.MockTensor.wrap_dtype(3) == 3


@pytest.mark.gpu
@pytest.mark.parametrize("ty,signed,unsigned", UNSIGNED, ids=lambda v: str(v))
def test_gpu_unsigned_views_of_torch_tensors(torch_cuda, ty, signed, unsigned, rng):
    torch = torch_cuda
    n = 1000
    info = np.iinfo(signed)
    x = rng.integers(info.min, info.max, n, dtype=signed, endpoint=True)
    y = rng.integers(info.min, info.max, n, dtype=signed, endpoint=True)
    y[y == 0] = 3
    tx, ty_ = torch.from_numpy(x).cuda(), torch.from_numpy(y).cuda()
    tq = torch.full((n,), 99, dtype=tx.dtype, device="cuda")
    tc = torch.full((n,), -1, dtype=torch.int8, device="cuda")
    k = triton.jit(unsigned_ops.fn)
    k[(triton.cdiv(n, 256),)](reinterpret(tx, ty), reinterpret(ty_, ty), reinterpret(tq, ty),
                              tc, n, BLOCK=256)
    torch.cuda.synchronize()
    xu, yu = x.view(unsigned), y.view(unsigned)
    expect_q = (xu // yu + (xu >> unsigned(1))).astype(unsigned)
    assert np.array_equal(tq.cpu().numpy().view(unsigned), expect_q)
    assert np.array_equal(tc.cpu().numpy(), (xu > yu).astype(np.int8))


@pytest.mark.gpu
@pytest.mark.parametrize("ty", [tl.float8e4nv, tl.float8e5], ids=str)
def test_gpu_fp8_views_of_int8_tensors(torch_cuda, ty):
    torch = torch_cuda
    bits = np.arange(-128, 128, dtype=np.int8)
    tb = torch.from_numpy(bits).cuda()
    wide = torch.zeros(256, dtype=torch.float32, device="cuda")
    copy = torch.zeros(256, dtype=torch.int8, device="cuda")
    w = reinterpret(tb, ty)
    assert w.device == tb.device and w.to("cpu").base.device.type == "cpu"
    triton.jit(fp8_widen_and_copy.fn)[(1,)](w, wide, reinterpret(copy, ty), 256, BLOCK=256)
    torch.cuda.synchronize()
    expect = _fp8_reference(bits.view(np.uint8), ty.name)
    np.testing.assert_array_equal(wide.cpu().numpy().astype(np.float64), expect)
    finite = ~np.isnan(expect)
    assert np.array_equal(copy.cpu().numpy()[finite], bits[finite])


@pytest.mark.parametrize("device", ["cpu", "cuda"])
def test_interpreter_reads_views_of_torch_tensors(device, rng):
    torch = pytest.importorskip("torch")
    if device == "cuda" and not torch.cuda.is_available():
        pytest.skip("torch has no CUDA device")
    n = 200
    x = rng.integers(-2**31, 2**31 - 1, n, dtype=np.int32, endpoint=True)
    y = rng.integers(-2**31, 2**31 - 1, n, dtype=np.int32, endpoint=True)
    y[y == 0] = 5
    tx, ty_ = torch.from_numpy(x).to(device), torch.from_numpy(y).to(device)
    tq = torch.zeros(n, dtype=torch.int32, device=device)
    tc = torch.zeros(n, dtype=torch.int8, device=device)
    interpreted(unsigned_ops)[(2,)](reinterpret(tx, tl.uint32), reinterpret(ty_, tl.uint32),
                                    reinterpret(tq, tl.uint32), tc, n, BLOCK=128)
    xu, yu = x.view(np.uint32), y.view(np.uint32)
    assert np.array_equal(tq.cpu().numpy().view(np.uint32),
                          (xu // yu + (xu >> np.uint32(1))).astype(np.uint32))
    assert np.array_equal(tc.cpu().numpy(), (xu > yu).astype(np.int8))


# ---------------------------------------------------------------------------
# triton.runtime.driver.active
# ---------------------------------------------------------------------------

from terrazzo.runtime import driver as driver_module  # noqa: E402


@pytest.fixture
def fresh_driver():
    driver_module.reset_active()
    yield driver_module
    driver_module.reset_active()


def test_active_driver_is_reachable_as_in_triton(fresh_driver):
    assert triton.runtime.driver.active.get_current_target() is not None
    from terrazzo.runtime import driver
    assert driver.active.get_current_target() == \
        triton.runtime.driver.active.get_current_target()


def test_interpreter_driver_without_a_gpu(fresh_driver, monkeypatch):
    fresh_driver.set_active(fresh_driver.InterpreterDriver())
    d = fresh_driver.active
    target = d.get_current_target()
    assert (target.backend, target.arch, target.warp_size) == ("interpreter", 0, 32)
    assert d.get_current_device() == 0 and d.get_current_stream() == 0
    assert str(d.get_active_torch_device()) == "cpu"
    with pytest.raises(RuntimeError, match="no GPU here .* kernels run in the interpreter"):
        d.utils.get_device_properties(0)


class FakeRuntime:
    """Stands for the extension's runtime queries (runtime::DeviceProperties
    of device i: i * 1000 + a field's number; the current device: 1)."""

    def __init__(self, arch=(9, 0), sm_count=None):
        self.asked = []
        self.arch, self.sm_count = arch, sm_count
        self.current = 1

    def device_properties(self, ordinal):
        self.asked.append(ordinal)
        return {"name": "fake", "compute_capability": self.arch,
                "multiprocessor_count": self.sm_count or 1000 * ordinal + 1,
                "max_threads_per_block": 1024, "warp_size": 1000 * ordinal + 2,
                "max_shared_memory_per_block": 49152,
                "max_shared_memory_per_block_optin": 1000 * ordinal + 3,
                "max_registers_per_block": 1000 * ordinal + 4,
                "max_threads_per_multiprocessor": 1000 * ordinal + 5,
                "clock_rate_khz": 1000 * ordinal + 6,
                "memory_clock_rate_khz": 1000 * ordinal + 7,
                "memory_bus_width_bits": 1000 * ordinal + 8, "total_memory": 1}

    def current_device(self):
        return self.current

    def set_current_device(self, ordinal):
        self.current = ordinal


def _fake_devices(driver_module, monkeypatch, runtime):
    monkeypatch.setattr(driver_module, "get_C", lambda required=True: runtime)
    monkeypatch.setattr(driver_module, "_torch_cuda", lambda: None)


def test_device_properties_read_the_attributes_triton_reports(fresh_driver, monkeypatch):
    runtime = FakeRuntime()
    _fake_devices(fresh_driver, monkeypatch, runtime)
    d = fresh_driver.CudaDriver()
    fresh_driver.set_active(d)
    props = d.utils.get_device_properties(2)
    # Every property from the runtime's query of device 2, under Triton's keys.
    assert props == {"max_shared_mem": 2003, "max_num_regs": 2004,
                     "multiprocessor_count": 2001, "warpSize": 2002,
                     "sm_clock_rate": 2006, "mem_clock_rate": 2007, "mem_bus_width": 2008,
                     "max_threads_per_sm": 2005}
    assert runtime.asked == [2]
    # Devices named as Triton's callers do; None is the current device.
    assert d.utils.get_device_properties("cuda:2") == props
    assert d.get_current_device() == 1
    assert d.utils.get_device_properties(None)["warpSize"] == 1002
    d.set_current_device(3)
    assert d.get_current_device() == 3 and runtime.current == 3
    d.utils.get_device_properties(2)
    assert runtime.asked == [2, 1]  # asked once per device


def test_cuda_driver_target_follows_terrazzo_target(fresh_driver, monkeypatch):
    monkeypatch.setenv("TERRAZZO_TARGET", "cuda:80")
    t = fresh_driver.CudaDriver().get_current_target()
    assert (t.backend, t.arch, t.warp_size) == ("cuda", 80, 32)
    assert isinstance(t.arch, int)


@pytest.mark.gpu
def test_gpu_driver_answers_like_torch(torch_cuda, fresh_driver):
    torch = torch_cuda
    d = triton.runtime.driver.active
    major, minor = torch.cuda.get_device_capability()
    t = d.get_current_target()
    assert (t.backend, t.arch, t.warp_size) == ("cuda", major * 10 + minor, 32)
    dev = d.get_active_torch_device()
    assert dev == torch.device("cuda", torch.cuda.current_device())
    assert d.get_current_device() == torch.cuda.current_device()
    assert d.get_current_stream() == torch.cuda.current_stream().cuda_stream
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        assert d.get_current_stream() == s.cuda_stream
    p = torch.cuda.get_device_properties(dev)
    props = d.utils.get_device_properties(dev.index)
    assert props["multiprocessor_count"] == p.multi_processor_count
    assert props["warpSize"] == 32
    assert props["max_num_regs"] == getattr(p, "regs_per_multiprocessor", 65536)
    if hasattr(p, "shared_memory_per_block_optin"):
        assert props["max_shared_mem"] == p.shared_memory_per_block_optin
    assert props["sm_clock_rate"] > 100000 and props["mem_clock_rate"] > 100000
    # Bits, a multiple of 64 (an H200 reports 6016).
    assert 64 <= props["mem_bus_width"] <= 16384 and props["mem_bus_width"] % 64 == 0
    assert d.get_device_interface() is torch.cuda
    cache = d.get_empty_cache_for_benchmark()
    assert cache.numel() * cache.element_size() == 256 * 1024 * 1024


# ---------------------------------------------------------------------------
# Parameters named like launch options
# ---------------------------------------------------------------------------

@triton.jit
def rows_times_stages(out_ptr, n, BLOCK: tl.constexpr, num_stages: tl.constexpr,
                      num_warps: tl.constexpr):
    # As in Triton's tutorial 02: `num_stages` is a parameter (used by the
    # loop) and a launch option.
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.int32)
    for i in tl.range(0, n, num_stages=num_stages):
        acc += i
    tl.store(out_ptr + offs, acc * num_stages + num_warps)


def _expect_rows(n, stages, warps, block=16):
    return np.full(block, sum(range(n)) * stages + warps, dtype=np.int32)


def test_option_named_parameters_in_the_interpreter():
    out = np.zeros(16, np.int32)
    k = interpreted(rows_times_stages)
    k[(1,)](out, 5, 16, 3, 2)  # positional: the parameters
    np.testing.assert_array_equal(out, _expect_rows(5, 3, 2))
    k[(1,)](out, 7, BLOCK=16, num_stages=4, num_warps=8)  # keywords: both
    np.testing.assert_array_equal(out, _expect_rows(7, 4, 8))
    seen = {}

    def grid(meta):
        seen.update(meta)
        return (1,)
    k[grid](out, 2, 16, num_stages=1, num_warps=1)
    assert seen["num_stages"] == 1 and seen["num_warps"] == 1 and seen["BLOCK"] == 16
    np.testing.assert_array_equal(out, _expect_rows(2, 1, 1))


def test_option_named_parameters_in_the_ir():
    text = rows_times_stages.ir(np.zeros(16, np.int32), 5, BLOCK=16, num_stages=3, num_warps=2)
    assert "arith.constant dense<3> : tensor<16xi32>" in text  # num_stages
    assert "arith.constant dense<2> : tensor<16xi32>" in text  # num_warps
    key = rows_times_stages.key_for(np.zeros(16, np.int32), 5, BLOCK=16, num_stages=3,
                                    num_warps=2)
    assert key[-1] == (2, 3)  # the launch options too


@needs_extension
def test_option_named_parameters_through_the_dispatcher(monkeypatch):
    monkeypatch.setenv("TERRAZZO_DRY_LAUNCH", "1")
    k = triton.jit(rows_times_stages.fn)
    out = FakeTensor(1 << 20)
    # Keywords give the parameters and the launch options (8 warps).
    kern = k[(1,)](out, 5, BLOCK=16, num_stages=2, num_warps=8)
    assert kern.threads_per_block == 256
    key = k._dispatcher.key_for((out, 5), {"BLOCK": 16, "num_stages (parameter)": 2,
                                           "num_warps (parameter)": 8, "num_stages": 2,
                                           "num_warps": 8})
    assert 2 in key and 8 in key and tuple(key[-1]) == (8, 2)
    # Positional values give the parameters only (default 4 warps).
    kern2 = k[(1,)](out, 5, 16, 2, 8)
    assert kern2.threads_per_block == 128 and kern2 is not kern
    seen = {}

    def grid(meta):
        seen.update(meta)
        return (3,)
    kern3 = k[grid](out, 5, 16, num_stages=1, num_warps=2)
    assert seen == {"out_ptr": out, "n": 5, "BLOCK": 16, "num_stages": 1, "num_warps": 2}
    assert kern3.last_launch()["grid"] == (3, 1, 1) and kern3.threads_per_block == 64
    warm = k.warmup(out, 5, BLOCK=16, num_stages=3, num_warps=2, grid=(1,))
    assert warm.threads_per_block == 64 and warm.signature == "pi"
    assert (warm.metadata.num_warps, warm.metadata.num_stages) == (2, 3)
    assert warm.metadata.shared == warm.shared_memory_bytes
    assert isinstance(warm.asm["cubin"], bytes) and warm.n_regs is None
    # As in Triton's tutorial 02: the compiled kernel launched with every
    # parameter positional runs with its own launch options.
    launched = warm[(4, 1, 1)](out, 5, 16, 3, 2)
    assert launched.threads_per_block == 64 and launched.last_launch()["grid"] == (4, 1, 1)
    with pytest.raises(TypeError, match="num_warps"):
        k[(1,)](out, 5, 16, 3)


@pytest.mark.gpu
def test_gpu_compiled_kernel_reports_registers(torch_cuda):
    torch = torch_cuda
    out = torch.zeros(16, dtype=torch.int32, device="cuda")
    k = triton.jit(rows_times_stages.fn)
    warm = k.warmup(out, 9, BLOCK=16, num_stages=2, num_warps=1, grid=(1,))
    warm._init_handles()
    assert 8 <= warm.n_regs <= 255 and warm.n_spills == 0 and warm.n_max_threads >= 32
    warm[(1, 1, 1)](out, 9, 16, 2, 1)
    torch.cuda.synchronize()
    np.testing.assert_array_equal(out.cpu().numpy(), _expect_rows(9, 2, 1))


@pytest.mark.gpu
def test_gpu_option_named_parameters(torch_cuda):
    torch = torch_cuda
    out = torch.zeros(16, dtype=torch.int32, device="cuda")
    k = triton.jit(rows_times_stages.fn)
    k[(1,)](out, 9, BLOCK=16, num_stages=3, num_warps=4)
    torch.cuda.synchronize()
    np.testing.assert_array_equal(out.cpu().numpy(), _expect_rows(9, 3, 4))
    k[(1,)](out, 6, 16, 2, 1)
    torch.cuda.synchronize()
    np.testing.assert_array_equal(out.cpu().numpy(), _expect_rows(6, 2, 1))


# ---------------------------------------------------------------------------
# terrazzo.testing
# ---------------------------------------------------------------------------

def test_under_triton_names_a_helper_left_out(tmp_path):
    kernel = _kernel_from_source(
        "import terrazzo as triton\nimport terrazzo.language as tl\n\n"
        "@triton.jit\ndef helper(x):\n    return x + 1\n\n"
        "@triton.jit\ndef kernel(p):\n    tl.store(p, helper(tl.load(p)))\n",
        "kernel", tmp_path)
    with pytest.raises(ValueError, match="kernel calls helper, which is not among"):
        triton.testing.under_triton(kernel, name="left_out")
    helper = kernel.fn.__globals__["helper"]
    # Given, the check passes: the module (or None without Triton) comes back.
    module = triton.testing.under_triton(helper, kernel, name="given")
    assert module is None or hasattr(module, "kernel")


# Each tutorial's kernels under the real Triton, for its benchmark: the
# function that builds them, called with no arguments.
_UNDER_TRITON = [("01-vector-add.py", "triton_add"), ("02-fused-softmax.py", "triton_softmax"),
                 ("03-matrix-multiplication.py", "triton_matmul"),
                 ("05-layer-norm.py", "triton_forward"),
                 ("06-fused-attention.py", "triton_kernels"),
                 ("08-grouped-gemm.py", "_triton_module"),
                 ("09-persistent-matmul.py", "triton_matmuls")]


@pytest.mark.parametrize("path,builder", _UNDER_TRITON, ids=[p for p, _ in _UNDER_TRITON])
def test_tutorials_give_triton_every_helper(path, builder):
    import importlib.util
    from pathlib import Path
    tutorial = Path(__file__).resolve().parents[2] / "tutorials" / path
    spec = importlib.util.spec_from_file_location("under_triton_" + tutorial.stem[3:].replace(
        "-", "_"), tutorial)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    getattr(module, builder)()  # raises ValueError where a helper is left out


def test_perf_report_prints_saves_and_returns_tables(tmp_path, capsys):
    calls = []

    @triton.testing.perf_report([
        triton.testing.Benchmark(x_names=["N"], x_vals=[2, 8], line_arg="provider",
                                 line_vals=["a", "b"], line_names=["A", "B"],
                                 plot_name="bench-one", args={"scale": 10}),
        triton.testing.Benchmark(x_names=["M", "K"], x_vals=[(1, 2), 3], line_arg="p",
                                 line_vals=[1], line_names=["P"], plot_name="bench-two"),
    ])
    def bench(provider=None, p=None, N=None, M=None, K=None, scale=1, extra=0):
        calls.append((provider, p, N, M, K, scale, extra))
        if p is not None:
            return (M * 100 + K + extra, 0.0, 1.0)  # value, min, max
        return N * scale + (provider == "b")

    assert isinstance(bench, triton.testing.Mark)
    frames = bench.run(print_data=True, save_path=str(tmp_path), return_df=True, extra=5)
    out = capsys.readouterr().out
    assert "bench-one:" in out and "bench-two:" in out
    lines = out.splitlines()
    one = lines[lines.index("bench-one:") + 1:lines.index("bench-one:") + 4]
    assert one[0].split() == ["N", "A", "B"]
    assert one[1].split() == ["2", "20", "21"] and one[2].split() == ["8", "80", "81"]
    two = lines[lines.index("bench-two:") + 1:]
    assert two[0].split() == ["M", "K", "P"]
    assert two[1].split() == ["1", "2", "107"] and two[2].split() == ["3", "3", "308"]
    assert (tmp_path / "bench-one.csv").read_text().splitlines() == ["N,A,B", "2,20,21",
                                                                      "8,80,81"]
    assert (tmp_path / "bench-two.csv").exists()
    assert len(frames) == 2
    assert ("b", None, 8, None, None, 10, 5) in calls
    assert bench.run() is None  # nothing printed, nothing returned
    assert capsys.readouterr().out == ""


class _StandInPyplot:
    """Enough of matplotlib.pyplot for perf_report: records what is drawn;
    savefig writes a file."""

    def __init__(self):
        self.lines, self.shaded, self.saved, self.shown, self.closed = [], [], [], 0, 0
        self.axes = {}

    def subplots(self):
        plt = self

        class Axes:
            def plot(self, xs, ys, label=None, **style):
                plt.lines.append((label, list(xs), list(ys), style))

            def fill_between(self, xs, lo, hi, **style):
                plt.shaded.append((list(xs), list(lo), list(hi)))

            def __getattr__(self, name):  # legend, set_xlabel, set_yscale, ...
                return lambda *args, **kwargs: plt.axes.setdefault(name, args)

        class Figure:
            def savefig(self, path):
                plt.saved.append(path)
                with open(path, "wb") as f:
                    f.write(b"\x89PNG stand-in")

        return Figure(), Axes()

    def show(self):
        self.shown += 1

    def close(self, fig):
        self.closed += 1


def test_perf_report_writes_a_plot_beside_the_table(tmp_path, capsys, monkeypatch):
    import sys
    import types
    matplotlib = types.ModuleType("matplotlib")
    backends = []
    matplotlib.use = backends.append
    pyplot = _StandInPyplot()
    matplotlib.pyplot = pyplot
    monkeypatch.setitem(sys.modules, "matplotlib", matplotlib)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", pyplot)

    @triton.testing.perf_report(triton.testing.Benchmark(
        x_names=["size"], x_vals=[16, 32, 64], line_arg="provider", line_vals=["a", "b"],
        line_names=["A", "B"], plot_name="copy (GB/s)", xlabel="elements", ylabel="GB/s",
        x_log=True, styles=[("red", "-"), ("blue", "--")]))
    def bench(size, provider):
        return (size * 2, size, size * 3) if provider == "a" else size + 1

    bench.run(print_data=True, save_path=str(tmp_path / "out"))
    png = tmp_path / "out" / "copy_GB_s.png"
    csv = tmp_path / "out" / "copy_GB_s.csv"
    assert png.read_bytes().startswith(b"\x89PNG") and csv.exists()
    assert f"wrote {csv} and {png}" in capsys.readouterr().out
    assert backends == ["Agg"] and pyplot.saved == [str(png)] and pyplot.shown == 0
    assert pyplot.lines == [("A", [16, 32, 64], [32, 64, 128], {"color": "red", "ls": "-"}),
                            ("B", [16, 32, 64], [17, 33, 65], {"color": "blue", "ls": "--"})]
    assert pyplot.shaded == [([16, 32, 64], [16, 32, 64], [48, 96, 192])]  # A's min..max
    assert pyplot.axes["set_xlabel"] == ("elements",) and pyplot.axes["set_ylabel"] == ("GB/s",)
    assert pyplot.axes["set_xscale"] == ("log",) and "set_yscale" not in pyplot.axes
    assert pyplot.closed == 1

    bench.run(show_plots=True)  # shown, nothing written, the display backend kept
    assert pyplot.shown == 1 and backends == ["Agg"] and len(pyplot.saved) == 1

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # not installed
    monkeypatch.delitem(sys.modules, "matplotlib.pyplot")
    bench.run(print_data=True, save_path=str(tmp_path / "bare"))
    out = capsys.readouterr().out
    assert "(no plot: matplotlib is not installed)" in out
    assert f"wrote {tmp_path / 'bare' / 'copy_GB_s.csv'}\n" in out
    assert not (tmp_path / "bare" / "copy_GB_s.png").exists()


def test_do_bench_on_the_cpu():
    import time
    ms = triton.testing.do_bench(lambda: time.sleep(0.002), warmup=5, rep=20)
    assert 1.5 < ms < 50
    q = triton.testing.do_bench(lambda: None, warmup=1, rep=2, quantiles=[0.2, 0.8])
    assert len(q) == 2 and q[0] <= q[1]
    triton.testing.assert_close(np.array([1.0, 2.0]), np.array([1.0, 2.005]))
    with pytest.raises(AssertionError):
        triton.testing.assert_close(np.array([1.0]), np.array([1.5]))


def test_device_peaks_from_the_device_properties(fresh_driver, monkeypatch):
    # An H100 SXM: 132 SMs, 1830 MHz, 2619 MHz HBM3 on a 5120-bit bus.
    class FakeH100(FakeRuntime):
        def device_properties(self, ordinal):
            props = super().device_properties(ordinal)
            props.update(clock_rate_khz=1830000, memory_clock_rate_khz=2619000,
                         memory_bus_width_bits=5120)
            return props

    _fake_devices(fresh_driver, monkeypatch, FakeH100(arch=(9, 0), sm_count=132))
    fresh_driver.set_active(fresh_driver.CudaDriver())
    assert fresh_driver.device_arch(0) == 90
    assert math.isclose(triton.testing.get_dram_gbps(0), 3352.32, rel_tol=1e-6)
    tc = triton.testing.get_max_tensorcore_tflops("float16", 1830000, 0)
    assert math.isclose(tc, 989.4, rel_tol=2e-3)  # NVIDIA's dense fp16 figure
    assert math.isclose(triton.testing.get_max_tensorcore_tflops(tl.float8e4nv, 1830000, 0),
                        2 * tc)
    fp32 = triton.testing.get_max_simd_tflops("float32", 1830000, 0)
    assert math.isclose(fp32, 61.8, rel_tol=5e-3)  # 128 lanes x 132 SMs x 2 x 1.83 GHz
    with pytest.raises(RuntimeError, match="no tensor-core peak"):
        triton.testing.get_max_tensorcore_tflops("int1", 1830000, 0)


@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


@pytest.mark.gpu
def test_gpu_do_bench_and_cudagraph(torch_cuda):
    torch = torch_cuda
    n = 1 << 24
    x = torch.randn(n, device="cuda")
    y = torch.empty_like(x)

    def copy():
        copy_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
    ms = triton.testing.do_bench(copy)
    g = triton.testing.do_bench_cudagraph(copy)  # the kernel launched from a graph
    # 128 MiB read and written: between 0.03 ms (faster than any HBM) and 10 ms.
    assert 0.03 < g < 10 and 0.03 < ms < 10
    assert len(triton.testing.do_bench_cudagraph(copy, return_mode="all")) == 10
    assert torch.equal(x, y)


def test_interpreter_copy_kernel(rng):
    # test_gpu_do_bench_and_cudagraph's kernel at its arguments,
    # in the interpreter: checked here without a GPU, and
    # (TERRAZZO_AMD_LAUNCHES) compiled at that key for the AMD targets.
    # Its first two blocks of the 2^24 elements.
    n = 1 << 24
    x = np.zeros(n, np.float32)
    x[:4096] = rng.standard_normal(4096)
    y = np.zeros(n, np.float32)
    y[:4096] = np.nan
    interpreted(copy_kernel)[(2,)](x, y, n, BLOCK=1024)
    np.testing.assert_array_equal(y[:2048], x[:2048])
    assert np.isnan(y[2048:4096]).all()


# ---------------------------------------------------------------------------
# constexpr_function and must_use_result
# ---------------------------------------------------------------------------

@triton.constexpr_function
def block_for(n, minimum=16):
    return max(triton.next_power_of_2(n), minimum)


@triton.jit
def fill_block(out_ptr, N: tl.constexpr):
    BLOCK: tl.constexpr = block_for(N)
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, offs * 2 + block_for(N, minimum=N * 4), mask=offs < N)


def test_constexpr_function_from_python_and_kernels():
    assert block_for(5) == 16 and block_for(40) == 64 and block_for(3, minimum=2) == 4
    assert block_for(tl.constexpr(40)) == 64  # constexprs are unwrapped
    out = np.full(40, -1, np.int32)
    interpreted(fill_block)[(1,)](out, N=37)
    np.testing.assert_array_equal(out[:37], np.arange(37) * 2 + 148)
    assert (out[37:] == -1).all()
    text = fill_block.ir(np.zeros(64, np.int32), N=37)
    assert "tile.make_range 0 to 64" in text and "dense<148>" in text


@triton.must_use_result("it has no side effect")
@triton.jit
def pure_add(a, b):
    return a + b


@triton.jit
def drops_result(x_ptr):
    pure_add(tl.load(x_ptr), 1.0)  # <-


@triton.jit
def uses_result(x_ptr):
    tl.store(x_ptr, pure_add(tl.load(x_ptr), 1.0))


def test_must_use_result():
    with pytest.raises(triton.CompilationError,
                       match=r"the result of pure_add\(\) must be used: it has no side effect"):
        drops_result.ir(np.zeros(1, np.float32))
    x = np.ones(1, np.float32)
    interpreted(uses_result)[(1,)](x)
    assert x[0] == 2.0

    def plain():
        return 1
    assert triton.must_use_result(plain) is plain and plain._must_use_result is True


@triton.jit
def which_target(out_ptr):
    if tl.target_info.cuda_capability_geq(9, 0):
        tl.store(out_ptr, 90)
    elif tl.target_info.is_cuda():
        tl.store(out_ptr, 1)
    elif tl.target_info.is_hip():
        tl.store(out_ptr, 2)
    else:
        tl.store(out_ptr, -1)


@pytest.mark.parametrize("target,expect", [("cuda:90", 90), ("cuda:80", 1), (None, -1)])
def test_target_info_answers_at_compile_time(fresh_driver, monkeypatch, target, expect):
    if target is None:  # a machine without a GPU
        fresh_driver.set_active(fresh_driver.InterpreterDriver())
    else:
        monkeypatch.setenv("TERRAZZO_TARGET", target)
        fresh_driver.set_active(fresh_driver.CudaDriver())
    out = np.zeros(1, np.int32)
    interpreted(which_target)[(1,)](out)
    assert out[0] == expect
    text = which_target.ir(out)
    assert f"arith.constant {expect} : i32" in text and "scf.if" not in text
    assert tl.target_info.is_cuda() == (target is not None)


def test_launch_returns_kernel_with_asm(monkeypatch):
    # As Triton's launches: the returned kernel has asm (cubin, and every
    # stage's text on demand), metadata and name. No GPU: a dry launch of a
    # pointer that claims to be in device memory.
    C = pytest.importorskip("terrazzo._C")
    monkeypatch.setenv("TERRAZZO_DRY_LAUNCH", "1")
    monkeypatch.setenv("TERRAZZO_TARGET", "cuda:90")

    class DevicePointer:
        __cuda_array_interface__ = {"shape": (100,), "typestr": "<f4",
                                    "data": (1 << 40, False), "version": 3}

    @triton.jit
    def scale(X, Y, N, BLOCK: tl.constexpr):
        o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(Y + o, tl.load(X + o, mask=o < N) * 2, mask=o < N)

    x = DevicePointer()
    handle = scale[(1,)](x, x, 100, BLOCK=128)
    assert isinstance(handle, C.Kernel)
    assert handle.name == "scale" and handle.metadata.num_warps == 4
    assert "ld.global" in handle.asm["ptx"] and "st.global" in handle.asm["ptx"]
    assert "tile.load" in handle.asm["tile"]
    assert handle.asm["cubin"] and "ptx" in handle.asm
    # Triton's stage names give Terrazzo's stages at the same level.
    assert handle.asm["ttgir"] == handle.asm["tilegpu"] and "ttir" in handle.asm
    with pytest.raises(KeyError, match="amdgcn"):
        handle.asm["amdgcn"]
    # The same kernel (and its asm) for every launch with the same key.
    assert scale[(1,)](x, x, 7, BLOCK=128) is handle


def test_extern_libs_launch_option_is_accepted():
    # Triton's tutorial 07 names libdevice's file at launch; Terrazzo links
    # its own libdevice and accepts the option.
    @triton.jit(interpret=True)
    def cube(x_ptr, y_ptr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs)
        tl.store(y_ptr + offs, x * x * x)

    x = np.random.default_rng().standard_normal(16).astype(np.float32)
    y = np.zeros_like(x)
    cube[(1,)](x, y, BLOCK=16, extern_libs={"libdevice": "/nowhere/libdevice.10.bc"})
    np.testing.assert_allclose(y, x.astype(np.float64) ** 3, rtol=1e-6)
