"""Random numbers in kernels: `tl.randint`, `tl.rand`, `tl.randn` (and their
four-stream forms), `tl.philox` and the pieces they are built from, with
Triton's names, signatures and streams: for the same seed and offsets they
give the same bits as Triton.

The generator is Philox (Salmon, Moraes, Dror and Shaw, "Parallel random
numbers: as easy as 1, 2, 3", SC 2011), a counter-based generator: a
128-bit counter and a 64-bit key go through rounds that multiply two of the
counter's words by fixed constants and mix the high and low halves of the
products with the other words and the key; the key grows by fixed
increments after every round. Ten rounds of 32-bit words (Philox 4x32-10)
is the default. No state is kept: the element at offset `i` of a block
comes from the counter (i mod 2**32, i >> 32, 0, 0) and the key
(seed mod 2**32, seed >> 32), so any element of a stream can be computed
on its own, in any program instance.

Every function here is a `@jit` function over the language's own
operations, so the interpreter and the compiler run the same code.
"""

from ..runtime.jit import jit
from . import core as tl
from .core import _current_semantic, builtin
from .math import cos, log, sin, sqrt, umulhi

#: Rounds of Philox unless a call asks for another number.
N_ROUNDS_DEFAULT = tl.constexpr(10)

# Philox constants (Salmon et al. 2011): the round multipliers and the key
# increments (the golden ratio and sqrt(3) - 1 as fixed-point fractions),
# for 32-bit and 64-bit words.
PHILOX_4X32_MUL_A = 0xD2511F53
PHILOX_4X32_MUL_B = 0xCD9E8D57
PHILOX_4X32_KEY_A = 0x9E3779B9
PHILOX_4X32_KEY_B = 0xBB67AE85
PHILOX_4X64_MUL_A = 0xD2E7470EE14C6C93
PHILOX_4X64_MUL_B = 0xCA5A826395121157
PHILOX_4X64_KEY_A = 0x9E3779B97F4A7C15
PHILOX_4X64_KEY_B = 0xBB67AE8584CAA73B

# uint_to_uniform_float: a random word read as a signed integer x, folded to
# [0, MAX] (x or -x - 1), times the largest float32 s with MAX * s < 1 once
# rounded to float32: 1 - 2**-24 times 2**-31 for 32-bit words, 1 - 2**-23
# times 2**-63 for 64-bit words.
_UNIFORM_SCALE_32 = float.fromhex("0x1.fffffep-32")
_UNIFORM_SCALE_64 = float.fromhex("0x1.fffffcp-64")

# pair_uniform_to_normal: the smallest first uniform (log(0) is -inf) and 2 pi.
_MIN_UNIFORM = 1.0e-7
_TWO_PI = 6.283185307179586


@builtin
def _to_tensor(x):
    """`x` as a tensor (a Python number becomes a constant)."""
    return _current_semantic().to_tensor(x)


# ---------------------------------------------------------------------------
# Philox
# ---------------------------------------------------------------------------

@jit
def philox_impl(c0, c1, c2, c3, k0, k1, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    """`n_rounds` rounds of Philox on the counter (c0, c1, c2, c3) with the key
    (k0, k1): all uint32 (Philox 4x32) or all uint64 (Philox 4x64). Returns
    the four words of the result."""
    if c0.dtype == tl.uint32:
        mul_a: tl.constexpr = PHILOX_4X32_MUL_A
        mul_b: tl.constexpr = PHILOX_4X32_MUL_B
        key_a: tl.constexpr = PHILOX_4X32_KEY_A
        key_b: tl.constexpr = PHILOX_4X32_KEY_B
    else:
        tl.static_assert(c0.dtype == tl.uint64,
                         "philox_impl needs uint32 or uint64 counter words")
        mul_a: tl.constexpr = PHILOX_4X64_MUL_A
        mul_b: tl.constexpr = PHILOX_4X64_MUL_B
        key_a: tl.constexpr = PHILOX_4X64_KEY_A
        key_b: tl.constexpr = PHILOX_4X64_KEY_B
    for _ in tl.static_range(n_rounds):
        # Words 0 and 2 are multiplied; the high halves of the products are
        # mixed with words 1 and 3 and the key, the low halves move along.
        high_a = umulhi(c0, mul_a)
        low_a = c0 * mul_a
        high_b = umulhi(c2, mul_b)
        low_b = c2 * mul_b
        c0, c1, c2, c3 = high_b ^ c1 ^ k0, low_b, high_a ^ c3 ^ k1, low_a
        k0 = k0 + key_a
        k1 = k1 + key_b
    return c0, c1, c2, c3


@jit
def philox(seed, c0, c1, c2, c3, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    """Philox on the counter (c0, c1, c2, c3) with the key made of the integer
    `seed`: 32-bit counter words (of any signedness) run Philox 4x32 with the
    key (low, high) halves of the seed; 64-bit words run Philox 4x64 with the
    key (seed, 0). Returns four blocks of unsigned words."""
    seed = _to_tensor(seed)
    tl.static_assert(seed.dtype.is_int(), "the seed of a random number generator must be "
                     "an integer")
    seed = seed.to(tl.uint64)
    c0 = _to_tensor(c0)
    c1 = _to_tensor(c1)
    c2 = _to_tensor(c2)
    c3 = _to_tensor(c3)
    if c0.dtype.primitive_bitwidth == 32:
        word: tl.constexpr = tl.uint32
        k0 = (seed & 0xFFFFFFFF).to(tl.uint32)
        k1 = (seed >> 32).to(tl.uint32)
    else:
        tl.static_assert(c0.dtype.primitive_bitwidth == 64,
                         "philox needs 32-bit or 64-bit counter words")
        word: tl.constexpr = tl.uint64
        k0 = seed
        k1 = seed * 0
    return philox_impl(c0.to(word, bitcast=True), c1.to(word, bitcast=True),
                       c2.to(word, bitcast=True), c3.to(word, bitcast=True), k0, k1,
                       n_rounds)


# ---------------------------------------------------------------------------
# Random integers
# ---------------------------------------------------------------------------

@jit
def randint4x(seed, offset, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    """Four blocks of random uint32 for the scalar `seed` and the block of
    integer offsets `offset` (64-bit offsets use their high half too): the
    cheapest way to many random numbers."""
    low = offset.to(tl.uint32)
    zero = low * 0
    if offset.dtype.primitive_bitwidth > 32:
        high = (offset >> 32).to(tl.uint32)
    else:
        high = zero
    return philox(seed, low, high, zero, zero, n_rounds)


@jit
def randint(seed, offset, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    """A block of random uint32 for the scalar `seed` and the block of integer
    offsets `offset` (the first of randint4x's four)."""
    first, _, _, _ = randint4x(seed, offset, n_rounds)
    return first


# ---------------------------------------------------------------------------
# Uniform floats
# ---------------------------------------------------------------------------

@jit
def uint_to_uniform_float(x):
    """Random 32-bit or 64-bit integers (of any signedness) to float32 in
    [0, 1), uniformly: the word read as a signed integer, folded onto the
    non-negative integers (x or -x - 1), times a scale just below 2**-31
    (2**-63) so that the largest value stays below 1."""
    tl.static_assert(x.dtype.is_int() and x.dtype.primitive_bitwidth in (32, 64),
                     "uint_to_uniform_float needs 32-bit or 64-bit integers")
    if x.dtype.primitive_bitwidth == 32:
        folded = x.to(tl.int32, bitcast=True)
        scale: tl.constexpr = _UNIFORM_SCALE_32
    else:
        folded = x.to(tl.int64, bitcast=True)
        scale: tl.constexpr = _UNIFORM_SCALE_64
    folded = tl.where(folded < 0, -folded - 1, folded)
    return folded * scale


@jit
def rand(seed, offset, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    """A block of random float32, uniform in [0, 1), for the scalar `seed` and
    the block of integer offsets `offset`."""
    return uint_to_uniform_float(randint(seed, offset, n_rounds))


@jit
def rand4x(seed, offsets, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    """Four blocks of random float32, uniform in [0, 1), for the scalar
    `seed` and the block of integer offsets `offsets`."""
    i0, i1, i2, i3 = randint4x(seed, offsets, n_rounds)
    return (uint_to_uniform_float(i0), uint_to_uniform_float(i1),
            uint_to_uniform_float(i2), uint_to_uniform_float(i3))


# ---------------------------------------------------------------------------
# Normal floats
# ---------------------------------------------------------------------------

@jit
def pair_uniform_to_normal(u1, u2):
    """Two independent standard normal blocks from two uniform blocks in
    [0, 1), by the Box-Muller transform: radius sqrt(-2 log u1) (u1 kept
    at least 1e-7), angle 2 pi u2."""
    radius = sqrt(-2.0 * log(tl.maximum(_MIN_UNIFORM, u1)))
    angle = _TWO_PI * u2
    return radius * cos(angle), radius * sin(angle)


@jit
def randn(seed, offset, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    """A block of random float32, standard normal, for the scalar `seed` and
    the block of integer offsets `offset`."""
    i0, i1, _, _ = randint4x(seed, offset, n_rounds)
    normal, _ = pair_uniform_to_normal(uint_to_uniform_float(i0), uint_to_uniform_float(i1))
    return normal


@jit
def randn4x(seed, offset, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    """Four blocks of random float32, standard normal, for the scalar `seed`
    and the block of integer offsets `offset`."""
    u0, u1, u2, u3 = rand4x(seed, offset, n_rounds)
    n0, n1 = pair_uniform_to_normal(u0, u1)
    n2, n3 = pair_uniform_to_normal(u2, u3)
    return n0, n1, n2, n3


# Tensor methods, as in Triton (seed.randint(offsets), ...).
for _name in ("randint4x", "randint", "rand", "randn"):
    setattr(tl.tensor, _name, globals()[_name])
del _name

__all__ = ["philox_impl", "philox", "randint4x", "randint",
           "uint_to_uniform_float", "rand", "rand4x", "pair_uniform_to_normal", "randn",
           "randn4x",
           # tl.umulhi is tl.math.umulhi, exported with the random numbers that use it.
           "umulhi"]
