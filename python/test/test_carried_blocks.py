"""A persistent kernel that loads its next tile's block of A while the
current tile is stored (a block that the loop over tiles carries into its
next iteration, as a persistent attention kernel can carry its next Q) and
multiplies it by B with tl.dot. For sm_90a the block is stored into shared
memory for wgmma in every iteration; terrazzo-remove-layout-conversions
keeps it in its load's layout, so the tilegpu IR converts it nowhere (it
used to go back to the default layout, through shared memory, before the
loop and in every iteration). In the interpreter and on a GPU, every tile
against float64, with a masked last tile.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import terrazzo as triton
import terrazzo.language as tl


@triton.jit
def carried_next_block(A, B, C, M, BLOCK_M: tl.constexpr, K: tl.constexpr,
                       N: tl.constexpr):
    # C = A @ B for A (M x K) in row tiles of BLOCK_M, B (K x N) whole.
    tiles = tl.cdiv(M, BLOCK_M)
    programs = tl.num_programs(0)
    offs_k = tl.arange(0, K)
    offs_n = tl.arange(0, N)
    b = tl.load(B + offs_k[:, None] * N + offs_n[None, :])
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    a = tl.load(A + rows[:, None] * K + offs_k[None, :], mask=rows[:, None] < M, other=0.0)
    for tile in tl.range(tl.program_id(0), tiles, programs):
        rows = tile * BLOCK_M + tl.arange(0, BLOCK_M)
        c = tl.dot(a, b)
        # The next tile's block (rows past M, or past the last tile, read as
        # zeros), loaded before this tile's store.
        rows_next = (tile + programs) * BLOCK_M + tl.arange(0, BLOCK_M)
        a = tl.load(A + rows_next[:, None] * K + offs_k[None, :],
                    mask=rows_next[:, None] < M, other=0.0)
        tl.store(C + rows[:, None] * N + offs_n[None, :], c.to(tl.float16),
                 mask=rows[:, None] < M)


def _inputs(rng, m, k, n):
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    return a, b, a.astype(np.float64) @ b.astype(np.float64)


def test_interpreter(rng):
    # 200 rows in tiles of 16 over 3 programs: 13 tiles, the last one
    # masked, four or five per program.
    m, k, n = 200, 32, 16
    a, b, want = _inputs(rng, m, k, n)
    c = np.full((m, n), np.nan, np.float16)
    triton.jit(carried_next_block.fn, interpret=True)[(3,)](a, b, c, m, BLOCK_M=16, K=k, N=n)
    assert not np.isnan(c).any(), "output elements not written"
    err = np.abs(c.astype(np.float64) - want).max() / np.abs(want).max()
    assert err < 2e-3, err


def test_carried_in_load_layout_for_sm90():
    m, k, n = 1000, 32, 64
    text = carried_next_block.compile(np.zeros((m, k), np.float16),
                                      np.zeros((k, n), np.float16),
                                      np.zeros((m, n), np.float16), m,
                                      BLOCK_M=64, K=k, N=n, num_warps=4,
                                      stage="tilegpu", target="cuda:90")
    block = "64x32xf16"
    # The loop over tiles carries the block in the layout its loads give it.
    loads = set(re.findall(r"tile\.load .*: tensor<64x32x!tile\.ptr<f16>, (#\w+)>", text))
    carried = re.search(r"scf\.for .*iter_args\(.*\) -> \(.*tensor<" + block + r", (#\w+)>",
                        text)
    assert carried, text
    assert carried.group(1) in loads, (carried.group(1), loads)
    # Nothing converts it, and the buffer for wgmma is written from it.
    assert not re.search(r"tilegpu\.convert_layout .*tensor<" + block, text), text
    assert re.search(r"tilegpu\.local_alloc %arg\d+ : \(tensor<" + block + ", "
                     + carried.group(1) + ">", text), text
    assert "warp_group_dot" in text


@pytest.mark.gpu
@pytest.mark.parametrize("m", [1000, 64, 37])
def test_gpu(torch_cuda, rng, m):
    torch = torch_cuda
    k, n, block_m = 64, 64, 64
    a, b, want = _inputs(rng, m, k, n)
    a_d, b_d = torch.from_numpy(a).cuda(), torch.from_numpy(b).cuda()
    c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float16)
    programs = min(5, triton.cdiv(m, block_m))
    carried_next_block[(programs,)](a_d, b_d, c, m, BLOCK_M=block_m, K=k, N=n, num_warps=4)
    torch.cuda.synchronize()
    got = c.double().cpu().numpy()
    assert not np.isnan(got).any(), "output elements not written"
    err = np.linalg.norm(got - want) / np.linalg.norm(want)
    assert err < 2e-3, err
