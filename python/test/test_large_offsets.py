"""Tensors of more than 2^31 elements with Triton's i32 offsets (issue 18
item 4): `pid * BLOCK + tl.arange(0, BLOCK)` wraps in i32, and
terrazzo-promote-offsets computes such offsets (and the masks made from
them) in i64 (lit: Passes/promote-offsets.mlir) for the pointers whose
memory may not fit in 2^31 bytes: the launch key says, per pointer, whether
it does (the C++ dispatcher's fitsPointerRange, compiler/kernel.py's
pointer_fits), and a pointer that fits carries tile.pointer_range = 32
into the tile IR, its offsets left as they are."""

from __future__ import annotations

import re

import numpy as np
import pytest

import terrazzo as triton
import terrazzo.language as tl
from terrazzo.compiler.kernel import POINTER_RANGE_BYTES, StorageExtent, pointer_fits


@triton.jit
def add_one(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=mask) + 1, mask=mask)


@triton.jit
def scale_block(x, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK) * 2 + 1
    tl.store(x + offs, tl.load(x + offs) * 2)


@triton.jit
def add_vectors(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=mask) + tl.load(y + offs, mask=mask), mask=mask)


#: int8 elements of a "large" tensor: 2^31 + 2^20, about 2.1 GB. NumPy's
#: zeros take the pages lazily, so a compile-only test allocates none.
LARGE = (1 << 31) + (1 << 20)


@pytest.fixture(scope="module")
def large_int8():
    return np.zeros(LARGE, np.int8)


class FakeTensor:
    """A torch tensor as the key sees it: data_ptr(), dtype and, when given
    a storage, untyped_storage() (no memory behind it)."""

    def __init__(self, address, storage=None, dtype="int8"):
        self.address, self.storage, self.dtype = address, storage, dtype

    def data_ptr(self):
        return self.address


class StoredTensor(FakeTensor):
    def untyped_storage(self):
        return self.storage


class BrokenStorage(FakeTensor):
    def untyped_storage(self):
        raise RuntimeError("no storage here")


def fits_cases(large):
    """(argument, whether its memory fits in 2^31 bytes)."""
    limit = POINTER_RANGE_BYTES
    base = 1 << 40
    return [
        (np.zeros(1024, np.float32), True),
        (large, False),
        (large[:16], False),  # a view: the key judges the memory it belongs to
        (large[-16:], False),
        (triton.reinterpret(large, tl.uint8), False),
        (triton.reinterpret(np.zeros(64, np.int8), tl.uint8), True),
        (triton.MockTensor(tl.float32), True),
        (StoredTensor(base, StorageExtent(base, 1 << 20)), True),
        (StoredTensor(base, StorageExtent(base, limit)), True),
        (StoredTensor(base, StorageExtent(base, limit + 1)), False),
        (StoredTensor(base + 4096, StorageExtent(base, 1 << 20)), True),  # an offset view
        # Within reach after the address, but the storage starts too far
        # before it (a view with negative strides reaches back there).
        (StoredTensor(base + limit + 1, StorageExtent(base, limit + 2)), False),
        (StoredTensor(base - 16, StorageExtent(base, 64)), False),  # outside its storage
        (StoredTensor(base, None), False),  # a storage that cannot say
        (BrokenStorage(base), False),
        (FakeTensor(base), False),  # data_ptr() only: size unknown
    ]


def test_pointer_fits(large_int8):
    for value, fits in fits_cases(large_int8):
        assert pointer_fits(value) == fits, value
    assert pointer_fits(None)


def test_key_fits_bit_in_python_and_cpp(large_int8, monkeypatch):
    """The bit in Python's key (kernel.compile, IR requests) and in the
    C++ dispatcher's (launches), for every argument both take (the
    dispatcher refuses host arrays)."""
    from terrazzo import _C

    assert _C.POINTER_RANGE_BYTES == POINTER_RANGE_BYTES
    monkeypatch.setenv("TERRAZZO_DRY_LAUNCH", "1")  # a dispatcher without a GPU
    dispatcher = add_one._dispatcher or add_one._make_dispatcher()
    small = np.zeros(1024, np.int8)
    for value, fits in fits_cases(large_int8):
        key = add_one.key_for(value, small, 100, BLOCK=1024)
        assert key[0][3] == fits and key[1][3], (value, key)
        if not isinstance(value, np.ndarray):
            assert dispatcher.key_for((value, triton.MockTensor(tl.int8), 100), {"BLOCK": 1024}) \
                == add_one.key_for(value, triton.MockTensor(tl.int8), 100, BLOCK=1024), value


def test_do_not_specialize_drops_the_bit(monkeypatch):
    @triton.jit(do_not_specialize=["x"], do_not_specialize_on_alignment=["out"])
    def copy(x, out, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(out + offs, tl.load(x + offs, mask=offs < n), mask=offs < n)

    small = np.zeros(64, np.int8)
    key = copy.key_for(small, small, 64, BLOCK=64)
    # Not specialised: neither aligned nor fitting; not on alignment: fits.
    assert key[0] == ("p", "int8", False, False)
    assert key[1] == ("p", "int8", False, True)
    tensor = triton.reinterpret(small, tl.int8)
    monkeypatch.setenv("TERRAZZO_DRY_LAUNCH", "1")
    dispatcher = copy._make_dispatcher()
    assert dispatcher.key_for((tensor, tensor, 64), {"BLOCK": 64})[:2] == key[:2]
    ir = copy.ir(small, small, 64, BLOCK=64)
    header = next(line for line in ir.splitlines() if "func.func" in line)
    assert header.count("tile.pointer_range = 32 : i32") == 1, header


def _header(ir):
    return next(line for line in ir.splitlines() if "func.func @" in line)


def test_pointer_range_attribute_in_tile_ir(large_int8):
    small = np.zeros(1024, np.int8)
    header = _header(add_one.ir(small, small, 100, BLOCK=1024))
    assert header.count("tile.pointer_range = 32 : i32") == 2, header
    header = _header(add_one.ir(large_int8, small, 100, BLOCK=1024))
    arg0, arg1 = re.findall(r"%arg[01]: !tile\.ptr<i8>( \{[^}]*\})?", header)
    assert "pointer_range" not in arg0 and "tile.pointer_range = 32 : i32" in arg1, header


def test_offsets_stay_i32_for_tensors_that_fit():
    # Tensors below 2 GiB: as in Triton, offsets are i32 (promoting them
    # would cost the matmul kernels registers, bench/offsets_registers.py),
    # whatever n says.
    x = np.zeros(16, np.int8)
    ir = add_one.compile(x, x, (1 << 31) + 5, BLOCK=1024, stage="tile")
    assert re.search(r"arith\.muli %\S+, %\S+ : i32", ir), ir
    assert re.search(r"tile\.addptr %\S+, %\S+ : tensor<1024x!tile\.ptr<i8>>, tensor<1024xi32>", ir), ir
    assert not re.search(r"tile\.addptr %arg\d+, %\S+ : !tile\.ptr<i8>, i64", ir), ir


def _assert_promoted(ir, promoted_args):
    """The block's start pid * 1024 is computed in i64 and advances the
    base pointers of `promoted_args` (and no other); the offsets in the
    block stay i32, and the mask compares them with n - start (i64, clamped
    to i32) instead of offs with n."""
    assert re.search(r"arith\.muli %\S+, %\S+ : i64", ir), ir
    based = set(re.findall(r"tile\.addptr %arg(\d+), %\S+ : !tile\.ptr<i8>, i64", ir))
    assert based == set(promoted_args), ir
    assert re.search(r"arith\.subi %\S+, %\S+ : i64", ir), ir
    assert re.search(r"arith\.trunci %\S+ : i64 to i32", ir), ir
    assert re.search(r"arith\.cmpi slt, %\S+, %\S+ : tensor<1024xi32>", ir), ir
    assert "tensor<1024xi64>" not in ir, ir


def test_offsets_of_large_tensors_are_computed_in_i64(large_int8):
    small = np.zeros(16, np.int8)
    n = (1 << 31) + 5
    # Only the large tensor's offsets (the mask guards both accesses).
    _assert_promoted(add_one.compile(large_int8, small, n, BLOCK=1024, stage="tile"), {"0"})
    _assert_promoted(add_one.compile(small, large_int8, n, BLOCK=1024, stage="tile"), {"1"})
    # Unknown size (a raw pointer-like object): promoted too.
    _assert_promoted(add_one.compile(FakeTensor(1 << 40), small, n, BLOCK=1024, stage="tile"),
                     {"0"})


def test_wrapping_offsets_are_computed_in_i64_when_forced(monkeypatch):
    monkeypatch.setenv("TERRAZZO_PROMOTE_OFFSETS", "1")
    x = np.zeros(16, np.int8)
    _assert_promoted(add_one.compile(x, x, (1 << 31) + 5, BLOCK=1024, stage="tile"), {"0", "1"})


def test_amd_buffer_loads_only_for_tensors_that_fit(large_int8):
    """On CDNA a load through a pointer that fits is a buffer load (32-bit
    byte offsets from a resource of 2^31 - 1 bytes); one through a larger
    tensor stays a global load (its offsets promoted)."""
    small = np.zeros(4096, np.int8)
    out = np.zeros(4096, np.int8)
    fits = add_one.compile(small, out, 4096, BLOCK=1024, stage="amdgcn", target="hip:gfx942")
    assert "buffer_load" in fits and "global_load" not in fits, fits
    large = add_one.compile(large_int8, out, LARGE, BLOCK=1024, stage="amdgcn",
                            target="hip:gfx942")
    assert "buffer_load" not in large and "global_load" in large, large


@pytest.mark.parametrize("target", ["hip:gfx90a", "hip:gfx942", "hip:gfx950"])
def test_large_key_of_the_gpu_test_on_amd(large_int8, target, tmp_path):
    """test_gpu_vector_add_past_2_pow_31_elements's kernel at its 2^31 +
    2^20-element key (which no interpreted launch reaches) compiles for
    each AMD target: global loads and stores at promoted offsets, a code
    object with no undefined symbol."""
    import subprocess
    out = np.zeros(LARGE + 4096, np.int8)
    asm = add_vectors.compile(large_int8, large_int8, out, LARGE, BLOCK=1024,
                              stage="amdgcn", target=target)
    assert "global_load" in asm and "buffer_load" not in asm, asm
    hsaco = tmp_path / "add.hsaco"
    hsaco.write_bytes(add_vectors.compile(large_int8, large_int8, out, LARGE, BLOCK=1024,
                                          stage="hsaco", target=target))
    undefined = subprocess.run(["/usr/lib/llvm-22/bin/llvm-nm", "-D", "--undefined-only",
                                str(hsaco)], capture_output=True, text=True, check=True)
    assert undefined.stdout.split() == []


def test_promotion_forced_off(monkeypatch, large_int8):
    monkeypatch.setenv("TERRAZZO_PROMOTE_OFFSETS", "0")
    ir = add_one.compile(large_int8, large_int8, (1 << 31) + 5, BLOCK=1024, stage="tile")
    assert not re.search(r"tile\.addptr %arg\d+, %\S+ : !tile\.ptr<i8>, i64", ir), ir


def test_bounded_offsets_stay_i32(monkeypatch):
    monkeypatch.setenv("TERRAZZO_PROMOTE_OFFSETS", "1")
    x = np.zeros(512, np.float32)
    ir = scale_block.compile(x, BLOCK=128, stage="tile")
    assert "i64" not in ir, ir
    assert re.search(r"tile\.addptr %\S+, %\S+ : tensor<128x!tile\.ptr<f32>>, tensor<128xi32>", ir), ir


@pytest.mark.gpu
@pytest.mark.parametrize("n", [LARGE, 5000])
def test_gpu_vector_add_past_2_pow_31_elements(torch_cuda, n):
    """x + y on int8 tensors of 2^31 + 2^20 elements (about 2.1 GB each;
    4 such with the output and the reference), with default settings: the
    key says the tensors do not fit in 2^31 bytes, so their offsets are
    promoted; and on a small tensor, whose kernel keeps i32 offsets. Every
    element right (compared whole with torch's int8 sum, which wraps as
    the kernel's does), the masked tail and the bytes past the end
    untouched."""
    torch = torch_cuda
    guard = 4096
    gen = torch.Generator(device="cuda").manual_seed(1234)
    x = torch.randint(-128, 128, (n,), dtype=torch.int8, device="cuda", generator=gen)
    y = torch.randint(-128, 128, (n,), dtype=torch.int8, device="cuda", generator=gen)
    out = torch.full((n + guard,), 77, dtype=torch.int8, device="cuda")
    block = 1024
    add_vectors[(triton.cdiv(n, block),)](x, y, out, n, BLOCK=block)
    torch.cuda.synchronize()
    large = n > (1 << 31)
    key = add_vectors.key_for(x, y, out, n, BLOCK=block)
    assert [entry[3] for entry in key[:3]] == [not large] * 3, key
    expected = x + y
    assert torch.equal(out[:n], expected)
    assert bool((out[n:] == 77).all())
    if large:
        # The elements past 2^31 are where i32 offsets went wrong.
        assert torch.equal(out[(1 << 31) - 8:n], expected[(1 << 31) - 8:])


def test_interpreter_vector_add_first_block(rng):
    # test_gpu_vector_add_past_2_pow_31_elements's kernel at its small
    # arguments, in the interpreter: checked here without a GPU, and
    # (TERRAZZO_AMD_LAUNCHES) compiled at that key for the AMD targets. (The
    # interpreter copies its arguments: 2^31-element ones would take 6 GB
    # and half a minute; test_promoted_offsets_on_amd compiles that key.)
    n = 5000
    x = np.zeros(n, np.int8)
    y = np.zeros(n, np.int8)
    x[:2048] = rng.integers(-128, 128, 2048)
    y[:2048] = rng.integers(-128, 128, 2048)
    out = np.zeros(n + 4096, np.int8)
    out[:2048] = 77
    kernel = triton.jit(add_vectors.fn, interpret=True)
    kernel[(1,)](x, y, out, n, BLOCK=1024)
    assert [entry[3] for entry in kernel.key_for(x, y, out, n, BLOCK=1024)[:3]] == \
        [n < (1 << 31)] * 3
    np.testing.assert_array_equal(out[:1024], (x[:1024] + y[:1024]).astype(np.int8))
    assert (out[1024:2048] == 77).all()
