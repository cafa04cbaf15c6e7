"""
Fused Attention
===============

In this tutorial you write scaled dot-product attention, forward and
backward, as one fused kernel per pass (the FlashAttention algorithm, as in
Triton's tutorial 06):

    S = Q K^T * sm_scale,  P = softmax(S) (rows; causal: key j <= query i),
    O = P V

for Q, K, V of shape (batch, heads, N_CTX, HEAD_DIM). The (N_CTX, N_CTX)
matrices S and P never reach memory. You will learn about:

* an *online softmax*: a loop over blocks of keys that keeps, per query row,
  the running maximum m and the running sum l of exp(s - m), rescaling the
  output accumulator when the maximum grows (in base 2: `tl.math.exp2` on
  scores pre-multiplied by log2(e));
* chains of matrix products with register-resident intermediates
  (`qk = tl.dot(q, k)`, then `acc = tl.dot(p, v, acc)`);
* causal masking in two stages (blocks wholly below the diagonal without a
  mask, the diagonal block with one) and masked tails for sequence lengths
  that are not a multiple of the block sizes;
* a persistent form of the forward: one program per multiprocessor walking
  the tiles, so that (with a producer warp group) the next tile's keys load
  while a tile finishes, and what a program builds once is built once;
* the backward pass from the saved log-sum-exp: a preprocessing kernel for
  delta = rowsum(dO * O), one kernel for dK and dV (a loop over query blocks
  per key block) and one for dQ (a loop over key blocks per query block),
  wrapped in a `torch.autograd.Function`.

Run it:

    python tutorials/06-fused-attention.py          # check forward and backward
    python tutorials/06-fused-attention.py --bench  # TFLOP/s against torch SDPA / Triton
                                                    # and plots: bench-results/*.png, *.csv

With an NVIDIA GPU and PyTorch the kernels run on the GPU (float16 and
bfloat16, head dims 64 and 128, causal and not, an fp8 e4m3 forward) and are
checked against a float64 reference of the same inputs; without one they run
in Terrazzo's interpreter at small sizes, checked against float64 NumPy.
"""

import argparse
import math
import os
import statistics

import numpy as np

import terrazzo as triton
import terrazzo.language as tl
from terrazzo.testing import gpu_available

try:
    import torch
except ImportError:
    torch = None

LOG2E = 1.4426950408889634


# %%
# Forward pass
# ------------
#
# One program per block of BLOCK_M query rows of one (batch, head). The
# inner function walks the key/value blocks in [lo, hi); MASK_DIAGONAL says
# whether the causal mask applies (the diagonal block), MASK_TAIL whether
# keys past N_CTX must be masked (the last block when N_CTX is not a
# multiple of BLOCK_N).

@triton.jit
def _attn_fwd_inner(acc, l_i, m_i, q, k_base, v_base, kv_row0, stride_kn, stride_vn,
                    offs_m, offs_d, lo, hi, qk_scale, N_CTX,
                    BLOCK_N: tl.constexpr, MASK_DIAGONAL: tl.constexpr,
                    MASK_TAIL: tl.constexpr, WARP_SPECIALIZE: tl.constexpr):
    offs_n = tl.arange(0, BLOCK_N)
    # With WARP_SPECIALIZE, a producer warp group issues the K and V copies
    # (on Hopper, where they come by TMA) while the program's warps compute.
    for start_n in tl.range(lo, hi, BLOCK_N, warp_specialize=WARP_SPECIALIZE):
        cols = start_n + offs_n
        rows = kv_row0 + cols  # K's and V's rows, from k_base and v_base
        if MASK_TAIL:
            k = tl.load(k_base + rows[None, :] * stride_kn + offs_d[:, None],
                        mask=cols[None, :] < N_CTX, other=0.0)
        else:
            k = tl.load(k_base + rows[None, :] * stride_kn + offs_d[:, None])
        qk = tl.dot(q, k)
        if MASK_DIAGONAL:
            qk = tl.where(offs_m[:, None] >= cols[None, :], qk, -1.0e6)
        if MASK_TAIL:
            qk = tl.where(cols[None, :] < N_CTX, qk, -1.0e6)
        # The row maximum of the raw scores, scaled once per row (qk_scale is
        # positive), so that each score takes one fused multiply-add on its
        # way to exp2 instead of a multiply and a subtract.
        m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
        p = tl.math.exp2(qk * qk_scale - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        if MASK_TAIL:
            v = tl.load(v_base + rows[:, None] * stride_vn + offs_d[None, :],
                        mask=cols[:, None] < N_CTX, other=0.0)
        else:
            v = tl.load(v_base + rows[:, None] * stride_vn + offs_d[None, :])
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_ij
    return acc, l_i, m_i


@triton.jit
def _attn_fwd_tile(Q, K, V, sm_scale, M, Out,
                   stride_qz, stride_qh, stride_qm,
                   stride_kz, stride_kh, stride_kn,
                   stride_vz, stride_vh, stride_vn,
                   stride_oz, stride_oh, stride_om,
                   H, N_CTX, start_m, off_hz,
                   HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                   CAUSAL: tl.constexpr, EVEN_N: tl.constexpr,
                   WARP_SPECIALIZE: tl.constexpr, FLAT_KV: tl.constexpr):
    off_z = off_hz // H
    off_h = off_hz % H
    q_base = Q + off_z * stride_qz + off_h * stride_qh
    o_base = Out + off_z * stride_oz + off_h * stride_oh
    if FLAT_KV:
        # K and V as (Z * H * N_CTX) rows: this head's start at row
        # off_hz * N_CTX of the tensors' own base.
        k_base = K
        v_base = V
        kv_row0 = off_hz * N_CTX
    else:
        k_base = K + off_z * stride_kz + off_h * stride_kh
        v_base = V + off_z * stride_vz + off_h * stride_vh
        kv_row0 = 0

    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_DIM)
    row_ok = offs_m < N_CTX
    q = tl.load(q_base + offs_m[:, None] * stride_qm + offs_d[None, :],
                mask=row_ok[:, None], other=0.0)

    # Running maximum and sum per row, in base 2 (scores times log2(e)).
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.4426950408889634

    if CAUSAL:
        # Key blocks wholly below the diagonal, then those that meet it,
        # masked (one block of keys divides the other: with key blocks
        # wider than the query block, the first masked one starts below it).
        hi_full = (start_m * BLOCK_M) // BLOCK_N * BLOCK_N
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, k_base, v_base, kv_row0, stride_kn,
                                        stride_vn, offs_m, offs_d, 0, hi_full, qk_scale,
                                        N_CTX, BLOCK_N, False, False,
                                        WARP_SPECIALIZE)
        hi = tl.minimum((start_m + 1) * BLOCK_M, N_CTX)
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, k_base, v_base, kv_row0, stride_kn,
                                        stride_vn, offs_m, offs_d, hi_full, hi, qk_scale,
                                        N_CTX, BLOCK_N, True, not EVEN_N,
                                        WARP_SPECIALIZE)
    else:
        if EVEN_N:
            acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, k_base, v_base, kv_row0,
                                            stride_kn, stride_vn, offs_m, offs_d, 0, N_CTX,
                                            qk_scale, N_CTX, BLOCK_N, False, False,
                                            WARP_SPECIALIZE)
        else:
            # Every block but the last without a mask, the last with one.
            hi_full = (N_CTX // BLOCK_N) * BLOCK_N
            acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, k_base, v_base, kv_row0,
                                            stride_kn, stride_vn, offs_m, offs_d, 0, hi_full,
                                            qk_scale, N_CTX, BLOCK_N, False, False,
                                            WARP_SPECIALIZE)
            acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, k_base, v_base, kv_row0,
                                            stride_kn, stride_vn, offs_m, offs_d, hi_full,
                                            N_CTX, qk_scale, N_CTX, BLOCK_N, False, True,
                                            WARP_SPECIALIZE)

    # The log-sum-exp per row (base 2), for the backward pass.
    tl.store(M + off_hz * N_CTX + offs_m, m_i + tl.math.log2(l_i), mask=row_ok)
    acc = acc / l_i[:, None]
    tl.store(o_base + offs_m[:, None] * stride_om + offs_d[None, :],
             acc.to(Out.dtype.element_ty), mask=row_ok[:, None])


@triton.jit
def _heaviest_first(heads_per_group):
    # With the causal mask a row block's work grows with its index. The GPU
    # starts programs in launch order (program_id(0) fastest), so the grid's
    # (row block, head) pairs are renumbered: the heads in groups of
    # heads_per_group (which divides Z * H), each group's row blocks from
    # the last (the heaviest) to the first, one per head in turn. The
    # programs launched last are then the shortest, and the multiprocessors
    # run out of work together instead of waiting for a few long ones. (The
    # maximum with 0 changes nothing but tells the compiler the index is not
    # negative, as K's and V's TMA copies need.)
    tiles_m = tl.num_programs(0)
    pid = tl.program_id(1) * tiles_m + tl.program_id(0)
    per_group = heads_per_group * tiles_m
    within = pid % per_group
    start_m = tl.maximum(tiles_m - 1 - within // heads_per_group, 0)
    off_hz = (pid // per_group) * heads_per_group + within % heads_per_group
    return start_m, off_hz


@triton.jit
def _attn_fwd(Q, K, V, sm_scale, M, Out,
              stride_qz, stride_qh, stride_qm,
              stride_kz, stride_kh, stride_kn,
              stride_vz, stride_vh, stride_vn,
              stride_oz, stride_oh, stride_om,
              H, N_CTX,
              HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
              CAUSAL: tl.constexpr, EVEN_N: tl.constexpr,
              WARP_SPECIALIZE: tl.constexpr, FLAT_KV: tl.constexpr = False,
              HEADS_PER_GROUP=1):
    # FLAT_KV (K and V contiguous in their first three dims): K and V read
    # as rows of the whole tensors, from their own base, so that on Hopper
    # their tensor maps are the kernel's arguments alone, which the
    # launcher builds once per launch rather than each program in its
    # prologue.
    if CAUSAL:
        start_m, off_hz = _heaviest_first(HEADS_PER_GROUP)
    else:
        start_m = tl.program_id(0)
        off_hz = tl.program_id(1)
    _attn_fwd_tile(Q, K, V, sm_scale, M, Out, stride_qz, stride_qh, stride_qm,
                   stride_kz, stride_kh, stride_kn, stride_vz, stride_vh, stride_vn,
                   stride_oz, stride_oh, stride_om, H, N_CTX,
                   start_m, off_hz, HEAD_DIM, BLOCK_M, BLOCK_N,
                   CAUSAL, EVEN_N, WARP_SPECIALIZE, FLAT_KV)


# The persistent form: one program per multiprocessor (or per tile, when
# there are fewer), each walking the tiles pid, pid + P, ... (P programs).
# A program starts its next tile without waiting for a launch, and builds
# what it needs once (on Hopper the K and V tensor maps, whose base is the
# tensors' own: K and V are read as rows of (Z * H * N_CTX, HEAD_DIM), so
# they must be contiguous in their first three dims).

@triton.jit
def _attn_fwd_persistent(Q, K, V, sm_scale, M, Out,
                         stride_qz, stride_qh, stride_qm,
                         stride_kz, stride_kh, stride_kn,
                         stride_vz, stride_vh, stride_vn,
                         stride_oz, stride_oh, stride_om,
                         Z, H, N_CTX,
                         HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr,
                         BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr,
                         EVEN_N: tl.constexpr, WARP_SPECIALIZE: tl.constexpr):
    tiles_m = tl.cdiv(N_CTX, BLOCK_M)
    for tile in tl.range(tl.program_id(0), tiles_m * Z * H, tl.num_programs(0)):
        off_hz = tile // tiles_m
        start_m = tile % tiles_m
        if CAUSAL:
            # A row block's work grows with start_m: every other head is
            # walked from its last row block, so that a program's tiles of
            # two consecutive rounds cost about the same as anyone's and
            # the programs stay together (on the same heads' K and V).
            # (The maximum with 0 changes nothing but lets the compiler know
            # the index is not negative, as K's and V's TMA copies need.)
            start_m = tl.where(off_hz % 2 == 1, tl.maximum(tiles_m - 1 - start_m, 0), start_m)
        _attn_fwd_tile(Q, K, V, sm_scale, M, Out, stride_qz, stride_qh, stride_qm,
                       stride_kz, stride_kh, stride_kn, stride_vz, stride_vh, stride_vn,
                       stride_oz, stride_oh, stride_om, H, N_CTX,
                       start_m, off_hz, HEAD_DIM, BLOCK_M, BLOCK_N,
                       CAUSAL, EVEN_N, WARP_SPECIALIZE, True)


# %%
# Backward pass
# -------------
#
# With P recomputed from the saved log-sum-exp (P = exp2(S * log2(e) - lse)),
# and delta_i = sum_j dO_ij O_ij:
#
#     dV = P^T dO,   dP = dO V^T,   dS = P * (dP - delta),
#     dQ = dS K * sm_scale,   dK = dS^T Q * sm_scale.

@triton.jit
def _attn_bwd_preprocess(O, DO, Delta, N_CTX, BLOCK_M: tl.constexpr,
                         HEAD_DIM: tl.constexpr):
    off_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    off_hz = tl.program_id(1)
    off_d = tl.arange(0, HEAD_DIM)
    ok = off_m < N_CTX
    base = off_hz * HEAD_DIM * N_CTX
    o = tl.load(O + base + off_m[:, None] * HEAD_DIM + off_d[None, :], mask=ok[:, None],
                other=0.0)
    do = tl.load(DO + base + off_m[:, None] * HEAD_DIM + off_d[None, :], mask=ok[:, None],
                 other=0.0)
    delta = tl.sum(o.to(tl.float32) * do.to(tl.float32), axis=1)
    tl.store(Delta + off_hz * N_CTX + off_m, delta, mask=ok)


@triton.jit
def _attn_bwd_dkdv(Q, K, V, sm_scale, DO, DK, DV, M, D, N_CTX,
                   HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                   CAUSAL: tl.constexpr):
    # One program per block of BLOCK_N keys of one (batch, head); Q, K, V,
    # dO, dK and dV are contiguous (batch, heads, N_CTX, HEAD_DIM).
    start_n = tl.program_id(0) * BLOCK_N
    off_hz = tl.program_id(1)
    base = off_hz * HEAD_DIM * N_CTX
    offs_n = start_n + tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    n_ok = offs_n < N_CTX
    k = tl.load(K + base + offs_n[:, None] * HEAD_DIM + offs_d[None, :],
                mask=n_ok[:, None], other=0.0)
    v = tl.load(V + base + offs_n[:, None] * HEAD_DIM + offs_d[None, :],
                mask=n_ok[:, None], other=0.0)
    dk = tl.zeros([BLOCK_N, HEAD_DIM], dtype=tl.float32)
    dv = tl.zeros([BLOCK_N, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.4426950408889634
    lo = 0
    if CAUSAL:
        lo = (start_n // BLOCK_M) * BLOCK_M  # queries before the block see none of it
    # Queries past N_CTX need no mask: they load as zeros (Q, dO, lse,
    # delta), so P^T is 1 there and both of their terms, P^T dO and dS^T Q,
    # are 0. Keys past N_CTX reach only their own rows of dK and dV, which
    # are not stored. One loop, the causal mask on every block: two (the
    # diagonal blocks apart) need more registers than the 255 that the
    # D=128 form has.
    for start_m in range(lo, N_CTX, BLOCK_M):
        offs_m = start_m + tl.arange(0, BLOCK_M)
        m_ok = offs_m < N_CTX
        qT = tl.load(Q + base + offs_m[None, :] * HEAD_DIM + offs_d[:, None],
                     mask=m_ok[None, :], other=0.0)
        lse = tl.load(M + off_hz * N_CTX + offs_m, mask=m_ok, other=0.0)
        qkT = tl.dot(k, qT)
        pT = tl.math.exp2(qkT * qk_scale - lse[None, :])
        if CAUSAL:
            pT = tl.where(offs_m[None, :] >= offs_n[:, None], pT, 0.0)
        do = tl.load(DO + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :],
                     mask=m_ok[:, None], other=0.0)
        dv = tl.dot(pT.to(do.dtype), do, dv)
        delta = tl.load(D + off_hz * N_CTX + offs_m, mask=m_ok, other=0.0)
        dpT = tl.dot(v, tl.trans(do))
        dsT = pT * (dpT - delta[None, :])
        dk = tl.dot(dsT.to(qT.dtype), tl.trans(qT), dk)
    dk = dk * sm_scale
    tl.store(DK + base + offs_n[:, None] * HEAD_DIM + offs_d[None, :],
             dk.to(DK.dtype.element_ty), mask=n_ok[:, None])
    tl.store(DV + base + offs_n[:, None] * HEAD_DIM + offs_d[None, :],
             dv.to(DV.dtype.element_ty), mask=n_ok[:, None])


@triton.jit
def _attn_bwd_dq_inner(dq, q, do, lse, delta, K, V, base, N_CTX, offs_m, offs_d, qk_scale,
                       lo, hi, HEAD_DIM: tl.constexpr, BLOCK_N: tl.constexpr,
                       MASK: tl.constexpr, CAUSAL: tl.constexpr, STAGES: tl.constexpr):
    # dQ over the key blocks [lo, hi); MASK: the blocks that meet the
    # diagonal (with CAUSAL) or pass N_CTX (there P must be 0: with K = 0
    # it would be exp2(-lse), which overflows for rows whose scores are all
    # far below 0). STAGES: the kernel's num_stages, or 1 for those few
    # blocks (an int: Triton takes None for num_stages only as a literal).
    for start_n in tl.range(lo, hi, BLOCK_N, num_stages=STAGES):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        n_ok = offs_n < N_CTX
        if MASK:
            kT = tl.load(K + base + offs_n[None, :] * HEAD_DIM + offs_d[:, None],
                         mask=n_ok[None, :], other=0.0)
            vT = tl.load(V + base + offs_n[None, :] * HEAD_DIM + offs_d[:, None],
                         mask=n_ok[None, :], other=0.0)
        else:  # whole blocks below N_CTX
            kT = tl.load(K + base + offs_n[None, :] * HEAD_DIM + offs_d[:, None])
            vT = tl.load(V + base + offs_n[None, :] * HEAD_DIM + offs_d[:, None])
        qk = tl.dot(q, kT)
        p = tl.math.exp2(qk * qk_scale - lse[:, None])
        if MASK:
            keep = n_ok[None, :]
            if CAUSAL:
                keep = keep & (offs_m[:, None] >= offs_n[None, :])
            p = tl.where(keep, p, 0.0)
        dp = tl.dot(do, vT)
        ds = p * (dp - delta[:, None])
        dq = tl.dot(ds.to(kT.dtype), tl.trans(kT), dq)
    return dq


@triton.jit
def _attn_bwd_dq(Q, K, V, sm_scale, DO, DQ, M, D, N_CTX,
                 HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                 CAUSAL: tl.constexpr, STAGES: tl.constexpr):
    # One program per block of BLOCK_M queries of one (batch, head).
    start_m = tl.program_id(0) * BLOCK_M
    off_hz = tl.program_id(1)
    base = off_hz * HEAD_DIM * N_CTX
    offs_m = start_m + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_DIM)
    m_ok = offs_m < N_CTX
    q = tl.load(Q + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :],
                mask=m_ok[:, None], other=0.0)
    do = tl.load(DO + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :],
                 mask=m_ok[:, None], other=0.0)
    lse = tl.load(M + off_hz * N_CTX + offs_m, mask=m_ok, other=0.0)
    delta = tl.load(D + off_hz * N_CTX + offs_m, mask=m_ok, other=0.0)
    dq = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.4426950408889634
    if CAUSAL:
        # Keys up to the block's first query are seen by all of its rows;
        # the blocks after, up to its last query, by some.
        hi = tl.minimum(start_m + BLOCK_M, N_CTX)
        full = ((start_m + 1) // BLOCK_N) * BLOCK_N
    else:
        # Whole key blocks, then the one that passes N_CTX.
        hi = N_CTX
        full = (N_CTX // BLOCK_N) * BLOCK_N
    dq = _attn_bwd_dq_inner(dq, q, do, lse, delta, K, V, base, N_CTX, offs_m, offs_d,
                            qk_scale, 0, full, HEAD_DIM, BLOCK_N, False, CAUSAL, STAGES)
    dq = _attn_bwd_dq_inner(dq, q, do, lse, delta, K, V, base, N_CTX, offs_m, offs_d,
                            qk_scale, full, hi, HEAD_DIM, BLOCK_N, True, CAUSAL, 1)
    dq = dq * sm_scale
    tl.store(DQ + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :],
             dq.to(DQ.dtype.element_ty), mask=m_ok[:, None])


# %%
# Launching
# ---------
#
# The block sizes and warps per program follow Triton's tutorial on Hopper:
# 128 x 64 blocks (128 x 128 for head dim 64 forward, and for head dim 128
# with a producer warp group), 8 warps for the forward (at head dim 64, 4
# warps on 64 x 128 blocks for the forward without the causal mask up to 4k
# keys when its last key block is masked, and on 64 x 64 blocks with it
# below 2k keys, up to 2k when masked), 2-3 pipeline stages. The same
# choices serve the benchmark's Triton run, so that the comparison is of
# compilers, not of kernels.

def fwd_config(head_dim, causal, fp8, warp_specialize=None, n_ctx=None):
    # Warp-specialized (a producer warp group issuing the K and V copies)
    # but for D=64 with the causal mask: on the H100 that form runs one
    # program per SM where the unspecialized one fits two, and its short
    # loops leave each program's prologue and epilogue exposed (10-15%
    # slower); at D=128 both run one per SM, and the producer gains 4-18%
    # (bench/RESULTS.md).
    if warp_specialize is None and head_dim <= 64 and not fp8 and n_ctx is not None:
        # Unspecialized D=64 forms for a known sequence length.
        shortest = 2048 if causal else 128
        if n_ctx % 128 == 0 and n_ctx >= shortest:
            # From 2k keys with the causal mask, at any length without it
            # (but a masked last block, whose loop spills at 128 registers),
            # 128 x 128 blocks at 8 warps, two programs to an SM (maxnreg):
            # the two warp groups share each K and V block, half the bytes
            # from L2 of 64-row blocks, so the power limit leaves a higher
            # clock, and their loop, not rotated, releases its stages per
            # warp. On an H200, 2-12% faster than the forms below from 1k to
            # 16k and above SDPA (bench/RESULTS.md, session 43).
            return dict(BLOCK_M=128, BLOCK_N=128, num_warps=8, num_stages=2,
                        WARP_SPECIALIZE=False, maxnreg=128)
        if not causal and n_ctx <= 4096:
            # Up to 4k keys with a masked last block, programs of one warp
            # group on 64 x 128 blocks, three to an SM, one per tile: 1.5-4.6%
            # faster than the warp-specialized 128 x 128 form (persistent up
            # to 2k) on an H200 in float16 (even in bfloat16), as fast at 8k
            # (bench/RESULTS.md, session 34).
            return dict(BLOCK_M=64, BLOCK_N=128, num_warps=4, num_stages=2,
                        WARP_SPECIALIZE=False)
    if warp_specialize is None:
        warp_specialize = not causal or head_dim > 64
    if head_dim <= 64 and causal and not warp_specialize and n_ctx is not None \
            and n_ctx <= 2048:
        # Up to 2k keys, programs of one warp group on 64 x 64 blocks, four
        # or five to an SM: 6% faster than 128 x 64 at 1k on an H200
        # (session 33), 3.7% at 2k since their two-stage ring is refilled at
        # the top of each iteration, 7% slower at 4k (bench/RESULTS.md,
        # session 42).
        return dict(BLOCK_M=64, BLOCK_N=64, num_warps=4, num_stages=2,
                    WARP_SPECIALIZE=False)
    if head_dim <= 64:
        return dict(BLOCK_M=128, BLOCK_N=64 if causal else 128, num_warps=8, num_stages=3,
                    WARP_SPECIALIZE=warp_specialize)
    if warp_specialize and not fp8:
        # 128 keys per block, two stages in flight: the producer's ring (3 x 64 KiB)
        # and Q fill the shared memory; 7-9% faster than 64 keys at 4k-16k.
        return dict(BLOCK_M=128, BLOCK_N=128, num_warps=8, num_stages=2,
                    WARP_SPECIALIZE=True)
    return dict(BLOCK_M=128, BLOCK_N=64 if not fp8 else 128, num_warps=8, num_stages=3,
                WARP_SPECIALIZE=warp_specialize)


def fwd_persistent(head_dim, causal, fp8, n_ctx, warp_specialize=None):
    """Whether the forward runs persistent by default: with the producer
    warp group at D=128, where on the H100 the producer goes on into the
    next tile's keys while the consumers finish a tile (non-causal 3-11%
    faster from 1k to 16k, unless the last block of keys is masked;
    causal 4-20% up to 4k, and from 5% slower to 1%
    faster at 8k-16k, depending on the call); at D=64 up to 2k keys, where
    the compiler prefetches the next tile's Q into L2 while a tile runs
    (terrazzo-prefetch-next-tile) and the persistent kernel measured 5.5%
    and 1.5% faster than one program per tile at 1k and 2k (H100, session
    31). With Q K^T's Q in registers (session 32) one program per tile
    gained more from 4k on: on an H200 the persistent kernel was as fast
    at 2k and 1% slower at 4k, 2% at 8k-16k (bench/RESULTS.md). By
    default D=64 non-causal runs unspecialized at any known length but for
    masked tails past 4k keys (fwd_config), so its persistent form is
    practically only that of an explicit warp_specialize=True."""
    if warp_specialize is None:
        warp_specialize = fwd_config(head_dim, causal, fp8,
                                     n_ctx=n_ctx)["WARP_SPECIALIZE"]
    if fp8 or not warp_specialize:
        return False
    if head_dim > 64:
        if causal:
            return n_ctx <= 4096
        # Without the mask, but for a masked last block of keys (N_CTX not a
        # multiple of BLOCK_N), where the persistent kernel spills and one
        # program per tile measured 8-9% faster on an H200 at 1000, 3000
        # and 5000 keys (bench/RESULTS.md, session 45).
        return n_ctx % fwd_config(head_dim, causal, fp8, warp_specialize, n_ctx)["BLOCK_N"] == 0
    return not causal and n_ctx <= 2048


BWD_CONFIG = dict(BLOCK_M=64, BLOCK_N=64, num_warps=4, num_stages=3)
# Forward and backward launch parameters for the interpreter (small blocks,
# so that a few programs cover the sizes checked there).
SMALL_FWD = dict(BLOCK_M=32, BLOCK_N=16, num_warps=4, num_stages=1, WARP_SPECIALIZE=False)
SMALL_BWD = dict(BLOCK_M=16, BLOCK_N=16, num_warps=4, num_stages=1)


def _new(shape, dtype, like):
    if torch is not None and isinstance(like, torch.Tensor):
        return torch.empty(shape, dtype=dtype, device=like.device)
    return np.empty(shape, dtype=dtype)


def attention_forward(q, k, v, causal, sm_scale, kernels=None, config=None,
                      warp_specialize=None, persistent=None):
    """Runs the forward kernel; returns O and the base-2 log-sum-exp per row.
    With `persistent` (None: as fwd_persistent chooses), the persistent
    kernel, when K and V are contiguous in their first three dims (else the
    one program per tile)."""
    kernels = kernels or KERNELS
    z, h, n_ctx, head_dim = q.shape
    fp8 = torch is not None and isinstance(q, torch.Tensor) and q.dtype == torch.float8_e4m3fn
    cfg = dict(config or fwd_config(head_dim, causal, fp8, warp_specialize, n_ctx))
    if persistent is None:
        persistent = config is None and fwd_persistent(head_dim, causal, fp8, n_ctx,
                                                       cfg["WARP_SPECIALIZE"])
    is_torch = torch is not None and isinstance(q, torch.Tensor)
    o = _new(q.shape, torch.float16 if fp8 else q.dtype, q)
    lse = _new((z, h, n_ctx), torch.float32 if is_torch else np.float32, q)
    args = (q, k, v, sm_scale, lse, o, *_strides(q), *_strides(k), *_strides(v), *_strides(o))
    options = dict(HEAD_DIM=head_dim, CAUSAL=causal, EVEN_N=n_ctx % cfg["BLOCK_N"] == 0, **cfg)
    tiles_m = triton.cdiv(n_ctx, cfg["BLOCK_M"])
    flat_kv = _rows_contiguous(k) and _rows_contiguous(v)
    if persistent and flat_kv:
        programs = min(_programs_per_device(q, cfg), tiles_m * z * h)
        kernels["_attn_fwd_persistent"][(programs,)](*args, z, h, n_ctx, **options)
    else:
        heads = _heads_per_group(q, cfg, tiles_m, z * h) if causal else 1
        kernels["_attn_fwd"][(tiles_m, z * h)](*args, h, n_ctx, **options,
                                               FLAT_KV=flat_kv, HEADS_PER_GROUP=heads)
    return o, lse


def _rows_contiguous(x):
    """Whether the rows of all (batch, head) pairs of `x` follow each other
    in memory: (Z * H * N_CTX) rows, as the persistent kernel reads K and V."""
    z_stride, h_stride, row_stride = _strides(x)
    n_ctx, heads = x.shape[2], x.shape[1]
    return h_stride == n_ctx * row_stride and z_stride == heads * h_stride


def _programs_per_device(q, cfg):
    """The persistent kernel's grid: one program per multiprocessor, or two
    for the unspecialized D=64 kernel, whose per-tile form fits two (the
    persistent one, which the defaults do not choose, measured 164 registers
    on sm_90, so only one of the two runs at a time), a few in the
    interpreter."""
    if not (torch is not None and isinstance(q, torch.Tensor)):
        return 3
    props = triton.runtime.driver.active.utils.get_device_properties(q.device.index)
    per_sm = 1 if cfg["WARP_SPECIALIZE"] or q.shape[-1] > 64 else 2
    return per_sm * props["multiprocessor_count"]


def _heads_per_group(q, cfg, tiles_m, heads):
    """The causal forward's group of heads whose row blocks go heaviest
    first (_heaviest_first): the fewest heads, dividing `heads`, whose row
    blocks fill two rounds of the programs the device runs at once. Enough
    for the last group to even out the multiprocessors' ends; no more, so
    that the programs running at once share few heads' K and V in L2. (The
    64 x 64 form at 4 warps runs four or five programs to an SM, but its
    groups sized for two, as _programs_per_device counts it, measured 4%
    faster at 1k than groups sized for four: all 128 heads at once.)"""
    enough = 2 * _programs_per_device(q, cfg)
    for d in range(1, heads + 1):
        if heads % d == 0 and d * tiles_m >= enough:
            return d
    return heads


def _strides(x):
    """The first three element strides (batch, head, row) of a 4-D tensor."""
    if isinstance(x, np.ndarray):
        return tuple(s // x.itemsize for s in x.strides[:3])
    return tuple(x.stride()[:3])


def attention_backward(q, k, v, o, do, lse, causal, sm_scale, kernels=None, config=None):
    """dQ, dK, dV from the forward's O and log-sum-exp (contiguous inputs)."""
    kernels = kernels or KERNELS
    z, h, n_ctx, head_dim = q.shape
    cfg = dict(config or BWD_CONFIG)
    is_torch = torch is not None and isinstance(q, torch.Tensor)
    f32 = torch.float32 if is_torch else np.float32
    delta = _new((z, h, n_ctx), f32, q)
    dq, dk, dv = (_new(q.shape, q.dtype, q) for _ in range(3))
    kernels["_attn_bwd_preprocess"][(triton.cdiv(n_ctx, cfg["BLOCK_M"]), z * h)](
        o, do, delta, n_ctx, BLOCK_M=cfg["BLOCK_M"], HEAD_DIM=head_dim)
    kernels["_attn_bwd_dkdv"][(triton.cdiv(n_ctx, cfg["BLOCK_N"]), z * h)](
        q, k, v, sm_scale, do, dk, dv, lse, delta, n_ctx, HEAD_DIM=head_dim,
        CAUSAL=causal, **cfg)
    kernels["_attn_bwd_dq"][(triton.cdiv(n_ctx, cfg["BLOCK_M"]), z * h)](
        q, k, v, sm_scale, do, dq, lse, delta, n_ctx, HEAD_DIM=head_dim,
        CAUSAL=causal, STAGES=cfg["num_stages"], **cfg)
    return dq, dk, dv


KERNELS = {k.fn.__name__: k for k in (_attn_fwd, _attn_fwd_persistent, _attn_bwd_preprocess,
                                      _attn_bwd_dkdv,
                                      _attn_bwd_dq)}


def make_attention(kernels, warp_specialize=None, persistent=None):
    """`attention(q, k, v, causal, sm_scale)` as a torch.autograd.Function
    over the given kernels (Terrazzo's, or the same sources under Triton),
    the forward's loops warp-specialized or not (None: as fwd_config
    chooses)."""

    class _Attention(torch.autograd.Function):
        @staticmethod
        def forward(ctx, q, k, v, causal, sm_scale):
            o, lse = attention_forward(q, k, v, causal, sm_scale, kernels,
                                       warp_specialize=warp_specialize,
                                       persistent=persistent)
            ctx.save_for_backward(q, k, v, o, lse)
            ctx.causal, ctx.sm_scale = causal, sm_scale
            return o

        @staticmethod
        def backward(ctx, do):
            q, k, v, o, lse = ctx.saved_tensors
            dq, dk, dv = attention_backward(q, k, v, o, do.contiguous(), lse, ctx.causal,
                                            ctx.sm_scale, kernels)
            return dq, dk, dv, None, None

    return _Attention.apply


# %%
# Checking
# --------

def reference(q, k, v, causal, sm_scale, do=None):
    """O (and dQ, dK, dV for dO) in float64 NumPy, the matrix products
    through BLAS."""
    q, k, v = (np.asarray(a, np.float64) for a in (q, k, v))
    s = (q @ k.swapaxes(-1, -2)) * sm_scale
    n = q.shape[2]
    if causal:
        s = np.where(np.tril(np.ones((n, n), bool)), s, -np.inf)
    s = s - s.max(-1, keepdims=True)
    p = np.exp(s)
    p /= p.sum(-1, keepdims=True)
    o = p @ v
    if do is None:
        return o
    do = np.asarray(do, np.float64)
    dv = p.swapaxes(-1, -2) @ do
    dp = do @ v.swapaxes(-1, -2)
    ds = p * (dp - (dp * p).sum(-1, keepdims=True))
    dq = (ds @ k) * sm_scale
    dk = (ds.swapaxes(-1, -2) @ q) * sm_scale
    return o, dq, dk, dv


def _rel(got, want):
    got = np.asarray(got, np.float64)
    return float(np.linalg.norm(got - want) / np.linalg.norm(want))


def check_interpreter():
    rng = np.random.default_rng()
    for causal in (False, True):
        # 40 rows: not a multiple of the blocks (masked tails); 24 rows with
        # causal: fewer than BLOCK_M.
        for n_ctx in ((40, 24) if causal else (40, 32)):
            z, h, d = 1, 2, 16
            q, k, v, do = (rng.standard_normal((z, h, n_ctx, d)).astype(np.float32)
                           for _ in range(4))
            sm_scale = 1 / math.sqrt(d)
            want = reference(q, k, v, causal, sm_scale, do)
            o, lse = attention_forward(q, k, v, causal, sm_scale, config=SMALL_FWD)
            dq, dk, dv = attention_backward(q, k, v, o, do, lse, causal, sm_scale,
                                            config=SMALL_BWD)
            # The persistent forward too (a few programs, each several tiles).
            o_p, lse_p = attention_forward(q, k, v, causal, sm_scale, config=SMALL_FWD,
                                           persistent=True)
            for name, got, w in zip(("o", "dq", "dk", "dv", "o persistent"),
                                    (o, dq, dk, dv, o_p), want + (want[0],)):
                err = _rel(got, w)
                print(f"interpreter: causal={causal!s:5} N_CTX={n_ctx:3} {name}: "
                      f"relative error {err:.2e}")
                assert err < 2e-3, (name, err)  # tl.dot on float32: tf32
            assert np.array_equal(lse_p, lse), "persistent log-sum-exp"
    print("The results match.")


def gpu_cases():
    for dtype in (torch.float16, torch.bfloat16):
        for head_dim in (64, 128):
            for causal in (False, True):
                yield dtype, head_dim, causal, 1000  # not a multiple of the blocks
    yield torch.float16, 64, True, 100                # N_CTX < BLOCK_M (128, ws forms)
    yield torch.float16, 64, True, 40                 # N_CTX < BLOCK_M (64)
    yield torch.float16, 128, False, 1024
    yield torch.float16, 64, False, 1024              # the defaults' 128 x 128 blocks
    yield torch.bfloat16, 64, True, 2048              # at 8 warps (fwd_config)


def check_gpu():
    # Every form of the forward (fwd_config's choice, its loops
    # warp-specialized or not, one program per tile or persistent) on the
    # same inputs, against one float64 reference per case.
    forms = [(None, None)] + [(warp_specialize, persistent)
                              for warp_specialize in (False, True)
                              for persistent in (False, True)]
    attentions = [make_attention(KERNELS, *form) for form in forms]

    def label(form):
        if form == (None, None):
            return " default"
        return (" ws" if form[0] else "") + (" persistent" if form[1] else "")

    for dtype, head_dim, causal, n_ctx in gpu_cases():
        z, h = 2, 3
        q, k, v, do = (torch.randn((z, h, n_ctx, head_dim), device="cuda", dtype=dtype)
                       for _ in range(4))
        sm_scale = 1 / math.sqrt(head_dim)
        want = reference(*(t.float().cpu().numpy() for t in (q, k, v)), causal, sm_scale,
                         do.float().cpu().numpy())
        # float16 / bfloat16 operands and P rounded to them before P V.
        tol = 1e-2 if dtype == torch.float16 else 3e-2
        for form, attention in zip(forms, attentions):
            qg, kg, vg = (t.clone().requires_grad_(True) for t in (q, k, v))
            o = attention(qg, kg, vg, causal, sm_scale)
            o.backward(do)
            torch.cuda.synchronize()
            got = (o, qg.grad, kg.grad, vg.grad)
            for name, g, w in zip(("o", "dq", "dk", "dv"), got, want):
                err = _rel(g.detach().float().cpu().numpy(), w)
                print(f"GPU{label(form)}: {str(dtype)[6:]:8} D={head_dim:3} "
                      f"causal={causal!s:5} N_CTX={n_ctx:4} {name}: relative error {err:.2e}")
                assert err < tol, (form, name, err)
    # fp8 e4m3 forward (float16 output).
    for causal in (False, True):
        n_ctx, head_dim = 1024, 128
        q, k, v = (torch.randn((2, 3, n_ctx, head_dim), device="cuda") for _ in range(3))
        q8, k8, v8 = (t.to(torch.float8_e4m3fn) for t in (q, k, v))
        sm_scale = 1 / math.sqrt(head_dim)
        want = reference(*(t.float().cpu().numpy() for t in (q8, k8, v8)), causal, sm_scale)
        for form in forms:
            o, _ = attention_forward(q8, k8, v8, causal, sm_scale, warp_specialize=form[0],
                                     persistent=form[1])
            err = _rel(o.float().cpu().numpy(), want)
            print(f"GPU{label(form)}: fp8e4m3  D={head_dim:3} causal={causal!s:5} "
                  f"N_CTX={n_ctx:4} o: relative error {err:.2e}")
            assert err < 6e-2, (form, err)
    print("The results match.")


# %%
# The same kernels under the real Triton, for the benchmark.

def triton_kernels():
    module = triton.testing.under_triton(
        _attn_fwd_inner, _attn_fwd_tile, _heaviest_first, _attn_fwd, _attn_fwd_persistent,
        _attn_bwd_preprocess, _attn_bwd_dkdv, _attn_bwd_dq_inner, _attn_bwd_dq,
        name="triton_fused_attention")
    if module is None:
        return None
    return {name: getattr(module, name) for name in KERNELS}


# %%
# Benchmark
# ---------
#
# TFLOP/s (4 * B * H * N^2 * D for the forward, 2.5 times that for the
# backward, half for causal) for B=4, H=32, D=64 and B=4, H=16, D=128, N
# from 1024 to 16384, against torch's scaled_dot_product_attention (cuDNN /
# FlashAttention kernels) and, when installed, the same kernels under Triton.

def bench(sizes, modes, head_dims, dtype_name, save_path, only=None, rounds=3):
    dtype = dict(float16=torch.float16, bfloat16=torch.bfloat16)[dtype_name]
    # "-ws" / "-no-ws": the forward's loops warp-specialized, or not,
    # whatever fwd_config would choose.
    providers = {"terrazzo": make_attention(KERNELS),
                 "terrazzo-ws": make_attention(KERNELS, warp_specialize=True),
                 "terrazzo-no-ws": make_attention(KERNELS, warp_specialize=False),
                 "terrazzo-persistent": make_attention(KERNELS, persistent=True),
                 "terrazzo-per-tile": make_attention(KERNELS, persistent=False)}
    found = (triton_kernels()
             if not only or any(name.startswith("triton") for name in only) else None)
    if found is not None:
        providers["triton"] = make_attention(found)
        providers["triton-ws"] = make_attention(found, warp_specialize=True)
        providers["triton-persistent"] = make_attention(found, persistent=True)
        providers["triton-per-tile"] = make_attention(found, persistent=False)

    def sdpa(q, k, v, causal, sm_scale):
        return torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal,
                                                                scale=sm_scale)
    providers["torch-sdpa"] = sdpa
    # By default the tutorial's own choices against Triton and SDPA.
    only = only or ["terrazzo", "triton", "torch-sdpa"]
    names = [name for name in providers if name in only]
    # One table (and plot) per head size, causality and direction.
    configs = [triton.testing.Benchmark(
        x_names=["N_CTX"], x_vals=sizes, line_arg="provider", line_vals=names,
        line_names=names, xlabel="sequence length", ylabel="TFLOP/s (median)",
        plot_name=f"fused-attention-d{head_dim}-{'causal' if causal else 'full'}-{mode}-"
                  f"{dtype_name} (TFLOP/s)",
        args={"head_dim": head_dim, "causal": causal, "mode": mode})
        for head_dim in head_dims for causal in (False, True) for mode in modes]

    def measure(N_CTX, head_dim, causal, mode):
        """TFLOP/s of every provider on one case: the same inputs, the
        providers timed in turn, `rounds` times, the median of each one's
        do_bench medians."""
        batch, heads = (4, 32) if head_dim == 64 else (4, 16)
        flops = 4.0 * batch * heads * N_CTX * N_CTX * head_dim
        if causal:
            flops *= 0.5
        if mode == "bwd":
            flops *= 2.5
        q, k, v = (torch.randn((batch, heads, N_CTX, head_dim), device="cuda", dtype=dtype,
                               requires_grad=mode == "bwd") for _ in range(3))
        sm_scale = 1 / math.sqrt(head_dim)
        runs = {}
        for name in names:
            fn = providers[name]
            try:
                if mode == "fwd":
                    run = lambda fn=fn: fn(q, k, v, causal, sm_scale)  # noqa: E731
                else:
                    o = fn(q, k, v, causal, sm_scale)
                    do = torch.randn_like(o)
                    run = lambda o=o, do=do: o.backward(do, retain_graph=True)  # noqa: E731
                run()
            except Exception as error:  # a compiler that rejects the form
                if name == "terrazzo":
                    raise
                # The first line and the last (Triton's compile errors put the
                # location first and the cause last, after the source).
                lines = [line for line in str(error).splitlines() if line.strip()] or [""]
                said = lines[0] if len(lines) == 1 else f"{lines[0]} ... {lines[-1].strip()}"
                print(f"{name} failed at N_CTX={N_CTX}: {type(error).__name__}: {said}")
                continue
            runs[name] = run
        times = {name: [] for name in runs}
        for _ in range(rounds):
            for name, run in runs.items():
                # Half a second of the provider's own calls before it is
                # timed, and the median of the timed calls: each provider is
                # measured in its own steady state. A kernel timed within
                # half a second of a heavier case (the previous table's 16k,
                # a compile's idle GPU) ran 20-25% below its steady rate on
                # an H200 (bench/RESULTS.md, sessions 21 and 40). Over the
                # rounds a disturbance falls on one of a provider's
                # measurements, not on its only one.
                times[name].append(triton.testing.do_bench(run, warmup=500, rep=100,
                                                           return_mode="median"))
        return {name: flops / (statistics.median(t) * 1e-3) / 1e12
                for name, t in times.items()}

    measured = {}

    @triton.testing.perf_report(configs)
    def benchmark(N_CTX, provider, head_dim, causal, mode):
        case = (N_CTX, head_dim, causal, mode)
        if case not in measured:
            measured[case] = measure(*case)
        return measured[case].get(provider, float("nan"))

    benchmark.run(print_data=True, save_path=save_path)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].strip())
    parser.add_argument("--bench", action="store_true",
                        help="print TFLOP/s tables and plot them")
    parser.add_argument("--save-path", default="bench-results",
                        help="where --bench writes the tables (CSV) and the plots (PNG, "
                        "with matplotlib)")
    parser.add_argument("--sizes", type=int, nargs="+",
                        default=[1024, 2048, 4096, 8192, 16384])
    parser.add_argument("--modes", nargs="+", default=["fwd", "bwd"])
    parser.add_argument("--head-dims", type=int, nargs="+", default=[64, 128])
    parser.add_argument("--dtype", default="float16", choices=["float16", "bfloat16"])
    parser.add_argument("--rounds", type=int, default=3,
                        help="--bench times each case's providers in turn this many times "
                        "and prints the median")
    parser.add_argument("--no-check", action="store_true")
    parser.add_argument("--providers", nargs="+",
                        choices=["terrazzo", "terrazzo-ws", "terrazzo-no-ws",
                                 "terrazzo-persistent", "terrazzo-per-tile", "triton",
                                 "triton-ws", "triton-persistent", "triton-per-tile",
                                 "torch-sdpa"],
                        help="benchmark these (default: terrazzo, triton and torch-sdpa, "
                        "those installed)")
    args = parser.parse_args(argv)
    on_gpu = gpu_available()
    if not on_gpu:
        os.environ["TERRAZZO_INTERPRET"] = "1"
        check_interpreter()
        if args.bench:
            print("No GPU: nothing to benchmark (the interpreter is for correctness).")
        return
    if not args.no_check:
        check_gpu()
    if args.bench:
        bench(args.sizes, args.modes, args.head_dims, args.dtype, args.save_path,
              args.providers, args.rounds)


if __name__ == "__main__":
    main()
