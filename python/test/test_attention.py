"""A flash-attention forward kernel written as Triton's tutorial 06 writes
it (a loop over blocks of K and V, QK^T by tl.dot, an online softmax with
tl.math.exp2, the output accumulated by tl.dot(p.to(float16), v, acc)):
in the interpreter against float64 NumPy on fresh random inputs (causal and
not, sequence lengths that are not multiples of the blocks, a causal case
shorter than one block of rows); its tilegpu IR for sm_90a (no layout
conversion in the loop: the softmax runs in the wgmma accumulator layout)
and its PTX (wgmma with A, the probabilities, from registers; exp2 as
ex2.approx.ftz.f32); on a GPU, the same kernel against float64.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

import terrazzo as triton
import terrazzo.language as tl


@triton.jit
def _attn_fwd_inner(acc, l_i, m_i, q, k_ptrs, v_ptrs, start_m, qk_scale, N_CTX,
                    offs_m, offs_n, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr,
                    BLOCK_N: tl.constexpr, STAGE: tl.constexpr, EVEN_N: tl.constexpr):
    # STAGE 1: the blocks left of the diagonal (causal), 2: the diagonal
    # block, 3: every block (not causal).
    if STAGE == 1:
        lo, hi = 0, start_m * BLOCK_M
    elif STAGE == 2:
        lo, hi = start_m * BLOCK_M, (start_m + 1) * BLOCK_M
        lo = tl.multiple_of(lo, BLOCK_M)
    else:
        lo, hi = 0, N_CTX
    for start_n in range(lo, hi, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        cols = start_n + offs_n
        # K^T (HEAD_DIM x BLOCK_N) and V (BLOCK_N x HEAD_DIM); columns past
        # the sequence read as zeros.
        if EVEN_N:
            k = tl.load(k_ptrs + start_n * HEAD_DIM)
            v = tl.load(v_ptrs + start_n * HEAD_DIM)
        else:
            k = tl.load(k_ptrs + start_n * HEAD_DIM, mask=cols[None, :] < N_CTX, other=0.0)
            v = tl.load(v_ptrs + start_n * HEAD_DIM, mask=cols[:, None] < N_CTX, other=0.0)
        qk = tl.dot(q, k)
        if STAGE == 2:
            mask = offs_m[:, None] >= cols[None, :]
            qk = qk * qk_scale + tl.where(mask, 0, -1.0e6)
            m_ij = tl.maximum(m_i, tl.max(qk, 1))
            qk -= m_ij[:, None]
        else:
            if not EVEN_N:
                qk = tl.where(cols[None, :] < N_CTX, qk, -1.0e6)
            m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
            qk = qk * qk_scale - m_ij[:, None]
        p = tl.math.exp2(qk)
        l_ij = tl.sum(p, 1)
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + l_ij
        acc = acc * alpha[:, None]
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_ij
    return acc, l_i, m_i


@triton.jit
def attn_fwd(Q, K, V, sm_scale, M, Out, N_CTX, HEAD_DIM: tl.constexpr,
             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, STAGE: tl.constexpr,
             EVEN_N: tl.constexpr):
    """Q, K, V, Out: (Z, H, N_CTX, HEAD_DIM) float16, contiguous; M: (Z, H,
    N_CTX) float32, the row's log2-sum-exp2 (for a backward pass). One
    program per BLOCK_M rows of one head."""
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    base = off_hz.to(tl.int64) * N_CTX * HEAD_DIM
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q_ptrs = Q + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :]
    k_ptrs = K + base + offs_n[None, :] * HEAD_DIM + offs_d[:, None]
    v_ptrs = V + base + offs_n[:, None] * HEAD_DIM + offs_d[None, :]
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504  # 1 / ln(2)
    q = tl.load(q_ptrs, mask=offs_m[:, None] < N_CTX, other=0.0)
    # Causal: the blocks left of the diagonal, then the diagonal block with
    # its mask; not causal: every block.
    if STAGE & 1:
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, k_ptrs, v_ptrs, start_m, qk_scale,
                                        N_CTX, offs_m, offs_n, HEAD_DIM, BLOCK_M, BLOCK_N,
                                        4 - STAGE, EVEN_N)
    if STAGE & 2:
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, k_ptrs, v_ptrs, start_m, qk_scale,
                                        N_CTX, offs_m, offs_n, HEAD_DIM, BLOCK_M, BLOCK_N,
                                        2, EVEN_N)
    m_i += tl.math.log2(l_i)
    acc = acc / l_i[:, None]
    row_ok = offs_m < N_CTX
    tl.store(M + off_hz * N_CTX + offs_m, m_i, mask=row_ok)
    tl.store(Out + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :], acc.to(tl.float16),
             mask=row_ok[:, None])


def _blocks_even(n_ctx, block_m, block_n, causal):
    """Whether no block reads past the sequence (no tail masks needed)."""
    return n_ctx % block_n == 0 and (not causal or n_ctx % block_m == 0)


def attention(q, k, v, sm_scale, causal, block_m, block_n, kernel=attn_fwd, out=None,
              lse=None, **launch):
    """Runs `kernel` on (Z, H, N, D) arrays (NumPy for the interpreter, torch
    CUDA tensors on a GPU); returns (out, lse)."""
    z, h, n_ctx, d = q.shape
    grid = (triton.cdiv(n_ctx, block_m), z * h)
    kernel[grid](q, k, v, sm_scale, lse, out, n_ctx, HEAD_DIM=d, BLOCK_M=block_m,
                 BLOCK_N=block_n, STAGE=3 if causal else 1,
                 EVEN_N=_blocks_even(n_ctx, block_m, block_n, causal), **launch)
    return out, lse


def reference(q, k, v, sm_scale, causal):
    """softmax(Q K^T sm_scale) V in float64, and each row's log-sum-exp in
    base 2 (what the kernel stores in M)."""
    q, k, v = (np.asarray(x, np.float64) for x in (q, k, v))
    s = np.einsum("zhmd,zhnd->zhmn", q, k) * sm_scale
    if causal:
        n = s.shape[-1]
        s = np.where(np.tril(np.ones((n, n), bool)), s, -np.inf)
    top = s.max(-1, keepdims=True)
    e = np.exp(s - top)
    total = e.sum(-1, keepdims=True)
    out = np.einsum("zhmn,zhnd->zhmd", e / total, v)
    lse = (top + np.log(total))[..., 0] / math.log(2)
    return out, lse


def _inputs(rng, z, h, n_ctx, d):
    return [(rng.standard_normal((z, h, n_ctx, d)) * scale).astype(np.float16)
            for scale in (1.0, 1.0, 1.0)]


# (N_CTX, HEAD_DIM, BLOCK_M, BLOCK_N, causal): whole blocks, tails in the
# K/V loop, causal with several diagonal sub-blocks, and a causal sequence
# shorter than one block of rows.
INTERPRETER_CASES = [
    (64, 16, 16, 16, False),
    (50, 16, 16, 16, False),
    (64, 16, 32, 16, True),
    (50, 32, 16, 16, True),
    (45, 16, 32, 16, True),
    (10, 16, 16, 16, True),
]


@pytest.mark.parametrize("n_ctx,d,block_m,block_n,causal", INTERPRETER_CASES)
def test_interpreter_matches_float64(n_ctx, d, block_m, block_n, causal, rng):
    z, h = 1, 2
    q, k, v = _inputs(rng, z, h, n_ctx, d)
    out = np.full((z, h, n_ctx, d), np.nan, np.float16)
    lse = np.full((z, h, n_ctx), np.nan, np.float32)
    sm_scale = 1.0 / math.sqrt(d)
    kernel = triton.jit(attn_fwd.fn, interpret=True)
    attention(q, k, v, sm_scale, causal, block_m, block_n, kernel=kernel, out=out, lse=lse)
    want, want_lse = reference(q, k, v, sm_scale, causal)
    # P is rounded to float16 before the second product, the output too.
    assert np.all(np.abs(out - want) <= 1e-2), np.abs(out - want).max()
    assert np.all(np.abs(lse - want_lse) <= 1e-4 * (1 + np.abs(want_lse))), \
        np.abs(lse - want_lse).max()


def _tile_ir(n_ctx=1024, d=64, block_m=128, block_n=64, causal=False, num_warps=4):
    z = np.zeros
    q = z((1, 1, n_ctx, d), np.float16)
    return attn_fwd.ir(q, q, q, 0.125, z((1, 1, n_ctx), np.float32), q, n_ctx, HEAD_DIM=d,
                       BLOCK_M=block_m, BLOCK_N=block_n, STAGE=3 if causal else 1,
                       EVEN_N=_blocks_even(n_ctx, block_m, block_n, causal),
                       num_warps=num_warps)


def loop_bodies(text):
    """The text of each scf.for body in `text` (nested loops inside their
    parents' text too)."""
    bodies = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if "scf.for" not in line or not line.rstrip().endswith("{"):
            continue
        depth, body = 0, []
        for inner in lines[i:]:
            depth += inner.count("{") - inner.count("}")
            body.append(inner)
            if depth <= 0:
                break
        bodies.append("\n".join(body[1:]))
    return bodies


_MMA = r"#tilegpu.nvidia_mma<\{versionMajor = 3, warpsPerCTA = (\[\d+, 1\]), instrShape = [^}]*\}>"


def is_relabelling(convert):
    """Whether a convert_layout line of tilegpu IR only renames registers:
    P from a wgmma accumulator layout to the register-A layout of a wgmma
    layout with the same warps (all along M), or a row vector between the
    slices (along dim 1) of two such layouts (which differ in the
    instruction's N, not in the elements a thread holds)."""
    to_a = re.search(rf": tensor<\d+x\d+xf16, {_MMA}> -> tensor<\d+x\d+xf16, "
                     rf"#tilegpu.dot_operand<\{{opIdx = 0, parent = {_MMA}, kWidth = 2\}}>>",
                     convert)
    if to_a:
        return to_a.group(1) == to_a.group(2)
    rows = re.search(rf": tensor<\d+xf32, #tilegpu.slice<\{{dim = 1, parent = {_MMA}\}}>> -> "
                     rf"tensor<\d+xf32, #tilegpu.slice<\{{dim = 1, parent = {_MMA}\}}>>",
                     convert)
    return bool(rows) and rows.group(1) == rows.group(2)


def _inline_aliases(text):
    """`text` with the #slice aliases of the module written out."""
    aliases = dict(re.findall(r"^(#slice\d*) = (#tilegpu.slice<.*>)$", text, re.M))
    return re.sub(r"#slice\d*\b(?! =)", lambda m: aliases.get(m.group(0), m.group(0)), text)


@pytest.mark.parametrize("n_ctx", [1024, 1000])
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("d,block_n,num_warps", [(64, 64, 4), (128, 128, 8), (128, 64, 8)])
def test_loop_stays_in_registers(check_ir, causal, d, block_n, num_warps, n_ctx):
    """On sm_90a the softmax runs in the wgmma accumulator layout and the
    loop-carried accumulators stay in it: every convert_layout left in a
    loop renames registers only (P into the register-A layout of the second
    wgmma; with HEAD_DIM != BLOCK_N, the row vector alpha between the slices
    of the two dots' layouts), and nothing is computed twice for it; P
    feeds the second wgmma from registers (no local_alloc in the loop), Q
    comes from a buffer stored once before the loops, K and V from shared
    memory. With N_CTX not a multiple of the blocks, the masks of the tails
    (the loads' and the scores') are computed in the same layouts."""
    tilegpu = check_ir.compile(_tile_ir(n_ctx=n_ctx, d=d, block_n=block_n, causal=causal,
                                        num_warps=num_warps),
                               emit="tilegpu", target="cuda:90", num_warps=num_warps)
    bodies = loop_bodies(_inline_aliases(tilegpu))
    assert len(bodies) == (2 if causal else 1), tilegpu
    for body in bodies:
        lines = body.splitlines()
        converts = [line for line in lines if "tilegpu.convert_layout" in line]
        assert converts and all(is_relabelling(line) for line in converts), converts
        assert len(converts) == (1 if d == block_n else 2), converts
        assert sum("math.exp2" in line for line in lines) == 2, body
        assert "local_alloc" not in body, body
        dots = [line for line in lines if "tilegpu.warp_group_dot " in line]
        assert len(dots) == 2, body
        # The second dot's A is a tensor (registers), not a shared buffer.
        assert re.search(r": tensor<\d+x\d+xf16, #tilegpu.dot_operand<.*>>, "
                         r"!tilegpu.memdesc", dots[1]), dots[1]
        assert re.search(r": !tilegpu.memdesc<.*>, !tilegpu.memdesc", dots[0]), dots[0]


@pytest.mark.parametrize("causal", [False, True])
def test_ptx_has_register_a_wgmma_and_fast_exp2(check_ir, causal):
    ptx = check_ir.compile(_tile_ir(causal=causal), target="cuda:90", num_warps=4)
    wgmma = [line.strip() for line in ptx.splitlines() if "wgmma.mma_async" in line]
    # QK^T: descriptors for both operands; PV: four 32-bit registers of A
    # (16 x 16 of float16 per thread's share) and a descriptor for B.
    assert any(re.search(r"m64n64k16\.f32\.f16\.f16 \{[^}]*\}, \{%r\d+, %r\d+, %r\d+, %r\d+\}, %rd",
                         line) for line in wgmma), wgmma
    assert any(re.search(r"m64n64k16\.f32\.f16\.f16 \{[^}]*\}, %rd\d+, %rd\d+", line)
               for line in wgmma), wgmma
    assert "ex2.approx.ftz.f32" in ptx
    assert "ex2.approx.f32" not in ptx


def _run_gpu(torch, z, h, n_ctx, d, causal, block_m, block_n, num_warps, rng):
    q, k, v = (torch.from_numpy(x).cuda() for x in _inputs(rng, z, h, n_ctx, d))
    out = torch.full((z, h, n_ctx, d), float("nan"), dtype=torch.float16, device="cuda")
    lse = torch.full((z, h, n_ctx), float("nan"), dtype=torch.float32, device="cuda")
    sm_scale = 1.0 / math.sqrt(d)
    attention(q, k, v, sm_scale, causal, block_m, block_n, out=out, lse=lse,
              num_warps=num_warps)
    torch.cuda.synchronize()
    want, want_lse = reference(q.cpu().numpy(), k.cpu().numpy(), v.cpu().numpy(), sm_scale,
                               causal)
    got = out.cpu().numpy().astype(np.float64)
    got_lse = lse.cpu().numpy().astype(np.float64)
    assert np.all(np.abs(got - want) <= 1e-2), np.nanmax(np.abs(got - want))
    assert np.all(np.abs(got_lse - want_lse) <= 1e-3 * (1 + np.abs(want_lse)))


@pytest.mark.gpu
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("d,num_warps", [(64, 4), (128, 8)])
@pytest.mark.parametrize("n_ctx", [1024, 1000, 333])
def test_gpu_matches_float64(torch_cuda, causal, d, num_warps, n_ctx, rng):
    _run_gpu(torch_cuda, 2, 3, n_ctx, d, causal, 128, 64, num_warps, rng)


@pytest.mark.gpu
@pytest.mark.parametrize("d", [64, 128])
def test_gpu_causal_shorter_than_a_block(torch_cuda, d, rng):
    _run_gpu(torch_cuda, 1, 2, 100, d, True, 128, 64, 4 if d == 64 else 8, rng)
