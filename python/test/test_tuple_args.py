"""Tuples (`tl.tuple`, Python tuples, lists, NamedTuples) and aggregate
classes (`terrazzo.aggregate`, Triton's `triton.language.core._aggregate`)
as kernel arguments, as arguments and results of @jit functions, and
inside kernels.

A tuple argument is specialised member by member as a parameter of its
own would be (a pointer's alignment, an integer equal to 1 or divisible by
16), its compile-time members (None, tl.constexpr, functions) are part of
the key, and the kernel takes its runtime members as parameters
(compiler/kernel.py; the launch path in runtime/tuple_args.py). Each
kernel runs in the interpreter against NumPy on fresh random inputs, its
tile IR is verified and lowered to PTX, the C++ dispatcher's path is
checked without a GPU (TERRAZZO_DRY_LAUNCH), and the GPU tests run the
compiled kernels.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pytest

import terrazzo as triton
import terrazzo.language as tl
from terrazzo.errors import CompilationError
from terrazzo.language.core import _aggregate
from test_jit_compile import FakeTensor  # looks like a CUDA tensor to the dispatcher


def interp(kernel):
    return triton.jit(kernel.fn, interpret=True)


# ---------------------------------------------------------------------------
# Kernels
# ---------------------------------------------------------------------------

@triton.jit
def _increment(values):
    return tl.tuple([v + 1 for v in values])


@triton.jit
def _store_each(ptrs, values):
    for i in tl.static_range(len(values)):
        tl.store(ptrs[i], values[i])


@triton.jit
def index_kernel(_0, ptrs, _1: tl.constexpr, values, _2, _3: tl.constexpr, _4):
    values = _increment(values)
    _store_each(ptrs, values)


@triton.jit
def _inner(out, cst: tl.constexpr, t):
    tl.static_assert(t[1] is None)
    tl.store(out + 5, cst)
    tl.store(out + 6, t[0])
    tl.store(out + 7, tl.load(t[2][0]))
    tl.store(out + 8, t[2][1][0])
    tl.store(out + 9, tl.load(t[2][1][2]))


@triton.jit
def nested_kernel(out, n1, t1, cst: tl.constexpr, val, t2):
    tl.static_assert(n1 is None)
    tl.static_assert(t1[1][1] is None)
    tl.static_assert(t1[1][3] == 4)
    tl.store(out + 0, tl.load(t1[0]))
    tl.store(out + 1, t1[1][0])
    tl.store(out + 2, tl.load(t1[1][2]))
    tl.store(out + 3, cst + val)
    tl.store(out + 4, tl.load(t2[0]))
    _inner(out, 15, (-1, None, t1))


class View(NamedTuple):
    ptr: object
    shape: tuple
    stride: tuple


class Closure(NamedTuple):
    fn: tl.constexpr
    captured: tuple


@triton.jit
def _scale(x, a):
    return x * tl.load(a)


@triton.jit
def _make_view(shape, ptr, stride):
    return View(shape=shape, ptr=ptr, stride=stride)


@triton.jit
def _view_mask(v, BM: tl.constexpr, BN: tl.constexpr):
    return (tl.arange(0, BM)[:, None] < v.shape[0]) & (tl.arange(0, BN)[None, :] < v.shape[1])


@triton.jit
def namedtuple_kernel(closure, src, dst, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.arange(0, BM)[:, None]
    cols = tl.arange(0, BN)[None, :]
    x_view = _make_view(src.shape, src.ptr, src.stride)
    x = tl.load(x_view.ptr + rows * x_view.stride[0] + cols * x_view.stride[1],
                mask=_view_mask(x_view, BM, BN), other=0)
    y = closure.fn(x, *closure.captured)
    tl.store(dst.ptr + rows * dst.stride[0] + cols * dst.stride[1], y,
             mask=_view_mask(dst, BM, BN))


@_aggregate
class Segment:
    """A pointer, a length and a compile-time block size."""
    ptr: tl.tensor
    n: tl.tensor
    BLOCK: tl.constexpr

    def __init__(self, ptr, n, BLOCK):
        self.ptr = ptr
        self.n = n
        self.BLOCK = BLOCK

    @triton.jit
    def load(self, scale):
        offs = tl.program_id(0) * self.BLOCK + tl.arange(0, self.BLOCK)
        return tl.load(self.ptr + offs, mask=offs < self.n, other=0.0) * scale

    @triton.jit
    def store(self, value):
        offs = tl.program_id(0) * self.BLOCK + tl.arange(0, self.BLOCK)
        tl.store(self.ptr + offs, value, mask=offs < self.n)


@triton.aggregate
class Stats:
    total: tl.tensor
    count: tl.tensor


@triton.jit
def _accumulate(stats, x):
    return Stats(stats.total + x, stats.count + 1)


@triton.jit
def aggregate_kernel(src, dst, pair, ROUNDS: tl.constexpr):
    # An aggregate argument (src, dst), an aggregate made in the kernel and
    # carried through a loop, and a tuple argument of a pointer and a
    # number.
    x = src.load(2.0)
    stats = Stats(tl.zeros_like(x), 0)
    for _ in range(ROUNDS):
        stats = _accumulate(stats, x)
    out_ptr, bias = pair
    dst.store(stats.total / stats.count + bias)
    tl.store(out_ptr, stats.count)


@triton.jit
def carried_kernel(src, dst, n, rounds, BLOCK: tl.constexpr):
    # A tuple of tensors carried through a loop and set in both branches of
    # a runtime if.
    offs = tl.arange(0, BLOCK)
    x = tl.load(src + offs, mask=offs < n, other=0.0)
    acc = (tl.zeros_like(x), tl.zeros_like(x) + 1.0)
    for _ in range(rounds):
        acc = (acc[0] + x, acc[1] * 0.5)
    if rounds > 2:
        pair = (acc[1], acc[0])
    else:
        pair = (acc[0], acc[1])
    tl.store(dst + offs, pair[0], mask=offs < n)
    tl.store(dst + n + offs, pair[1], mask=offs < n)


@triton.jit
def tuple_ops_kernel(out):
    t = (1, 2) + tl.tuple((3, 4))
    tl.static_assert(t == (1, 2, 3, 4))
    tl.static_assert(tl.tuple((1, 2)) == (1, 2))
    tl.static_assert(isinstance((1, 2), tl.tuple) and not isinstance([1], tl.tuple))
    tl.static_assert(((3, 4) or (5, 6)) == (3, 4))
    tl.static_assert(((3, 4) and ()) == ())
    squares = tl.tuple(v * v for v in t if v != 3)
    for i in tl.static_range(len(squares)):
        tl.store(out + i, squares[i])


@triton.jit
def modify_kernel():
    t = tl.tuple([5, 6, 7])
    t[0] = 0


# ---------------------------------------------------------------------------
# Arguments and references
# ---------------------------------------------------------------------------

def _index_case(rng, make):
    vals = tuple(int(v) for v in rng.integers(-50, 50, int(rng.integers(1, 5))))
    rets = tuple(make(np.zeros(1, np.float32)) for _ in vals)
    return (0, rets, 0, vals, 0, 0, 0), lambda get: [get(r)[0] for r in rets] == \
        [v + 1 for v in vals]


def _nested_case(rng, make):
    x0, x1, y0 = (np.array([int(v)], np.int32) for v in rng.integers(-99, 99, 3))
    one = int(rng.integers(1, 40))
    cst, val = int(rng.integers(0, 30)), int(rng.integers(0, 30))
    out = make(np.zeros(10, np.int32))
    args = (out, None, (make(x0), (one, None, make(x1), tl.constexpr(4))), cst, val,
            (make(y0),))
    want = [x0[0], one, x1[0], cst + val, y0[0], 15, -1, x0[0], one, x1[0]]
    return args, lambda get: list(get(out)) == want


def _namedtuple_case(rng, make):
    x = rng.standard_normal((32, 32)).astype(np.float32)
    m, n = (int(v) for v in rng.integers(1, 17, 2))
    y = np.zeros((m, n), np.float32)
    a = rng.standard_normal(1).astype(np.float32)
    xd, yd, ad = make(x), make(y), make(a)
    args = (Closure(_scale, (ad,)), View(xd, x.shape, (32, 1)), View(yd, (m, n), (n, 1)),
            64, 64)
    return args, lambda get: np.array_equal(get(yd), x[:m, :n] * a[0])


def _aggregate_case(rng, make):
    n = int(rng.integers(40, 300))
    x = rng.standard_normal(n + 7).astype(np.float32)
    y = np.full(n + 7, 9.0, np.float32)
    count = np.zeros(1, np.int32)
    bias = float(rng.standard_normal())
    xd, yd, cd = make(x), make(y), make(count)
    block = 64
    args = (Segment(xd, n, block), Segment(yd, n, block), (cd, bias), 3)
    want = np.concatenate([(x[:n].astype(np.float64) * 2 + np.float32(bias)), np.full(7, 9.0)])

    def check(get):
        got = get(yd)
        return get(cd)[0] == 3 and np.allclose(got, want, rtol=1e-6, atol=1e-6) and \
            (got[n:] == 9.0).all()
    return args, check, triton.cdiv(n, block)


def _carried_case(rng, make):
    n = int(rng.integers(1, 64))
    rounds = int(rng.integers(0, 6))
    x = rng.standard_normal(n).astype(np.float32)
    out = np.full(2 * n + 5, 7.0, np.float32)
    xd, od = make(x), make(out)
    total = x.astype(np.float64) * rounds
    scale = np.full(n, 0.5 ** rounds)
    first, second = (scale, total) if rounds > 2 else (total, scale)
    want = np.concatenate([first, second, np.full(5, 7.0)])
    return (xd, od, n, rounds, 64), lambda get: np.allclose(get(od), want, rtol=1e-6)


CASES = {"index": (index_kernel, _index_case), "nested": (nested_kernel, _nested_case),
         "carried": (carried_kernel, _carried_case),
         "namedtuple": (namedtuple_kernel, _namedtuple_case),
         "aggregate": (aggregate_kernel, _aggregate_case)}


def _case(name, rng, make=lambda a: a):
    kernel, build = CASES[name]
    built = build(rng, make)
    args, check = built[0], built[1]
    grid = built[2] if len(built) > 2 else 1
    return kernel, args, check, grid


@pytest.mark.parametrize("name", list(CASES))
def test_interpreter(name, rng):
    kernel, args, check, grid = _case(name, rng)
    interp(kernel)[(grid,)](*args)
    assert check(lambda a: a)


@pytest.mark.parametrize("name", list(CASES))
def test_ir_compiles(name, rng, check_ir):
    kernel, args, _, _ = _case(name, rng)
    check_ir(kernel.ir(*args))


def test_members_are_specialised_like_parameters():
    """A pointer in a tuple is aligned like a parameter, an integer 1 is a
    constant, one divisible by 16 says so; None and tl.constexpr members
    are compile-time; the key says all of it."""
    out, x, odd = (FakeTensor(a, "int32") for a in (0x1000, 0x2000, 0x3004))
    args = (out, None, (x, (1, None, odd, tl.constexpr(4))), 2, 32, (x,))
    key = nested_kernel.key_for(*args)
    # The fakes have no storage to ask: not known to fit in 2^31 bytes.
    assert key[2] == ("tuple", tuple, (("p", "int32", True, False), ("tuple", tuple, (
        ("i", True, False, True), ("c", None), ("p", "int32", False, False), ("c", 4)))))
    text = nested_kernel.ir(*args)
    header = text.split("func.func @nested_kernel")[1].split("{\n")[0]
    # out, n1 (None), t1[0], t1[1][0] (1), t1[1][2], val, t2[0]: the None and
    # 4 members are not parameters.
    assert header.count("!tile.ptr<i32> {tile.divisibility = 16 : i32}") == 3
    assert header.count("!tile.ptr<i32> loc") == 1  # odd: not aligned
    assert header.count("i32 {tile.divisibility = 16 : i32, tile.nonnegative}") == 1
    assert nested_kernel.ir_for_key(key).signature == "pppipip"
    # The member equal to 1 is the constant 1 in the kernel.
    assert "arith.constant 1 : i32" in text
    other = nested_kernel.key_for(out, None, (x, (5, None, odd, tl.constexpr(4))), 2, 32, (x,))
    assert other[2] != key[2]


def test_tuple_operations_in_kernels():
    out = np.zeros(3, np.int32)
    interp(tuple_ops_kernel)[(1,)](out)
    np.testing.assert_array_equal(out, [1, 4, 16])
    assert "tile.store" in tuple_ops_kernel.ir(out)


def test_assigning_to_a_tuple_element_is_an_error():
    with pytest.raises(CompilationError, match="assigning to an element"):
        modify_kernel.ir()


def test_aggregate_checks_its_fields():
    with pytest.raises(AttributeError, match="has no field 'other'"):
        Stats(1, 2).other = 3
    with pytest.raises(TypeError, match="missing the field 'count'"):
        Stats(1)

    with pytest.raises(TypeError, match="declares no fields"):
        @triton.aggregate
        class Empty:
            pass


# ---------------------------------------------------------------------------
# do_not_specialize and do_not_specialize_on_alignment, tuple members included
# ---------------------------------------------------------------------------

@triton.jit
def span_kernel(span, dst, BLOCK: tl.constexpr):
    # span = (src pointer, (start, n)): dst[i] = src[start + i] * 2 for i < n.
    src = span[0]
    start, n = span[1]
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(dst + offs, tl.load(src + start + offs, mask=mask) * 2, mask=mask)


def _span_variant(dns=None, dna=None):
    return triton.jit(span_kernel.fn, do_not_specialize=dns,
                      do_not_specialize_on_alignment=dna)


def test_specialisation_modes_name_parameters_and_members():
    from terrazzo.compiler.kernel import specialisation_modes as modes
    names = ["span", "dst", "n"]
    assert modes(names, None, None) == [0, 0, 0]
    assert modes(names, ["n", 1], None) == [0, 1, 1]
    assert modes(names, None, ["dst", -1]) == [0, 2, 2]
    # do_not_specialize wins over do_not_specialize_on_alignment.
    assert modes(names, ["n"], ["n"]) == [0, 0, 1]
    # Members by path: the parameter by index or name, then positions.
    assert modes(names, [(0, 1, 0)], [("span", 1, 1), ("span", 1, 0)]) == \
        [{(): 0, (1, 0): 1, (1, 1): 2}, 0, 0]
    for bad in (["m"], [7], [(5, 0)], [("span", -1)], [()], [("span", "x")]):
        with pytest.raises(ValueError, match="do_not_specialize"):
            modes(names, bad, None)
    with pytest.raises(ValueError, match="do_not_specialize_on_alignment names unknown"):
        modes(names, None, ["nope"])


def test_member_paths_change_the_key_and_ir():
    src, dst = FakeTensor(0x1000, "float32"), FakeTensor(0x2000, "float32")
    args = ((src, (32, 48)), dst)
    plain = span_kernel.key_for(*args, BLOCK=64)
    assert plain[0] == ("tuple", tuple, (("p", "float32", True, False), ("tuple", tuple, (
        ("i", False, True, True), ("i", False, True, True)))))
    # start not specialised at all, n not on alignment, src not aligned.
    k = _span_variant(dns=[(0, 1, 0)], dna=[("span", 1, 1), ("span", 0)])
    key = k.key_for(*args, BLOCK=64)
    assert key[0] == ("tuple", tuple, (("p", "float32", False, False), ("tuple", tuple, (
        ("i",), ("i", False, False, True)))))
    assert key[1] == ("p", "float32", True, False)
    header = k.ir(*args, BLOCK=64).split("func.func @span_kernel")[1].split("{\n")[0]
    assert header.count("tile.divisibility") == 1  # dst only
    # A whole tuple named: its members stay specialised, as in Triton.
    assert _span_variant(dns=["span"]).key_for(*args, BLOCK=64) == plain
    # Top-level parameters: the pointer loses its alignment either way.
    assert _span_variant(dns=["dst"]).key_for(*args, BLOCK=64)[1] == ("p", "float32", False, False)
    assert _span_variant(dna=[1]).key_for(*args, BLOCK=64)[1] == ("p", "float32", False, False)


@pytest.mark.parametrize("dns, dna", [(None, None), ([(0, 1, 0)], [(0, 1, 1), (0, 0)]),
                                      (["span", "dst"], ["dst"])])
def test_interpreter_results_do_not_depend_on_specialisation(rng, dns, dna):
    src = rng.standard_normal(200).astype(np.float32)
    dst = np.full(64, np.nan, np.float32)
    kernel = triton.jit(span_kernel.fn, do_not_specialize=dns,
                        do_not_specialize_on_alignment=dna, interpret=True)
    kernel[(1,)]((src, (16, 50)), dst, BLOCK=64)
    np.testing.assert_array_equal(dst[:50], src[16:66].astype(np.float64) * 2)
    assert np.isnan(dst[50:]).all()


def test_dispatcher_keys_follow_the_specialisation_options(monkeypatch):
    C = pytest.importorskip("terrazzo._C")
    monkeypatch.setenv("TERRAZZO_DRY_LAUNCH", "1")
    src, dst = FakeTensor(0x1000, "float32"), FakeTensor(0x2000, "float32")
    for dns, dna in ((None, None), ([(0, 1, 0)], [("span", 1, 1), ("span", 0)]),
                     (["dst"], None), (None, ["dst"])):
        k = _span_variant(dns, dna)
        compiled = []
        original = k._compile_for_key
        monkeypatch.setattr(k, "_compile_for_key",
                            lambda key, bound=None, o=original: compiled.append(key) or o(key))
        launched = k[(1,)]((src, (32, 48)), dst, BLOCK=64)
        assert isinstance(launched, C.Kernel)
        assert compiled == [k.key_for((src, (32, 48)), dst, BLOCK=64)]
        assert launched.last_launch()["args"] == (0x1000, 32, 48, 0x2000)
    # A parameter that is not a tuple, through the C++ dispatcher alone.
    k = triton.jit(span_kernel.fn, do_not_specialize_on_alignment=["dst"])
    k._make_dispatcher()
    assert k._dispatcher.key_for((1, dst), {"BLOCK": 64})[1] == ("p", "float32", False, False)
    with pytest.raises(ValueError, match="do_not_specialize values"):
        C.Dispatcher(["n"], [False], [3], [C.NO_DEFAULT], lambda key, bound=None: None)


# ---------------------------------------------------------------------------
# The launch path (C++ dispatcher, without a GPU)
# ---------------------------------------------------------------------------

def test_dispatcher_flattens_tuples(monkeypatch):
    C = pytest.importorskip("terrazzo._C")
    monkeypatch.setenv("TERRAZZO_DRY_LAUNCH", "1")
    kernel = triton.jit(nested_kernel.fn)
    compiled_keys = []
    original = kernel._compile_for_key
    monkeypatch.setattr(kernel, "_compile_for_key",
                        lambda key, bound=None: compiled_keys.append(key) or original(key))
    out, a, b = (FakeTensor(a, "int32") for a in (0x1000, 0x2000, 0x3008))
    args = (out, None, (a, (1, None, b, tl.constexpr(4))), 3, 40, (a,))
    launched = kernel[(1,)](*args)
    assert isinstance(launched, C.Kernel)
    assert launched.signature == "pppipip"
    assert launched.last_launch()["args"] == (0x1000, 0, 0x2000, 1, 0x3008, 40, 0x2000)
    assert compiled_keys == [kernel.key_for(*args)]
    # The same template and key: the same kernel, new values.
    again = kernel[(1,)](out, None, (b, (1, None, a, tl.constexpr(4))), 3, 8, (b,))
    assert again is not launched  # b is not aligned to 16: another key
    same = kernel[(1,)](out, None, (a, (1, None, b, tl.constexpr(4))), 3, 56, (a,))
    assert same is launched and same.last_launch()["args"][5] == 56
    assert len(compiled_keys) == 2
    # Another compile-time member: another template.
    kernel[(1,)](out, None, (a, (1, None, b, tl.constexpr(4), "more")), 3, 40, (a,))
    assert len(kernel._tuple_launches.dispatchers) == 2


def test_dispatcher_aggregate_and_grid(monkeypatch):
    pytest.importorskip("terrazzo._C")
    monkeypatch.setenv("TERRAZZO_DRY_LAUNCH", "1")
    kernel = triton.jit(aggregate_kernel.fn)
    x, y = FakeTensor(0x1000, "float32"), FakeTensor(0x2000, "float32")
    c = FakeTensor(0x3000, "int32")
    seen = {}

    def grid(meta):
        seen.update(meta)
        return (triton.cdiv(meta["src"].n, meta["src"].BLOCK),)
    launched = kernel[grid](Segment(x, 100, 32), Segment(y, 100, 32), (c, 0.5), 2)
    assert launched.last_launch()["args"] == (0x1000, 100, 0x2000, 100, 0x3000, 0.5)
    assert launched.last_launch()["grid"][0] == 4
    assert isinstance(seen["src"], Segment) and seen["pair"][1] == 0.5
    # Errors name the member.
    with pytest.raises(TypeError, match=r"pair\[0\]"):
        kernel[(1,)](Segment(x, 100, 32), Segment(y, 100, 32), (object(), 0.5), 2)
    with pytest.raises(CompilationError, match="must be hashable"):
        kernel[(1,)](Segment(x, 100, 32), Segment(y, 100, 32), (c, 0.5, tl.constexpr([1])), 2)


def test_warmup_with_tuples(monkeypatch):
    pytest.importorskip("terrazzo._C")
    monkeypatch.setenv("TERRAZZO_DRY_LAUNCH", "1")
    kernel = triton.jit(index_kernel.fn)
    rets = (FakeTensor(0x1000, "float32"), FakeTensor(0x2000, "float32"))
    compiled = kernel.warmup(0, rets, 0, (3, 4), 0, 0, 0, grid=(1,))
    assert compiled.metadata.name == "index_kernel"
    launched = kernel[(1,)](0, rets, 0, (3, 4), 0, 0, 0)
    assert launched.last_launch()["args"] == (0, 0x1000, 0x2000, 3, 4, 0, 0)
    # The compiled kernel launches with tuples too, with its own options.
    again = compiled[(2,)](0, rets, 0, (5, 6), 0, 0, 0)
    assert again.last_launch()["args"] == (0, 0x1000, 0x2000, 5, 6, 0, 0)


# ---------------------------------------------------------------------------
# GPU
# ---------------------------------------------------------------------------

@pytest.mark.gpu
@pytest.mark.parametrize("name", list(CASES))
def test_gpu(torch_cuda, name, rng):
    torch = torch_cuda
    made = {}

    def make(a):
        t = torch.from_numpy(a).cuda()
        made[id(t)] = t
        return t
    kernel, args, check, grid = _case(name, rng, make)
    kernel[(grid,)](*args)
    torch.cuda.synchronize()
    assert check(lambda t: t.cpu().numpy())


@pytest.mark.gpu
@pytest.mark.parametrize("dns, dna", [(None, None), ([(0, 1, 0)], [(0, 1, 1), (0, 0)]),
                                      (["span", "dst"], ["dst"])])
def test_gpu_specialisation_options(torch_cuda, rng, dns, dna):
    torch = torch_cuda
    src = torch.from_numpy(rng.standard_normal(300).astype(np.float32)).cuda()
    kernel = triton.jit(span_kernel.fn, do_not_specialize=dns,
                        do_not_specialize_on_alignment=dna)
    for start, n in ((16, 50), (3, 33), (0, 64)):
        dst = torch.full((64,), float("nan"), device="cuda")
        # src + 1: a base that is not 16-byte aligned.
        kernel[(1,)]((src[1:], (start, n)), dst, BLOCK=64)
        torch.cuda.synchronize()
        want = src[1 + start:1 + start + n].double() * 2
        assert torch.equal(dst[:n].double(), want)
        assert torch.isnan(dst[n:]).all()
