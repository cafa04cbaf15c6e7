"""The standard library of the kernel language, written in the language
itself: `tl.sort`, `tl.topk`, `tl.bitonic_merge`, `tl.flip`, `tl.cat`,
`tl.gather`, `tl.histogram`, `tl.reduce_or`, `tl.softmax`, `tl.swizzle2d`,
`tl.squeeze`/`tl.unsqueeze`, `tl.map_elementwise`, the functional forms
`tl.add`/`tl.sub`/`tl.mul`, the `tl.const` annotation and
`tl.TRITON_MAX_TENSOR_NUMEL`, with Triton's names and signatures.

Most of them are @jit functions over the language's own operations
(reshape, permute, join, split, where, reductions), so one definition serves
the compiler and the interpreter. The ones Triton also offers as tensor
methods are attached to `tensor` (`x.sort()`, `x.flip()`, ...).

Sorting networks work on a block flattened to one dimension, of integer
keys that order like the values (a float's bits, with the other bits of
negative numbers flipped): bit `j` of an element's flat index selects its
partner at distance 2**j. Seen as [pairs, 2, 2**j], the xor of each pair
along the middle axis (one xor_sum over two elements) xor an element is its
partner, so every element is compared with its partner where it lies and
takes the partner's value where the pair is out of order: no data moves but
the reduction's, and no value changes a bit (but a NaN's sign).
"""

from __future__ import annotations

from ..core.shape_rules import MAX_BLOCK_NUMEL, broadcast_shapes
from ..errors import SemanticError
from ..runtime.jit import jit
from . import core, shapes
from .core import _current_semantic, _unwrap, builtin, constexpr, tensor

__all__ = ["sort", "topk", "bitonic_merge", "flip", "cat", "gather", "histogram",
           "reduce_or", "softmax", "swizzle2d", "squeeze", "unsqueeze",
           "map_elementwise", "add", "sub", "mul", "const", "TRITON_MAX_TENSOR_NUMEL"]

#: The most elements a block may have (Triton's constant of this name).
TRITON_MAX_TENSOR_NUMEL = MAX_BLOCK_NUMEL

#: gather and histogram compare every element with every candidate position
#: (bin) through a one-hot block; they take the candidates in chunks so that
#: this block has at most about this many elements.
_ONE_HOT_ELEMENTS = 1 << 14


# ---------------------------------------------------------------------------
# Compile-time helpers (plain Python, called from the @jit functions with
# shapes and dtypes; they raise SemanticError for bad arguments)
# ---------------------------------------------------------------------------

def _log2(n) -> int:
    """log2 of a power of two."""
    n = _unwrap(n)
    return n.bit_length() - 1


def _block_dim(what, shape, dim, default_last=True) -> int:
    """`dim` (None: the last dimension) as a non-negative index into
    `shape`, the shape of a block."""
    if not shape:
        raise SemanticError(f"{what} needs a block, got a scalar")
    dim = _unwrap(dim)
    rank = len(shape)
    if dim is None:
        return rank - 1 if default_last else 0
    if isinstance(dim, tensor) or not isinstance(dim, int) or isinstance(dim, bool):
        raise SemanticError(f"{what}: the dimension must be a compile-time integer, "
                            f"got {dim!r}")
    if not -rank <= dim < rank:
        raise SemanticError(f"{what}: dimension {dim} is out of range for a block of "
                            f"shape {list(shape)}")
    return dim + rank if dim < 0 else dim


def _to_last(rank, dim):
    """The permutation moving dimension `dim` last."""
    return [d for d in range(rank) if d != dim] + [dim]


def _from_last(rank, dim):
    """The inverse of `_to_last(rank, dim)`."""
    return list(range(dim)) + [rank - 1] + list(range(dim, rank - 1))


def _numel(shape) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def _topk_log2(k, n) -> int:
    k = _unwrap(k)
    if isinstance(k, tensor) or not isinstance(k, int) or isinstance(k, bool):
        raise SemanticError(f"tl.topk: k must be a compile-time integer, got {k!r}")
    if k < 1 or k & (k - 1):
        raise SemanticError(f"tl.topk: k must be a power of two, got {k}")
    if k > n:
        raise SemanticError(f"tl.topk: k = {k} is larger than the dimension ({n})")
    return _log2(k)


def _int_of_width(bits):
    return {8: core.int8, 16: core.int16, 32: core.int32, 64: core.int64}[bits]


def _check_cat(what, a_shape, b_shape, a_dtype, b_dtype):
    if not a_shape or not b_shape:
        raise SemanticError(f"{what} needs two blocks, got a scalar")
    if list(a_shape) != list(b_shape) or a_dtype != b_dtype:
        raise SemanticError(
            f"{what} needs two blocks of one shape and type, got {list(a_shape)} of "
            f"{a_dtype} and {list(b_shape)} of {b_dtype}")


def _cat_order(rank):
    """The permutation bringing join's new last dimension first."""
    return [rank] + list(range(rank))


def _check_gather(src_shape, src_dtype, index_shape, index_dtype, axis) -> int:
    if not src_shape or not index_shape:
        raise SemanticError("tl.gather needs blocks for the source and the index, got "
                            "a scalar")
    axis = _block_dim("tl.gather", src_shape, axis)
    if len(src_shape) != len(index_shape):
        raise SemanticError(f"tl.gather: the source (shape {list(src_shape)}) and the "
                            f"index (shape {list(index_shape)}) must have the same rank")
    for d, (s, i) in enumerate(zip(src_shape, index_shape)):
        if d != axis and s != i:
            raise SemanticError(
                f"tl.gather: the index's shape {list(index_shape)} must equal the "
                f"source's shape {list(src_shape)} except along axis {axis}")
    if not index_dtype.is_int() or index_dtype.is_bool():
        raise SemanticError(f"tl.gather: the index must hold integers, got {index_dtype}")
    if src_dtype.is_ptr():
        raise SemanticError("tl.gather of pointers is not supported")
    return axis


def _chunk(one_hot_per_candidate, candidates) -> int:
    """How many of `candidates` (a power of two) one step takes, when each
    costs `one_hot_per_candidate` elements of the one-hot block."""
    c = 1
    while c < candidates and 2 * c * one_hot_per_candidate <= _ONE_HOT_ELEMENTS:
        c *= 2
    return c


def _unit_shape(rank, dim, size):
    """[1, .., size, .., 1]: `size` at `dim` of a rank-`rank` shape."""
    return [size if d == dim else 1 for d in range(rank)]


def _replace(shape, dim, sizes):
    return list(shape[:dim]) + list(sizes) + list(shape[dim + 1:])


def _check_histogram(shape, dtype, num_bins) -> int:
    if not shape:
        raise SemanticError("tl.histogram needs a block, got a scalar")
    if not dtype.is_int() or dtype.is_bool():
        raise SemanticError(f"tl.histogram needs integers, got {dtype}")
    num_bins = _unwrap(num_bins)
    if isinstance(num_bins, tensor) or not isinstance(num_bins, int) \
            or isinstance(num_bins, bool):
        raise SemanticError(f"tl.histogram: num_bins must be a compile-time integer, "
                            f"got {num_bins!r}")
    if num_bins < 1 or num_bins & (num_bins - 1):
        raise SemanticError(f"tl.histogram: num_bins must be a power of two, got "
                            f"{num_bins}")
    return num_bins


def _check_reduce_or(dtype):
    if not dtype.is_int():
        raise SemanticError(f"tl.reduce_or needs integers, got {dtype}")


# ---------------------------------------------------------------------------
# Sorting networks
# ---------------------------------------------------------------------------

@jit
def _to_bits(x):
    # x as integers of its width (booleans as int8), to move it exactly.
    y = x
    if x.dtype.is_floating():
        y = x.to(_int_of_width(x.dtype.primitive_bitwidth), bitcast=True)
    elif x.dtype.is_bool():
        y = x.to(core.int8)
    return y


@jit
def _from_bits(y, dtype: constexpr):
    x = y
    if dtype.is_floating():
        x = y.to(dtype, bitcast=True)
    elif dtype.is_bool():
        x = y != 0
    return x


@jit
def _key_flip(bits, w: constexpr):
    # For the bits of floats of width w, as signed integers: the other bits
    # of negative numbers flipped. As signed integers, the results order as
    # the floats do (-0.0 before 0.0); applied twice, it gives `bits` back.
    return bits ^ ((bits >> (w - 1)) & ((1 << (w - 1)) - 1))


@jit
def _sort_key(x):
    # Integers that order as the values of x, NaNs (any sign) above every
    # number: a float's bits, its sign cleared if it is NaN, through
    # _key_flip. Integers are their own keys.
    k = x
    if x.dtype.is_floating():
        w = x.dtype.primitive_bitwidth
        bits = x.to(_int_of_width(w), bitcast=True)
        k = _key_flip(core.where(x != x, bits & ((1 << (w - 1)) - 1), bits), w)
    return k


@jit
def _from_key(k, dtype: constexpr):
    # The values of the keys `k` of elements of type dtype.
    x = k
    if dtype.is_floating():
        x = _key_flip(k, dtype.primitive_bitwidth).to(dtype, bitcast=True)
    return x


@jit
def _partners(y):
    # For y of shape [A, 2, B]: every element's partner, the other element of
    # its pair along the middle axis (the xor of a pair, xor the element).
    bits = _to_bits(y)
    return _from_bits(core.xor_sum(bits, 1, keep_dims=True) ^ bits, y.dtype)


@jit
def _larger(a, b):
    # A combine function: the larger of a and b, in their type.
    return core.maximum(a, b)


@jit
def _smaller(a, b):
    # A combine function: the smaller of a and b, in their type.
    return core.minimum(a, b)


@jit
def _compare_exchange(k, j: constexpr, bit: constexpr, descending: constexpr):
    # Orders every pair (f, f + 2**j) of the 1-D block of keys k: ascending
    # where bit `bit` of f is clear and descending where it is set, or all in
    # the direction `descending` when bit < 0. Each element is compared with
    # its partner where it lies, and takes the partner's value where the pair
    # is out of order: in an ascending pair the lower element must not be the
    # larger, in a descending pair the upper one. Equal keys are equal bits,
    # so swapping them changes nothing.
    y = shapes.reshape(k, [k.numel >> (j + 1), 2, 1 << j])
    p = _partners(y)
    wrong = (y > p) ^ (core.arange(0, 2) == 1)[None, :, None]
    if bit < 0:
        if descending:
            wrong = wrong ^ True
    else:
        down = ((core.arange(0, y.shape[0]) >> (bit - j - 1)) & 1) != 0
        wrong = wrong ^ down[:, None, None]
    return shapes.reshape(core.where(wrong, p, y), [k.numel])


@jit
def _merge(x, t: constexpr, bit: constexpr, descending: constexpr):
    # Sorts every bitonic run of 2**t consecutive elements of the 1-D block x
    # (direction as in _compare_exchange).
    for i in core.static_range(t):
        x = _compare_exchange(x, t - 1 - i, bit, descending)
    return x


@jit
def _sort_rows(x, m: constexpr, descending: constexpr):
    # Sorts every run of 2**m consecutive elements of the 1-D block x: stage s
    # merges runs of 2**s, alternating in direction, the last one in the
    # direction asked for.
    for s in core.static_range(1, m + 1):
        x = _merge(x, s, s if s < m else -1, descending)
    return x


@jit
def sort(x, dim: constexpr = None, descending: constexpr = False):
    """Sorts `x` along `dim` (None: the last dimension), ascending, or
    descending with `descending=True`. NaNs sort above every number (and
    come out with their sign cleared), -0.0 below 0.0.

    A bitonic sorting network: for a dimension of n = 2**m elements it does
    m (m + 1) / 2 compare-exchange steps over the whole block, each one
    xor reduction over pairs of elements, one integer compare and a select."""
    d = _block_dim("tl.sort", x.shape, dim)
    rank = len(x.shape)
    y = x
    if d != rank - 1:
        y = shapes.permute(x, _to_last(rank, d))
    keys = _sort_rows(_sort_key(shapes.reshape(y, [y.numel])), _log2(y.shape[rank - 1]),
                      descending)
    y = shapes.reshape(_from_key(keys, x.dtype), y.shape)
    if d != rank - 1:
        y = shapes.permute(y, _from_last(rank, d))
    return y


@jit
def topk(x, k: constexpr, dim: constexpr = None, descending: constexpr = True):
    """The k largest elements of `x` along `dim` (None: the last dimension),
    largest first; with `descending=False`, the k smallest, smallest first.
    k must be a power of two; the result has k elements along `dim`.

    Runs of k elements are sorted by a bitonic network, alternating in
    direction; then, while more than k are left, each pair of runs keeps the
    elementwise larger (smaller) of its two runs, a bitonic sequence holding
    the pair's top k, which a bitonic merge sorts again. For n = 2**m and
    k = 2**q this costs about q (q + 1) / 2 + (m - q) (q + 1) compare steps."""
    d = _block_dim("tl.topk", x.shape, dim)
    rank = len(x.shape)
    y = x
    if d != rank - 1:
        y = shapes.permute(x, _to_last(rank, d))
    n = y.shape[rank - 1]
    m = _log2(n)
    q = _topk_log2(k, n)
    flat = _sort_key(shapes.reshape(y, [y.numel]))
    for s in core.static_range(1, q + 1):
        flat = _merge(flat, s, s if s < m else -1, descending)
    for r in core.static_range(m - q):
        pairs = shapes.reshape(flat, [flat.numel >> (q + 1), 2, 1 << q])
        if descending:
            keep = core.reduce(pairs, 1, _larger)
        else:
            keep = core.reduce(pairs, 1, _smaller)
        flat = _merge(shapes.reshape(keep, [keep.numel]), q, q if r < m - q - 1 else -1,
                      descending)
    y = shapes.reshape(_from_key(flat, x.dtype), y.shape[:rank - 1] + [1 << q])
    if d != rank - 1:
        y = shapes.permute(y, _from_last(rank, d))
    return y


@jit
def bitonic_merge(x, dim: constexpr = None, descending: constexpr = False):
    """Sorts `x` along `dim` (None: the last dimension), ascending or
    descending, when it is a bitonic sequence there (ascending then
    descending, or the reverse): the last stage of a bitonic sort, log2(n)
    compare-exchange steps."""
    d = _block_dim("tl.bitonic_merge", x.shape, dim)
    rank = len(x.shape)
    y = x
    if d != rank - 1:
        y = shapes.permute(x, _to_last(rank, d))
    keys = _merge(_sort_key(shapes.reshape(y, [y.numel])), _log2(y.shape[rank - 1]), -1,
                  descending)
    y = shapes.reshape(_from_key(keys, x.dtype), y.shape)
    if d != rank - 1:
        y = shapes.permute(y, _from_last(rank, d))
    return y


@jit
def flip(x, dim=None):
    """`x` with the order of its elements along `dim` (None: the last
    dimension) reversed. Reversing the index along a dimension of 2**m
    elements swaps the two halves of each of its m index bits in turn."""
    d = _block_dim("tl.flip", x.shape, dim)
    low = _log2(_numel(x.shape[d + 1:]))
    flat = shapes.reshape(x, [x.numel])
    for t in core.static_range(_log2(x.shape[d])):
        pairs = shapes.reshape(flat, [x.numel >> (low + t + 1), 2, 1 << (low + t)])
        flat = shapes.reshape(_partners(pairs), [x.numel])
    return shapes.reshape(flat, x.shape)


# ---------------------------------------------------------------------------
# Concatenation, gathers, histograms
# ---------------------------------------------------------------------------

@jit
def cat(input, other, can_reorder=False):
    """`input` followed by `other` along the first dimension: two blocks of
    one shape [n, ...] and type give a block of [2n, ...]. Triton allows any
    order of the elements (`can_reorder`); Terrazzo keeps this order."""
    _check_cat("tl.cat", input.shape, other.shape, input.dtype, other.dtype)
    both = shapes.permute(shapes.join(input, other), _cat_order(len(input.shape)))
    return shapes.reshape(both, [2 * input.shape[0]] + input.shape[1:])


@jit
def _or_combine(a, b):
    return a | b


@jit
def reduce_or(input, axis, keep_dims=False):
    """The bitwise or of the elements of `input` (integers) along `axis`
    (None: all axes)."""
    _check_reduce_or(input.dtype)
    return core.reduce(input, axis, _or_combine, keep_dims=keep_dims)


@jit
def _gather_step(part, index, axis: constexpr):
    # The elements of `part` (the source with C positions along `axis`) that
    # `index` (0 <= index < C) selects, and 0 where it selects none.
    rank = len(index.shape)
    pos = shapes.reshape(core.arange(0, part.shape[axis]), _unit_shape(rank + 1, axis + 1,
                                                                        part.shape[axis]))
    hit = core.expand_dims(index, axis + 1) == pos
    values = core.expand_dims(part, axis)
    picked = core.where(hit, values, core.zeros_like(values))
    return core.reduce(picked, axis + 1, _or_combine)


@jit
def gather(src, index, axis):
    """out[..., i, ...] = src[..., index[..., i, ...], ...] along `axis`:
    `index` (integers) has the rank of `src` and its shape but along `axis`;
    the result has the index's shape and the source's type. An index outside
    [0, src.shape[axis]) gives 0.

    Every index is compared with every source position along `axis` (a
    one-hot selection, exact for every type): with S positions, I indices
    and R the size of the other dimensions, I * S * R comparisons. The
    positions are taken in chunks so that the one-hot block stays below
    about 16K elements; with several chunks, a loop of S / C iterations also
    extracts each chunk of C positions (S * R elements each)."""
    ax = _check_gather(src.shape, src.dtype, index.shape, index.dtype, axis)
    bits = _to_bits(src)
    S = src.shape[ax]
    C = _chunk(index.numel, S)
    if C == S:
        out = _gather_step(bits, index, ax)
    else:
        rank = len(src.shape)
        parts = shapes.reshape(bits, _replace(src.shape, ax, [S // C, C]))
        which = shapes.reshape(core.arange(0, S // C), _unit_shape(rank + 1, ax, S // C))
        out = core.zeros(index.shape, bits.dtype)
        for c in range(S // C):
            chosen = core.where(which == c, parts, core.zeros_like(parts))
            part = core.reduce(chosen, ax, _or_combine)
            out = out | _gather_step(part, index - c * C, ax)
    return _from_bits(out, src.dtype)


@jit
def _bin_counts(x, valid, first, B: constexpr):
    # How many elements of the 1-D block x equal first, first + 1, ..,
    # first + B - 1, counting only where `valid` (None: everywhere).
    hit = x[:, None] == (core.arange(0, B) + first)[None, :]
    if valid is not None:
        hit = hit & valid[:, None]
    return core.sum(hit.to(core.int32), 0)


@jit
def histogram(input, num_bins, mask=None):
    """The histogram of `input` (integers) over `num_bins` bins of width 1
    starting at 0: an int32 block of num_bins counts. Elements where `mask`
    is false, and values outside [0, num_bins), are not counted.

    Every element is compared with every bin (M elements, N bins: M * N
    comparisons); the bins are taken in chunks so that the one-hot block
    stays below about 16K elements, in a loop over the chunks when there are
    several."""
    nb = _check_histogram(input.shape, input.dtype, num_bins)
    x = shapes.reshape(input, [input.numel])
    valid = mask
    if mask is not None:
        valid = shapes.reshape(core.broadcast_to(mask, input.shape), [input.numel]) != 0
    B = _chunk(input.numel, nb)
    if B == nb:
        out = _bin_counts(x, valid, 0, B)
    else:
        counts = core.zeros([nb // B, B], core.int32)
        rows = core.arange(0, nb // B)[:, None]
        for c in range(nb // B):
            counts = core.where(rows == c, _bin_counts(x, valid, c * B, B)[None, :], counts)
        out = shapes.reshape(counts, [nb])
    return out


# ---------------------------------------------------------------------------
# Arithmetic
# ---------------------------------------------------------------------------

@jit
def softmax(x, dim=None, keep_dims=False, ieee_rounding=False):
    """exp(x - max) / sum(exp(x - max)) along `dim` (None: dimension 0), as
    Triton computes it (tl.max and tl.sum, so 16-bit floats give float32).
    The result has the shape of `x` (`keep_dims` is accepted for Triton's
    signature)."""
    d = _block_dim("tl.softmax", x.shape, dim, default_last=False)
    z = x - core.max(x, d, keep_dims=True)
    num = core.exp(z)
    den = core.sum(num, d, keep_dims=True)
    return core.fdiv(num, den, ieee_rounding)


@jit
def swizzle2d(i, j, size_i, size_j, size_g):
    """Maps the row-major position (i, j) of a size_i x size_j grid to a
    position where the grid's rows are taken size_g at a time and each such
    group is filled column by column (the last group may have fewer rows):
    the order that keeps a group of program instances on a few rows of
    tiles. Returns (new_i, new_j)."""
    ij = i * size_j + j
    group_size = size_g * size_j
    first_row = (ij // group_size) * size_g
    rows = min(size_i - first_row, size_g)
    offset = ij % group_size
    return first_row + offset % rows, offset // rows


@builtin
def add(x, y, sanitize_overflow=True):
    """x + y (the function form of `+`; `sanitize_overflow` is accepted and
    ignored)."""
    return _current_semantic().add(x, y)


@builtin
def sub(x, y, sanitize_overflow=True):
    """x - y (the function form of `-`; `sanitize_overflow` is accepted and
    ignored)."""
    return _current_semantic().sub(x, y)


@builtin
def mul(x, y, sanitize_overflow=True):
    """x * y (the function form of `*`; `sanitize_overflow` is accepted and
    ignored)."""
    return _current_semantic().mul(x, y)


# ---------------------------------------------------------------------------
# Shapes and element-wise maps
# ---------------------------------------------------------------------------

@builtin
def squeeze(x, dim):
    """`x` without its dimension `dim` (or dimensions, a sequence), which
    must have size 1."""
    sem = _current_semantic()
    x = sem.to_tensor(x)
    dims = _unwrap(dim)
    dims = [_unwrap(d) for d in dims] if isinstance(dims, (list, tuple)) else [dims]
    shape = list(x.shape)
    drop = set()
    for d in dims:
        d = _block_dim("tl.squeeze", shape, d)
        if shape[d] != 1:
            raise SemanticError(f"tl.squeeze: dimension {d} of a block of shape {shape} "
                                f"has size {shape[d]}, not 1")
        drop.add(d)
    return sem.reshape(x, [s for d, s in enumerate(shape) if d not in drop],
                       what="tl.squeeze")


@builtin
def unsqueeze(x, dim):
    """`x` with a new dimension of size 1 at `dim` (tl.expand_dims)."""
    return _current_semantic().expand_dims(x, _unwrap(dim))


@builtin
def map_elementwise(scalar_fn, *args, pack=1):
    """Applies the @jit function `scalar_fn` to the elements of `args`
    (broadcast to one shape) and returns its result (a tensor, or a tuple).
    Terrazzo calls `scalar_fn` once on whole blocks; its runtime control
    flow on the elements' values (if/else, early returns, loops) runs
    element-wise (compiler/elementwise_flow.py). With `pack=p`, the
    function takes p consecutive elements of each argument (p parameters
    per argument, argument by argument) and returns p values per result,
    result by result, as in Triton."""
    sem = _current_semantic()
    fn = _unwrap(scalar_fn)
    pack = _unwrap(pack)
    if not getattr(fn, "_terrazzo_jit_function", False):
        raise SemanticError(f"tl.map_elementwise needs a @jit function, got {fn!r}")
    if not isinstance(pack, int) or isinstance(pack, bool) or pack < 1 or pack & (pack - 1):
        raise SemanticError(f"tl.map_elementwise: pack must be a power of two, got {pack!r}")
    values = [sem.to_tensor(a) for a in args]
    if not values:
        raise SemanticError("tl.map_elementwise needs at least one tensor argument")
    shape = []
    for v in values:
        shape = broadcast_shapes(shape, v.shape) if shape and v.shape else shape or v.shape
    if shape:
        values = [sem.broadcast_to(v, shape) for v in values]
    if pack == 1:
        return sem.inline_jit(fn, values, elementwise=True)
    numel = 1
    for s in shape:
        numel *= s
    if numel % pack:
        raise SemanticError(f"tl.map_elementwise: pack={pack} does not divide the "
                            f"{numel} elements of a block of shape {list(shape)}")
    # Element j of each pack is the sub-block of the elements j, j + pack, ...
    # of the flattened block, seen as [numel / pack, 2, ..., 2] (the bits of
    # j). Splitting the last dimension again and again yields the sub-blocks
    # with the bits of j reversed, and joining pairs of that order again
    # rebuilds the packs.
    bits = pack.bit_length() - 1
    order = [int(format(j, f"0{bits}b")[::-1], 2) if bits else 0 for j in range(pack)]
    parts = []
    for v in values:
        pieces = [sem.reshape(v, [numel // pack] + [2] * bits)]
        for _ in range(bits):
            pieces = [half for p in pieces for half in sem.split(p)]
        parts.extend(pieces[order[j]] for j in range(pack))
    out = sem.inline_jit(fn, parts, elementwise=True)
    out = list(out) if isinstance(out, (tuple, list)) else [out]
    if len(out) % pack:
        raise SemanticError(f"tl.map_elementwise: with pack={pack} the function must return "
                            f"a multiple of {pack} values, got {len(out)}")
    results = []
    for r in range(len(out) // pack):
        pieces = [sem.to_tensor(x) for x in out[r * pack:(r + 1) * pack]]
        pieces = [sem.broadcast_to(pieces[order[j]], [numel // pack]) for j in range(pack)]
        while len(pieces) > 1:
            pieces = [sem.join(pieces[i], pieces[i + 1]) for i in range(0, len(pieces), 2)]
        results.append(sem.reshape(pieces[0], list(shape)))
    return results[0] if len(results) == 1 else tuple(results)


class const:
    """`x: tl.const` marks a pointer parameter whose memory the kernel only
    reads: its type is a const pointer (tl.pointer_type(..., const=True)),
    another type than the plain pointer, and storing through it is an
    error."""

    _terrazzo_const_annotation = True


# Tensor methods, as in Triton (x.sort(), x.flip(), ...).
for _name in ("sort", "flip", "softmax", "gather", "histogram", "reduce_or"):
    setattr(tensor, _name, globals()[_name])
del _name
