"""The interpreter's checks: every access judged against the argument its
pointer was derived from (not another argument's memory, not the base array
of a view), tensor-descriptor loads past the shape give zeros, stores of two
programs to one address without an atomic are a race, and a kernel the
compiler rejects is rejected with the compiler's message (a branch that is
not taken included)."""

from __future__ import annotations

import numpy as np
import pytest

import terrazzo as triton
import terrazzo.language as tl
from terrazzo import CompilationError, InterpreterError


@pytest.fixture(autouse=True)
def interpret(_private_cache, monkeypatch):
    monkeypatch.setenv("TERRAZZO_INTERPRET", "1")
    monkeypatch.delenv("TERRAZZO_INTERPRET_CHECK_RACES", raising=False)


@triton.jit
def copy_kernel(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(dst_ptr + offs, tl.load(src_ptr + offs, mask=offs < n), mask=offs < n)


@triton.jit
def read_kernel(x_ptr, out_ptr, COUNT: tl.constexpr):
    offs = tl.arange(0, COUNT)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs))  # reads COUNT elements, unmasked


@triton.jit
def write_kernel(x_ptr, COUNT: tl.constexpr):
    tl.store(x_ptr + tl.arange(0, COUNT), 7.0)


def test_a_read_past_a_view_into_another_argument_is_out_of_bounds(rng):
    whole = rng.standard_normal(64).astype(np.float32)
    first, second = whole[:32], whole[32:]  # two arguments, one array
    out = np.zeros(64, np.float32)
    with pytest.raises(InterpreterError, match=r"out-of-bounds load in program \(0, 0, 0\): "
                       r"element 63 of 'x_ptr' is past its end \(a fp32 buffer of 32 "
                       r"elements; 32 lanes out of bounds\)"):
        read_kernel[(1,)](first, out, COUNT=64)
    # Within its own view the same read is fine, from either argument.
    read_kernel[(1,)](second, out, COUNT=32)
    np.testing.assert_array_equal(out[:32], whole[32:])


def test_a_read_before_a_view_is_out_of_bounds():
    whole = np.arange(64, dtype=np.float32)

    @triton.jit
    def k(x_ptr, out_ptr):
        offs = tl.arange(0, 16) - 4
        tl.store(out_ptr + offs + 4, tl.load(x_ptr + offs))

    with pytest.raises(InterpreterError, match=r"element -4 of 'x_ptr' is before its start "
                                               r"\(a fp32 buffer of 16 elements\)"):
        k[(1,)](whole[16:32], np.zeros(16, np.float32))


def test_a_store_past_a_view_does_not_reach_its_base():
    base = np.zeros(100, np.float32)
    with pytest.raises(InterpreterError, match=r"out-of-bounds store .* element 15 of 'x_ptr' "
                                               r"is past its end \(a fp32 buffer of 10 "
                                               r"elements; 6 lanes"):
        write_kernel[(1,)](base[10:20], COUNT=16)
    assert not base.any()  # nothing was written
    write_kernel[(1,)](base[10:26], COUNT=16)
    np.testing.assert_array_equal(base, np.where((np.arange(100) >= 10) &
                                                 (np.arange(100) < 26), 7.0, 0.0))


def test_views_with_strides_are_judged_by_their_extent(rng):
    a = rng.standard_normal((8, 16)).astype(np.float32)
    column = a[:, 3]  # 8 elements 16 apart: spans 113 elements of a
    out = np.zeros(8, np.float32)

    @triton.jit
    def k(x_ptr, out_ptr, stride, COUNT: tl.constexpr):
        offs = tl.arange(0, 8)
        tl.store(out_ptr + offs, tl.load(x_ptr + offs * stride))

    k[(1,)](column, out, 16, COUNT=8)
    np.testing.assert_array_equal(out, a[:, 3])
    with pytest.raises(InterpreterError, match="past its end"):
        k[(1,)](column, out, 17, COUNT=8)
    # A reversed view: element 0 is the last of its memory.
    rev = np.arange(16, dtype=np.float32)[::-1]
    k[(1,)](rev, out, -1, COUNT=8)
    np.testing.assert_array_equal(out, rev[:8])
    with pytest.raises(InterpreterError, match="past its end"):
        k[(1,)](rev, out, 1, COUNT=8)


@triton.jit
def desc_copy_kernel(x_ptr, out_ptr, M, N, ROW, COL, BM: tl.constexpr, BN: tl.constexpr):
    xd = tl.make_tensor_descriptor(x_ptr, [M, N], [N, 1], [BM, BN])
    block = xd.load([ROW, COL])
    r = tl.arange(0, BM)[:, None]
    c = tl.arange(0, BN)[None, :]
    tl.store(out_ptr + r * BN + c, block)


@pytest.mark.parametrize("row,col", [(0, 0), (8, 0), (0, 24), (12, 28), (-4, -8), (16, 0)])
def test_descriptor_loads_past_the_shape_give_zeros(rng, row, col):
    # The descriptor covers 16 x 32 of a 24 x 32 array: rows 16.. are memory
    # the kernel may not see through it.
    data = rng.standard_normal((24, 32)).astype(np.float32) + 10
    out = np.full((8, 16), np.nan, np.float32)
    desc_copy_kernel[(1,)](data, out, 16, 32, row, col, BM=8, BN=16)
    expected = np.zeros((8, 16), np.float64)
    for i in range(8):
        for j in range(16):
            r, c = row + i, col + j
            if 0 <= r < 16 and 0 <= c < 32:
                expected[i, j] = data[r, c]
    np.testing.assert_array_equal(out, expected)


def test_a_descriptor_larger_than_its_argument_is_out_of_bounds(rng):
    # Rows 16..23 of the array lie past the view the kernel is given.
    data = rng.standard_normal((24, 32)).astype(np.float32)
    out = np.zeros((8, 16), np.float32)
    with pytest.raises(InterpreterError, match=r"out-of-bounds load .* of 'x_ptr' is past its "
                                               r"end \(a fp32 buffer of 512 elements"):
        desc_copy_kernel[(1,)](data[:16], out, 24, 32, 12, 0, BM=8, BN=16)


@triton.jit
def racy_kernel(out_ptr, ATOMIC: tl.constexpr):
    pid = tl.program_id(0)
    if ATOMIC:
        tl.atomic_add(out_ptr + 3, pid.to(tl.float32))
    else:
        tl.store(out_ptr + tl.arange(0, 4), pid.to(tl.float32))  # every program: 0..3


def test_two_programs_storing_to_one_address_is_a_race():
    out = np.zeros(8, np.float32)
    with pytest.raises(InterpreterError, match=r"data race in program \(1, 0, 0\): it stores to "
                       r"element 0 of 'out_ptr' another value than program \(0, 0, 0\) stored "
                       r"there in this launch, without an atomic"):
        racy_kernel[(2,)](out, ATOMIC=False)
    racy_kernel[(1,)](out, ATOMIC=False)  # one program: no race
    racy_kernel[(4,)](out, ATOMIC=True)  # atomics: no race
    assert out[3] == 0 + (0 + 1 + 2 + 3)


def test_programs_storing_the_same_value_is_not_a_race():
    @triton.jit
    def k(out_ptr, flag_ptr):
        tl.store(flag_ptr, 1)  # every program: the result is the same in any order
        tl.store(out_ptr + tl.program_id(0), 2.0)

    out = np.zeros(4, np.float32)
    flag = np.zeros(1, np.int32)
    k[(4,)](out, flag)
    assert flag[0] == 1 and (out == 2.0).all()


def test_the_race_check_can_be_turned_off(monkeypatch):
    monkeypatch.setenv("TERRAZZO_INTERPRET_CHECK_RACES", "0")
    out = np.zeros(8, np.float32)
    racy_kernel[(3,)](out, ATOMIC=False)
    np.testing.assert_array_equal(out[:4], 2.0)  # programs run in order: the last wins


def test_stores_ordered_by_a_lock_are_not_a_race():
    @triton.jit
    def locked_sum(x_ptr, acc_ptr, lock_ptr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        x = tl.load(x_ptr + tl.program_id(0) * BLOCK + offs)
        while tl.atomic_cas(lock_ptr, 0, 1) == 1:
            pass
        tl.store(acc_ptr + offs, tl.load(acc_ptr + offs) + x)
        tl.atomic_xchg(lock_ptr, 0)

    x = np.arange(64, dtype=np.float32)
    acc = np.zeros(16, np.float32)
    locked_sum[(4,)](x, acc, np.zeros(1, np.int32), BLOCK=16)
    np.testing.assert_array_equal(acc, x.reshape(4, 16).sum(axis=0))


def test_each_program_writing_its_own_block_is_not_a_race(rng):
    x = rng.standard_normal(1000).astype(np.float32)
    y = np.full(1000, np.nan, np.float32)
    copy_kernel[(8,)](x, y, 1000, BLOCK=128)
    np.testing.assert_array_equal(x, y)


@triton.jit
def if_types_kernel(x_ptr, n):
    x = tl.load(x_ptr + tl.arange(0, 16))
    if n > 3:  # <- never false in the launches below
        t = x
    else:
        t = x.to(tl.int32)
    tl.store(x_ptr + tl.arange(0, 16), t)


def test_the_interpreter_rejects_what_the_compiler_rejects_in_a_branch_not_taken():
    x = np.zeros(16, np.float32)
    with pytest.raises(CompilationError) as compiled:
        triton.jit(if_types_kernel.fn, interpret=False).ir(x, 10)
    with pytest.raises(InterpreterError) as interpreted:
        if_types_kernel[(1,)](x, 10)
    assert isinstance(interpreted.value, CompilationError)
    assert str(interpreted.value) == str(compiled.value)
    assert interpreted.value.line == compiled.value.line
    assert "Mismatched type for t" in str(interpreted.value)
