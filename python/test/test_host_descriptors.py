"""Host tensor descriptors (`triton.tools.tensor_descriptor.TensorDescriptor`)
passed as kernel arguments and used inside the kernel like descriptors from
`tl.make_tensor_descriptor`: blocks straddling every edge read zeros outside
the tensor and write nothing there. The interpreter against NumPy on fresh
random inputs; the specialisation key (Python and C++ alike), the tile IR,
the dry-run launch's packed arguments and the PTX (TMA on sm_90, pointer
accesses on sm_80); the same kernels on a GPU.
"""

from __future__ import annotations

import numpy as np
import pytest

import terrazzo as triton
import terrazzo.language as tl
from terrazzo import CompilationError, InterpreterError
from terrazzo.tools.tensor_descriptor import TensorDescriptor


@triton.jit
def scale_kernel(x_desc, y_desc, BM: tl.constexpr, BN: tl.constexpr):
    off_m = tl.program_id(0) * BM
    off_n = tl.program_id(1) * BN
    y_desc.store([off_m, off_n], x_desc.load([off_m, off_n]) * 2 + 1)


@triton.jit
def _load_twice(desc, off_m, off_n):
    # A host descriptor passed on to a device function.
    return desc.load([off_m, off_n]) + desc.load([off_m, off_n])


@triton.jit
def shape_of_block_kernel(x_desc, out_ptr):
    # The block shape and element type come from the descriptor.
    BM: tl.constexpr = x_desc.block_shape[0]
    BN: tl.constexpr = x_desc.block_shape[1]
    tl.static_assert(x_desc.dtype == out_ptr.dtype.element_ty)
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    block = _load_twice(x_desc, tl.program_id(0) * BM, 0)
    tl.store(out_ptr + (tl.program_id(0) * BM + rm)[:, None] * BN + rn[None, :], block)


@triton.jit
def matmul_kernel(a_desc, b_desc, c_desc, K, BM: tl.constexpr, BN: tl.constexpr,
                  BK: tl.constexpr):
    off_m = tl.program_id(0) * BM
    off_n = tl.program_id(1) * BN
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = a_desc.load([off_m, k * BK])
        b = b_desc.load([k * BK, off_n])
        acc = tl.dot(a, b, acc)
    c_desc.store([off_m, off_n], acc.to(c_desc.dtype))


@triton.jit
def rank1_kernel(x_desc, y_desc, BLOCK: tl.constexpr):
    off = tl.program_id(0) * BLOCK
    y_desc.store([off], x_desc.load([off]) - 3)


@triton.jit
def rank3_kernel(x_desc, y_desc):
    BA: tl.constexpr = x_desc.block_shape[0]
    off = tl.program_id(0) * BA
    y_desc.store([off, 0, 0], x_desc.load([off, 0, 0]) + 1)


@triton.jit
def tuple_scale_kernel(descs, scale, BM: tl.constexpr, BN: tl.constexpr):
    # (x descriptor, (y descriptor, a bias)): descriptors inside a tuple.
    off_m = tl.program_id(0) * BM
    off_n = tl.program_id(1) * BN
    x_desc = descs[0]
    y_desc, bias = descs[1]
    y_desc.store([off_m, off_n], x_desc.load([off_m, off_n]) * scale + bias)


@triton.aggregate
class DescPair:
    """Two host descriptors and a compile-time flag, as one argument."""
    src: tl.tensor_descriptor
    dst: tl.tensor_descriptor
    NEGATE: tl.constexpr

    @triton.jit
    def copy(self, off_m, off_n):
        block = self.src.load([off_m, off_n])
        if self.NEGATE:
            block = -block
        self.dst.store([off_m, off_n], block)


@triton.jit
def aggregate_copy_kernel(pair, BM: tl.constexpr, BN: tl.constexpr):
    pair.copy(tl.program_id(0) * BM, tl.program_id(1) * BN)


def interp(kernel):
    return triton.jit(kernel.fn, interpret=True)


def padded(rng, m, n, dtype=np.float32, pad=3):
    """An m x n view of an m x (n + pad) array (rows padded to 16 bytes)."""
    itemsize = np.dtype(dtype).itemsize
    width = n + pad
    width += -width % (16 // itemsize)
    full = rng.standard_normal((m, width)).astype(dtype)
    return full, width


# ---------------------------------------------------------------------------
# The host object
# ---------------------------------------------------------------------------

def test_from_tensor_and_fields():
    x = np.zeros((8, 32), np.float32)
    d = TensorDescriptor.from_tensor(x, [4, 16])
    assert d.base is x and list(d.shape) == [8, 32] and list(d.strides) == [32, 1]
    assert d.block_shape == [4, 16] and d.padding == "zero"
    d = TensorDescriptor(x, shape=[8, 32], strides=[32, 1], block_shape=[2, 8], padding="nan")
    assert d.padding == "nan"


@pytest.mark.parametrize("args,message", [
    (([8, 32], [32, 1], [4]), "one value per dimension"),
    (([8, 32], [32], [4, 16]), "one value per dimension"),
    (([8, 32], [32, 1], [3, 16]), "powers of two"),
    (([8, 32], [1, 8], [4, 16]), "last stride must be 1"),
    (([8, 32], [33, 1], [4, 16]), "multiples of 16 bytes"),
    (([], [], []), "rank must be 1 to 5"),
])
def test_host_object_errors(args, message):
    x = np.zeros((8, 33), np.float32)
    with pytest.raises(ValueError, match=message):
        TensorDescriptor(x, *args)
    with pytest.raises(ValueError, match="padding must be 'zero' or 'nan'"):
        TensorDescriptor(x, [8, 32], [32, 1], [4, 16], padding="inf")


def test_misaligned_torch_base_is_refused():
    torch = pytest.importorskip("torch")
    t = torch.zeros(64, dtype=torch.float32)
    with pytest.raises(ValueError, match="16-byte aligned"):
        TensorDescriptor(t[1:], [32], [1], [16])


# ---------------------------------------------------------------------------
# Interpreter
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("m,n,bm,bn", [(37, 45, 16, 32), (64, 64, 32, 32), (5, 130, 8, 64),
                                       (1, 17, 2, 16)])
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_interpreter_scale_with_tails(rng, m, n, bm, bn, dtype):
    x, width = padded(rng, m, n, dtype)
    y = np.full((m, width), np.nan, dtype)
    xd = TensorDescriptor(x, [m, n], [width, 1], [bm, bn])
    yd = TensorDescriptor(y, [m, n], [width, 1], [bm, bn])
    interp(scale_kernel)[(triton.cdiv(m, bm), triton.cdiv(n, bn))](xd, yd, BM=bm, BN=bn)
    want = (x[:, :n].astype(np.float64) * 2 + 1).astype(dtype)
    np.testing.assert_array_equal(y[:, :n], want)
    assert np.isnan(y[:, n:]).all(), "columns past the tensor's shape were written"


@pytest.mark.parametrize("offset", [(-3, -16), (30, 32), (-20, 0)])
def test_interpreter_blocks_outside_read_zero(rng, offset):
    # One program whose block straddles the edges: the descriptor's shape is
    # smaller than the array, so what lies outside reads as zero.
    @triton.jit(interpret=True)
    def read_block(x_desc, out_ptr, off_m, off_n, BM: tl.constexpr, BN: tl.constexpr):
        block = x_desc.load([off_m, off_n])
        rm = tl.arange(0, BM)
        rn = tl.arange(0, BN)
        tl.store(out_ptr + rm[:, None] * BN + rn[None, :], block)

    m, n, bm, bn = 37, 45, 16, 32
    x, width = padded(rng, m, n)
    out = np.full((bm, bn), np.nan, np.float32)
    read_block[(1,)](TensorDescriptor(x, [m, n], [width, 1], [bm, bn]), out, *offset,
                     BM=bm, BN=bn)
    want = np.zeros((bm, bn), np.float32)
    for i in range(bm):
        for j in range(bn):
            r, c = offset[0] + i, offset[1] + j
            if 0 <= r < m and 0 <= c < n:
                want[i, j] = x[r, c]
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("m,n,k", [(64, 64, 64), (37, 45, 70), (16, 80, 33)])
def test_interpreter_matmul(rng, m, n, k):
    bm, bn, bk = 16, 32, 16
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    # Rows padded to 16 bytes: the descriptors' strides.
    a_full = np.zeros((m, k + (-k % 8)), np.float16)
    b_full = np.zeros((k, n + (-n % 8)), np.float16)
    a_full[:, :k], b_full[:, :n] = a, b
    c = np.full((m, n + (-n % 4)), np.nan, np.float32)
    ad = TensorDescriptor(a_full, [m, k], [a_full.shape[1], 1], [bm, bk])
    bd = TensorDescriptor(b_full, [k, n], [b_full.shape[1], 1], [bk, bn])
    cd = TensorDescriptor(c, [m, n], [c.shape[1], 1], [bm, bn])
    interp(matmul_kernel)[(triton.cdiv(m, bm), triton.cdiv(n, bn))](ad, bd, cd, k, BM=bm,
                                                                      BN=bn, BK=bk)
    want = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(c[:, :n], want, rtol=1e-3, atol=1e-3)
    assert np.isnan(c[:, n:]).all()


def test_interpreter_block_shape_and_dtype_from_the_descriptor(rng):
    m, n = 24, 16
    x = rng.standard_normal((m, n)).astype(np.float32)
    out = np.full((m, n), np.nan, np.float32)
    interp(shape_of_block_kernel)[(3,)](TensorDescriptor.from_tensor(x, [8, 16]), out)
    np.testing.assert_array_equal(out, x * 2)


def test_interpreter_block_shape_may_change_between_launches(rng):
    # As an autotuner's pre_hook does (Triton's tutorial 06).
    m, n = 40, 48
    x, width = padded(rng, m, n, pad=0)
    y = np.full_like(x, np.nan)
    xd = TensorDescriptor(x, [m, n], [width, 1], [1, 1])
    yd = TensorDescriptor(y, [m, n], [width, 1], [1, 1])
    kernel = interp(scale_kernel)
    for bm, bn in [(8, 16), (32, 64)]:
        xd.block_shape = [bm, bn]
        yd.block_shape = [bm, bn]
        y.fill(np.nan)
        kernel[(triton.cdiv(m, bm), triton.cdiv(n, bn))](xd, yd, BM=bm, BN=bn)
        np.testing.assert_array_equal(y, x * 2 + 1)


def test_interpreter_rank1_and_rank3(rng):
    n = 1000
    x = rng.standard_normal(n).astype(np.float32)
    y = np.full(n + 8, np.nan, np.float32)
    interp(rank1_kernel)[(triton.cdiv(n, 128),)](TensorDescriptor(x, [n], [1], [128]),
                                                 TensorDescriptor(y, [n], [1], [128]),
                                                 BLOCK=128)
    np.testing.assert_array_equal(y[:n], x - 3)
    assert np.isnan(y[n:]).all()

    a, b, c = 7, 5, 12
    x3 = rng.standard_normal((a, b, c)).astype(np.float32)
    y3 = np.zeros_like(x3)
    interp(rank3_kernel)[(triton.cdiv(a, 2),)](TensorDescriptor.from_tensor(x3, [2, 8, 16]),
                                               TensorDescriptor.from_tensor(y3, [2, 8, 16]))
    np.testing.assert_array_equal(y3, x3 + 1)


def test_interpreter_torch_cpu_tensors(rng):
    torch = pytest.importorskip("torch")
    m, n = 33, 40
    x = torch.from_numpy(rng.standard_normal((m, n)).astype(np.float32))
    y = torch.full((m, n), float("nan"))
    interp(scale_kernel)[(triton.cdiv(m, 16), triton.cdiv(n, 32))](
        TensorDescriptor.from_tensor(x, [16, 32]), TensorDescriptor.from_tensor(y, [16, 32]),
        BM=16, BN=32)
    assert torch.equal(y, x * 2 + 1)


def test_interpreter_errors_name_the_argument(rng):
    x = np.zeros((16, 16), np.float32)
    # 4 x 2 float32 blocks: 8 bytes in the last dimension, fewer than 16.
    with pytest.raises(InterpreterError, match=r"argument 'x_desc' \(a TensorDescriptor\): "
                                               r".*at least 16 bytes"):
        interp(scale_kernel)[(1, 1)](TensorDescriptor(x, [16, 16], [16, 1], [4, 2]),
                                     TensorDescriptor(x, [16, 16], [16, 1], [4, 2]), BM=4, BN=2)
    with pytest.raises(InterpreterError, match=r"argument 'x_desc' .*padding_option='nan'"):
        interp(scale_kernel)[(1, 1)](TensorDescriptor(x, [16, 16], [16, 1], [4, 4], "nan"),
                                     TensorDescriptor(x, [16, 16], [16, 1], [4, 4]), BM=4, BN=4)


# ---------------------------------------------------------------------------
# Compile path: key, IR, dry-run launch, PTX
# ---------------------------------------------------------------------------

class FakeTensor:
    """Looks like a CUDA tensor to the dispatcher (data_ptr, dtype, element
    size)."""

    def __init__(self, address, dtype="float16", itemsize=2):
        self.address, self.dtype, self.itemsize = address, dtype, itemsize

    def data_ptr(self):
        return self.address

    def element_size(self):
        return self.itemsize


def _C_or_skip():
    from terrazzo.runtime import driver
    C = driver.get_C(required=False)
    if C is None:
        pytest.skip("terrazzo._C is not built")
    return C


def test_key_entry():
    x = np.zeros((64, 48), np.float32)
    xd = TensorDescriptor(x, [64, 40], [48, 1], [16, 32])
    key = scale_kernel.key_for(xd, xd, BM=16, BN=32)
    assert key[0] == ("tensordesc", ("p", "float32", x.ctypes.data % 16 == 0, True),
                      (("i", False, True, True), ("i", False, False, True)),
                      (("i", False, True, True), ("i", True, False, True)),
                      (16, 32), "zero")
    # Block shape, shape divisibility and padding are in the key.
    assert scale_kernel.key_for(TensorDescriptor(x, [64, 40], [48, 1], [32, 32]), xd,
                                BM=16, BN=32) != key
    assert scale_kernel.key_for(TensorDescriptor(x, [64, 48], [48, 1], [16, 32]), xd,
                                BM=16, BN=32) != key


def test_ir_takes_base_shape_and_strides(rng):
    x = np.zeros((64, 64), np.float32)
    xd = TensorDescriptor(x, [64, 45], [64, 1], [16, 32])
    text = scale_kernel.ir(xd, xd, BM=16, BN=32)
    assert text.count("tile.make_tensor_desc") == 2
    assert "-> !tile.tensordesc<tensor<16x32xf32>>" in text
    header = next(line for line in text.splitlines() if line.startswith("func.func"))
    # Per descriptor: a 16-byte aligned base (of a small array: its
    # offsets stay i32), two extents and two strides, the first of each
    # divisible by 16.
    assert header.count("!tile.ptr<f32> {tile.divisibility = 16 : i32, "
                        "tile.pointer_range = 32 : i32}") == 2
    assert header.count("i32 {tile.divisibility = 16 : i32, tile.nonnegative}") == 4
    assert header.count("i32 {tile.nonnegative}") == 2  # the extents 45
    kir = scale_kernel.ir_for_key(scale_kernel.key_for(xd, xd, BM=16, BN=32))
    assert kir.signature == "piiii" * 2


def test_dispatcher_key_matches_python_and_packs_the_parts(monkeypatch):
    C = _C_or_skip()
    monkeypatch.setenv("TERRAZZO_DRY_LAUNCH", "1")
    kernel = triton.jit(scale_kernel.fn)
    x = FakeTensor(0x10000)
    y = FakeTensor(0x20000)
    xd = TensorDescriptor(x, [100, 96], [96, 1], [64, 64])
    yd = TensorDescriptor(y, [100, 80], [128, 1], [64, 64])
    kernel._make_dispatcher()
    c_key = kernel._dispatcher.key_for((xd, yd), {"BM": 64, "BN": 64})
    py_key = kernel.key_for(xd, yd, BM=64, BN=64)
    assert c_key == py_key
    launched = kernel[(2, 2)](xd, yd, BM=64, BN=64)
    assert isinstance(launched, C.Kernel)
    assert launched.signature == "piiii" * 2
    assert launched.last_launch()["args"] == (0x10000, 100, 96, 96, 1, 0x20000, 100, 80, 128, 1)
    # Same key (50 and 100 are both neither 1 nor divisible by 16): the same
    # kernel, with the new extent; another block shape: another kernel.
    again = kernel[(2, 2)](TensorDescriptor(x, [50, 96], [96, 1], [64, 64]), yd,
                           BM=64, BN=64)
    assert again is launched and again.last_launch()["args"][1] == 50
    xd.block_shape = yd.block_shape = [32, 64]
    other = kernel[(4, 2)](xd, yd, BM=32, BN=64)
    assert other is not launched
    assert kernel._dispatcher.cache_size() >= 2


def test_dispatcher_errors_name_the_argument(monkeypatch):
    _C_or_skip()
    monkeypatch.setenv("TERRAZZO_DRY_LAUNCH", "1")
    kernel = triton.jit(scale_kernel.fn)
    x = FakeTensor(0x10000)
    good = TensorDescriptor(x, [64, 64], [64, 1], [64, 64])
    bad = TensorDescriptor(x, [64, 64], [64, 1], [64, 64])
    bad.block_shape = [64, 48]
    with pytest.raises(ValueError, match=r"argument 0 \('x_desc'\).*powers of two"):
        kernel[(1, 1)](bad, good, BM=64, BN=64)
    bad = TensorDescriptor(x, [64, 64], [64, 1], [64, 64])
    bad.shape = [64]
    with pytest.raises(ValueError, match=r"argument 1 \('y_desc'\).*one value per dimension"):
        kernel[(1, 1)](good, bad, BM=64, BN=64)
    bad = TensorDescriptor(x, [64, 64], [64, 1], [64, 64])
    bad.base = None
    with pytest.raises(TypeError, match=r"argument 0 \('x_desc'\).*base must be a tensor"):
        kernel[(1, 1)](bad, good, BM=64, BN=64)


def test_ptx_tma_on_sm90_and_pointers_on_sm80(tmp_path):
    _C_or_skip()
    x = np.zeros((128, 128), np.float16)
    xd = TensorDescriptor(x, [128, 128], [128, 1], [64, 64])
    ptx = scale_kernel.compile(xd, xd, BM=64, BN=64, stage="ptx", target="cuda:90")
    # A host descriptor's tensor map is built by the launcher from its
    # parts and passed by value (not built in the kernel).
    assert "cp.async.bulk.tensor" in ptx and "tensormap.replace" not in ptx
    assert ".param .align 128 .b8" in ptx and "cvta.param" in ptx
    ptx = scale_kernel.compile(xd, xd, BM=64, BN=64, stage="ptx", target="cuda:80")
    assert "cp.async.bulk.tensor" not in ptx and "ld.global" in ptx and "st.global" in ptx
    from conftest import assemble_ptx
    assemble_ptx(scale_kernel.compile(xd, xd, BM=64, BN=64, stage="ptx", target="cuda:90"))


def test_compile_errors_name_the_argument():
    _C_or_skip()
    x = np.zeros((16, 16), np.float32)
    xd = TensorDescriptor(x, [16, 16], [16, 1], [4, 2])
    with pytest.raises(CompilationError, match=r"argument 'x_desc' \(a TensorDescriptor\)"):
        scale_kernel.compile(xd, xd, BM=4, BN=2, stage="tile")


# ---------------------------------------------------------------------------
# Descriptors inside tuple and aggregate arguments
# ---------------------------------------------------------------------------

def _tuple_case(rng, m, n, bm, bn, make=np.zeros):
    """(x, y, the descriptors in a tuple, the expected y) for
    tuple_scale_kernel with scale 0.5 and bias 3."""
    x, width = padded(rng, m, n)
    y = np.full((m, width), np.nan, np.float32)
    descs = (TensorDescriptor(x, [m, n], [width, 1], [bm, bn]),
             (TensorDescriptor(y, [m, n], [width, 1], [bm, bn]), 3))
    return x, y, descs, x[:, :n].astype(np.float64) * 0.5 + 3


@pytest.mark.parametrize("m,n,bm,bn", [(37, 45, 16, 32), (64, 64, 32, 32)])
def test_interpreter_descriptors_in_a_tuple(rng, m, n, bm, bn):
    x, y, descs, want = _tuple_case(rng, m, n, bm, bn)
    interp(tuple_scale_kernel)[(triton.cdiv(m, bm), triton.cdiv(n, bn))](
        descs, 0.5, BM=bm, BN=bn)
    np.testing.assert_allclose(y[:, :n], want, rtol=1e-6)
    assert np.isnan(y[:, n:]).all(), "columns past the tensor's shape were written"


@pytest.mark.parametrize("negate", [False, True])
def test_interpreter_descriptors_in_an_aggregate(rng, negate):
    m, n, bm, bn = 33, 40, 16, 16
    x, width = padded(rng, m, n)
    y = np.full((m, width), np.nan, np.float32)
    pair = DescPair(TensorDescriptor(x, [m, n], [width, 1], [bm, bn]),
                    TensorDescriptor(y, [m, n], [width, 1], [bm, bn]), negate)
    interp(aggregate_copy_kernel)[(triton.cdiv(m, bm), triton.cdiv(n, bn))](pair, BM=bm, BN=bn)
    np.testing.assert_array_equal(y[:, :n], -x[:, :n] if negate else x[:, :n])
    assert np.isnan(y[:, n:]).all()


def test_descriptors_in_a_tuple_key_and_ir(rng):
    x, y, descs, _ = _tuple_case(rng, 64, 45, 16, 32)
    key = tuple_scale_kernel.key_for(descs, 0.5, BM=16, BN=32)
    # The tuple's entry holds each descriptor's own entry, as a parameter.
    assert key[0][0] == "tuple"
    x_entry, (_, _, (y_entry, bias_entry)) = key[0][2]
    assert x_entry == triton.jit(scale_kernel.fn).key_for(descs[0], descs[0], BM=16,
                                                          BN=32)[0]
    assert y_entry[0] == "tensordesc" and y_entry[4] == (16, 32)
    assert bias_entry == ("i", False, False, True)
    text = tuple_scale_kernel.ir(descs, 0.5, BM=16, BN=32)
    assert text.count("tile.make_tensor_desc") == 2
    kir = tuple_scale_kernel.ir_for_key(key)
    assert kir.signature == "piiii" + "piiii" + "i" + "f"
    # Another block shape inside the tuple: another key.
    other = (descs[0], (TensorDescriptor(y, [64, 45], [y.shape[1], 1], [32, 32]), 3))
    assert tuple_scale_kernel.key_for(other, 0.5, BM=16, BN=32) != key


def test_dispatcher_packs_descriptors_in_tuples(monkeypatch):
    C = _C_or_skip()
    monkeypatch.setenv("TERRAZZO_DRY_LAUNCH", "1")
    kernel = triton.jit(tuple_scale_kernel.fn)
    x, y = FakeTensor(0x10000, "float32", 4), FakeTensor(0x20000, "float32", 4)
    descs = (TensorDescriptor(x, [100, 96], [96, 1], [64, 32]),
             (TensorDescriptor(y, [100, 80], [128, 1], [64, 32]), 7))
    launched = kernel[(2, 3)](descs, 0.5, BM=64, BN=32)
    assert isinstance(launched, C.Kernel)
    assert launched.signature == "piiiipiiiiif"
    assert launched.last_launch()["args"] == (0x10000, 100, 96, 96, 1,
                                              0x20000, 100, 80, 128, 1, 7, 0.5)
    # The key the launch compiled is the one computed in Python.
    assert kernel._tuple_launches is not None
    assert launched is kernel[(2, 3)](descs, 0.5, BM=64, BN=32)
    # A new extent of the same kind: the same kernel, the new value packed.
    descs2 = (TensorDescriptor(x, [50, 96], [96, 1], [64, 32]), descs[1])
    again = kernel[(2, 3)](descs2, 0.5, BM=64, BN=32)
    assert again is launched and again.last_launch()["args"][1] == 50
    # An aggregate of descriptors.
    agg = triton.jit(aggregate_copy_kernel.fn)
    pair = DescPair(TensorDescriptor(x, [100, 96], [96, 1], [64, 32]),
                    TensorDescriptor(y, [100, 80], [128, 1], [64, 32]), True)
    launched = agg[(2, 3)](pair, BM=64, BN=32)
    assert launched.last_launch()["args"] == (0x10000, 100, 96, 96, 1, 0x20000, 100, 80, 128, 1)
    # A bad descriptor inside a tuple: the error names the member.
    bad = TensorDescriptor(x, [100, 96], [96, 1], [64, 32])
    bad.block_shape = [64, 48]
    with pytest.raises(ValueError, match=r"descs\[0\].*powers of two"):
        kernel[(1, 1)]((bad, descs[1]), 0.5, BM=64, BN=32)


def test_ptx_of_descriptors_in_a_tuple_on_sm90():
    _C_or_skip()
    x = np.zeros((128, 128), np.float16)
    descs = (TensorDescriptor(x, [128, 128], [128, 1], [64, 64]),
             (TensorDescriptor(x, [128, 128], [128, 1], [64, 64]), 1))
    ptx = tuple_scale_kernel.compile(descs, 2.0, BM=64, BN=64, stage="ptx", target="cuda:90")
    assert "cp.async.bulk.tensor" in ptx


# ---------------------------------------------------------------------------
# GPU
# ---------------------------------------------------------------------------

@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["float16", "float32"])
@pytest.mark.parametrize("m,n,bm,bn", [(37, 45, 16, 32), (100, 96, 64, 64), (600, 16, 128, 16)])
def test_gpu_scale(torch_cuda, rng, dtype, m, n, bm, bn):
    torch = torch_cuda
    tdt = getattr(torch, dtype)
    width = (n + 16 + 15) // 16 * 16
    xs = torch.from_numpy(rng.standard_normal((m, width)).astype(dtype)).cuda()
    ys = torch.full((m, width), float("nan"), dtype=tdt, device="cuda")
    xd = TensorDescriptor(xs, [m, n], [width, 1], [bm, bn])
    yd = TensorDescriptor(ys, [m, n], [width, 1], [bm, bn])
    scale_kernel[(triton.cdiv(m, bm), triton.cdiv(n, bn))](xd, yd, BM=bm, BN=bn)
    torch.cuda.synchronize()
    want = (xs.double()[:, :n] * 2 + 1).to(tdt).double()
    assert torch.equal(ys.double()[:, :n], want)
    assert torch.isnan(ys[:, n:].double()).all()


@pytest.mark.gpu
@pytest.mark.parametrize("m,n,k", [(256, 256, 256), (200, 136, 72)])
def test_gpu_matmul(torch_cuda, m, n, k):
    torch = torch_cuda
    a = torch.randn((m, k), dtype=torch.float16, device="cuda")
    b = torch.randn((k, n), dtype=torch.float16, device="cuda")
    c = torch.full((m, n), float("nan"), dtype=torch.float16, device="cuda")
    bm, bn, bk = 64, 64, 32
    matmul_kernel[(triton.cdiv(m, bm), triton.cdiv(n, bn))](
        TensorDescriptor.from_tensor(a, [bm, bk]), TensorDescriptor.from_tensor(b, [bk, bn]),
        TensorDescriptor.from_tensor(c, [bm, bn]), k, BM=bm, BN=bn, BK=bk)
    torch.cuda.synchronize()
    want = a.double() @ b.double()
    assert torch.allclose(c.double(), want, rtol=1e-2, atol=5e-2), (c.double() - want).abs().max()


@pytest.mark.gpu
def test_gpu_autotuner_pre_hook_sets_block_shape(torch_cuda):
    # Tutorial 06's pattern: dummy block shapes, set per configuration.
    torch = torch_cuda

    def pre_hook(nargs):
        for name in ("x_desc", "y_desc"):
            nargs[name].block_shape = [nargs["BM"], nargs["BN"]]

    @triton.autotune(configs=[triton.Config({"BM": 32, "BN": 32}, pre_hook=pre_hook),
                              triton.Config({"BM": 64, "BN": 128}, pre_hook=pre_hook)],
                     key=["M"])
    @triton.jit
    def tuned(x_desc, y_desc, M, BM: tl.constexpr, BN: tl.constexpr):
        off_m = tl.program_id(0) * BM
        off_n = tl.program_id(1) * BN
        y_desc.store([off_m, off_n], x_desc.load([off_m, off_n]) * 2 + 1)

    m, n = 300, 256
    x = torch.randn((m, n), device="cuda")
    y = torch.full((m, n), float("nan"), device="cuda")
    xd = TensorDescriptor(x, [m, n], [n, 1], [1, 1])
    yd = TensorDescriptor(y, [m, n], [n, 1], [1, 1])
    grid = lambda meta: (triton.cdiv(m, meta["BM"]), triton.cdiv(n, meta["BN"]))
    tuned[grid](xd, yd, m)
    torch.cuda.synchronize()
    assert torch.equal(y, x * 2 + 1)


@pytest.mark.gpu
@pytest.mark.parametrize("m,n,bm,bn", [(37, 45, 16, 32), (256, 192, 64, 64)])
def test_gpu_descriptors_in_tuples_and_aggregates(torch_cuda, rng, m, n, bm, bn):
    torch = torch_cuda
    width = (n + 16 + 15) // 16 * 16
    xs = torch.from_numpy(rng.standard_normal((m, width)).astype("float32")).cuda()
    ys = torch.full((m, width), float("nan"), dtype=torch.float32, device="cuda")
    descs = (TensorDescriptor(xs, [m, n], [width, 1], [bm, bn]),
             (TensorDescriptor(ys, [m, n], [width, 1], [bm, bn]), 3))
    grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
    tuple_scale_kernel[grid](descs, 0.5, BM=bm, BN=bn)
    torch.cuda.synchronize()
    want = xs.double()[:, :n] * 0.5 + 3
    assert torch.allclose(ys.double()[:, :n], want, rtol=1e-6)
    assert torch.isnan(ys[:, n:]).all()
    zs = torch.full((m, width), float("nan"), dtype=torch.float32, device="cuda")
    pair = DescPair(TensorDescriptor(xs, [m, n], [width, 1], [bm, bn]),
                    TensorDescriptor(zs, [m, n], [width, 1], [bm, bn]), True)
    aggregate_copy_kernel[grid](pair, BM=bm, BN=bn)
    torch.cuda.synchronize()
    assert torch.equal(zs[:, :n], -xs[:, :n]) and torch.isnan(zs[:, n:]).all()
