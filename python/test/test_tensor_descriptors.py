"""Tensor descriptors (`tl.make_tensor_descriptor`, `desc.load/store`,
`tl.load_tensor_descriptor/store_tensor_descriptor`) as in Triton: blocks
straddling every edge of the described tensor read zeros outside it and
write nothing there. The interpreter against NumPy on fresh random inputs;
the tile IR through terrazzo-opt, the descriptor lowering and ptxas; the
same kernels on a GPU.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import terrazzo as triton
import terrazzo.language as tl
from terrazzo import CompilationError, InterpreterError


@triton.jit
def scale_kernel(x_ptr, y_ptr, M, N, stride_xm, stride_ym, BM: tl.constexpr,
                 BN: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    xd = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[stride_xm, 1],
                                   block_shape=[BM, BN])
    yd = tl.make_tensor_descriptor(y_ptr, [M, N], [stride_ym, 1], [BM, BN])
    block = xd.load([pid_m * BM, pid_n * BN])
    yd.store([pid_m * BM, pid_n * BN], block * 2 + 1)


@triton.jit
def read_block_kernel(x_ptr, out_ptr, M, N, stride_xm, off_m, off_n, BM: tl.constexpr,
                      BN: tl.constexpr):
    # The block at (off_m, off_n), zeros outside, stored whole to out (BM x BN).
    xd = tl.make_tensor_descriptor(x_ptr, [M, N], [stride_xm, 1], [BM, BN])
    block = tl.load_tensor_descriptor(xd, [off_m, off_n])
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    tl.store(out_ptr + rm[:, None] * BN + rn[None, :], block)


@triton.jit
def write_block_kernel(out_ptr, M, N, stride_m, off_m, off_n, BM: tl.constexpr,
                       BN: tl.constexpr):
    od = tl.make_tensor_descriptor(out_ptr, [M, N], [stride_m, 1], [BM, BN])
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    values = (rm[:, None] * 1000 + rn[None, :]).to(tl.float32)
    tl.store_tensor_descriptor(od, [off_m, off_n], values)


@triton.jit
def read_block_at_kernel(x_ptr, out_ptr, M, N, stride_xm, off_m, off_n, BM: tl.constexpr,
                         BN: tl.constexpr):
    # read_block_kernel with block coordinates known not to be negative
    # (what TMA needs on sm_90).
    xd = tl.make_tensor_descriptor(x_ptr, [M, N], [stride_xm, 1], [BM, BN])
    block = tl.load_tensor_descriptor(xd, [tl.maximum(off_m, 0), tl.maximum(off_n, 0)])
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    tl.store(out_ptr + rm[:, None] * BN + rn[None, :], block)


@triton.jit
def write_block_at_kernel(out_ptr, M, N, stride_m, off_m, off_n, BM: tl.constexpr,
                          BN: tl.constexpr):
    od = tl.make_tensor_descriptor(out_ptr, [M, N], [stride_m, 1], [BM, BN])
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    values = (rm[:, None] * 1000 + rn[None, :]).to(tl.float32)
    tl.store_tensor_descriptor(od, [tl.maximum(off_m, 0), tl.maximum(off_n, 0)], values)


@triton.jit
def rank3_kernel(x_ptr, y_ptr, A, B, C, sa, sb, BA: tl.constexpr, BB: tl.constexpr,
                 BC: tl.constexpr):
    pid = tl.program_id(0)
    xd = tl.make_tensor_descriptor(x_ptr, [A, B, C], [sa, sb, 1], [BA, BB, BC])
    yd = tl.make_tensor_descriptor(y_ptr, [A, B, C], [sa, sb, 1], [BA, BB, BC])
    v = xd.load([pid * BA, 0, 0])
    yd.store([pid * BA, 0, 0], v + 1)


@triton.jit
def dtype_kernel(x_ptr, y_ptr, n, DT: tl.constexpr, BLOCK: tl.constexpr):
    x = x_ptr.to(tl.pointer_type(DT))
    y = y_ptr.to(tl.pointer_type(DT))
    xd = tl.make_tensor_descriptor(x, [n], [1], [BLOCK])
    yd = tl.make_tensor_descriptor(y, [n], [1], [BLOCK])
    off = tl.program_id(0) * BLOCK
    yd.store([off], xd.load([off]))


def interp(kernel):
    return triton.jit(kernel.fn, interpret=True)


def run_scale(kernel, rng, m, n, bm, bn, pad=3):
    # Rows longer than n (a strided view of a wider array): the padding
    # columns must stay untouched.
    x = rng.standard_normal((m, n + pad)).astype(np.float32)
    y = np.full((m, n + pad), np.nan, np.float32)
    kernel[(triton.cdiv(m, bm), triton.cdiv(n, bn))](x, y, m, n, n + pad, n + pad,
                                                      BM=bm, BN=bn)
    return x, y


@pytest.mark.parametrize("shape", [(37, 45), (64, 64), (5, 130), (1, 17)])
def test_blocks_straddle_the_edges(shape, rng):
    m, n = shape
    x, y = run_scale(interp(scale_kernel), rng, m, n, 16, 32)
    np.testing.assert_array_equal(y[:, :n], x[:, :n] * 2 + 1)
    assert np.isnan(y[:, n:]).all()


@pytest.mark.parametrize("off", [(-3, -5), (0, 0), (30, 40), (-20, 10), (35, -40), (100, 0)])
def test_load_outside_reads_zero(off, rng):
    m, n, bm, bn = 37, 45, 16, 32
    x = rng.standard_normal((m, n + 2)).astype(np.float32)
    out = np.full((bm, bn), np.nan, np.float32)
    interp(read_block_kernel)[(1,)](x, out, m, n, n + 2, off[0], off[1], BM=bm, BN=bn)
    want = np.zeros((bm, bn), np.float32)
    for i in range(bm):
        for j in range(bn):
            r, c = off[0] + i, off[1] + j
            if 0 <= r < m and 0 <= c < n:
                want[i, j] = x[r, c]
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("off", [(-3, -5), (30, 40), (0, 0), (-16, 0)])
def test_store_outside_writes_nothing(off):
    m, n, bm, bn = 37, 45, 16, 32
    out = np.full((m, n + 4), -1.0, np.float32)
    interp(write_block_kernel)[(1,)](out, m, n, n + 4, off[0], off[1], BM=bm, BN=bn)
    want = np.full((m, n + 4), -1.0, np.float32)
    for i in range(bm):
        for j in range(bn):
            r, c = off[0] + i, off[1] + j
            if 0 <= r < m and 0 <= c < n:
                want[r, c] = i * 1000 + j
    np.testing.assert_array_equal(out, want)


def test_rank3(rng):
    a, b, c = 5, 3, 20
    x = rng.standard_normal((a, b, c)).astype(np.float32)
    y = np.full((a, b, c), np.nan, np.float32)
    interp(rank3_kernel)[(triton.cdiv(a, 2),)](x, y, a, b, c, b * c, c, BA=2, BB=4, BC=32)
    np.testing.assert_array_equal(y, x + 1)


@pytest.mark.parametrize("np_dtype,dt", [(np.float16, tl.float16), (np.uint16, tl.bfloat16),
                                         (np.int8, tl.int8), (np.int64, tl.int64),
                                         (np.uint8, tl.float8e4nv)])
def test_element_types(np_dtype, dt, rng):
    n = int(rng.integers(70, 200))
    x = rng.integers(0, 120, n).astype(np_dtype)
    y = np.zeros(n + 7, np_dtype)
    interp(dtype_kernel)[(triton.cdiv(n, 64),)](x, y, n, DT=dt, BLOCK=64)
    np.testing.assert_array_equal(y[:n], x)
    assert (y[n:] == 0).all()


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------

@triton.jit
def bad_desc_kernel(x_ptr, n, CASE: tl.constexpr):
    if CASE == 0:
        d = tl.make_tensor_descriptor(x_ptr, [n, n], [n, 2], [16, 16])  # <- 0
    elif CASE == 1:
        d = tl.make_tensor_descriptor(x_ptr, [n, n], [n, 1], [16, 2])  # <- 1
    elif CASE == 2:
        d = tl.make_tensor_descriptor(x_ptr, [n, n], [n, 1], [16, 24])  # <- 2
    elif CASE == 3:
        d = tl.make_tensor_descriptor(x_ptr, [n], [1, 1], [16])  # <- 3
    else:
        d = tl.make_tensor_descriptor(x_ptr, [n, n], [n, 1], [16, 16])  # <- 4
    v = d.load([0, 0, 0])  # <- 5
    d.store([0, 0], v)


def _line(kernel, marker):
    return [ln for ln, src in kernel.parsed.src_lines.items() if marker in src][0]


@pytest.mark.parametrize("case,message,marker", [
    (0, "the last stride must be 1", "# <- 0"),
    (1, "must have at least 16 bytes in its last dimension, got 2 x 4 bytes", "# <- 1"),
    (2, "must be a power of two, got 24", "# <- 2"),
    (3, "must have one value per dimension", "# <- 3"),
    (4, "the descriptor has 2 dimensions but 3 offsets were given", "# <- 5"),
])
def test_errors_name_the_line(case, message, marker):
    with pytest.raises(CompilationError) as e:
        bad_desc_kernel.ir(np.zeros(64, np.float32), 8, CASE=case)
    text = str(e.value)
    assert message in text, text
    assert f":{_line(bad_desc_kernel, marker)}:" in text.splitlines()[0], text


def test_misaligned_base_is_an_error(rng):
    x = np.zeros(4 * 64 + 1, np.float32)[1:].reshape(4, 64)  # 4 bytes past 16
    y = np.zeros((4, 64), np.float32)
    with pytest.raises(CompilationError) as e:
        scale_kernel.ir(x, y, 4, 64, 64, 64, BM=4, BN=64)
    assert "must be 16-byte aligned" in str(e.value)
    assert f":{_line(scale_kernel, 'xd = tl.make_tensor_descriptor')}:" in str(e.value)
    with pytest.raises(InterpreterError) as interpreted:
        interp(scale_kernel)[(1, 1)](x, y, 4, 64, 64, 64, BM=4, BN=64)
    assert str(interpreted.value) == str(e.value)


# ---------------------------------------------------------------------------
# Tile IR, the lowering pass, PTX
# ---------------------------------------------------------------------------

def test_ir_and_ptx(check_ir):
    x = np.zeros((64, 64), np.float32)
    text = scale_kernel.ir(x, x, 64, 64, 64, 64, BM=16, BN=32)
    assert "tile.make_tensor_desc" in text
    assert "-> !tile.tensordesc<tensor<16x32xf32>>" in text
    assert "tile.desc_load" in text and "tile.desc_store" in text
    lowered = check_ir.opt(text, "--terrazzo-tile-pipeline")
    assert "tile.desc_" not in lowered and "tile.make_tensor_desc" not in lowered
    assert "tile.load" in lowered and "tile.store" in lowered
    # Pointer accesses on sm_80; TMA on sm_90 (below).
    ptx = check_ir.compile(text, target="cuda:80")
    assert "ld.global" in ptx and "st.global" in ptx
    ptx = check_ir(text)
    assert "cp.async.bulk.tensor" in ptx and "ld.global" not in ptx
    h = np.zeros(256, np.float16)
    ptx = check_ir.compile(dtype_kernel.ir(h, h, 256, DT=tl.float16, BLOCK=64), target="cuda:80")
    assert "ld.global" in ptx


# ---------------------------------------------------------------------------
# GPU
# ---------------------------------------------------------------------------

@pytest.mark.gpu
@pytest.mark.parametrize("shape", [(37, 45), (128, 64), (5, 130)])
@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_gpu_scale(torch_cuda, shape, dtype, rng):
    torch = torch_cuda
    m, n = shape
    pad = 8
    x = torch.from_numpy(rng.standard_normal((m, n + pad)).astype(dtype)).cuda()
    y = torch.full((m, n + pad), float("nan"), dtype=x.dtype, device="cuda")
    scale_kernel[(triton.cdiv(m, 16), triton.cdiv(n, 32))](x, y, m, n, n + pad, n + pad,
                                                           BM=16, BN=32)
    torch.cuda.synchronize()
    got = y.cpu().double().numpy()
    # x * 2 + 1 rounded once to the element type (exact doubling, then one
    # rounding whether or not the GPU fuses it into an fma).
    want = (x.cpu().double().numpy()[:, :n] * 2 + 1).astype(dtype).astype(np.float64)
    np.testing.assert_allclose(got[:, :n], want, rtol=1e-3 if dtype == "float16" else 0)
    assert np.isnan(got[:, n:]).all()


@pytest.mark.gpu
@pytest.mark.parametrize("off", [(-3, -5), (30, 40), (-20, 10)])
def test_gpu_edges(torch_cuda, off, rng):
    torch = torch_cuda
    m, n, bm, bn = 37, 45, 16, 32
    xn = rng.standard_normal((m, n + 3)).astype(np.float32)
    out = torch.full((bm, bn), float("nan"), device="cuda")
    read_block_kernel[(1,)](torch.from_numpy(xn).cuda(), out, m, n, n + 3, off[0], off[1],
                            BM=bm, BN=bn)
    o2 = torch.full((m, n + 4), -1.0, device="cuda")
    write_block_kernel[(1,)](o2, m, n, n + 4, off[0], off[1], BM=bm, BN=bn)
    torch.cuda.synchronize()
    want = np.zeros((bm, bn), np.float32)
    want2 = np.full((m, n + 4), -1.0, np.float32)
    for i in range(bm):
        for j in range(bn):
            r, c = off[0] + i, off[1] + j
            if 0 <= r < m and 0 <= c < n:
                want[i, j] = xn[r, c]
                want2[r, c] = i * 1000 + j
    np.testing.assert_array_equal(out.cpu().numpy(), want)
    np.testing.assert_array_equal(o2.cpu().numpy(), want2)


# ---------------------------------------------------------------------------
# TMA on sm_90 (Hopper): tensor maps built on the device, cp.async.bulk.tensor
# copies completing on mbarriers, TMA stores; other targets and descriptors
# TMA cannot serve keep the pointer lowering.
# ---------------------------------------------------------------------------

@triton.jit
def tma_copy_kernel(x_ptr, y_ptr, M, N, stride_xm, stride_ym, BM: tl.constexpr,
                    BN: tl.constexpr):
    # y = x * 2 + 1 block by block; blocks straddle the bottom and right edges.
    xd = tl.make_tensor_descriptor(x_ptr, [M, N], [stride_xm, 1], [BM, BN])
    yd = tl.make_tensor_descriptor(y_ptr, [M, N], [stride_ym, 1], [BM, BN])
    off_m = tl.program_id(0) * BM
    off_n = tl.program_id(1) * BN
    yd.store([off_m, off_n], xd.load([off_m, off_n]) * 2 + 1)


def _ptx_for(kernel, *args, target="cuda:90", **kwargs):
    from terrazzo.runtime import driver
    if not driver.extension_available():
        pytest.skip("terrazzo._C is not built")
    return kernel.compile(*args, stage="ptx", target=target, **kwargs)


def _assemble(ptx, tmp_path, arch="sm_90a"):
    from conftest import assemble_ptx
    assemble_ptx(ptx, arch)


def test_tma_ptx_on_sm90(tmp_path):
    # Strides divisible by 16 (specialisation) and a 16-byte aligned base:
    # TMA. The descriptors are made of arguments alone, so the launcher
    # builds their tensor maps and passes them by value (two 128-byte
    # parameters read at their generic address); the PTX copies by TMA,
    # waits on the mbarrier, stores by TMA, and assembles for sm_90a.
    x = np.zeros((64, 64), np.float16)
    ptx = _ptx_for(tma_copy_kernel, x, x, 64, 64, 64, 64, BM=64, BN=64)
    assert "tensormap.replace" not in ptx
    assert ptx.count(".param .align 128 .b8") == 2 and "cvta.param" in ptx
    assert "cp.async.bulk.tensor.2d.shared::cluster.global" in ptx
    assert "mbarrier.try_wait.parity" in ptx
    assert "cp.async.bulk.tensor.2d.global.shared::cta" in ptx
    assert "cp.async.bulk.wait_group.read" in ptx
    assert "ld.global" not in ptx and "st.global" not in ptx
    _assemble(ptx, tmp_path)


@triton.jit
def per_problem_kernel(x_ptr, y_ptr, offsets, sizes, COUNT, BM: tl.constexpr,
                       BN: tl.constexpr):
    # Problem g: an M x N row-major float32 matrix at offsets[g] of x and y
    # (N a multiple of 4: 16-byte rows); y = x * 2 + 1 through descriptors
    # made for each problem inside the loop over problems (a grouped GEMM's
    # per-problem operands), the programs taking rows of blocks in turn.
    for g in range(COUNT):
        off = tl.multiple_of(tl.load(offsets + g), 4)
        M = tl.load(sizes + 2 * g)
        N = tl.multiple_of(tl.load(sizes + 2 * g + 1), 4)
        xd = tl.make_tensor_descriptor(x_ptr + off, [M, N], [N, 1], [BM, BN])
        yd = tl.make_tensor_descriptor(y_ptr + off, [M, N], [N, 1], [BM, BN])
        for bm in range(tl.program_id(0) * BM, M, tl.num_programs(0) * BM):
            for bn in range(0, N, BN):
                yd.store([bm, bn], xd.load([bm, bn]) * 2 + 1)


def _problems(rng, sizes):
    """x (every problem's elements, each 16-byte aligned, NaN between
    them), the offsets and the sizes tables."""
    offsets, total = [], 0
    for m, n in sizes:
        offsets.append(total)
        total += -(-(m * n + 7) // 4) * 4  # a gap, then 16-byte alignment
    x = np.full(total, np.nan, np.float32)
    for (m, n), off in zip(sizes, offsets):
        x[off:off + m * n] = rng.standard_normal(m * n).astype(np.float32)
    return x, np.array(offsets, np.int32), np.array(sizes, np.int32).reshape(-1)


PER_PROBLEM_SIZES = [(37, 44), (64, 64), (5, 132), (100, 8)]


def test_per_problem_descriptors_interpreter(rng):
    x, offsets, sizes = _problems(rng, PER_PROBLEM_SIZES)
    y = np.full_like(x, np.nan)
    interp(per_problem_kernel)[(3,)](x, y, offsets, sizes, len(PER_PROBLEM_SIZES), BM=16,
                                     BN=32)
    want = np.where(np.isnan(x), np.nan, x.astype(np.float64) * 2 + 1)
    np.testing.assert_allclose(y, want.astype(np.float32), rtol=0)


def test_per_problem_descriptors_ptx(tmp_path):
    # The maps are built in the loop over problems (tensormap.replace after
    # the loop's label), loads and stores go by TMA, and the store's map is
    # rebuilt only after the previous problem's stores are complete
    # (cp.async.bulk.wait_group without .read).
    x = np.zeros(64, np.float32)
    table = np.zeros(8, np.int32)
    ptx = _ptx_for(per_problem_kernel, x, x, table, table, 4, BM=16, BN=32)
    loop = ptx[ptx.index("$L__BB"):]
    assert "tensormap.replace.tile.global_address" in loop
    assert "cp.async.bulk.tensor.2d.shared::cluster.global" in ptx
    assert "cp.async.bulk.tensor.2d.global.shared::cta" in ptx
    assert re.search(r"cp\.async\.bulk\.wait_group\s+0;", ptx)
    assert "ld.global.v" not in ptx and "st.global" not in ptx
    _assemble(ptx, tmp_path)


@pytest.mark.gpu
def test_gpu_per_problem_descriptors(torch_cuda, rng):
    torch = torch_cuda
    x, offsets, sizes = _problems(rng, PER_PROBLEM_SIZES)
    xd = torch.from_numpy(x).cuda()
    y = torch.full_like(xd, float("nan"))
    per_problem_kernel[(3,)](xd, y, torch.from_numpy(offsets).cuda(),
                             torch.from_numpy(sizes).cuda(), len(PER_PROBLEM_SIZES),
                             BM=16, BN=32)
    torch.cuda.synchronize()
    # Every element of every problem written (x * 2 + 1, one rounding), the
    # gaps between problems left alone.
    want = np.where(np.isnan(x), np.nan, x.astype(np.float64) * 2 + 1)
    np.testing.assert_allclose(y.cpu().numpy(), want.astype(np.float32), rtol=0)


@pytest.mark.parametrize("case", ["1d", "3d", "split"])
def test_tma_ptx_shapes(case, tmp_path):
    # 1-D and 3-D blocks are TMA boxes too (unswizzled); 2-D blocks wider
    # than a swizzle row split.
    if case == "1d":
        x = np.zeros(1024, np.float32)
        ptx = _ptx_for(dtype_kernel, x, x, 1024, DT=tl.float32, BLOCK=128)
        assert "cp.async.bulk.tensor.1d.shared::cluster" in ptx
        assert "cp.async.bulk.tensor.1d.global" in ptx
    elif case == "3d":
        x = np.zeros((4, 4, 32), np.float32)
        ptx = _ptx_for(rank3_kernel, x, x, 4, 4, 32, 128, 32, BA=2, BB=4, BC=32)
        assert "cp.async.bulk.tensor.3d.shared::cluster" in ptx
        assert "cp.async.bulk.tensor.3d.global" in ptx
    else:
        # 128 bytes per swizzle row: a 32 x 128 f16 block is two boxes.
        x = np.zeros((64, 128), np.float16)
        ptx = _ptx_for(tma_copy_kernel, x, x, 64, 128, 128, 128, BM=32, BN=128)
        assert ptx.count("cp.async.bulk.tensor.2d.shared::cluster") == 2
    assert "mbarrier.try_wait.parity" in ptx
    _assemble(ptx, tmp_path)


def test_pointer_lowering_elsewhere():
    x = np.zeros((64, 64), np.float16)
    # Another target: pointer accesses.
    ptx = _ptx_for(tma_copy_kernel, x, x, 64, 64, 64, 64, BM=64, BN=64, target="cuda:80")
    assert "cp.async.bulk" not in ptx and "ld.global" in ptx
    # A row stride not known to be a multiple of 16 bytes: pointer accesses
    # on sm_90 too (correct either way).
    ptx = _ptx_for(tma_copy_kernel, x, x, 64, 60, 60, 60, BM=64, BN=64)
    assert "cp.async.bulk" not in ptx and "ld.global" in ptx


def test_scratch_metadata():
    from terrazzo.runtime import driver
    C = driver.get_C(required=False)
    if C is None:
        pytest.skip("terrazzo._C is not built")
    x = np.zeros((64, 64), np.float16)
    text = tma_copy_kernel.ir(x, x, 64, 64, 64, 64, BM=64, BN=64)
    res = C.compile(text, "k.mlir", "cuda:90", 4, "ptx")
    assert res.success, res.diagnostics
    # Two tensor maps of 128 bytes per program instance.
    assert res.metadata["global_scratch_bytes"] == 256
    assert res.metadata["host_tensormaps"] == []
    res = C.compile(text, "k.mlir", "cuda:80", 4, "ptx")
    assert res.metadata["global_scratch_bytes"] == 0
    # With host_tensormaps (the launcher's choice), the maps of arguments
    # are parameters 6 and 7, after the six arguments: x and y, their
    # extents (M, N) and row strides arguments 2, 3, 4 and 5.
    res = C.compile(text, "k.mlir", "cuda:90", 4, "ptx", host_tensormaps=True)
    assert res.success, res.diagnostics
    assert res.metadata["global_scratch_bytes"] == 0
    maps = res.metadata["host_tensormaps"]
    assert [(m["parameter"], m["base"], m["stored"]) for m in maps] == \
        [(6, 0, False), (7, 1, True)]
    assert maps[0]["shape"] == [{"argument": 2}, {"argument": 3}]
    assert maps[1]["strides"] == [{"argument": 5}, {"value": 1}]
    assert maps[0]["box"] == [64, 64] and maps[0]["element_bytes"] == 2
    assert maps[0]["swizzle_bytes"] == 128


def _dry_tma_copy(C, x, y, m, n):
    """tma_copy_kernel's PTX (for 16-byte aligned float16 matrices whose
    sizes are multiples of 16) as a dry-run Kernel, launched on addresses
    x and y, sizes m x n and row strides n: its last launch."""
    a = np.zeros((64, 64), np.float16)
    text = tma_copy_kernel.ir(a, a, 96, 80, 80, 80, BM=64, BN=64)
    res = C.compile(text, "k.mlir", "cuda:90", 4, "ptx", host_tensormaps=True)
    assert res.success, res.diagnostics
    md = res.metadata
    kernel = C.Kernel(res.output, md["name"], md["threads_per_block"],
                      md["shared_memory_bytes"], "ppiiii", dry_run=True,
                      host_tensormaps=md["host_tensormaps"])
    assert kernel.num_host_tensormaps == 2
    kernel.launch((1, 1, 1), 0, (x, y, m, n, n, n))
    return kernel.last_launch()


def test_launcher_builds_the_maps_of_arguments():
    # What the launcher would encode (cuTensorMapEncodeTiled) for each
    # launch, from that launch's arguments: shapes and strides outermost
    # first, in elements.
    from terrazzo.runtime import driver
    C = driver.get_C(required=False)
    if C is None:
        pytest.skip("terrazzo._C is not built")
    maps = _dry_tma_copy(C, 0x10000, 0x20000, 96, 80)["tensormaps"]
    assert [m["address"] for m in maps] == [0x10000, 0x20000]
    assert maps[0]["shape"] == (96, 80) and maps[0]["strides"] == (80, 1)
    assert maps[1]["box"] == (64, 64) and maps[1]["element_bytes"] == 2
    assert maps[0]["swizzle_bytes"] == 128 and not maps[0]["empty"]
    # An empty tensor, which a tensor map cannot describe: one element (of
    # a page of zeros the launcher owns), every other out of bounds.
    maps = _dry_tma_copy(C, 0x10000, 0x20000, 0, 80)["tensormaps"]
    assert all(m["empty"] and m["shape"] == (1, 1) for m in maps)


def test_launcher_rejects_bad_tensor_map_recipes():
    from terrazzo.runtime import driver
    C = driver.get_C(required=False)
    if C is None:
        pytest.skip("terrazzo._C is not built")
    good = {"parameter": 2, "base": 0, "element_bytes": 2,
            "shape": [{"argument": 1}, {"value": 64}],
            "strides": [{"value": 64}, {"value": 1}], "box": [64, 64],
            "swizzle_bytes": 128, "stored": False}
    C.Kernel(b"", "k", 32, 0, "pi", dry_run=True, host_tensormaps=[good])
    for bad, message in [({"parameter": 3}, "parameter must be 2"),
                         ({"base": 1}, "base must name a pointer"),
                         ({"shape": [{"argument": 0}, {"value": 64}]},
                          "must name an integer parameter"),
                         ({"strides": [{"value": 0}, {"value": 1}]}, "must be positive"),
                         ({"box": [64]}, "1 to 5 dimensions")]:
        with pytest.raises(ValueError, match=message):
            C.Kernel(b"", "k", 32, 0, "pi", dry_run=True,
                     host_tensormaps=[{**good, **bad}])


def test_set_allocator():
    import terrazzo
    assert triton.set_allocator is terrazzo.set_allocator
    calls = []

    def alloc(size, alignment, stream):
        calls.append((size, alignment, stream))

    try:
        terrazzo.set_allocator(alloc)
        assert terrazzo.get_allocator() is alloc
    finally:
        terrazzo.set_allocator(None)
    assert terrazzo.get_allocator() is None
    with pytest.raises(TypeError):
        terrazzo.set_allocator(42)


def _sm90(torch):
    if torch.cuda.get_device_capability()[0] != 9:
        pytest.skip("TMA lowering is for sm_90")


@pytest.fixture(autouse=True)
def _tma_default(monkeypatch):
    # TMA is the default on sm_90 (TERRAZZO_TMA=0 turns it off).
    monkeypatch.delenv("TERRAZZO_TMA", raising=False)


def test_tma_can_be_turned_off(monkeypatch):
    x = np.zeros((64, 64), np.float16)
    ptx = _ptx_for(tma_copy_kernel, x, x, 64, 64, 64, 64, BM=64, BN=64)
    assert "cp.async.bulk.tensor" in ptx
    monkeypatch.setenv("TERRAZZO_TMA", "0")
    ptx = _ptx_for(tma_copy_kernel, x, x, 64, 64, 64, 64, BM=64, BN=64)
    assert "cp.async.bulk.tensor" not in ptx and "ld.global" in ptx


def _expect_tma(kernel, *args, tma=True, **kwargs):
    ptx = kernel.compile(*args, stage="ptx", **kwargs)
    if tma:
        assert "cp.async.bulk.tensor" in ptx, "the TMA path was not taken"
    else:
        assert "cp.async.bulk.tensor" not in ptx, "the TMA path was taken"


_TORCH_DTYPES = {"float16": "float16", "bfloat16": "bfloat16", "float32": "float32"}


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
@pytest.mark.parametrize("shape,block", [
    ((100, 96), (64, 64)),     # masked row tail, 128-byte swizzle for 16-bit
    ((37, 80), (16, 32)),      # tails in both dimensions (row stride padded)
    ((130, 48), (8, 16)),      # smallest swizzled block
    ((64, 256), (32, 128)),    # several boxes per block (swizzle rows)
    ((600, 16), (512, 16)),    # more than 256 rows: several boxes
    ((29, 64), (4, 64)),       # fewer than 8 rows: an unswizzled box
])
def test_gpu_tma_copy(torch_cuda, dtype, shape, block, rng):
    torch = torch_cuda
    _sm90(torch)
    m, n = shape
    bm, bn = block
    tdt = getattr(torch, dtype)
    if bn * torch.tensor([], dtype=tdt).element_size() < 16:
        pytest.skip("TMA rows hold at least 16 bytes")
    # Rows padded to a multiple of 16 elements past n: the padding must stay
    # untouched and the tails of the blocks past n read as zero.
    width = (n + 16 + 15) // 16 * 16
    xs = torch.from_numpy(rng.standard_normal((m, width)).astype(np.float32)).to(tdt).cuda()
    ys = torch.full((m, width), float("nan"), dtype=tdt, device="cuda")
    x, y = xs[:, :n], ys[:, :n]
    grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
    _expect_tma(tma_copy_kernel, x, y, m, n, width, width, BM=bm, BN=bn)
    tma_copy_kernel[grid](x, y, m, n, width, width, BM=bm, BN=bn)
    torch.cuda.synchronize()
    want = (xs.double()[:, :n] * 2 + 1).to(tdt).double()
    got = ys.double()
    assert torch.equal(got[:, :n], want), (got[:, :n] - want).abs().max()
    assert torch.isnan(got[:, n:]).all()


@pytest.mark.parametrize("dtype", ["float16", "float32"])
@pytest.mark.parametrize("shape,block", [
    ((100, 96), (64, 64)), ((37, 80), (16, 32)), ((130, 48), (8, 16)),
    ((64, 256), (32, 128)), ((600, 16), (512, 16)), ((29, 64), (4, 64)),
])
def test_interpreter_tma_copy(dtype, shape, block, rng):
    # test_gpu_tma_copy's kernel at its arguments,
    # in the interpreter: checked here without a GPU, and
    # (TERRAZZO_AMD_LAUNCHES) compiled at that key for the AMD targets.
    # (bfloat16 aside: NumPy has no such type to pass.)
    m, n = shape
    bm, bn = block
    if bn * np.dtype(dtype).itemsize < 16:
        pytest.skip("TMA rows hold at least 16 bytes (as the GPU test)")
    width = (n + 16 + 15) // 16 * 16
    xs = rng.standard_normal((m, width)).astype(dtype)
    ys = np.full((m, width), np.nan, dtype)
    triton.jit(tma_copy_kernel.fn, interpret=True)[(triton.cdiv(m, bm), triton.cdiv(n, bn))](
        xs, ys, m, n, width, width, BM=bm, BN=bn)
    want = (xs.astype(np.float64)[:, :n] * 2 + 1).astype(dtype)
    np.testing.assert_array_equal(ys[:, :n], want)
    assert np.isnan(ys[:, n:].astype(np.float32)).all()


def test_negative_coordinates():
    # A TMA store at a negative block coordinate faults (an illegal
    # instruction on the H100, scripts/tma-probe.py), so descriptors stored
    # through at coordinates that may be negative (here integer arguments
    # that are: the launch key records the sign) keep the pointer lowering
    # on sm_90; with coordinates known not to be negative (clamped, or
    # arguments that are not) they get TMA. Loads at negative coordinates
    # are right under TMA (test_gpu_tma_negative_loads).
    x = np.zeros((37, 64), np.float32)
    out = np.zeros((16, 32), np.float32)
    args = (x, out, 37, 45, 64, 0, 0)
    ptx = read_block_kernel.compile(*args, BM=16, BN=32, stage="ptx", target="cuda:90")
    assert "cp.async.bulk.tensor" in ptx
    ptx = read_block_at_kernel.compile(*args, BM=16, BN=32, stage="ptx", target="cuda:90")
    assert "cp.async.bulk.tensor" in ptx
    ptx = write_block_kernel.compile(x, 37, 48, 64, -16, 0, BM=16, BN=32, stage="ptx",
                                     target="cuda:90")
    assert "cp.async.bulk.tensor" not in ptx and "st.global" in ptx
    ptx = write_block_kernel.compile(x, 37, 48, 64, 16, 0, BM=16, BN=32, stage="ptx",
                                     target="cuda:90")
    assert "cp.async.bulk.tensor.2d.global" in ptx
    # An innermost coordinate not known to be a multiple of 16 bytes (30
    # float32 columns, not specialised as divisible by 16) keeps the pointer
    # path: TMA faulted on such boxes on the H100 (scripts/tma-probe.py).
    unaligned = (x, out, 37, 45, 64, 0, 30)
    ptx = read_block_at_kernel.compile(*unaligned, BM=16, BN=32, stage="ptx",
                                       target="cuda:90")
    assert "cp.async.bulk.tensor" not in ptx and "ld.global" in ptx
    # Stores also need the innermost extent known to be a multiple of 16
    # bytes (48 floats, specialised as divisible by 16, but not 45): a TMA
    # store wrote up to the next 16 bytes past it on the H100.
    ptx = write_block_at_kernel.compile(x, 37, 48, 64, 0, 0, BM=16, BN=32, stage="ptx",
                                        target="cuda:90")
    assert "cp.async.bulk.tensor" in ptx
    ptx = write_block_at_kernel.compile(x, 37, 45, 64, 0, 0, BM=16, BN=32, stage="ptx",
                                        target="cuda:90")
    assert "cp.async.bulk.tensor" not in ptx


@pytest.mark.gpu
@pytest.mark.parametrize("off", [(30, 40), (8, 16), (0, 0), (36, 30), (30, 32), (36, 16)])
@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize("n", [45, 48])
def test_gpu_tma_edges(torch_cuda, off, dtype, n, rng):
    # Boxes that start inside the tensor and end past it: zeros read,
    # nothing written outside. TMA where the innermost coordinate is
    # specialised as a multiple of 16 elements; the others (30, 40) take the
    # pointer path, since TMA faulted on the H100 with column 30 (float32,
    # scripts/tma-probe.py). Negative coordinates take the pointer path too
    # (test_gpu_edges); so do stores when n is not known to be a multiple of
    # 16 elements.
    torch = torch_cuda
    _sm90(torch)
    m, bm, bn, width = 37, 16, 32, 64
    tdt = getattr(torch, dtype)
    xn = rng.standard_normal((m, width)).astype(np.float32)
    x = torch.from_numpy(xn).to(tdt).cuda()
    out = torch.full((bm, bn), float("nan"), dtype=tdt, device="cuda")
    aligned = off[1] % 16 == 0
    _expect_tma(read_block_at_kernel, x, out, m, n, width, off[0], off[1], BM=bm, BN=bn,
                tma=aligned)
    read_block_at_kernel[(1,)](x, out, m, n, width, off[0], off[1], BM=bm, BN=bn)
    o2 = torch.full((m, width), -1.0, device="cuda")
    _expect_tma(write_block_at_kernel, o2, m, n, width, off[0], off[1], BM=bm, BN=bn,
                tma=aligned and n % 16 == 0)
    write_block_at_kernel[(1,)](o2, m, n, width, off[0], off[1], BM=bm, BN=bn)
    torch.cuda.synchronize()
    want, want2 = _edges_expected(x.float().cpu().numpy(), n, bm, bn, off)
    np.testing.assert_array_equal(out.float().cpu().numpy(), want)
    np.testing.assert_array_equal(o2.cpu().numpy(), want2)


def _edges_expected(x, n, bm, bn, off):
    """What read_block_at_kernel reads from `x` (m x width, n columns in
    the tensor) at `off`, zeros outside, and what write_block_at_kernel
    leaves in an m x width array of -1."""
    m, width = x.shape
    want = np.zeros((bm, bn), np.float32)
    want2 = np.full((m, width), -1.0, np.float32)
    for i in range(bm):
        for j in range(bn):
            r, c = off[0] + i, off[1] + j
            if 0 <= r < m and 0 <= c < n:
                want[i, j] = x[r, c]
                want2[r, c] = i * 1000 + j
    return want, want2


@pytest.mark.parametrize("off", [(30, 40), (8, 16), (0, 0), (36, 30), (30, 32), (36, 16)])
@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize("n", [45, 48])
def test_interpreter_tma_edges(off, dtype, n, rng):
    # test_gpu_tma_edges's kernel at its arguments,
    # in the interpreter: checked here without a GPU, and
    # (TERRAZZO_AMD_LAUNCHES) compiled at that key for the AMD targets.
    m, bm, bn, width = 37, 16, 32, 64
    x = rng.standard_normal((m, width)).astype(dtype)
    out = np.full((bm, bn), np.nan, dtype)
    triton.jit(read_block_at_kernel.fn, interpret=True)[(1,)](
        x, out, m, n, width, off[0], off[1], BM=bm, BN=bn)
    o2 = np.full((m, width), -1.0, np.float32)
    triton.jit(write_block_at_kernel.fn, interpret=True)[(1,)](
        o2, m, n, width, off[0], off[1], BM=bm, BN=bn)
    want, want2 = _edges_expected(x.astype(np.float32), n, bm, bn, off)
    np.testing.assert_array_equal(out.astype(np.float32), want)
    np.testing.assert_array_equal(o2, want2)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16", "int8"])
def test_gpu_descriptor_1d_sm90(torch_cuda, dtype, rng):
    # 1-D blocks, the last one past the end: TMA loads, and TMA stores when
    # n is specialised as a multiple of 16 (else the pointer path, since a
    # TMA store would write past n); nothing is written past n either way.
    torch = torch_cuda
    _sm90(torch)
    n = int(rng.integers(300, 2000))
    tdt = getattr(torch, dtype)
    dt = {"float32": tl.float32, "float16": tl.float16, "bfloat16": tl.bfloat16,
          "int8": tl.int8}[dtype]
    x = torch.from_numpy(rng.integers(-100, 100, n).astype(np.float32)).to(tdt).cuda()
    y = torch.zeros(n + 64, dtype=tdt, device="cuda")
    _expect_tma(dtype_kernel, x, y, n, DT=dt, BLOCK=128)
    dtype_kernel[(triton.cdiv(n, 128),)](x, y, n, DT=dt, BLOCK=128)
    torch.cuda.synchronize()
    assert torch.equal(y[:n], x)
    assert (y[n:] == 0).all()


@pytest.mark.gpu
def test_gpu_descriptor_3d_sm90(torch_cuda, rng):
    # 3-D blocks, the last one past the end (a = 5 rows of 2): TMA loads and
    # stores (32 float32 columns, a whole number of 16 bytes).
    torch = torch_cuda
    _sm90(torch)
    a, b, c = 5, 3, 32
    x = torch.from_numpy(rng.standard_normal((a, b, c)).astype(np.float32)).cuda()
    y = torch.full((a, b, c), float("nan"), device="cuda")
    _expect_tma(rank3_kernel, x, y, a, b, c, b * c, c, BA=2, BB=4, BC=32)
    rank3_kernel[(triton.cdiv(a, 2),)](x, y, a, b, c, b * c, c, BA=2, BB=4, BC=32)
    torch.cuda.synchronize()
    assert torch.equal(y, x + 1)


@pytest.mark.gpu
def test_gpu_allocator(torch_cuda, rng):
    # Maps built in the kernel (descriptors of loaded sizes and offsets)
    # take scratch from the allocator: programs x 2 tensor maps x 128
    # bytes, aligned to 128, for the launch's stream. Maps of arguments
    # alone are the launcher's: no scratch, the allocator is not called.
    torch = torch_cuda
    _sm90(torch)
    import terrazzo
    calls = []

    def alloc(size, alignment, stream):
        calls.append((size, alignment))
        return torch.empty(size, dtype=torch.int8, device="cuda")

    x, offsets, sizes = _problems(rng, PER_PROBLEM_SIZES)
    xd = torch.from_numpy(x).cuda()
    y = torch.full_like(xd, float("nan"))
    m, n = 100, 64
    a = torch.randn(m, n, device="cuda")
    b = torch.empty_like(a)
    try:
        terrazzo.set_allocator(alloc)
        per_problem_kernel[(3,)](xd, y, torch.from_numpy(offsets).cuda(),
                                 torch.from_numpy(sizes).cuda(), len(PER_PROBLEM_SIZES),
                                 BM=16, BN=32)
        tma_copy_kernel[(triton.cdiv(m, 32), 2)](a, b, m, n, n, n, BM=32, BN=32)
        torch.cuda.synchronize()
    finally:
        terrazzo.set_allocator(None)
    assert calls == [(3 * 2 * 128, 128)]
    want = np.where(np.isnan(x), np.nan, x.astype(np.float64) * 2 + 1)
    np.testing.assert_allclose(y.cpu().numpy(), want.astype(np.float32), rtol=0)
    assert torch.equal(b, a * 2 + 1)
    # Without one, the launcher's own buffer, grown for a larger grid.
    y = torch.full_like(xd, float("nan"))
    per_problem_kernel[(40,)](xd, y, torch.from_numpy(offsets).cuda(),
                              torch.from_numpy(sizes).cuda(), len(PER_PROBLEM_SIZES),
                              BM=16, BN=32)
    torch.cuda.synchronize()
    np.testing.assert_allclose(y.cpu().numpy(), want.astype(np.float32), rtol=0)


@pytest.mark.gpu
def test_gpu_empty_tensor_maps(torch_cuda):
    # Tensor maps of empty tensors (an extent of 0, which a tensor map
    # cannot hold) read zeros and write nothing: y = x * 2 + 1 of an empty
    # x writes no element of y, and a copy from a 0-row x to a full y reads
    # zeros (every block out of bounds) while the next launch, from a real
    # x, is right.
    torch = torch_cuda
    _sm90(torch)
    n = 64
    y = torch.full((64, n), 7.0, device="cuda")
    x = torch.empty((0, n), device="cuda")
    tma_copy_kernel[(2, 2)](x, y, 0, n, n, n, BM=32, BN=32)
    torch.cuda.synchronize()
    assert torch.equal(y, torch.full_like(y, 7.0))
    x = torch.randn(64, n, device="cuda")
    tma_copy_kernel[(2, 2)](x, y, 64, n, n, n, BM=32, BN=32)
    torch.cuda.synchronize()
    assert torch.equal(y, x * 2 + 1)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize("off", [(-8, -16), (-16, 0), (0, -32), (-20, -64), (30, -16), (-1, 0)])
def test_gpu_tma_negative_loads(torch_cuda, dtype, off, rng):
    # Blocks at negative coordinates (the column a whole number of 16 bytes)
    # by TMA: zeros where they lie outside the tensor, wholly outside too.
    torch = torch_cuda
    _sm90(torch)
    m, n, width, bm, bn = 37, 64, 64, 16, 32
    tdt = getattr(torch, dtype)
    x = torch.from_numpy(rng.standard_normal((m, width)).astype(np.float32)).to(tdt).cuda()
    out = torch.full((bm, bn), float("nan"), dtype=tdt, device="cuda")
    args = (x, out, m, n, width, off[0], off[1])
    _expect_tma(read_block_kernel, *args, BM=bm, BN=bn)
    read_block_kernel[(1,)](*args, BM=bm, BN=bn)
    torch.cuda.synchronize()
    xs = x.cpu().double().numpy()
    want = np.zeros((bm, bn))
    for i in range(bm):
        for j in range(bn):
            r, c = off[0] + i, off[1] + j
            if 0 <= r < m and 0 <= c < n:
                want[i, j] = xs[r, c]
    np.testing.assert_array_equal(out.cpu().double().numpy(), want)


@triton.jit
def _copy_rows(desc, out_ptr, row, n, BM: tl.constexpr, BN: tl.constexpr):
    block = desc.load([row, 0])
    rows = row + tl.arange(0, BM)
    cols = tl.arange(0, BN)
    tl.store(out_ptr + rows[:, None] * n + cols[None, :], block,
             mask=(rows[:, None] < desc.shape[0]) & (cols[None, :] < n))


@triton.jit
def descriptor_to_helper_kernel(x_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    # A descriptor passed to a @jit function (as Triton's tutorial 06 does):
    # the callee gets its base, shape and strides and makes it again.
    desc = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    for i in range(0, 2):
        _copy_rows(desc, out_ptr, (tl.program_id(0) * 2 + i) * BM, N, BM, BN)


@pytest.mark.parametrize("interpret", [True, False])
def test_descriptor_passed_to_a_helper(interpret, rng, check_ir, monkeypatch):
    m, n, bm, bn = 100, 32, 16, 32
    x = rng.standard_normal((m, n)).astype(np.float32)
    if interpret:
        out = np.full_like(x, np.nan)
        interp(descriptor_to_helper_kernel)[(triton.cdiv(m, 2 * bm),)](x, out, m, n, BM=bm, BN=bn)
        np.testing.assert_array_equal(out, x)
        return
    pytest.importorskip("terrazzo._C")
    text = descriptor_to_helper_kernel.ir(x, x, m, n, BM=bm, BN=bn)
    assert text.count("tile.make_tensor_desc") == 2  # in the kernel and in the helper
    check_ir(text)
    for target in ("cuda:90", "cuda:80"):
        monkeypatch.setenv("TERRAZZO_TARGET", target)
        ptx = descriptor_to_helper_kernel.compile(x, x, m, n, BM=bm, BN=bn, stage="ptx")
        assert "ld.global" in ptx or "cp.async.bulk.tensor" in ptx
