"""Tensors of more than 2^31 elements with Triton's i32 offsets (issue 18
item 4): `pid * BLOCK + tl.arange(0, BLOCK)` wraps in i32, and
terrazzo-promote-offsets computes such offsets (and the masks made from
them) in i64 (lit: Passes/promote-offsets.mlir)."""

from __future__ import annotations

import re

import numpy as np
import pytest

import terrazzo as triton
import terrazzo.language as tl


@triton.jit
def add_one(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=mask) + 1, mask=mask)


@triton.jit
def scale_block(x, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK) * 2 + 1
    tl.store(x + offs, tl.load(x + offs) * 2)


def test_wrapping_offsets_stay_i32_by_default():
    # The promotion is opt-in (TERRAZZO_PROMOTE_OFFSETS=1): as Triton does,
    # offsets are i32 unless asked (it still costs the matmul kernels
    # registers, bench/offsets_registers.py).
    x = np.zeros(16, np.int8)
    ir = add_one.compile(x, x, (1 << 31) + 5, BLOCK=1024, stage="tile")
    assert re.search(r"arith\.muli %\S+, %\S+ : i32", ir), ir
    assert re.search(r"tile\.addptr %\S+, %\S+ : tensor<1024x!tile\.ptr<i8>>, tensor<1024xi32>", ir), ir
    assert not re.search(r"tile\.addptr %\S+, %\S+ : tensor<1024x!tile\.ptr<i8>>, tensor<1024xi64>", ir), ir


def test_wrapping_offsets_are_computed_in_i64(monkeypatch):
    monkeypatch.setenv("TERRAZZO_PROMOTE_OFFSETS", "1")
    x = np.zeros(16, np.int8)
    ir = add_one.compile(x, x, (1 << 31) + 5, BLOCK=1024, stage="tile")
    # The block's start pid * 1024 is computed in i64 and advances each base
    # pointer; the offsets in the block stay i32, and the mask compares them
    # with n - start (i64, clamped to i32) instead of offs with n.
    assert re.search(r"arith\.muli %\S+, %\S+ : i64", ir), ir
    assert re.search(r"tile\.addptr %arg\d+, %\S+ : !tile\.ptr<i8>, i64", ir), ir
    assert re.search(r"arith\.subi %\S+, %\S+ : i64", ir), ir
    assert re.search(r"arith\.trunci %\S+ : i64 to i32", ir), ir
    assert re.search(r"arith\.cmpi slt, %\S+, %\S+ : tensor<1024xi32>", ir), ir
    assert "tensor<1024xi64>" not in ir, ir


def test_bounded_offsets_stay_i32(monkeypatch):
    monkeypatch.setenv("TERRAZZO_PROMOTE_OFFSETS", "1")
    x = np.zeros(512, np.float32)
    ir = scale_block.compile(x, BLOCK=128, stage="tile")
    assert "i64" not in ir, ir
    assert re.search(r"tile\.addptr %\S+, %\S+ : tensor<128x!tile\.ptr<f32>>, tensor<128xi32>", ir), ir


@pytest.mark.gpu
def test_gpu_more_than_2_pow_31_elements(torch_cuda, monkeypatch):
    """int8 x + 1 over 2^31 + 4133 elements (about 6.5 GB with the
    reference), offsets promoted (TERRAZZO_PROMOTE_OFFSETS=1): every element
    right, the last block's masked tail and the bytes past the end
    untouched."""
    monkeypatch.setenv("TERRAZZO_PROMOTE_OFFSETS", "1")
    torch = torch_cuda
    n = (1 << 31) + 4133
    guard = 4096
    gen = torch.Generator(device="cuda").manual_seed(1234)
    x = torch.randint(-128, 128, (n,), dtype=torch.int8, device="cuda", generator=gen)
    out = torch.full((n + guard,), 77, dtype=torch.int8, device="cuda")
    block = 1024
    add_one[(triton.cdiv(n, block),)](x, out, n, BLOCK=block)
    torch.cuda.synchronize()
    expected = x + 1  # int8 arithmetic wraps, as the kernel's does
    assert torch.equal(out[:n], expected)
    assert bool((out[n:] == 77).all())
    # The elements past 2^31 are where i32 offsets went wrong.
    assert torch.equal(out[(1 << 31) - 8:n], expected[(1 << 31) - 8:])
