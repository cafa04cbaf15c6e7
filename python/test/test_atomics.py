"""Atomics: tl.atomic_add/max/min/and/or/xor/xchg/cas, and the atomic
accesses tl.atomic_load/atomic_store/atomic_poll.

The interpreter runs the kernels on fresh random inputs with collisions and
masked tails and is checked exactly against a sequential NumPy/Python
reference (programs run in order, the elements of a block in row-major
order, so even the old values are deterministic there). The same kernels'
tile IR is lowered to PTX (assembled by ptxas where present) and checked
for the `atom`/`red` (and `ld.acquire`/`st.release`) instructions; errors
name the kernel's line. GPU tests (marked `gpu`) compare the histogram and
ticket kernels with the interpreter, and pass messages between programs
with release stores and acquire loads or polls.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import terrazzo as triton
import terrazzo.language as tl
from terrazzo import CompilationError, InterpreterError
from terrazzo.compiler.numerics import round_to_bf16

from test_errors import check as check_error


def interp(kernel):
    return triton.jit(kernel.fn, interpret=True)


# ---------------------------------------------------------------------------
# Kernels
# ---------------------------------------------------------------------------

@triton.jit
def histogram_kernel(idx_ptr, w_ptr, ibins_ptr, fbins_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    b = tl.load(idx_ptr + offs, mask=mask, other=0)
    w = tl.load(w_ptr + offs, mask=mask, other=0.0)
    tl.atomic_add(ibins_ptr + b, 1, mask=mask)
    tl.atomic_add(fbins_ptr + b, w, mask=mask, sem="relaxed")


@triton.jit
def ticket_kernel(counter_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    # Every element adds 1 to the same counter: the old values are tickets.
    ones = tl.full([BLOCK], 1, tl.int32)
    t = tl.atomic_add(counter_ptr, ones, mask=mask)
    tl.store(out_ptr + offs, t, mask=mask)


@triton.jit
def scalar_ticket_kernel(counter_ptr, out_ptr, rows_ptr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    t = tl.atomic_add(counter_ptr, 1, sem="acq_rel", scope="gpu")
    tl.store(out_ptr + pid, t)
    tl.store(rows_ptr + pid * BLOCK + tl.arange(0, BLOCK), t + tl.zeros([BLOCK], tl.int32))


@triton.jit
def minmax_kernel(x_ptr, idx_ptr, max_ptr, min_ptr, oldmax_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    b = tl.load(idx_ptr + offs, mask=mask, other=0)
    old = tl.atomic_max(max_ptr + b, x, mask=mask)
    tl.store(oldmax_ptr + offs, old, mask=mask)
    tl.atomic_min(min_ptr + b, x, mask=mask, sem="relaxed", scope="cta")


@triton.jit
def bitwise_kernel(x_ptr, idx_ptr, and_ptr, or_ptr, xor_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    b = tl.load(idx_ptr + offs, mask=mask, other=0)
    tl.atomic_and(and_ptr + b, x, mask=mask)
    tl.atomic_or(or_ptr + b, x, mask=mask, sem="release")
    tl.atomic_xor(xor_ptr + b, x, mask=mask, sem="acquire", scope="sys")


@triton.jit
def xchg_kernel(p_ptr, v_ptr, old_ptr, idx_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(v_ptr + offs, mask=mask)
    b = tl.load(idx_ptr + offs, mask=mask, other=0)
    old = tl.atomic_xchg(p_ptr + b, v, mask=mask)
    tl.store(old_ptr + offs, old, mask=mask)


@triton.jit
def cas_claim_kernel(slots_ptr, idx_ptr, got_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    b = tl.load(idx_ptr + offs, mask=mask, other=0)
    # Masked-off elements compare with -2, which no slot holds.
    cmp = tl.where(mask, -1, -2)
    got = tl.atomic_cas(slots_ptr + b, cmp, offs)
    tl.store(got_ptr + offs, got, mask=mask)


@triton.jit
def lock_kernel(lock_ptr, counter_ptr, ITERS: tl.constexpr):
    for _ in range(ITERS):
        while tl.atomic_cas(lock_ptr, 0, 1, sem="acquire") != 0:
            pass
        v = tl.atomic_add(counter_ptr, 0, sem="relaxed")
        tl.atomic_xchg(counter_ptr, v + 1, sem="relaxed")
        tl.atomic_xchg(lock_ptr, 0, sem="release")


@triton.jit
def half_kernel(h_ptr, hbins_ptr, b_bits_ptr, bbins_bits_ptr, idx_ptr, hold_ptr, n,
                BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    b = tl.load(idx_ptr + offs, mask=mask, other=0)
    h = tl.load(h_ptr + offs, mask=mask)
    old = tl.atomic_add(hbins_ptr + b, h, mask=mask)
    tl.store(hold_ptr + offs, old, mask=mask)
    bf_ptr = b_bits_ptr.to(tl.pointer_type(tl.bfloat16))
    bbins = bbins_bits_ptr.to(tl.pointer_type(tl.bfloat16))
    v = tl.load(bf_ptr + offs, mask=mask)
    tl.atomic_add(bbins + b, v, mask=mask)
    tl.atomic_max(bbins + b + 8, v, mask=mask)


@triton.jit
def wide_kernel(p_ptr, q_ptr, x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.atomic_add(p_ptr + (offs % 3), x, mask=mask)
    tl.atomic_max(q_ptr + (offs % 3), x, mask=mask)


# ---------------------------------------------------------------------------
# References
# ---------------------------------------------------------------------------

def total_order_key(bits: int, width: int) -> int:
    """IEEE totalOrder as an unsigned integer key (independent of the
    interpreter's implementation)."""
    sign = 1 << (width - 1)
    return (~bits & ((1 << width) - 1)) if bits & sign else bits | sign


def float_bits(values, dtype):
    u = {2: np.uint16, 4: np.uint32, 8: np.uint64}[np.dtype(dtype).itemsize]
    return np.asarray(values, dtype=dtype).view(u).astype(np.uint64)


def special_floats(n, rng, dtype=np.float32):
    x = (rng.standard_normal(n) * 10).astype(dtype)
    pick = rng.integers(0, 20, n)
    x[pick == 0] = 0.0
    x[pick == 1] = -0.0
    x[pick == 2] = np.inf
    x[pick == 3] = -np.inf
    nan = np.array([np.nan], dtype=dtype)
    x[pick == 4] = nan[0]
    x[pick == 5] = -nan[0]
    return x


# ---------------------------------------------------------------------------
# The interpreter against sequential references
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("n,bins,block", [(1, 5, 64), (1000, 7, 128), (777, 1, 256)])
def test_histogram(n, bins, block, rng):
    idx = rng.integers(0, bins, n).astype(np.int32)
    w = rng.standard_normal(n).astype(np.float32)
    ibins = np.zeros(bins + 4, np.int32)
    ibins[bins:] = -7
    fbins = np.zeros(bins + 4, np.float32)
    fbins[bins:] = np.nan
    interp(histogram_kernel)[(triton.cdiv(n, block),)](idx, w, ibins, fbins, n, BLOCK=block)
    np.testing.assert_array_equal(ibins[:bins], np.bincount(idx, minlength=bins))
    assert (ibins[bins:] == -7).all()
    # Sequential float32 sums in element order: exact.
    want = np.zeros(bins, np.float32)
    for i in range(n):
        want[idx[i]] = np.float32(want[idx[i]] + w[i])
    np.testing.assert_array_equal(fbins[:bins], want)
    assert np.isnan(fbins[bins:]).all()
    np.testing.assert_allclose(fbins[:bins], np.bincount(idx, w.astype(np.float64), bins),
                               rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("n,block", [(1, 16), (300, 128), (1024, 256)])
def test_tickets_are_the_old_values(n, block):
    counter = np.zeros(1, np.int32)
    out = np.full(n + 3, -5, np.int32)
    interp(ticket_kernel)[(triton.cdiv(n, block),)](counter, out, n, BLOCK=block)
    assert counter[0] == n  # masked-off elements do not count
    np.testing.assert_array_equal(out[:n], np.arange(n))
    assert (out[n:] == -5).all()


def test_scalar_atomic_returns_a_scalar():
    counter = np.full(1, 10, np.int32)
    out = np.full(6, -1, np.int32)
    rows = np.full(6 * 32, -1, np.int32)
    interp(scalar_ticket_kernel)[(6,)](counter, out, rows, BLOCK=32)
    np.testing.assert_array_equal(out, 10 + np.arange(6))
    np.testing.assert_array_equal(rows, np.repeat(10 + np.arange(6), 32))
    assert counter[0] == 16


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
@pytest.mark.parametrize("n", [1, 500, 2000])
def test_float_max_min_in_total_order(dtype, n, rng):
    bins = 9
    width = np.dtype(dtype).itemsize * 8
    x = special_floats(n, rng, dtype)
    idx = rng.integers(0, bins, n).astype(np.int32)
    init = special_floats(bins, rng, dtype)
    init[0] = -0.0  # a +0.0 must win the max over -0.0
    x[0], idx[0] = 0.0, 0
    mx, mn = init.copy(), init.copy()
    oldmax = np.zeros(n, dtype)
    interp(minmax_kernel)[(triton.cdiv(n, 128),)](x, idx, mx, mn, oldmax, n, BLOCK=128)
    xb, ib = float_bits(x, dtype), float_bits(init, dtype)
    want_max, want_min = [int(v) for v in ib], [int(v) for v in ib]
    want_old = []
    for i in range(n):
        b, v = idx[i], int(xb[i])
        want_old.append(want_max[b])
        if total_order_key(v, width) > total_order_key(want_max[b], width):
            want_max[b] = v
        if total_order_key(v, width) < total_order_key(want_min[b], width):
            want_min[b] = v
    assert list(float_bits(mx, dtype)) == want_max
    assert list(float_bits(mn, dtype)) == want_min
    assert list(float_bits(oldmax, dtype)) == want_old
    assert float_bits(mx[:1], dtype)[0] != float_bits(np.array([-0.0], dtype), dtype)[0]


@pytest.mark.parametrize("dtype", [np.int32, np.uint32, np.int64, np.uint64])
def test_integer_max_min_and_bitwise(dtype, rng):
    n, bins = 700, 6
    info = np.iinfo(dtype)
    x = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
    idx = rng.integers(0, bins, n).astype(np.int32)
    init = rng.integers(info.min, info.max, bins, dtype=dtype, endpoint=True)
    mx, mn = init.copy(), init.copy()
    oldmax = np.zeros(n, dtype)
    interp(minmax_kernel)[(triton.cdiv(n, 128),)](x, idx, mx, mn, oldmax, n, BLOCK=128)
    for b in range(bins):
        sel = x[idx == b]
        assert mx[b] == max([init[b], *sel])  # signed or unsigned by the type
        assert mn[b] == min([init[b], *sel])
    a, o, e = init.copy(), init.copy(), init.copy()
    interp(bitwise_kernel)[(triton.cdiv(n, 256),)](x, idx, a, o, e, n, BLOCK=256)
    for b in range(bins):
        sel = x[idx == b]
        assert a[b] == np.bitwise_and.reduce(sel, initial=init[b])
        assert o[b] == np.bitwise_or.reduce(sel, initial=init[b])
        assert e[b] == np.bitwise_xor.reduce(sel, initial=init[b])


def test_integer_add_wraps():
    counter = np.array([2**31 - 2], np.int32)
    out = np.zeros(4, np.int32)
    interp(ticket_kernel)[(1,)](counter, out, 4, BLOCK=4)
    np.testing.assert_array_equal(out, [2**31 - 2, 2**31 - 1, -2**31, -2**31 + 1])
    assert counter[0] == -2**31 + 2


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.float16])
def test_xchg_chains_through_collisions(dtype, rng):
    n, slots = 333, 11
    p = rng.standard_normal(slots).astype(dtype) if np.dtype(dtype).kind == "f" else \
        rng.integers(-100, 100, slots).astype(dtype)
    v = (rng.standard_normal(n) * 100).astype(dtype)
    idx = rng.integers(0, slots, n).astype(np.int32)
    old = np.zeros(n, dtype)
    start = p.copy()
    interp(xchg_kernel)[(triton.cdiv(n, 64),)](p, v, old, idx, n, BLOCK=64)
    cur = list(start)
    for i in range(n):
        assert old[i] == cur[idx[i]] or (np.isnan(old[i]) and np.isnan(cur[idx[i]]))
        cur[idx[i]] = v[i]
    np.testing.assert_array_equal(p, np.array(cur, dtype))


@pytest.mark.parametrize("n", [1, 200, 1000])
def test_cas_claims_one_winner_per_slot(n, rng):
    slots = 13
    s = np.full(slots, -1, np.int32)
    idx = rng.integers(0, slots, n).astype(np.int32)
    got = np.full(n + 2, -9, np.int32)
    interp(cas_claim_kernel)[(triton.cdiv(n, 128),)](s, idx, got, n, BLOCK=128)
    for slot in range(slots):
        members = np.flatnonzero(idx == slot)
        if not members.size:
            assert s[slot] == -1
            continue
        winner = members[0]  # the first in order, in the interpreter
        assert s[slot] == winner
        assert got[winner] == -1
        assert (got[members[1:]] == winner).all()
    assert (got[n:] == -9).all()


def test_spin_lock_counter():
    lock = np.zeros(1, np.int32)
    counter = np.zeros(1, np.int32)
    interp(lock_kernel)[(5,)](lock, counter, ITERS=3)
    assert counter[0] == 15 and lock[0] == 0


def test_cas_compares_bits():
    @triton.jit
    def k(p_ptr, out_ptr):
        offs = tl.arange(0, 4)
        cmp = tl.load(out_ptr + offs)
        got = tl.atomic_cas(p_ptr + offs, cmp, 1.0)
        tl.store(out_ptr + offs, got)
    p = np.array([0.0, -0.0, np.nan, 2.0], np.float32)
    cmp = np.array([-0.0, -0.0, np.nan, 2.0], np.float32)
    interp(k)[(1,)](p, cmp)
    # +0.0 is not -0.0; a NaN matches its own bits.
    np.testing.assert_array_equal(float_bits(p, np.float32),
                                  float_bits([0.0, 1.0, 1.0, 1.0], np.float32))


def test_half_and_bfloat16_atomics(rng):
    n, bins = 400, 8
    idx = rng.integers(0, bins, n).astype(np.int32)
    h = rng.integers(-4, 5, n).astype(np.float16)
    hbins = np.zeros(bins, np.float16)
    hold = np.zeros(n, np.float16)
    bvals = rng.standard_normal(n).astype(np.float32)
    bvals = round_to_bf16(bvals)
    bbits = (bvals.view(np.uint32) >> 16).astype(np.uint16)
    bbins_bits = np.zeros(2 * bins, np.uint16)
    bbins_bits[bins:] = 0xFF80  # -inf
    interp(half_kernel)[(triton.cdiv(n, 128),)](h, hbins, bbits, bbins_bits, idx, hold, n,
                                                BLOCK=128)
    want_h = np.zeros(bins, np.float16)
    want_old = np.zeros(n, np.float16)
    want_b = np.zeros(bins, np.float32)
    for i in range(n):
        want_old[i] = want_h[idx[i]]
        want_h[idx[i]] = np.float16(want_h[idx[i]] + h[i])
        want_b[idx[i]] = round_to_bf16(np.float32(want_b[idx[i]] + bvals[i]))
    np.testing.assert_array_equal(hbins, want_h)
    np.testing.assert_array_equal(hold, want_old)
    got_b = (bbins_bits[:bins].astype(np.uint32) << 16).view(np.float32)
    np.testing.assert_array_equal(got_b, want_b)
    got_max = (bbins_bits[bins:].astype(np.uint32) << 16).view(np.float32)
    want_max = np.full(bins, -np.inf, np.float32)
    np.maximum.at(want_max, idx, bvals)
    np.testing.assert_array_equal(got_max, want_max)


def test_masked_elements_return_zero_and_touch_nothing():
    @triton.jit
    def k(p_ptr, out_ptr, n):
        offs = tl.arange(0, 8)
        old = tl.atomic_add(p_ptr + offs, 5, mask=offs < n)
        tl.store(out_ptr + offs, old)
    p = np.arange(10, 18, dtype=np.int32)
    out = np.full(8, -1, np.int32)
    interp(k)[(1,)](p, out, 3)
    np.testing.assert_array_equal(out, [10, 11, 12, 0, 0, 0, 0, 0])
    np.testing.assert_array_equal(p, [15, 16, 17, 13, 14, 15, 16, 17])


def test_out_of_bounds_atomic_names_the_line():
    @triton.jit
    def k(p_ptr):
        offs = tl.arange(0, 16)
        tl.atomic_add(p_ptr + offs, 1)  # <-
    with pytest.raises(InterpreterError) as ei:
        interp(k)[(1,)](np.zeros(8, np.int32))
    check_error(ei, k, r"out-of-bounds atomic in program \(0, 0, 0\): element 15 of 'p_ptr' "
                r"is past its end", InterpreterError)


# ---------------------------------------------------------------------------
# Tile IR and PTX
# ---------------------------------------------------------------------------

def _z(n, dtype=np.float32):
    return np.zeros(n, dtype)


def test_ir_form_and_locations():
    text = histogram_kernel.ir(_z(8, np.int32), _z(8), _z(8, np.int32), _z(8), 8, BLOCK=128)
    src = histogram_kernel.parsed
    ops = re.findall(r"tile.atomic_rmw (\w+), (\w+), (\w+), %\d+, %\d+, %\d+ : "
                     r"tensor<128x!tile.ptr<(\w+)>> loc\(\"[^\"]+\":(\d+):", text)
    import inspect
    lines, start = inspect.getsourcelines(histogram_kernel.fn)
    add_lines = [start + i for i, l in enumerate(lines) if "tl.atomic_add" in l]
    assert ops == [("add", "acq_rel", "gpu", "i32", str(add_lines[0])),
                   ("fadd", "relaxed", "gpu", "f32", str(add_lines[1]))]
    assert src.file in text
    cas = cas_claim_kernel.ir(_z(4, np.int32), _z(4, np.int32), _z(4, np.int32), 4, BLOCK=64)
    assert re.search(r"tile.atomic_cas acq_rel, gpu, %\d+, %\d+, %\d+ : "
                     r"tensor<64x!tile.ptr<i32>>", cas)
    scalar = scalar_ticket_kernel.ir(_z(1, np.int32), _z(1, np.int32), _z(64, np.int32),
                                     BLOCK=64)
    assert re.search(r"= tile.atomic_rmw add, acq_rel, gpu, %arg0, %\d+ : !tile.ptr<i32>",
                     scalar)


def test_unsigned_max_and_float_ops_pick_the_tile_kind():
    u = minmax_kernel.ir(_z(4, np.uint32), _z(4, np.int32), _z(4, np.uint32),
                         _z(4, np.uint32), _z(4, np.uint32), 4, BLOCK=64)
    assert "tile.atomic_rmw umax, acq_rel, gpu" in u
    assert "tile.atomic_rmw umin, relaxed, cta" in u
    f = minmax_kernel.ir(_z(4), _z(4, np.int32), _z(4), _z(4), _z(4), 4, BLOCK=64)
    assert "tile.atomic_rmw max, acq_rel, gpu" in f
    assert "tile.atomic_rmw min, relaxed, cta" in f
    b = bitwise_kernel.ir(*[_z(4, np.int64)] * 1, _z(4, np.int32), *[_z(4, np.int64)] * 3, 4,
                          BLOCK=64)
    assert "tile.atomic_rmw and, acq_rel, gpu" in b
    assert "tile.atomic_rmw or, release, gpu" in b
    assert "tile.atomic_rmw xor, acquire, sys" in b


PTX_CASES = {
    "histogram": (histogram_kernel,
                  lambda: (_z(8, np.int32), _z(8), _z(8, np.int32), _z(8), 8), dict(BLOCK=256),
                  [r"atom\.acq_rel\.gpu\.global\.add\.u32", r"red\.relaxed\.gpu\.global\.add\.f32"]),
    "ticket": (ticket_kernel, lambda: (_z(1, np.int32), _z(8, np.int32), 8), dict(BLOCK=16),
               [r"atom\.acq_rel\.gpu\.global\.add\.u32", r"bar\.sync"]),
    "scalar": (scalar_ticket_kernel, lambda: (_z(1, np.int32), _z(1, np.int32),
                                              _z(64, np.int32)), dict(BLOCK=64),
               [r"atom\.acq_rel\.gpu\.global\.add\.u32", r"st\.shared", r"bar\.sync",
                r"ld\.shared"]),
    "minmax_f32": (minmax_kernel, lambda: (_z(8), _z(8, np.int32), _z(8), _z(8), _z(8), 8),
                   dict(BLOCK=128),
                   [r"atom\.acq_rel\.gpu\.global\.max\.s32", r"atom\.acq_rel\.gpu\.global\.min\.u32",
                    r"red\.relaxed\.cta\.global\.min\.s32", r"red\.relaxed\.cta\.global\.max\.u32"]),
    "minmax_u64": (minmax_kernel, lambda: (_z(8, np.uint64), _z(8, np.int32), _z(8, np.uint64),
                                           _z(8, np.uint64), _z(8, np.uint64), 8),
                   dict(BLOCK=128),
                   [r"atom\.acq_rel\.gpu\.global\.max\.u64", r"red\.relaxed\.cta\.global\.min\.u64"]),
    "bitwise": (bitwise_kernel, lambda: (_z(8, np.int32), _z(8, np.int32), _z(8, np.int32),
                                         _z(8, np.int32), _z(8, np.int32), 8), dict(BLOCK=128),
                [r"atom\.acq_rel\.gpu\.global\.and\.b32", r"red\.release\.gpu\.global\.or\.b32",
                 r"atom\.acquire\.sys\.global\.xor\.b32"]),
    "xchg": (xchg_kernel, lambda: (_z(8), _z(8), _z(8), _z(8, np.int32), 8), dict(BLOCK=128),
             [r"atom\.acq_rel\.gpu\.global\.exch\.b32"]),
    "cas": (cas_claim_kernel, lambda: (_z(8, np.int32), _z(8, np.int32), _z(8, np.int32), 8),
            dict(BLOCK=128), [r"atom\.acq_rel\.gpu\.global\.cas\.b32"]),
    "lock": (lock_kernel, lambda: (_z(1, np.int32), _z(1, np.int32)), dict(ITERS=2),
             [r"atom\.acquire\.gpu\.global\.cas\.b32", r"atom\.relaxed\.gpu\.global\.add\.u32",
              r"atom\.relaxed\.gpu\.global\.exch\.b32", r"atom\.release\.gpu\.global\.exch\.b32"]),
    "half": (half_kernel, lambda: (_z(8, np.float16), _z(8, np.float16), _z(8, np.uint16),
                                   _z(16, np.uint16), _z(8, np.int32), _z(8, np.float16), 8),
             dict(BLOCK=128),
             [r"atom\.acq_rel\.gpu\.global\.add\.noftz\.f16 ",
              r"atom\.acq_rel\.gpu\.global\.add\.noftz\.bf16 ",
              r"atom\.acq_rel\.gpu\.global\.cas\.b16"]),
    "wide": (wide_kernel, lambda: (_z(3, np.float64), _z(3, np.float64), _z(8, np.float64), 8),
             dict(BLOCK=64),
             [r"atom\.acq_rel\.gpu\.global\.add\.f64", r"atom\.acq_rel\.gpu\.global\.max\.s64",
              r"atom\.acq_rel\.gpu\.global\.min\.u64"]),
}


@pytest.mark.parametrize("case", sorted(PTX_CASES))
def test_atomics_lower_to_ptx(case, check_ir):
    kernel, make_args, meta, patterns = PTX_CASES[case]
    text = kernel.ir(*make_args(), **meta)
    check_ir.opt(text)
    ptx = check_ir.compile(text)  # assembled by ptxas where present
    for pattern in patterns:
        assert re.search(pattern, ptx), f"{pattern} not in the PTX of {case}:\n{ptx}"
    # And at 1 and 8 warps, and for sm_80.
    check_ir.compile(text, num_warps=1)
    check_ir.compile(text, num_warps=8, target="cuda:80")


def test_bf16_add_before_sm90_is_a_cas_loop(check_ir):
    text = half_kernel.ir(_z(8, np.float16), _z(8, np.float16), _z(8, np.uint16),
                          _z(16, np.uint16), _z(8, np.int32), _z(8, np.float16), 8, BLOCK=128)
    ptx = check_ir.compile(text, target="cuda:80")
    assert "add.noftz.bf16" not in ptx
    assert re.search(r"atom\.acq_rel\.gpu\.global\.add\.noftz\.f16 ", ptx)
    assert len(re.findall(r"atom\.acq_rel\.gpu\.global\.cas\.b16", ptx)) == 2


def test_compile_through_the_extension():
    pytest.importorskip("terrazzo._C")
    ptx = histogram_kernel.compile(_z(8, np.int32), _z(8), _z(8, np.int32), _z(8), 8,
                                   BLOCK=256, stage="ptx", target="cuda:90", num_warps=4)
    assert "atom.acq_rel.gpu.global.add.u32" in ptx
    assert "red.relaxed.gpu.global.add.f32" in ptx


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------

@triton.jit
def k_bool_pointer(p_ptr):
    tl.atomic_add(p_ptr, 1)  # <-


@triton.jit
def k_int8_cas(p_ptr):
    tl.atomic_cas(p_ptr, 0, 1)  # <-


@triton.jit
def k_float_and(p_ptr):
    tl.atomic_and(p_ptr + tl.arange(0, 16), 1.0)  # <-


@triton.jit
def k_bad_sem(p_ptr):
    tl.atomic_add(p_ptr, 1.0, sem="seq_cst")  # <-


@triton.jit
def k_bad_scope(p_ptr):
    tl.atomic_max(p_ptr, 1.0, scope="device")  # <-


@triton.jit
def k_not_a_pointer(p_ptr):
    x = tl.load(p_ptr)
    tl.atomic_xchg(x, 1.0)  # <-


@triton.jit
def k_shapes(p_ptr):
    tl.atomic_add(p_ptr + tl.arange(0, 16), tl.zeros([32], tl.float32))  # <-


@triton.jit
def k_pointer_value(p_ptr):
    tl.atomic_xchg(p_ptr, p_ptr)  # <-


@triton.jit
def k_bad_mask(p_ptr):
    tl.atomic_add(p_ptr, 1.0, mask=1.5)  # <-


@pytest.mark.parametrize("kernel,arg,pattern", [
    (k_bool_pointer, np.zeros(4, np.bool_), r"atomic_add does not support int1 elements"),
    (k_int8_cas, np.zeros(4, np.int8), r"atomic_cas does not support int8 elements"),
    (k_float_and, _z(16), r"atomic_and needs integer elements, got fp32"),
    (k_bad_sem, _z(4), r"atomic_add: unknown memory semantics 'seq_cst' \(use 'relaxed', "
                       r"'acquire', 'release' or 'acq_rel'\)"),
    (k_bad_scope, _z(4), r"atomic_max: unknown scope 'device' \(use 'gpu', 'cta' or 'sys'\)"),
    (k_not_a_pointer, _z(4), r"atomic_xchg expects a pointer or a block of pointers, got fp32"),
    (k_shapes, _z(16), r"cannot broadcast shapes \[16\] and \[32\]"),
    (k_pointer_value, _z(4), r"atomic_xchg: `val` cannot be a pointer"),
    (k_bad_mask, _z(4), r"atomic_add's mask must be boolean"),
])
def test_errors_name_the_line(kernel, arg, pattern):
    with pytest.raises(CompilationError) as ei:
        kernel.ir(arg)
    check_error(ei, kernel, pattern)
    # The interpreter reports the same.
    with pytest.raises(CompilationError) as ei:
        interp(kernel)[(1,)](arg)
    assert re.search(pattern, str(ei.value)), str(ei.value)


# ---------------------------------------------------------------------------
# GPU
# ---------------------------------------------------------------------------



@pytest.mark.gpu
@pytest.mark.parametrize("num_warps", [1, 4, 8])
def test_gpu_histogram_and_tickets(torch_cuda, num_warps, rng):
    torch = torch_cuda
    n, bins = 100003, 37
    idx = rng.integers(0, bins, n).astype(np.int32)
    w = rng.standard_normal(n).astype(np.float32)
    ibins = torch.zeros(bins, dtype=torch.int32, device="cuda")
    fbins = torch.zeros(bins, dtype=torch.float32, device="cuda")
    histogram_kernel[(triton.cdiv(n, 256),)](torch.from_numpy(idx).cuda(),
                                              torch.from_numpy(w).cuda(), ibins, fbins, n,
                                              BLOCK=256, num_warps=num_warps)
    np.testing.assert_array_equal(ibins.cpu().numpy(), np.bincount(idx, minlength=bins))
    np.testing.assert_allclose(fbins.cpu().numpy(), np.bincount(idx, w.astype(np.float64), bins),
                               rtol=1e-4, atol=1e-3)
    counter = torch.zeros(1, dtype=torch.int32, device="cuda")
    out = torch.full((n,), -1, dtype=torch.int32, device="cuda")
    ticket_kernel[(triton.cdiv(n, 128),)](counter, out, n, BLOCK=128, num_warps=num_warps)
    assert int(counter.item()) == n
    np.testing.assert_array_equal(np.sort(out.cpu().numpy()), np.arange(n))


@pytest.mark.gpu
def test_gpu_float_max_min_match_the_interpreter(torch_cuda, rng):
    torch = torch_cuda
    n, bins = 5000, 9
    x = special_floats(n, rng)
    idx = rng.integers(0, bins, n).astype(np.int32)
    init = special_floats(bins, rng)
    mx, mn = init.copy(), init.copy()
    interp(minmax_kernel)[(triton.cdiv(n, 128),)](x, idx, mx, mn, np.zeros(n, np.float32), n,
                                                  BLOCK=128)
    gmx = torch.from_numpy(init.copy()).cuda()
    gmn = torch.from_numpy(init.copy()).cuda()
    minmax_kernel[(triton.cdiv(n, 128),)](torch.from_numpy(x).cuda(),
                                          torch.from_numpy(idx).cuda(), gmx, gmn,
                                          torch.zeros(n, device="cuda"), n, BLOCK=128)
    np.testing.assert_array_equal(float_bits(gmx.cpu().numpy(), np.float32),
                                  float_bits(mx, np.float32))
    np.testing.assert_array_equal(float_bits(gmn.cpu().numpy(), np.float32),
                                  float_bits(mn, np.float32))



# ---------------------------------------------------------------------------
# Atomic loads, stores and polls
# ---------------------------------------------------------------------------

@triton.jit
def access_copy_kernel(src_ptr, dst_ptr, seen_ptr, n, BLOCK: tl.constexpr,
                       LOAD_SEM: tl.constexpr, STORE_SEM: tl.constexpr, SCOPE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.atomic_load(src_ptr + offs, mask=mask, sem=LOAD_SEM, scope=SCOPE)
    tl.store(seen_ptr + offs, x)
    tl.atomic_store(dst_ptr + offs, x, mask=mask, sem=STORE_SEM, scope=SCOPE)


@triton.jit
def access_bf16_kernel(src_bits_ptr, dst_bits_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    src = src_bits_ptr.to(tl.pointer_type(tl.bfloat16))
    dst = dst_bits_ptr.to(tl.pointer_type(tl.bfloat16))
    x = tl.atomic_load(src + offs, mask=mask, sem="relaxed")
    tl.atomic_store(dst + offs, x * 2, mask=mask)


@triton.jit
def access_scalar_kernel(p_ptr, q_ptr, out_ptr):
    v = tl.atomic_load(p_ptr + 1)
    tl.atomic_store(q_ptr, v * 2, sem="relaxed", scope="cta")
    w = tl.atomic_load(q_ptr, sem="relaxed", scope="sys")
    tl.store(out_ptr, w + 1)
    tl.atomic_store(q_ptr + 1, 7, mask=v > 0)


@triton.jit
def message_kernel(src_ptr, buf_ptr, flag_ptr, out_ptr, n, BLOCK: tl.constexpr,
                   WAIT: tl.constexpr, CONSUMER: tl.constexpr):
    # One program publishes a block through buf_ptr and raises the flag;
    # the other waits for the flag and reads the block.
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    if tl.program_id(0) != CONSUMER:
        x = tl.load(src_ptr + offs, mask=mask)
        tl.store(buf_ptr + offs, x * 3 + 1, mask=mask)
        tl.atomic_store(flag_ptr, 1)
    else:
        if WAIT == "load":
            while tl.atomic_load(flag_ptr) != 1:
                pass
        else:
            tl.atomic_poll(flag_ptr, 1)
        y = tl.load(buf_ptr + offs, mask=mask)
        tl.store(out_ptr + offs, y, mask=mask)


@triton.jit
def gather_kernel(src_ptr, buf_ptr, flags_ptr, out_ptr, ROW: tl.constexpr,
                  PRODUCERS: tl.constexpr):
    # Programs 0..PRODUCERS-1 each publish a row and set their flag to
    # their index + 1; the last program polls all flags at once.
    pid = tl.program_id(0)
    cols = tl.arange(0, ROW)
    if pid < PRODUCERS:
        x = tl.load(src_ptr + pid * ROW + cols)
        tl.store(buf_ptr + pid * ROW + cols, x + pid)
        tl.atomic_store(flags_ptr + pid, pid + 1, sem="release", scope="gpu")
    else:
        rows = tl.arange(0, PRODUCERS)
        ok = tl.atomic_poll(flags_ptr + rows, rows + 1, sem="acquire")
        y = tl.load(buf_ptr + rows[:, None] * ROW + cols[None, :])
        tl.store(out_ptr + rows[:, None] * ROW + cols[None, :], y)
        tl.store(out_ptr + PRODUCERS * ROW + rows, ok.to(tl.int32))


@triton.jit
def poll_timeout_kernel(p_ptr, expected_ptr, matched_ptr, timeout, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    e = tl.load(expected_ptr + offs, mask=mask, other=0)
    # Masked-off lanes poll element 0 for the value it holds.
    first = tl.load(p_ptr)
    e = tl.where(mask, e, first)
    ok = tl.atomic_poll(p_ptr + tl.where(mask, offs, 0), e, timeout_ns=timeout)
    tl.store(matched_ptr + offs, ok, mask=mask)


@triton.jit
def poll_scalar_kernel(flag_ptr, out_ptr, TIMEOUT: tl.constexpr):
    ok = tl.atomic_poll(flag_ptr, 1, sem="relaxed", scope="sys", timeout_ns=TIMEOUT)
    tl.store(out_ptr, ok.to(tl.int32) + 10)


ACCESS_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint32, np.uint64,
                 np.float16, np.float32, np.float64]


def random_values(n, dtype, rng):
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return (rng.standard_normal(n) * 100).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)


@pytest.mark.parametrize("dtype", ACCESS_DTYPES)
@pytest.mark.parametrize("n,block", [(1, 16), (300, 128), (1024, 256)])
def test_atomic_load_store_copy(dtype, n, block, rng):
    src = random_values(n, dtype, rng)
    dst = random_values(n + 5, dtype, rng)
    grid = triton.cdiv(n, block)
    seen = random_values(grid * block, dtype, rng)
    before = dst.copy()
    interp(access_copy_kernel)[(grid,)](src, dst, seen, n, BLOCK=block, LOAD_SEM=None,
                                        STORE_SEM=None, SCOPE=None)
    np.testing.assert_array_equal(dst[:n], src)
    np.testing.assert_array_equal(dst[n:], before[n:])
    # Masked-off elements are not read and load as 0.
    np.testing.assert_array_equal(seen[:n], src)
    np.testing.assert_array_equal(seen[n:], np.zeros(grid * block - n, dtype))


@pytest.mark.parametrize("load_sem,store_sem,scope", [("acquire", "release", "gpu"),
                                                      ("relaxed", "relaxed", "cta"),
                                                      ("relaxed", "release", "sys")])
def test_atomic_load_store_orderings_keep_values(load_sem, store_sem, scope, rng):
    n = 200
    src = random_values(n, np.int64, rng)
    dst = np.zeros(n, np.int64)
    seen = np.zeros(256, np.int64)
    interp(access_copy_kernel)[(2,)](src, dst, seen, n, BLOCK=128, LOAD_SEM=load_sem,
                                     STORE_SEM=store_sem, SCOPE=scope)
    np.testing.assert_array_equal(dst, src)
    np.testing.assert_array_equal(seen, np.concatenate([src, np.zeros(56, np.int64)]))


def test_atomic_load_store_bfloat16():
    rng = np.random.default_rng()
    n = 100
    src = round_to_bf16(rng.standard_normal(n).astype(np.float32))
    bits = (src.view(np.uint32) >> 16).astype(np.uint16)
    dst = np.full(128, 0x3F80, np.uint16)  # 1.0
    interp(access_bf16_kernel)[(1,)](bits, dst, n, BLOCK=128)
    got = (dst.astype(np.uint32) << 16).view(np.float32)
    np.testing.assert_array_equal(got[:n], src * 2)  # doubling is exact
    np.testing.assert_array_equal(got[n:], np.ones(128 - n, np.float32))


@pytest.mark.parametrize("sign", [1, -1])
def test_scalar_atomic_load_store(sign, rng):
    p = random_values(3, np.int32, rng) // 4
    p[1] = sign * (abs(int(p[1])) + 1)
    q = np.array([5, -3], np.int32)
    out = np.zeros(1, np.int32)
    interp(access_scalar_kernel)[(1,)](p, q, out)
    assert q[0] == 2 * p[1]
    assert out[0] == 2 * p[1] + 1
    assert q[1] == (7 if sign > 0 else -3)


def test_atomic_accesses_are_tensor_methods(rng):
    @triton.jit
    def k(p_ptr, q_ptr, ok_ptr):
        offs = tl.arange(0, 16)
        x = (p_ptr + offs).atomic_load(sem="relaxed")
        (q_ptr + offs).atomic_store(x + 1)
        tl.store(ok_ptr + offs, (q_ptr + offs).atomic_poll(x + 1, timeout_ns=0).to(tl.int8))
        (q_ptr + offs).atomic_add(1)
    p = random_values(16, np.int32, rng) // 2
    q = np.zeros(16, np.int32)
    ok = np.zeros(16, np.int8)
    interp(k)[(1,)](p, q, ok)
    np.testing.assert_array_equal(q, p + 2)
    np.testing.assert_array_equal(ok, np.ones(16, np.int8))


@pytest.mark.parametrize("wait", ["load", "poll"])
@pytest.mark.parametrize("n", [1, 1000])
def test_message_passing_in_the_interpreter(wait, n, rng):
    src = random_values(n, np.int32, rng) // 4
    buf = np.full(n, -1, np.int32)
    flag = np.zeros(1, np.int32)
    out = np.zeros(n, np.int32)
    interp(message_kernel)[(2,)](src, buf, flag, out, n, BLOCK=1024, WAIT=wait, CONSUMER=1)
    np.testing.assert_array_equal(out, src * 3 + 1)
    assert flag[0] == 1


def test_poll_that_cannot_end_is_an_interpreter_error():
    src = np.arange(4, dtype=np.int32)
    buf = np.zeros(4, np.int32)
    flag = np.zeros(1, np.int32)
    # The consumer runs first: in the interpreter nothing can raise the flag.
    with pytest.raises(InterpreterError, match=r"atomic_poll in program \(0, 0, 0\) would "
                       r"wait forever: .*holds 0, not the expected 1"):
        interp(message_kernel)[(2,)](src, buf, flag, np.zeros(4, np.int32), 4, BLOCK=4,
                                     WAIT="poll", CONSUMER=0)


@pytest.mark.parametrize("producers,row", [(2, 16), (8, 64)])
def test_tensor_poll_gathers_all_producers(producers, row, rng):
    src = random_values(producers * row, np.int32, rng) // 4
    buf = np.zeros(producers * row, np.int32)
    flags = np.zeros(producers, np.int32)
    out = np.full(producers * row + producers, -5, np.int32)
    interp(gather_kernel)[(producers + 1,)](src, buf, flags, out, ROW=row,
                                             PRODUCERS=producers)
    expect = (src.reshape(producers, row) + np.arange(producers)[:, None]).reshape(-1)
    np.testing.assert_array_equal(out[:producers * row], expect)
    np.testing.assert_array_equal(out[producers * row:], np.ones(producers, np.int32))
    np.testing.assert_array_equal(flags, np.arange(1, producers + 1))


@pytest.mark.parametrize("dtype", [np.int16, np.int32, np.int64, np.uint64])
@pytest.mark.parametrize("n", [1, 100])
def test_poll_with_timeout_reports_which_matched(dtype, n, rng):
    p = random_values(n, dtype, rng)
    expected = p.copy()
    differ = rng.random(n) < 0.5
    expected[differ] = expected[differ] + np.array(1, dtype)  # wraps where it must
    matched = np.zeros(128, np.bool_)
    interp(poll_timeout_kernel)[(1,)](p, expected, matched, 0, n, BLOCK=128)
    np.testing.assert_array_equal(matched[:n], ~differ)
    assert not matched[n:].any()


@pytest.mark.parametrize("value,timeout,result", [(1, None, 11), (1, 0, 11), (0, 0, 10),
                                                  (0, 10**6, 10)])
def test_scalar_poll_result(value, timeout, result):
    flag = np.array([value], np.int32)
    out = np.zeros(1, np.int32)
    interp(poll_scalar_kernel)[(1,)](flag, out, TIMEOUT=timeout)
    assert out[0] == result


# -- Tile IR and PTX -----------------------------------------------------------

def test_atomic_access_ir_form():
    text = access_copy_kernel.ir(_z(8), _z(8), _z(128), 8, BLOCK=128, LOAD_SEM=None,
                                 STORE_SEM=None, SCOPE=None)
    assert re.search(r"= tile.atomic_load acquire, gpu, %\d+, %\d+ : "
                     r"tensor<128x!tile.ptr<f32>> loc\(", text)
    assert re.search(r"tile.atomic_store release, gpu, %\d+, %\d+, %\d+ : "
                     r"tensor<128x!tile.ptr<f32>> loc\(", text)
    text = access_scalar_kernel.ir(_z(2, np.int32), _z(2, np.int32), _z(1, np.int32))
    assert re.search(r"= tile.atomic_load acquire, gpu, %\d+ : !tile.ptr<i32>", text)
    assert re.search(r"tile.atomic_store relaxed, cta, %arg1, %\d+ : !tile.ptr<i32>", text)
    assert re.search(r"= tile.atomic_load relaxed, sys, %arg1 : !tile.ptr<i32>", text)
    text = poll_timeout_kernel.ir(_z(8, np.int64), _z(8, np.int64), _z(8, np.bool_), 5, 8,
                                  BLOCK=128)
    assert re.search(r"= tile.atomic_poll acquire, gpu, %\d+, %\d+ timeout %\d+ : "
                     r"tensor<128x!tile.ptr<i64>>", text)
    text = poll_scalar_kernel.ir(_z(1, np.int32), _z(1, np.int32), TIMEOUT=None)
    assert re.search(r"= tile.atomic_poll relaxed, sys, %arg0, %\w+ : !tile.ptr<i32>", text)
    assert "timeout" not in text.split("tile.atomic_poll")[1].split("\n")[0]


ACCESS_PTX_CASES = {
    "copy_f32": (access_copy_kernel, lambda: (_z(8), _z(8), _z(128), 8),
                 dict(BLOCK=128, LOAD_SEM=None, STORE_SEM=None, SCOPE=None),
                 [r"ld\.acquire\.gpu\.global\.b32", r"bar\.sync[\s\S]*st\.release\.gpu\.global\.b32"]),
    "copy_i64_cta": (access_copy_kernel, lambda: (_z(8, np.int64), _z(8, np.int64),
                                                  _z(256, np.int64), 8),
                     dict(BLOCK=256, LOAD_SEM="relaxed", STORE_SEM="relaxed", SCOPE="cta"),
                     [r"ld\.relaxed\.cta\.global\.b64", r"st\.relaxed\.cta\.global\.b64"]),
    "copy_f16_sys": (access_copy_kernel, lambda: (_z(8, np.float16), _z(8, np.float16),
                                                  _z(64, np.float16), 8),
                     dict(BLOCK=64, LOAD_SEM="acquire", STORE_SEM="release", SCOPE="sys"),
                     [r"ld\.acquire\.sys\.global\.b16", r"st\.release\.sys\.global\.b16"]),
    "copy_i8": (access_copy_kernel, lambda: (_z(8, np.int8), _z(8, np.int8), _z(64, np.int8), 8),
                dict(BLOCK=64, LOAD_SEM=None, STORE_SEM=None, SCOPE=None),
                [r"ld\.acquire\.gpu\.global\.b8", r"st\.release\.gpu\.global\.b8"]),
    "bf16": (access_bf16_kernel, lambda: (_z(8, np.uint16), _z(8, np.uint16), 8),
             dict(BLOCK=128),
             [r"ld\.relaxed\.gpu\.global\.b16", r"st\.release\.gpu\.global\.b16"]),
    "scalar": (access_scalar_kernel, lambda: (_z(2, np.int32), _z(2, np.int32), _z(1, np.int32)),
               {}, [r"ld\.acquire\.gpu\.global\.b32", r"st\.relaxed\.cta\.global\.b32",
                    r"ld\.relaxed\.sys\.global\.b32"]),
    "message_load": (message_kernel, lambda: (_z(8, np.int32), _z(8, np.int32), _z(1, np.int32),
                                              _z(8, np.int32), 8),
                     dict(BLOCK=1024, WAIT="load", CONSUMER=1),
                     [r"ld\.acquire\.gpu\.global\.b32", r"st\.release\.gpu\.global\.b32"]),
    "message_poll": (message_kernel, lambda: (_z(8, np.int32), _z(8, np.int32), _z(1, np.int32),
                                              _z(8, np.int32), 8),
                     dict(BLOCK=1024, WAIT="poll", CONSUMER=1),
                     [r"ld\.acquire\.gpu\.global\.b32", r"st\.release\.gpu\.global\.b32"]),
    "gather": (gather_kernel, lambda: (_z(128, np.int32), _z(128, np.int32), _z(8, np.int32),
                                       _z(136, np.int32)),
               dict(ROW=16, PRODUCERS=8),
               [r"ld\.acquire\.gpu\.global\.b32", r"st\.release\.gpu\.global\.b32"]),
    "poll_timeout": (poll_timeout_kernel, lambda: (_z(8, np.int16), _z(8, np.int16),
                                                   _z(8, np.bool_), 5, 8),
                     dict(BLOCK=128),
                     [r"ld\.acquire\.gpu\.global\.b16", r"%globaltimer"]),
    "poll_scalar": (poll_scalar_kernel, lambda: (_z(1, np.int64), _z(1, np.int32)),
                    dict(TIMEOUT=1000), [r"ld\.relaxed\.sys\.global\.b64", r"%globaltimer"]),
}


@pytest.mark.parametrize("case", sorted(ACCESS_PTX_CASES))
def test_atomic_accesses_lower_to_ptx(case, check_ir):
    kernel, make_args, meta, patterns = ACCESS_PTX_CASES[case]
    text = kernel.ir(*make_args(), **meta)
    check_ir.opt(text)
    ptx = check_ir.compile(text)  # assembled by ptxas where present
    for pattern in patterns:
        assert re.search(pattern, ptx), f"{pattern} not in the PTX of {case}:\n{ptx}"
    # And at 1 and 8 warps, and for sm_80.
    check_ir.compile(text, num_warps=1)
    check_ir.compile(text, num_warps=8, target="cuda:80")


def test_atomic_accesses_compile_through_the_extension():
    pytest.importorskip("terrazzo._C")
    ptx = message_kernel.compile(_z(8, np.int32), _z(8, np.int32), _z(1, np.int32),
                                 _z(8, np.int32), 8, BLOCK=1024, WAIT="load", CONSUMER=1,
                                 stage="ptx", target="cuda:90", num_warps=4)
    assert "ld.acquire.gpu.global.b32" in ptx
    assert "st.release.gpu.global.b32" in ptx


def test_poll_without_timeout_reads_no_timer(check_ir):
    text = message_kernel.ir(_z(8, np.int32), _z(8, np.int32), _z(1, np.int32),
                             _z(8, np.int32), 8, BLOCK=1024, WAIT="poll", CONSUMER=1)
    ptx = check_ir.compile(text)
    assert "globaltimer" not in ptx


# -- Errors --------------------------------------------------------------------

@triton.jit
def k_load_release(p_ptr):
    tl.atomic_load(p_ptr, sem="release")  # <-


@triton.jit
def k_store_acquire(p_ptr):
    tl.atomic_store(p_ptr, 1.0, sem="acquire")  # <-


@triton.jit
def k_store_acq_rel(p_ptr):
    tl.atomic_store(p_ptr, 1.0, sem="acq_rel")  # <-


@triton.jit
def k_load_bad_scope(p_ptr):
    tl.atomic_load(p_ptr, scope="block")  # <-


@triton.jit
def k_load_bool(p_ptr):
    tl.atomic_load(p_ptr)  # <-


@triton.jit
def k_store_not_a_pointer(p_ptr):
    x = tl.load(p_ptr)
    tl.atomic_store(x, 1.0)  # <-


@triton.jit
def k_store_bad_mask(p_ptr):
    tl.atomic_store(p_ptr + tl.arange(0, 4), 1.0, mask=2.0)  # <-


@triton.jit
def k_poll_float(p_ptr):
    tl.atomic_poll(p_ptr, 1.0)  # <-


@triton.jit
def k_poll_release(p_ptr):
    tl.atomic_poll(p_ptr, 1, sem="release")  # <-


@triton.jit
def k_poll_negative_timeout(p_ptr):
    tl.atomic_poll(p_ptr, 1, timeout_ns=-1)  # <-


@triton.jit
def k_poll_float_timeout(p_ptr):
    tl.atomic_poll(p_ptr, 1, timeout_ns=1.5)  # <-


@triton.jit
def k_poll_block_timeout(p_ptr):
    tl.atomic_poll(p_ptr, 1, timeout_ns=tl.arange(0, 4))  # <-


@pytest.mark.parametrize("kernel,arg,pattern", [
    (k_load_release, _z(4), r"atomic_load: memory semantics 'release' are not allowed "
                            r"\(use 'acquire' or 'relaxed'\)"),
    (k_store_acquire, _z(4), r"atomic_store: memory semantics 'acquire' are not allowed "
                             r"\(use 'release' or 'relaxed'\)"),
    (k_store_acq_rel, _z(4), r"atomic_store: memory semantics 'acq_rel' are not allowed"),
    (k_load_bad_scope, _z(4), r"atomic_load: unknown scope 'block' \(use 'gpu', 'cta' or "
                              r"'sys'\)"),
    (k_load_bool, np.zeros(4, np.bool_), r"atomic_load does not support int1 elements"),
    (k_store_not_a_pointer, _z(4), r"atomic_store expects a pointer or a block of "
                                   r"pointers, got fp32"),
    (k_store_bad_mask, _z(4), r"atomic_store's mask must be boolean"),
    (k_poll_float, _z(4), r"atomic_poll polls 16-, 32- or 64-bit integers, not fp32"),
    (k_poll_float, np.zeros(4, np.int8), r"atomic_poll polls 16-, 32- or 64-bit integers, "
                                         r"not int8"),
    (k_poll_release, np.zeros(4, np.int32), r"atomic_poll: memory semantics 'release' are "
                                            r"not allowed"),
    (k_poll_negative_timeout, np.zeros(4, np.int32), r"atomic_poll: timeout_ns must be from "
                                                     r"0 to 2\*\*63 - 1, got -1"),
    (k_poll_float_timeout, np.zeros(4, np.int32), r"atomic_poll: timeout_ns must be an "
                                                  r"integer, got 1.5"),
    (k_poll_block_timeout, np.zeros(4, np.int32), r"atomic_poll: timeout_ns must be an "
                                                  r"integer scalar"),
])
def test_atomic_access_errors_name_the_line(kernel, arg, pattern):
    with pytest.raises(CompilationError) as ei:
        kernel.ir(arg)
    check_error(ei, kernel, pattern)
    with pytest.raises(CompilationError) as ei:
        interp(kernel)[(1,)](arg)
    assert re.search(pattern, str(ei.value)), str(ei.value)


# -- GPU ----------------------------------------------------------------------

@pytest.mark.gpu
@pytest.mark.parametrize("num_warps", [1, 4, 8])
@pytest.mark.parametrize("wait", ["load", "poll"])
def test_gpu_message_passing(torch_cuda, wait, num_warps, rng):
    torch = torch_cuda
    n = 1000
    for _ in range(20):  # several rounds: a missing ordering shows up as stale data
        src = random_values(n, np.int32, rng) // 4
        buf = torch.full((n,), -1, dtype=torch.int32, device="cuda")
        flag = torch.zeros(1, dtype=torch.int32, device="cuda")
        out = torch.full((n,), -7, dtype=torch.int32, device="cuda")
        message_kernel[(2,)](torch.from_numpy(src).cuda(), buf, flag, out, n, BLOCK=1024,
                             WAIT=wait, CONSUMER=1, num_warps=num_warps)
        torch.cuda.synchronize()
        np.testing.assert_array_equal(out.cpu().numpy(), src * 3 + 1)
        assert int(flag.item()) == 1


@pytest.mark.gpu
@pytest.mark.parametrize("num_warps", [1, 4])
def test_gpu_consumer_first_still_receives(torch_cuda, num_warps, rng):
    # Program 0 waits for program 1 (both resident on the device at once).
    torch = torch_cuda
    n = 500
    src = random_values(n, np.int32, rng) // 4
    buf = torch.full((n,), -1, dtype=torch.int32, device="cuda")
    flag = torch.zeros(1, dtype=torch.int32, device="cuda")
    out = torch.zeros(n, dtype=torch.int32, device="cuda")
    message_kernel[(2,)](torch.from_numpy(src).cuda(), buf, flag, out, n, BLOCK=512,
                         WAIT="poll", CONSUMER=0, num_warps=num_warps)
    torch.cuda.synchronize()
    np.testing.assert_array_equal(out.cpu().numpy(), src * 3 + 1)


@pytest.mark.gpu
@pytest.mark.parametrize("producers,row", [(2, 16), (8, 64), (32, 32)])
def test_gpu_tensor_poll_gathers_all_producers(torch_cuda, producers, row, rng):
    torch = torch_cuda
    src = random_values(producers * row, np.int32, rng) // 4
    buf = torch.zeros(producers * row, dtype=torch.int32, device="cuda")
    flags = torch.zeros(producers, dtype=torch.int32, device="cuda")
    out = torch.full((producers * row + producers,), -5, dtype=torch.int32, device="cuda")
    gather_kernel[(producers + 1,)](torch.from_numpy(src).cuda(), buf, flags, out, ROW=row,
                                    PRODUCERS=producers)
    torch.cuda.synchronize()
    expect = (src.reshape(producers, row) + np.arange(producers)[:, None]).reshape(-1)
    got = out.cpu().numpy()
    np.testing.assert_array_equal(got[:producers * row], expect)
    np.testing.assert_array_equal(got[producers * row:], np.ones(producers, np.int32))


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ACCESS_DTYPES)
@pytest.mark.parametrize("num_warps", [1, 4])
def test_gpu_atomic_load_store_copy(torch_cuda, dtype, num_warps, rng):
    torch = torch_cuda
    n, block = 1000, 256
    grid = triton.cdiv(n, block)
    src = random_values(n, dtype, rng)
    dst0 = random_values(n + 5, dtype, rng)
    # torch lacks some unsigned types: move bytes, seen by the kernel as `dtype`.
    src_t = torch.from_numpy(src.view(np.uint8).copy()).cuda()
    dst_t = torch.from_numpy(dst0.view(np.uint8).copy()).cuda()
    seen_t = torch.full((grid * block * src.itemsize,), 0x55, dtype=torch.uint8, device="cuda")
    elt = _tl_dtype(dtype)
    access_copy_kernel[(grid,)](triton.reinterpret(src_t, elt), triton.reinterpret(dst_t, elt),
                                triton.reinterpret(seen_t, elt), n, BLOCK=block,
                                LOAD_SEM=None, STORE_SEM=None, SCOPE=None, num_warps=num_warps)
    dst = dst_t.cpu().numpy().view(dtype)
    seen = seen_t.cpu().numpy().view(dtype)
    np.testing.assert_array_equal(dst[:n], src)
    np.testing.assert_array_equal(dst[n:], dst0[n:])
    np.testing.assert_array_equal(seen[:n], src)
    np.testing.assert_array_equal(seen[n:], np.zeros(grid * block - n, dtype))


def _tl_dtype(dtype):
    return {np.int8: tl.int8, np.int16: tl.int16, np.int32: tl.int32, np.int64: tl.int64,
            np.uint8: tl.uint8, np.uint32: tl.uint32, np.uint64: tl.uint64,
            np.float16: tl.float16, np.float32: tl.float32, np.float64: tl.float64}[dtype]


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.int16, np.int32, np.int64])
def test_gpu_poll_timeouts(torch_cuda, dtype, rng):
    torch = torch_cuda
    n = 100
    p = random_values(n, dtype, rng)
    expected = p.copy()
    differ = rng.random(n) < 0.5
    expected[differ] = expected[differ] + np.array(1, dtype)
    tp = torch.from_numpy(p).cuda()
    matched = torch.zeros(128, dtype=torch.bool, device="cuda")
    for timeout in (0, 20000):
        matched.zero_()
        poll_timeout_kernel[(1,)](tp, torch.from_numpy(expected).cuda(), matched, timeout, n,
                                  BLOCK=128)
        torch.cuda.synchronize()
        np.testing.assert_array_equal(matched.cpu().numpy()[:n], ~differ)
    flag = torch.zeros(1, dtype=torch.int64, device="cuda")
    out = torch.zeros(1, dtype=torch.int32, device="cuda")
    poll_scalar_kernel[(1,)](flag, out, TIMEOUT=100000)
    torch.cuda.synchronize()
    assert int(out.item()) == 10
    flag.fill_(1)
    poll_scalar_kernel[(1,)](flag, out, TIMEOUT=100000)
    torch.cuda.synchronize()
    assert int(out.item()) == 11
