"""Random numbers: tl.randint / randint4x / rand / rand4x / randn / randn4x,
tl.philox / philox_impl, tl.random.uint_to_uniform_float and
pair_uniform_to_normal, and tl.umulhi (tl.math.umulhi).

The streams are checked bit for bit against a NumPy Philox written here
from the published algorithm, which is itself checked against Random123's
known-answer vectors (and so is the kernel language's philox_impl, run on
the same vectors). Seeds are int32 and int64, runtime values and
constexprs; offsets are int32 and int64 (with a non-zero high half), in
1-D and 2-D blocks, with masked tails. The kernels compile to tile IR that
terrazzo-opt verifies and lowers to PTX with mul.hi; on the GPU the
compiled kernels give the interpreter's bits.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import terrazzo as triton
import terrazzo.language as tl
from terrazzo.errors import CompilationError


def interp(kernel):
    return triton.jit(kernel.fn, interpret=True)


# ---------------------------------------------------------------------------
# The reference: Philox 4xW (W = 32 or 64) in NumPy
# ---------------------------------------------------------------------------

_CONSTANTS = {
    # (multiplier A, multiplier B, key increment A, key increment B)
    32: (0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85),
    64: (0xD2E7470EE14C6C93, 0xCA5A826395121157, 0x9E3779B97F4A7C15, 0xBB67AE8584CAA73B),
}


def _mul_hi_lo(a, m, bits):
    """High and low words of a * m (a an array of words, m a constant)."""
    mask = (1 << bits) - 1
    if bits == 32:
        p = a.astype(np.uint64) * np.uint64(m)
        return (p >> np.uint64(32)).astype(np.uint32), (p & np.uint64(mask)).astype(np.uint32)
    # 64-bit words: exact products with Python integers.
    p = [int(v) * m for v in a.reshape(-1)]
    hi = np.array([v >> 64 for v in p], dtype=np.uint64).reshape(a.shape)
    lo = np.array([v & mask for v in p], dtype=np.uint64).reshape(a.shape)
    return hi, lo


def philox_ref(counter, key, bits=32, rounds=10):
    """Philox 4xbits on `counter` (4 arrays of one shape) and `key` (2
    words): the four output arrays."""
    dt = np.uint32 if bits == 32 else np.uint64
    mask = (1 << bits) - 1
    mul_a, mul_b, inc_a, inc_b = _CONSTANTS[bits]
    x = [np.asarray(c).astype(dt) for c in counter]
    k0, k1 = int(key[0]) & mask, int(key[1]) & mask
    for _ in range(rounds):
        hi_a, lo_a = _mul_hi_lo(x[0], mul_a, bits)
        hi_b, lo_b = _mul_hi_lo(x[2], mul_b, bits)
        x = [hi_b ^ x[1] ^ dt(k0), lo_b, hi_a ^ x[3] ^ dt(k1), lo_a]
        k0, k1 = (k0 + inc_a) & mask, (k1 + inc_b) & mask
    return x


def stream_ref(seed, offsets, rounds=10):
    """The four uint32 streams tl.randint4x gives for `seed` at `offsets`."""
    seed = int(seed) & ((1 << 64) - 1)
    off = np.asarray(offsets).astype(np.int64).view(np.uint64)
    lo = (off & np.uint64(0xFFFFFFFF)).astype(np.uint32)
    hi = (off >> np.uint64(32)).astype(np.uint32)
    zero = np.zeros_like(lo)
    return philox_ref([lo, hi, zero, zero], [seed & 0xFFFFFFFF, seed >> 32], 32, rounds)


def uniform_ref(words):
    """uint_to_uniform_float in NumPy: float32 in [0, 1)."""
    if words.dtype.itemsize == 4:
        x = words.view(np.int32)
        scale = np.float32(float.fromhex("0x1.fffffep-32"))
    else:
        x = words.view(np.int64)
        scale = np.float32(float.fromhex("0x1.fffffcp-64"))
    folded = np.where(x < 0, -x - 1, x)
    return folded.astype(np.float32) * scale


def normal_ref(u1, u2):
    """Box-Muller in float32, as pair_uniform_to_normal."""
    u1 = np.maximum(np.float32(1e-7), u1)
    r = np.sqrt(np.float32(-2.0) * np.log(u1))
    th = np.float32(6.283185307179586) * u2
    return r * np.cos(th), r * np.sin(th)


# Random123's known-answer vectors (tests/kat_vectors): counter, key, result.
KAT_4X32 = [
    (10, [0, 0, 0, 0], [0, 0], [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]),
    (10, [0xFFFFFFFF] * 4, [0xFFFFFFFF] * 2, [0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD]),
    (10, [0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344], [0xA4093822, 0x299F31D0],
     [0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1]),
    (7, [0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344], [0xA4093822, 0x299F31D0],
     [0x4DFCCABA, 0x190A87F0, 0xC47362BA, 0xB6B5242A]),
]
KAT_4X64 = [
    (10, [0] * 4, [0] * 2, [0x16554D9ECA36314C, 0xDB20FE9D672D0FDC, 0xD7E772CEE186176B,
                            0x7E68B68AEC7BA23B]),
    (10, [(1 << 64) - 1] * 4, [(1 << 64) - 1] * 2,
     [0x87B092C3013FE90B, 0x438C3C67BE8D0224, 0x9CC7D7C69CD777B6, 0xA09CAEBF594F0BA0]),
    (10, [0x243F6A8885A308D3, 0x13198A2E03707344, 0xA4093822299F31D0, 0x082EFA98EC4E6C89],
     [0x452821E638D01377, 0xBE5466CF34E90C6C],
     [0xA528F45403E61D95, 0x38C72DBD566E9788, 0xA5A1610E72FD18B5, 0x57BD43B5E52B7FE6]),
]


@pytest.mark.parametrize("bits,case", [(32, i) for i in range(len(KAT_4X32))] +
                         [(64, i) for i in range(len(KAT_4X64))])
def test_reference_known_answers(bits, case):
    rounds, counter, key, want = (KAT_4X32 if bits == 32 else KAT_4X64)[case]
    dt = np.uint32 if bits == 32 else np.uint64
    got = philox_ref([np.array([c], dt) for c in counter], key, bits, rounds)
    assert [int(g[0]) for g in got] == want


# ---------------------------------------------------------------------------
# Kernels
# ---------------------------------------------------------------------------

@triton.jit
def philox_kernel(c_ptr, k_ptr, out_ptr, N: tl.constexpr, ROUNDS: tl.constexpr):
    # Philox on N counters given word by word (c_ptr: 4 x N) with the key
    # k_ptr[0:2]; out: 4 x N.
    i = tl.arange(0, N)
    c0 = tl.load(c_ptr + i)
    c1 = tl.load(c_ptr + N + i)
    c2 = tl.load(c_ptr + 2 * N + i)
    c3 = tl.load(c_ptr + 3 * N + i)
    k0 = tl.load(k_ptr)
    k1 = tl.load(k_ptr + 1)
    if ROUNDS == 10:
        r0, r1, r2, r3 = tl.philox_impl(c0, c1, c2, c3, k0, k1)
    else:
        r0, r1, r2, r3 = tl.random.philox_impl(c0, c1, c2, c3, k0, k1, n_rounds=ROUNDS)
    tl.store(out_ptr + i, r0)
    tl.store(out_ptr + N + i, r1)
    tl.store(out_ptr + 2 * N + i, r2)
    tl.store(out_ptr + 3 * N + i, r3)


@triton.jit
def randint_kernel(out_ptr, n, seed, BLOCK: tl.constexpr, OFFSET_DTYPE: tl.constexpr,
                   BASE: tl.constexpr):
    # out[i] = randint(seed, BASE + i) for i < n, i of OFFSET_DTYPE.
    i = tl.program_id(0).to(OFFSET_DTYPE) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + i, tl.randint(seed, i + BASE), mask=i < n)


@triton.jit
def randint_const_seed_kernel(out_ptr, n, seed: tl.constexpr, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + i, tl.randint(seed, i), mask=i < n)


@triton.jit
def streams_2d_kernel(ints_ptr, unif_ptr, norm_ptr, m, n, seed, BM: tl.constexpr,
                      BN: tl.constexpr, ROUNDS: tl.constexpr):
    # Every 4x form on the 2-D block of offsets r * n + c of an m x n array;
    # each output is 4 x m x n.
    r = tl.program_id(0) * BM + tl.arange(0, BM)[:, None]
    c = tl.program_id(1) * BN + tl.arange(0, BN)[None, :]
    offs = r * n + c
    mask = (r < m) & (c < n)
    size = m * n
    i0, i1, i2, i3 = tl.randint4x(seed, offs, ROUNDS)
    u0, u1, u2, u3 = tl.rand4x(seed, offs, n_rounds=ROUNDS)
    n0, n1, n2, n3 = tl.randn4x(seed, offs, ROUNDS)
    tl.store(ints_ptr + offs, i0, mask=mask)
    tl.store(ints_ptr + size + offs, i1, mask=mask)
    tl.store(ints_ptr + 2 * size + offs, i2, mask=mask)
    tl.store(ints_ptr + 3 * size + offs, i3, mask=mask)
    tl.store(unif_ptr + offs, u0, mask=mask)
    tl.store(unif_ptr + size + offs, u1, mask=mask)
    tl.store(unif_ptr + 2 * size + offs, u2, mask=mask)
    tl.store(unif_ptr + 3 * size + offs, u3, mask=mask)
    tl.store(norm_ptr + offs, n0, mask=mask)
    tl.store(norm_ptr + size + offs, n1, mask=mask)
    tl.store(norm_ptr + 2 * size + offs, n2, mask=mask)
    tl.store(norm_ptr + 3 * size + offs, n3, mask=mask)


@triton.jit
def rand_kernel(unif_ptr, norm_ptr, n, seed, BLOCK: tl.constexpr,
                OFFSET_DTYPE: tl.constexpr):
    i = tl.program_id(0).to(OFFSET_DTYPE) * BLOCK + tl.arange(0, BLOCK)
    tl.store(unif_ptr + i, tl.rand(seed, i), mask=i < n)
    tl.store(norm_ptr + i, tl.randn(seed, i), mask=i < n)


@triton.jit
def uniform_kernel(x_ptr, out_ptr, N: tl.constexpr):
    i = tl.arange(0, N)
    tl.store(out_ptr + i, tl.random.uint_to_uniform_float(tl.load(x_ptr + i)))


@triton.jit
def normal_kernel(u_ptr, v_ptr, out_ptr, N: tl.constexpr):
    i = tl.arange(0, N)
    a, b = tl.random.pair_uniform_to_normal(tl.load(u_ptr + i), tl.load(v_ptr + i))
    tl.store(out_ptr + i, a)
    tl.store(out_ptr + N + i, b)


@triton.jit
def philox_seed_kernel(out_ptr, seed, N: tl.constexpr):
    # tl.philox with 64-bit counters (Philox 4x64, key (seed, 0)), from
    # Python numbers and blocks.
    i = tl.arange(0, N).to(tl.int64)
    r0, r1, r2, r3 = tl.philox(seed, i, 0 * i, 0 * i + 7, 0 * i)
    tl.store(out_ptr + i, r0.to(tl.int64, bitcast=True))
    tl.store(out_ptr + N + i, r1.to(tl.int64, bitcast=True))
    tl.store(out_ptr + 2 * N + i, r2.to(tl.int64, bitcast=True))
    tl.store(out_ptr + 3 * N + i, r3.to(tl.int64, bitcast=True))


@triton.jit
def umulhi_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr, SPELLING: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + i, mask=i < n)
    y = tl.load(y_ptr + i, mask=i < n)
    if SPELLING == 0:
        z = tl.umulhi(x, y)
    else:
        z = tl.math.umulhi(x, y)
    tl.store(out_ptr + i, z, mask=i < n)


# ---------------------------------------------------------------------------
# Interpreter: the language's Philox against the reference
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("bits,case", [(32, i) for i in range(len(KAT_4X32))] +
                         [(64, i) for i in range(len(KAT_4X64))])
def test_philox_impl_known_answers(bits, case, rng):
    rounds, counter, key, want = (KAT_4X32 if bits == 32 else KAT_4X64)[case]
    dt = np.uint32 if bits == 32 else np.uint64
    N = 16
    # The known counter in a random lane, random counters elsewhere.
    lane = int(rng.integers(N))
    c = rng.integers(0, 1 << bits, size=(4, N), dtype=dt)
    c[:, lane] = counter
    out = np.zeros((4, N), dt)
    interp(philox_kernel)[(1,)](c, np.array(key, dt), out, N=N, ROUNDS=rounds)
    assert [int(v) for v in out[:, lane]] == want
    np.testing.assert_array_equal(out, np.stack(philox_ref(list(c), key, bits, rounds)))


SEEDS = [0, 42, 0xFFFFFFFF, 0x0000000FCAFEB0BA, -7, (1 << 63) - 1]


@pytest.mark.parametrize("offset_dtype", ["int32", "int64"])
@pytest.mark.parametrize("seed", SEEDS)
def test_randint_stream(seed, offset_dtype, rng):
    n = int(rng.integers(1, 700))
    base = 0 if offset_dtype == "int32" else (5 << 32) + int(rng.integers(1 << 31))
    out = np.zeros(n, np.int64)
    interp(randint_kernel)[(triton.cdiv(n, 256),)](out, n, seed, BLOCK=256,
                                                   OFFSET_DTYPE=getattr(tl, offset_dtype),
                                                   BASE=base)
    want = stream_ref(seed, base + np.arange(n))[0]
    np.testing.assert_array_equal(out, want.astype(np.int64))


@pytest.mark.parametrize("seed", [0, 124, 0xFFFFFFFF, 0x0000000FCAFEB0BA])
def test_randint_constexpr_seed(seed):
    n = 300
    out = np.zeros(n, np.int32)
    interp(randint_const_seed_kernel)[(3,)](out, n, seed=seed, BLOCK=128)
    np.testing.assert_array_equal(out.view(np.uint32), stream_ref(seed, np.arange(n))[0])


@pytest.mark.parametrize("rounds", [10, 6])
@pytest.mark.parametrize("m,n", [(16, 32), (19, 45)])
def test_four_streams_2d(m, n, rounds, rng):
    seed = int(rng.integers(-(1 << 40), 1 << 40))
    ints = np.zeros((4, m, n), np.uint32)
    unif = np.full((4, m, n), np.nan, np.float32)
    norm = np.full((4, m, n), np.nan, np.float32)
    interp(streams_2d_kernel)[(triton.cdiv(m, 8), triton.cdiv(n, 16))](
        ints, unif, norm, m, n, seed, BM=8, BN=16, ROUNDS=rounds)
    words = stream_ref(seed, np.arange(m * n).reshape(m, n), rounds)
    np.testing.assert_array_equal(ints, np.stack(words))
    u = np.stack([uniform_ref(w) for w in words])
    np.testing.assert_array_equal(unif, u)
    n0, n1 = normal_ref(u[0], u[1])
    n2, n3 = normal_ref(u[2], u[3])
    np.testing.assert_allclose(norm, np.stack([n0, n1, n2, n3]), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("offset_dtype", ["int32", "int64"])
def test_rand_and_randn(offset_dtype, rng):
    n = 20000
    seed = int(rng.integers(1 << 31))
    unif = np.zeros(n, np.float32)
    norm = np.zeros(n, np.float32)
    interp(rand_kernel)[(triton.cdiv(n, 4096),)](unif, norm, n, seed, BLOCK=4096,
                                                 OFFSET_DTYPE=getattr(tl, offset_dtype))
    w0, w1, _, _ = stream_ref(seed, np.arange(n))
    u0, u1 = uniform_ref(w0), uniform_ref(w1)
    np.testing.assert_array_equal(unif, u0)
    np.testing.assert_allclose(norm, normal_ref(u0, u1)[0], rtol=1e-6, atol=1e-6)
    assert unif.min() >= 0 and unif.max() < 1
    # The distributions, loosely: 20000 samples.
    assert abs(unif.mean() - 0.5) < 0.01 and abs(unif.var() - 1 / 12) < 0.005
    assert abs(norm.mean()) < 0.03 and abs(norm.std() - 1) < 0.03


@pytest.mark.parametrize("dt", [np.int32, np.uint32, np.int64, np.uint64])
def test_uniform_float_limits(dt, rng):
    info = np.iinfo(dt)
    signed = np.iinfo({np.uint32: np.int32, np.uint64: np.int64}.get(dt, dt))
    # The extremes of the word read as a signed integer, then 0, 1, -1 and
    # random words.
    extremes = np.array([signed.min, signed.max, 0, 1, -1], np.int64)
    x = np.concatenate([extremes.astype(dt), rng.integers(info.min, info.max, size=11,
                                                          dtype=dt, endpoint=True)])
    out = np.zeros(16, np.float32)
    interp(uniform_kernel)[(1,)](x, out, N=16)
    np.testing.assert_array_equal(out, uniform_ref(x))
    assert (out >= 0).all() and (out < 1).all()
    # The two extremes meet just below 1; 0 and -1 give 0.
    top = np.float32(1) - np.finfo(np.float32).eps
    assert out[0] == out[1] == out.max() and top <= out.max() < 1
    assert out[2] == out[4] == 0 and out[3] > 0


def test_pair_uniform_to_normal(rng):
    N = 64
    u = rng.random(N, dtype=np.float32)
    u[:3] = [0.0, 1e-9, 0.5]  # clamped to 1e-7 below
    v = rng.random(N, dtype=np.float32)
    out = np.zeros(2 * N, np.float32)
    interp(normal_kernel)[(1,)](u, v, out, N=N)
    a, b = normal_ref(u, v)
    np.testing.assert_allclose(out, np.concatenate([a, b]), rtol=1e-6, atol=1e-6)
    assert np.isfinite(out).all()


@pytest.mark.parametrize("seed", [3, 0xFCAFEB0BA])
def test_philox_64bit_counters(seed):
    N = 8
    out = np.zeros(4 * N, np.int64)
    interp(philox_seed_kernel)[(1,)](out, seed, N=N)
    i = np.arange(N, dtype=np.uint64)
    z = np.zeros(N, np.uint64)
    want = philox_ref([i, z, z + np.uint64(7), z], [seed, 0], 64)
    np.testing.assert_array_equal(out.view(np.uint64), np.concatenate(want))


def _umulhi_ref(x, y, bits):
    mask = (1 << bits) - 1
    return [((int(a) & mask) * (int(b) & mask)) >> bits for a, b in zip(x, y)]


@pytest.mark.parametrize("spelling", [0, 1])
@pytest.mark.parametrize("dt", [np.int32, np.uint32, np.int64, np.uint64])
def test_umulhi(dt, spelling, rng):
    info = np.iinfo(dt)
    n = 77
    x = rng.integers(info.min, info.max, size=n, dtype=dt, endpoint=True)
    y = rng.integers(info.min, info.max, size=n, dtype=dt, endpoint=True)
    x[:4] = [info.max, info.min, 0, info.max]
    y[:4] = [info.max, info.max, info.max, info.min]
    out = np.zeros(n, dt)
    interp(umulhi_kernel)[(2,)](x, y, out, n, BLOCK=64, SPELLING=spelling)
    bits = 8 * np.dtype(dt).itemsize
    want = np.array(_umulhi_ref(x, y, bits), dtype=np.uint64 if bits == 64 else np.uint32)
    np.testing.assert_array_equal(out.view(want.dtype), want)


@triton.jit
def methods_kernel(out_ptr, seed, N: tl.constexpr):
    # Tensor methods, as in Triton: the seed is the receiver.
    i = tl.arange(0, N)
    s = tl.full((), seed, tl.int32)
    a, b, _, _ = s.randint4x(i)
    tl.store(out_ptr + i, a.to(tl.float32) - s.randint(i).to(tl.float32))
    tl.store(out_ptr + N + i, b.to(tl.float32))
    tl.store(out_ptr + 2 * N + i, s.rand(i) - tl.rand(seed, i))
    tl.store(out_ptr + 3 * N + i, s.randn(i) - tl.randn(seed, i))


def test_tensor_methods():
    N = 32
    out = np.full(4 * N, np.nan, np.float32)
    interp(methods_kernel)[(1,)](out, 77, N=N)
    np.testing.assert_array_equal(out[:N], 0)
    np.testing.assert_array_equal(out[N:2 * N], stream_ref(77, np.arange(N))[1].astype(np.float32))
    np.testing.assert_array_equal(out[2 * N:], 0)


def test_tl_names():
    for name in ("randint", "randint4x", "rand", "rand4x", "randn", "randn4x", "philox",
                 "philox_impl", "uint_to_uniform_float", "pair_uniform_to_normal"):
        fn = getattr(tl, name)
        assert getattr(fn, "_terrazzo_jit_function", False), name
        assert getattr(tl.random, name) is fn
    assert tl.umulhi is tl.math.umulhi
    assert tl.random.N_ROUNDS_DEFAULT == 10


def test_tutorial_04_in_the_interpreter(monkeypatch, capsys):
    # tutorials/04-low-memory-dropout.py's own check: the stored-mask
    # dropout against NumPy; the seeded one keeps its mask for a seed and
    # scales the kept values by 1 / (1 - p).
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parents[2] / "tutorials" / "04-low-memory-dropout.py"
    spec = importlib.util.spec_from_file_location("tutorial_dropout", path)
    tutorial = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tutorial)
    monkeypatch.setenv("TERRAZZO_INTERPRET", "1")
    tutorial.check(on_gpu=False)
    assert "The results match." in capsys.readouterr().out


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------

@triton.jit
def seed_kernel(x_ptr, seed):
    i = tl.arange(0, 4)
    tl.store(x_ptr + i, tl.rand(seed, i))


@triton.jit
def umulhi_float_kernel(x_ptr):
    i = tl.arange(0, 4)
    x = tl.load(x_ptr + i)
    tl.store(x_ptr + i, tl.umulhi(x, x))  # <-


@triton.jit
def umulhi_int16_kernel(x_ptr):
    i = tl.arange(0, 4)
    x = tl.load(x_ptr + i)
    tl.store(x_ptr + i, tl.umulhi(x, x))  # <-


@pytest.mark.parametrize("interpret", [False, True])
@pytest.mark.parametrize("seed", ["float", "pointer"])
def test_seed_must_be_an_integer(seed, interpret):
    x = np.zeros(4, np.float32)
    value = 2.5 if seed == "float" else np.zeros(1, np.int32)
    with pytest.raises(CompilationError, match="seed of a random number generator must be "
                       "an integer"):
        if interpret:
            interp(seed_kernel)[(1,)](x, value)
        else:
            seed_kernel.ir(x, value)


@pytest.mark.parametrize("interpret", [False, True])
@pytest.mark.parametrize("kernel,dt,what", [(umulhi_float_kernel, np.float32, "fp32"),
                                            (umulhi_int16_kernel, np.int16, "int16")])
def test_umulhi_needs_32_or_64_bit_integers(kernel, dt, what, interpret):
    x = np.zeros(4, dt)
    with pytest.raises(CompilationError) as ei:
        if interpret:
            interp(kernel)[(1,)](x)
        else:
            kernel.ir(x)
    e = ei.value
    assert f"tl.umulhi expects 32-bit or 64-bit integers, got {what}" in str(e)
    marked = [l for l, text in kernel.parsed.src_lines.items() if "# <-" in text]
    assert e.line == marked[0]


# ---------------------------------------------------------------------------
# Compile path: tile IR verified and lowered to PTX
# ---------------------------------------------------------------------------

def _z(n, dt=np.int32):
    return np.zeros(n, dt)


IR_CASES = {
    "randint_i32": (randint_kernel, lambda: (_z(100), 100, 7),
                    dict(BLOCK=128, OFFSET_DTYPE=tl.int32, BASE=0)),
    "randint_i64": (randint_kernel, lambda: (_z(100, np.int64), 100, 1 << 40),
                    dict(BLOCK=128, OFFSET_DTYPE=tl.int64, BASE=1 << 33)),
    "streams_2d": (streams_2d_kernel, lambda: (_z(4 * 19 * 45, np.uint32),
                                               _z(4 * 19 * 45, np.float32),
                                               _z(4 * 19 * 45, np.float32), 19, 45, 5),
                   dict(BM=8, BN=16, ROUNDS=10)),
    "rand": (rand_kernel, lambda: (_z(100, np.float32), _z(100, np.float32), 100, 3),
             dict(BLOCK=128, OFFSET_DTYPE=tl.int32)),
    "umulhi_u64": (umulhi_kernel, lambda: (_z(64, np.uint64), _z(64, np.uint64),
                                           _z(64, np.uint64), 64),
                   dict(BLOCK=64, SPELLING=1)),
}


@pytest.mark.parametrize("case", sorted(IR_CASES))
def test_random_kernels_lower_to_ptx(case, check_ir):
    kernel, make_args, meta = IR_CASES[case]
    text = kernel.ir(*make_args(), **meta)
    check_ir.opt(text)
    ptx = check_ir.compile(text)
    assert ".entry" in ptx
    if case != "umulhi_u64":
        # Philox's 32 x 32 -> 64-bit products: the high halves in one instruction.
        assert re.search(r"mul\.hi\.u32", ptx), ptx[:2000]


def test_umulhi_32_ir_and_ptx(check_ir):
    x = _z(64)
    text = umulhi_kernel.ir(x, x, x, 64, BLOCK=64, SPELLING=0)
    # A widening multiply: both operands zero-extended, the product shifted.
    assert re.search(r"arith\.extui .* : tensor<64xi32> to tensor<64xi64>", text)
    assert re.search(r"arith\.shrui .* : tensor<64xi64>", text)
    ptx = check_ir(text)
    assert re.search(r"mul\.hi\.u32", ptx), ptx


# ---------------------------------------------------------------------------
# GPU: the compiled kernels give the interpreter's bits
# ---------------------------------------------------------------------------

@pytest.mark.gpu
@pytest.mark.parametrize("offset_dtype", ["int32", "int64"])
@pytest.mark.parametrize("seed", SEEDS)
def test_gpu_randint_matches_interpreter(torch_cuda, seed, offset_dtype, rng):
    torch = torch_cuda
    n = 100003
    base = 0 if offset_dtype == "int32" else (3 << 32) + 5
    meta = dict(BLOCK=1024, OFFSET_DTYPE=getattr(tl, offset_dtype), BASE=base)
    grid = (triton.cdiv(n, 1024),)
    want = np.zeros(n, np.int64)
    interp(randint_kernel)[grid](want, n, seed, **meta)
    got = torch.zeros(n, dtype=torch.int64, device="cuda")
    triton.jit(randint_kernel.fn)[grid](got, n, seed, **meta)
    torch.cuda.synchronize()
    np.testing.assert_array_equal(got.cpu().numpy(), want)
    np.testing.assert_array_equal(want, stream_ref(seed, base + np.arange(n))[0])


@pytest.mark.gpu
@pytest.mark.parametrize("seed", [0, 0x0000000FCAFEB0BA])
def test_gpu_constexpr_seed(torch_cuda, seed):
    torch = torch_cuda
    n = 5000
    got = torch.zeros(n, dtype=torch.int32, device="cuda")
    triton.jit(randint_const_seed_kernel.fn)[(triton.cdiv(n, 1024),)](got, n, seed=seed,
                                                                        BLOCK=1024)
    torch.cuda.synchronize()
    np.testing.assert_array_equal(got.cpu().numpy().view(np.uint32),
                                  stream_ref(seed, np.arange(n))[0])


@pytest.mark.gpu
@pytest.mark.parametrize("num_warps", [1, 4])
def test_gpu_four_streams_2d(torch_cuda, num_warps, rng):
    torch = torch_cuda
    m, n = 77, 130
    seed = int(rng.integers(1 << 40))
    grid = (triton.cdiv(m, 16), triton.cdiv(n, 32))
    meta = dict(BM=16, BN=32, ROUNDS=10)
    want = [np.zeros(4 * m * n, np.uint32), np.zeros(4 * m * n, np.float32),
            np.zeros(4 * m * n, np.float32)]
    interp(streams_2d_kernel)[grid](*want, m, n, seed, **meta)
    got = [torch.zeros(4 * m * n, dtype=torch.int32, device="cuda"),
           torch.zeros(4 * m * n, dtype=torch.float32, device="cuda"),
           torch.zeros(4 * m * n, dtype=torch.float32, device="cuda")]
    triton.jit(streams_2d_kernel.fn)[grid](*got, m, n, seed, num_warps=num_warps, **meta)
    torch.cuda.synchronize()
    np.testing.assert_array_equal(got[0].cpu().numpy().view(np.uint32), want[0])
    np.testing.assert_array_equal(got[1].cpu().numpy(), want[1])
    # Normal values go through log, sqrt, cos and sin: the GPU's and NumPy's
    # float32 functions may differ in the last bits.
    np.testing.assert_allclose(got[2].cpu().numpy(), want[2], rtol=2e-5, atol=2e-5)


@pytest.mark.gpu
@pytest.mark.parametrize("dt", [np.int32, np.int64])
def test_gpu_umulhi(torch_cuda, dt, rng):
    # Both operands are read as unsigned whatever their type: signed tensors
    # carry every bit pattern.
    torch = torch_cuda
    info = np.iinfo(dt)
    n = 1000
    x = rng.integers(info.min, info.max, size=n, dtype=dt, endpoint=True)
    y = rng.integers(info.min, info.max, size=n, dtype=dt, endpoint=True)
    dev = [torch.from_numpy(a).cuda() for a in (x, y, np.zeros(n, dt))]
    triton.jit(umulhi_kernel.fn)[(triton.cdiv(n, 256),)](*dev, n, BLOCK=256, SPELLING=0)
    torch.cuda.synchronize()
    bits = 8 * np.dtype(dt).itemsize
    want = np.array(_umulhi_ref(x, y, bits), dtype=np.uint64 if bits == 64 else np.uint32)
    np.testing.assert_array_equal(dev[2].cpu().numpy().view(want.dtype), want)


# ---------------------------------------------------------------------------
# Bit for bit with real Triton: streams Triton 3.6 produced on the GPU
# ---------------------------------------------------------------------------

_ROOT = __import__("pathlib").Path(__file__).resolve().parents[2]


def _triton_streams():
    """The recording script (scripts/philox-reference.py) and what real
    Triton 3.6 recorded with it on an H200 (python/test/data)."""
    import importlib.util
    import json
    spec = importlib.util.spec_from_file_location(
        "philox_reference", _ROOT / "scripts" / "philox-reference.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    with open(_ROOT / "python" / "test" / "data" / "philox-triton.json") as fh:
        recorded = json.load(fh)
    assert recorded["implementation"] == "triton" and recorded["version"].startswith("3.6")
    return script, recorded


def _compare_with_triton(script, recorded, case, words, normal_ulps=0):
    """Every stream bit for bit, but the normal ones (randn, randn4x), whose
    log, sqrt, sin and cos may be `normal_ulps` units in the last place
    from the GPU's (same sign, so the bit patterns' distance is in ulps)."""
    block = recorded["block"]
    for i, name in enumerate(script.NAMES):
        want = np.array([int(w, 16) for w in case["streams"][name].split()], np.uint32)
        assert want.shape == (block,)
        where = f"{name}, seed {case['seed']:#x}, {case['offset_dtype']} offsets from {case['base']}"
        if name.startswith("randn") and normal_ulps:
            got = words[i].astype(np.int64)
            assert ((got ^ want.astype(np.int64)) >> 31 == 0).all(), where
            assert np.abs(got - want.astype(np.int64)).max() <= normal_ulps, where
        else:
            np.testing.assert_array_equal(words[i], want, err_msg=where)


def test_interpreter_streams_are_tritons():
    script, recorded = _triton_streams()
    tl_, streams = script.build("terrazzo")
    kernel = triton.jit(streams.fn, interpret=True)
    block = recorded["block"]
    assert len(recorded["cases"]) == len(script.CASES)
    for case in recorded["cases"]:
        out = np.zeros(len(script.NAMES) * block, np.int32)
        kernel[(1,)](out, case["seed"], case["base"], BLOCK=block,
                     OFFSET_DTYPE=getattr(tl_, case["offset_dtype"]))
        _compare_with_triton(script, recorded, case,
                             out.view(np.uint32).reshape(len(script.NAMES), block),
                             normal_ulps=4)


@pytest.mark.gpu
def test_gpu_streams_are_tritons(torch_cuda):
    script, recorded = _triton_streams()
    got = script.record("terrazzo")
    for case, mine in zip(recorded["cases"], got["cases"]):
        assert (mine["seed"], mine["base"]) == (case["seed"], case["base"])
        words = np.array([[int(w, 16) for w in mine["streams"][n].split()]
                          for n in script.NAMES], np.uint32)
        _compare_with_triton(script, recorded, case, words)
