"""Matmuls through tensor descriptors, written as Triton's descriptor
matmul writes them (B given K x N, or N x K and transposed in the kernel).
On sm_90 each K step's blocks are TMA copies, which terrazzo-pipeline stages
num_stages deep in a ring of buffers and mbarriers. The interpreter against
float64 on fresh random inputs with tails; the IR and PTX for sm_90a; the
GPU over element types, precisions, stage counts and masked edges, checked
against float64 with every output element written. Without TMA
(TERRAZZO_TMA=0, and targets before sm_90) the descriptors become pointer
loads computed from the loop counter, which terrazzo-pipeline stages through
cp.async like Triton-style pointers computed from k (matmul_k_pointers_kernel).
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import terrazzo as triton
import terrazzo.language as tl


@triton.jit
def matmul_desc_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                       BK: tl.constexpr, B_NK: tl.constexpr, PREC: tl.constexpr,
                       ACC: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1],
                                       block_shape=[BM, BK])
    if B_NK:
        b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1],
                                           block_shape=[BN, BK])
    else:
        b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1],
                                           block_shape=[BK, BN])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1],
                                       block_shape=[BM, BN])
    off_m = tl.program_id(0) * BM
    off_n = tl.program_id(1) * BN
    acc = tl.zeros((BM, BN), dtype=ACC)
    for k in range(0, tl.cdiv(K, BK)):
        a = a_desc.load([off_m, k * BK])
        if B_NK:
            b = b_desc.load([off_n, k * BK]).T
        else:
            b = b_desc.load([k * BK, off_n])
        acc = tl.dot(a, b, acc, input_precision=PREC)
    c_desc.store([off_m, off_n], acc)


@triton.jit
def matmul_k_pointers_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr,
                             BN: tl.constexpr, BK: tl.constexpr):
    # Pointers computed from k in every iteration (not carried and advanced).
    offs_m = tl.program_id(0) * BM + tl.arange(0, BM)
    offs_n = tl.program_id(1) * BN + tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        ks = k * BK + offs_k
        a = tl.load(a_ptr + offs_m[:, None] * K + ks[None, :],
                    mask=(offs_m[:, None] < M) & (ks[None, :] < K), other=0.0)
        b = tl.load(b_ptr + ks[:, None] * N + offs_n[None, :],
                    mask=(ks[:, None] < K) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], acc,
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def _reference(a, b, b_nk):
    a64 = np.asarray(a, np.float64)
    b64 = np.asarray(b, np.float64)
    return a64 @ (b64.T if b_nk else b64)


@pytest.mark.parametrize("b_nk", [False, True])
@pytest.mark.parametrize("mnk", [(40, 24, 48), (16, 16, 8)])
def test_interpreter(b_nk, mnk, rng):
    # Blocks past every edge read zeros; the tails of the K loop included.
    m, n, k = mnk
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((n, k) if b_nk else (k, n)).astype(np.float32)
    c = np.full((m, n), np.nan, np.float32)
    kernel = triton.jit(matmul_desc_kernel.fn, interpret=True)
    bm, bn, bk = 16, 16, 16
    kernel[(triton.cdiv(m, bm), triton.cdiv(n, bn))](
        a, b, c, m, n, k, BM=bm, BN=bn, BK=bk, B_NK=b_nk, PREC="ieee", ACC=tl.float32)
    assert not np.isnan(c).any()
    np.testing.assert_allclose(c, _reference(a, b, b_nk), rtol=1e-5, atol=1e-5)


def _compile(stage, dtype=np.float16, b_nk=True, prec="tf32", stages=3, block=(128, 128, 64),
             warps=4):
    from terrazzo.runtime import driver
    if not driver.extension_available():
        pytest.skip("terrazzo._C is not built")
    a = np.zeros((256, 256), dtype)
    c = np.zeros((256, 256), np.float32)
    bm, bn, bk = block
    return matmul_desc_kernel.compile(
        a, a, c, 256, 256, 256, BM=bm, BN=bn, BK=bk, B_NK=b_nk, PREC=prec, ACC=tl.float32,
        stage=stage, target="cuda:90", num_warps=warps, num_stages=stages)


@pytest.fixture(autouse=True)
def _tma_default(monkeypatch):
    monkeypatch.delenv("TERRAZZO_TMA", raising=False)


@pytest.mark.parametrize("stages", [2, 3, 4])
@pytest.mark.parametrize("b_nk", [False, True])
def test_pipelined_form(stages, b_nk):
    # Both operands come through stacks of `stages` TMA buffers and one
    # mbarrier per stage, waited for in the loop-carried parity; the dot is
    # asynchronous and reads the buffers themselves (B through a transposed
    # view when given N x K).
    ir = str(_compile("tilegpu", b_nk=b_nk, stages=stages))
    loop = ir[ir.index("scf.for"):]
    assert len(re.findall(rf"local_alloc : \(\) -> !tilegpu.memdesc<{stages}x", ir)) == 3
    assert re.search(r"tilegpu.mbarrier_wait %\S+, %arg\d+ ", loop)
    assert "mbarrier_init" not in loop and "local_load" not in loop.split("scf.yield")[0]
    assert "warp_group_dot async" in loop
    assert ("memdesc_trans" in loop) == b_nk
    # Iterations 0 .. stages-2 are copied before the loop.
    prologue = ir[:ir.index("scf.for")]
    assert prologue.count("async_tma_copy_global_to_local") == 2 * (stages - 1)


def test_one_stage_is_not_pipelined():
    ir = str(_compile("tilegpu", stages=1))
    loop = ir[ir.index("scf.for"):]
    assert "mbarrier_init" in loop and "memdesc_index" not in loop


def test_pipelined_ptx_assembles(tmp_path):
    # In the loop one barrier (before the copies ahead), no proxy fence:
    # the wgmmas read what only TMA wrote.
    from test_tensor_descriptors import _assemble
    ptx = _compile("ptx", block=(128, 256, 64), warps=8)
    body = ptx[ptx.index("mbarrier.try_wait.parity"):ptx.index("wgmma.wait_group.sync.aligned 0")]
    assert body.count("bar.sync") == 1
    assert "fence.proxy.async" not in body
    assert body.count("cp.async.bulk.tensor.2d.shared::cluster.global") >= 2
    _assemble(ptx, tmp_path)


_CASES = [
    # dtype, b_nk, precision, (M, N, K), block, stages
    ("float16", False, "tf32", (256, 192, 512), (128, 64, 64), 3),
    ("float16", True, "tf32", (256, 192, 512), (128, 64, 64), 3),
    ("float16", True, "tf32", (200, 136, 208), (64, 64, 64), 4),     # tails everywhere
    ("float16", True, "tf32", (96, 80, 32), (64, 64, 64), 3),        # one partial K step
    ("float16", True, "tf32", (128, 128, 1024), (128, 128, 64), 2),
    ("float16", True, "tf32", (128, 256, 640), (128, 256, 64), 3),
    ("float16", False, "tf32", (128, 128, 64 * 7), (64, 128, 64), 1),  # not pipelined
    ("bfloat16", True, "tf32", (256, 256, 320), (128, 128, 64), 3),
    ("bfloat16", False, "tf32", (192, 64, 256), (64, 64, 32), 4),
    ("float32", True, "tf32", (128, 96, 208), (64, 32, 32), 3),
    ("float32", False, "ieee", (100, 72, 144), (64, 64, 16), 3),     # FMA dots
    ("float8_e4m3fn", True, "tf32", (256, 128, 512), (128, 128, 128), 3),
    ("int8", True, "tf32", (128, 192, 384), (64, 64, 128), 3),
]


@pytest.mark.gpu
@pytest.mark.parametrize("dtype,b_nk,prec,mnk,block,stages", _CASES)
def test_gpu(torch_cuda, dtype, b_nk, prec, mnk, block, stages, rng):
    torch = torch_cuda
    if torch.cuda.get_device_capability()[0] != 9:
        pytest.skip("TMA is for sm_90")
    m, n, k = mnk
    bm, bn, bk = block
    tdt = getattr(torch, dtype)
    b_shape = (n, k) if b_nk else (k, n)
    if dtype == "int8":
        a = torch.from_numpy(rng.integers(-8, 8, (m, k), dtype=np.int8)).cuda()
        b = torch.from_numpy(rng.integers(-8, 8, b_shape, dtype=np.int8)).cuda()
        c = torch.full((m, n), -12345, dtype=torch.int32, device="cuda")
        acc = tl.int32
    else:
        a = torch.from_numpy(rng.standard_normal((m, k)).astype(np.float32)).to(tdt).cuda()
        b = torch.from_numpy(rng.standard_normal(b_shape).astype(np.float32)).to(tdt).cuda()
        c = torch.full((m, n), float("nan"), dtype=torch.float32, device="cuda")
        acc = tl.float32
    args = (a, b, c, m, n, k)
    meta = dict(BM=bm, BN=bn, BK=bk, B_NK=b_nk, PREC=prec, ACC=acc, num_stages=stages,
                num_warps=8 if bm * bn >= 128 * 256 else 4)
    ptx = matmul_desc_kernel.compile(*args, stage="ptx", **meta)
    assert "cp.async.bulk.tensor.2d.shared::cluster.global" in ptx
    matmul_desc_kernel[(triton.cdiv(m, bm), triton.cdiv(n, bn))](*args, **meta)
    torch.cuda.synchronize()
    a64, b64 = a.cpu().double().numpy(), b.cpu().double().numpy()
    want = _reference(a64, b64, b_nk)
    got = c.cpu().double().numpy()
    if dtype == "int8":
        assert np.array_equal(got, want)
        return
    assert not np.isnan(got).any(), "output elements not written"
    if dtype == "float8_e4m3fn":
        # wgmma's fp8 accumulation keeps about 14 bits (test_dot's bound).
        from test_dot import _fp8_accumulation_bound
        bk_n = b.double().T if b_nk else b.double()
        bound = _fp8_accumulation_bound(torch, a.double(), bk_n).cpu().numpy()
        assert (np.abs(got - want) <= bound).all(), np.abs(got - want).max()
        return
    # Relative to |A| |B| (as test_dot): float32 accumulation of exact
    # products, or of tf32-rounded inputs.
    bound = _reference(np.abs(a64), np.abs(b64), b_nk)
    err = (np.abs(got - want) / bound).max()
    tol = 2e-3 if dtype == "float32" and prec == "tf32" else 1e-5
    assert err < tol, err


@pytest.mark.parametrize("target,tma", [("cuda:80", None), ("cuda:90", "0"), ("cuda:90", None)])
def test_k_pointers_are_pipelined(target, tma, monkeypatch):
    # On sm_90 terrazzo-loads-to-descriptors proves both loads are boxes of
    # A and B (masks by M, N, K; rows at pid * BM, k * BK): TMA copies in a
    # ring; elsewhere, or with TERRAZZO_TMA=0, cp.async with the pointers
    # recomputed per iteration.
    from terrazzo.runtime import driver
    if not driver.extension_available():
        pytest.skip("terrazzo._C is not built")
    if tma is not None:
        monkeypatch.setenv("TERRAZZO_TMA", tma)
    a = np.zeros((256, 256), np.float16)
    c = np.zeros((256, 256), np.float32)
    ptx = matmul_k_pointers_kernel.compile(a, a, c, 256, 256, 256, BM=128, BN=128, BK=32,
                                           stage="ptx", target=target, num_stages=3)
    if target == "cuda:90" and tma is None:
        assert ptx.count("cp.async.bulk.tensor.2d.shared::cluster.global") >= 4
        assert ptx.count("mbarrier.try_wait.parity") == 1
        assert "cp.async.cg" not in ptx
    else:
        assert "cp.async.bulk" not in ptx
        assert "cp.async.cg.shared.global" in ptx
        # Three stages, a group per operand: one iteration's two in flight.
        assert re.search(r"cp\.async\.wait_group 2;", ptx)


@pytest.mark.gpu
@pytest.mark.parametrize("tma", [None, "0"])
@pytest.mark.parametrize("mnk", [(256, 192, 512), (200, 136, 208), (96, 80, 32)])
def test_gpu_k_pointers(torch_cuda, monkeypatch, tma, mnk, rng):
    # On sm_90 by TMA where the loads' boxes are proven (an N of 136 rows
    # of B is not a whole number of 16 bytes: B stays cp.async, A TMA, in
    # one loop), else cp.async.
    if tma is not None:
        monkeypatch.setenv("TERRAZZO_TMA", tma)
    torch = torch_cuda
    m, n, k = mnk
    a = torch.from_numpy(rng.standard_normal((m, k)).astype(np.float32)).half().cuda()
    b = torch.from_numpy(rng.standard_normal((k, n)).astype(np.float32)).half().cuda()
    c = torch.full((m, n), float("nan"), dtype=torch.float32, device="cuda")
    matmul_k_pointers_kernel[(triton.cdiv(m, 64), triton.cdiv(n, 64))](
        a, b, c, m, n, k, BM=64, BN=64, BK=32, num_stages=3)
    torch.cuda.synchronize()
    a64, b64 = a.cpu().double().numpy(), b.cpu().double().numpy()
    got = c.cpu().double().numpy()
    assert not np.isnan(got).any()
    err = (np.abs(got - a64 @ b64) / (np.abs(a64) @ np.abs(b64))).max()
    assert err < 1e-5, err


@pytest.mark.parametrize("mnk", [(256, 192, 512), (200, 136, 208), (96, 80, 32)])
def test_interpreter_k_pointers(mnk, rng):
    # test_gpu_k_pointers's kernel at its arguments,
    # in the interpreter: checked here without a GPU, and
    # (TERRAZZO_AMD_LAUNCHES) compiled at that key for the AMD targets.
    m, n, k = mnk
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    c = np.full((m, n), np.nan, np.float32)
    kernel = triton.jit(matmul_k_pointers_kernel.fn, interpret=True)
    kernel[(triton.cdiv(m, 64), triton.cdiv(n, 64))](a, b, c, m, n, k, BM=64, BN=64, BK=32,
                                                      num_stages=3)
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    assert not np.isnan(c).any()
    err = (np.abs(c - a64 @ b64) / (np.abs(a64) @ np.abs(b64))).max()
    assert err < 1e-5, err


@pytest.mark.gpu
@pytest.mark.parametrize("case", [0, 2, 10], ids=["f16", "f16-tails", "f32-ieee"])
def test_gpu_without_tma(torch_cuda, monkeypatch, case, rng):
    # The descriptors' pointer lowering, pipelined through cp.async.
    monkeypatch.setenv("TERRAZZO_TMA", "0")
    dtype, b_nk, prec, mnk, block, stages = _CASES[case]
    torch = torch_cuda
    m, n, k = mnk
    bm, bn, bk = block
    tdt = getattr(torch, dtype)
    a = torch.from_numpy(rng.standard_normal((m, k)).astype(np.float32)).to(tdt).cuda()
    b = torch.from_numpy(rng.standard_normal((n, k) if b_nk else (k, n))
                         .astype(np.float32)).to(tdt).cuda()
    c = torch.full((m, n), float("nan"), dtype=torch.float32, device="cuda")
    meta = dict(BM=bm, BN=bn, BK=bk, B_NK=b_nk, PREC=prec, ACC=tl.float32, num_stages=stages)
    ptx = matmul_desc_kernel.compile(a, b, c, m, n, k, stage="ptx", **meta)
    assert "cp.async.bulk.tensor" not in ptx and "cp.async.cg.shared.global" in ptx
    matmul_desc_kernel[(triton.cdiv(m, bm), triton.cdiv(n, bn))](a, b, c, m, n, k, **meta)
    torch.cuda.synchronize()
    a64, b64 = a.cpu().double().numpy(), b.cpu().double().numpy()
    got = c.cpu().double().numpy()
    assert not np.isnan(got).any()
    err = (np.abs(got - _reference(a64, b64, b_nk)) / _reference(np.abs(a64), np.abs(b64), b_nk)).max()
    assert err < 1e-5, err


def _bench_kernels(tmp_path):
    """bench/matmul_descriptor.py's KERNEL_SOURCE for Terrazzo (read from
    the file: the benchmark itself needs torch)."""
    import ast
    import importlib.util
    import os
    path = os.path.join(os.path.dirname(__file__), "..", "..", "bench", "matmul_descriptor.py")
    tree = ast.parse(open(path).read())
    source = next(node.value.value for node in tree.body if isinstance(node, ast.Assign)
                  and getattr(node.targets[0], "id", "") == "KERNEL_SOURCE")
    module_path = tmp_path / "bench_kernels.py"
    module_path.write_text(source.format(package="terrazzo"))
    spec = importlib.util.spec_from_file_location("bench_kernels", module_path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("pointers", [False, True])
def test_bench_kernels_use_tma(tmp_path, pointers):
    # The benchmark's kernels compile for sm_90a with their A and B blocks
    # copied by TMA, pipelined: from the descriptors, and from the pointer
    # loads whose boxes terrazzo-loads-to-descriptors proves.
    from terrazzo.runtime import driver
    if not driver.extension_available():
        pytest.skip("terrazzo._C is not built")
    module = _bench_kernels(tmp_path)
    kernel = module.matmul_pointers_kernel if pointers else module.matmul_kernel
    a = np.zeros((512, 512), np.float16)
    ptx = kernel.compile(a, a, a, 512, 512, 512, BM=128, BN=256, BK=64, GROUP_M=8,
                         stage="ptx", target="cuda:90", num_warps=8, num_stages=3)
    # 3 stages: iterations 0 and 1 before the loop, i + 2 in it; A is one
    # box, B (256 rows) one box.
    assert ptx.count("cp.async.bulk.tensor.2d.shared::cluster.global") == 6
    assert ptx.count("mbarrier.try_wait.parity") == 1
    assert "cp.async.cg" not in ptx


def test_negative_arguments_keep_pointer_loads():
    # The launch key records whether each integer argument is negative
    # (tile.nonnegative in the IR); a negative K (an empty product) gets a
    # kernel of its own where the loads stay pointer loads: a tensor map
    # with a negative extent or stride would read elsewhere than they do.
    from terrazzo.runtime import driver
    if not driver.extension_available():
        pytest.skip("terrazzo._C is not built")
    a = np.zeros((256, 256), np.float16)
    c = np.zeros((256, 256), np.float32)

    def compile_for(k, stage):
        return matmul_k_pointers_kernel.compile(a, a, c, 256, 256, k, BM=128, BN=128, BK=32,
                                                stage=stage, target="cuda:90", num_stages=3)
    ir = str(compile_for(256, "tile"))
    assert ir.count("tile.nonnegative") == 3  # M, N and K
    assert "cp.async.bulk.tensor" in compile_for(256, "ptx")
    ir = str(compile_for(-32, "tile"))
    assert ir.count("tile.nonnegative") == 2
    assert "cp.async.bulk.tensor" not in compile_for(-32, "ptx")


@triton.jit
def store_at_rows_kernel(out, rows, N, BLOCK: tl.constexpr):
    # Program p stores its block (values 1000 p + i * BLOCK + j) at row
    # rows[p] of `out` (N columns) through a descriptor: the row is loaded,
    # so its sign is known only at run time.
    pid = tl.program_id(0)
    row = tl.load(rows + pid)
    desc = tl.make_tensor_descriptor(out, shape=[N, N], strides=[N, 1],
                                     block_shape=[BLOCK, BLOCK])
    offs = tl.arange(0, BLOCK)
    block = (pid * 1000 + offs[:, None] * BLOCK + offs[None, :]).to(tl.float32)
    desc.store([row, 0], block)


def test_store_at_unknown_sign_is_guarded():
    # A TMA store at a negative coordinate faults on the H100: the store is
    # a TMA store under a check that the row is not negative, and a pointer
    # store (masked to the tensor) where it is.
    from terrazzo.runtime import driver
    if not driver.extension_available():
        pytest.skip("terrazzo._C is not built")
    out, rows = np.zeros((64, 64), np.float32), np.zeros(4, np.int32)
    ptx = store_at_rows_kernel.compile(out, rows, 64, BLOCK=32, stage="ptx", target="cuda:90")
    assert "cp.async.bulk.tensor.2d.global.shared::cta" in ptx
    assert "st.global" in ptx


@pytest.mark.gpu
def test_gpu_store_at_unknown_sign(torch_cuda):
    # Rows -40 (nothing inside), -8 (the block's last 24 rows land in rows
    # 0..23), 24, and 80 (its first 16 rows, the rest past the end); the
    # blocks do not overlap: every element inside the tensor written by the
    # program that covers it, nothing else touched.
    torch = torch_cuda
    n, block = 96, 32
    rows = [-40, -8, 24, 80]
    out = torch.full((n, n), -1.0, device="cuda")
    store_at_rows_kernel[(len(rows),)](out, torch.tensor(rows, device="cuda",
                                                         dtype=torch.int32), n, BLOCK=block)
    want = np.full((n, n), -1.0, np.float32)
    values = np.arange(block * block, dtype=np.float32).reshape(block, block)
    for p, row in enumerate(rows):
        for i in range(block):
            if 0 <= row + i < n:
                want[row + i, :block] = p * 1000 + values[i]
    np.testing.assert_array_equal(out.cpu().numpy(), want)
