"""An attention forward that reads Q, K and V and writes O through tensor
descriptors (the form of Triton's tutorial on Hopper), its key loop
`tl.range(..., warp_specialize=True)`: at head dimension 128 with 128 x 128
blocks and two stages, the producer's ring (3 x 64 KiB) fits beside Q's
block or beside O's block staged for its TMA store, not beside both; the
two are never live together (O's is written after the loop), so the loop
keeps its producer warp group; the same in a persistent kernel (a loop
over tiles), whose store's block is then allocated at the store, in Q's
place, instead of before the loop over tiles. For sm_90 without a GPU
(PTX: setmaxnreg, the TMA store), and on a GPU against float64.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import terrazzo as triton
import terrazzo.language as tl


@triton.jit
def _descriptors(Q, K, V, Out, rows, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr,
                 BLOCK_N: tl.constexpr):
    return (tl.make_tensor_descriptor(Q, [rows, HEAD_DIM], [HEAD_DIM, 1], [BLOCK_M, HEAD_DIM]),
            tl.make_tensor_descriptor(K, [rows, HEAD_DIM], [HEAD_DIM, 1], [BLOCK_N, HEAD_DIM]),
            tl.make_tensor_descriptor(V, [rows, HEAD_DIM], [HEAD_DIM, 1], [BLOCK_N, HEAD_DIM]),
            tl.make_tensor_descriptor(Out, [rows, HEAD_DIM], [HEAD_DIM, 1], [BLOCK_M, HEAD_DIM]))


@triton.jit
def _tile(desc_q, desc_k, desc_v, desc_o, sm_scale, row0, start_m, N_CTX,
          HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # Rows start_m * BLOCK_M.. of the head whose rows begin at row0.
    q = desc_q.load([row0 + start_m * BLOCK_M, 0])
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    for start_n in tl.range(0, N_CTX, BLOCK_N, warp_specialize=True):
        k = desc_k.load([row0 + start_n, 0])
        qk = tl.dot(q, k.T)
        m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
        qk = qk * qk_scale - m_ij[:, None]
        p = tl.math.exp2(qk)
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = desc_v.load([row0 + start_n, 0])
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_ij
    acc = acc / l_i[:, None]
    desc_o.store([row0 + start_m * BLOCK_M, 0], acc.to(tl.float16))


@triton.jit
def attn_fwd_desc(Q, K, V, Out, sm_scale, Z, H, N_CTX, HEAD_DIM: tl.constexpr,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # (Z * H * N_CTX) rows of HEAD_DIM each; N_CTX a multiple of BLOCK_M.
    # One program per tile (grid: row blocks, heads).
    dq, dk, dv, do = _descriptors(Q, K, V, Out, Z * H * N_CTX, HEAD_DIM, BLOCK_M, BLOCK_N)
    _tile(dq, dk, dv, do, sm_scale, tl.program_id(1) * N_CTX, tl.program_id(0), N_CTX,
          HEAD_DIM, BLOCK_M, BLOCK_N)


@triton.jit
def attn_fwd_desc_persistent(Q, K, V, Out, sm_scale, Z, H, N_CTX, HEAD_DIM: tl.constexpr,
                             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # The same tiles walked by a grid of fewer programs: O's block, staged
    # for its TMA store after each tile's key loop, takes Q's place.
    dq, dk, dv, do = _descriptors(Q, K, V, Out, Z * H * N_CTX, HEAD_DIM, BLOCK_M, BLOCK_N)
    tiles_m = N_CTX // BLOCK_M
    for tile in range(tl.program_id(0), tiles_m * Z * H, tl.num_programs(0)):
        _tile(dq, dk, dv, do, sm_scale, (tile // tiles_m) * N_CTX, tile % tiles_m, N_CTX,
              HEAD_DIM, BLOCK_M, BLOCK_N)


CONFIG = dict(HEAD_DIM=128, BLOCK_M=128, BLOCK_N=128, num_warps=8, num_stages=2)


@pytest.mark.parametrize("kernel", [attn_fwd_desc, attn_fwd_desc_persistent])
def test_producer_warp_group_kept_beside_staged_blocks(monkeypatch, kernel):
    pytest.importorskip("terrazzo._C")
    monkeypatch.setenv("TERRAZZO_TARGET", "cuda:90")
    q = np.zeros((1, 2, 1024, 128), np.float16)
    ptx = kernel.compile(q, q, q, q, 0.125, 1, 2, 1024, **CONFIG, stage="ptx")
    assert "setmaxnreg.dec" in ptx and "setmaxnreg.inc" in ptx
    assert "cp.async.bulk.tensor.2d.global.shared::cta" in ptx  # O's TMA store
    assert "wgmma.mma_async" in ptx


@pytest.mark.gpu
@pytest.mark.parametrize("persistent", [False, True])
@pytest.mark.parametrize("z,h,n_ctx", [(2, 3, 1024), (1, 2, 384)])
def test_gpu_matches_float64(torch_cuda, z, h, n_ctx, persistent, rng):
    torch = torch_cuda
    q, k, v = (rng.standard_normal((z, h, n_ctx, 128)).astype(np.float16) for _ in range(3))
    out = torch.full((z, h, n_ctx, 128), float("nan"), dtype=torch.float16, device="cuda")
    sm_scale = 1.0 / math.sqrt(128)
    tiles = (n_ctx // CONFIG["BLOCK_M"], z * h)
    # Persistent: fewer programs than tiles (each takes two or three).
    kernel, grid = ((attn_fwd_desc_persistent, ((tiles[0] * tiles[1] + 2) // 3,)) if persistent
                    else (attn_fwd_desc, tiles))
    kernel[grid](*(torch.from_numpy(x).cuda() for x in (q, k, v)), out, sm_scale, z, h, n_ctx,
                 **CONFIG)
    s = np.einsum("zhmd,zhnd->zhmn", q.astype(np.float64), k.astype(np.float64)) * sm_scale
    e = np.exp(s - s.max(-1, keepdims=True))
    want = np.einsum("zhmn,zhnd->zhmd", e / e.sum(-1, keepdims=True), v.astype(np.float64))
    got = out.cpu().numpy().astype(np.float64)
    assert np.all(np.abs(got - want) <= 1e-2), np.nanmax(np.abs(got - want))
