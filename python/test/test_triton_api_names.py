"""The last public Triton 3.6 names Terrazzo lacked (issue 15):
`triton.tools` as an attribute, `triton.AsyncCompileMode` and
`triton.FutureKernel`, `tl.condition`, `tl.constexpr_type`, `tl.slice`, the
tensor methods `advance`, `item`, `sqrt_rn` and `store`, the dtype members
`KIND`, `SIGNEDNESS`, `is_dtype`, `with_element_ty`, `cache_key_part`,
`codegen_name` and `mangle`, and `triton.testing.cuda_memcheck`.

Kernels run in the interpreter against NumPy on random inputs (with masked
tails) and are compiled to tile IR, verified and lowered to PTX; the GPU
tests compare the compiled kernels with the same references.
"""

from __future__ import annotations

import copy
import inspect
import math
import os
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import terrazzo as triton
import terrazzo.language as tl
from terrazzo.errors import CompilationError
from terrazzo.runtime.tensor_wrapper import MockTensor

try:
    from terrazzo import _C
except ImportError:
    _C = None

needs_extension = pytest.mark.skipif(_C is None, reason="terrazzo._C is not built")


def interp(kernel):
    return triton.jit(kernel.fn, interpret=True)


# ---------------------------------------------------------------------------
# triton.tools
# ---------------------------------------------------------------------------

def test_tools_is_an_attribute_of_the_package():
    assert "tools" in triton.__all__
    from terrazzo.tools.tensor_descriptor import TensorDescriptor
    assert triton.tools.tensor_descriptor.TensorDescriptor is TensorDescriptor
    assert {"tensor_descriptor", "export"} <= set(dir(triton.tools))
    with pytest.raises(AttributeError, match="no_such_tool"):
        triton.tools.no_such_tool


def test_importing_the_package_loads_no_tool_and_no_extension():
    code = ("import sys, terrazzo as triton; "
            "print(sorted(m for m in sys.modules if m.startswith('terrazzo.tools') "
            "or m == 'terrazzo._C')); triton.tools.tensor_descriptor; "
            "print('terrazzo.tools.tensor_descriptor' in sys.modules)")
    package_parent = os.path.dirname(os.path.dirname(triton.__file__))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [package_parent] + [p for p in [os.environ.get("PYTHONPATH")] if p])}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, check=True).stdout.split("\n")
    assert out[0] == "['terrazzo.tools']" and out[1] == "True"


# ---------------------------------------------------------------------------
# dtype members
# ---------------------------------------------------------------------------

SCALARS = [tl.int1, tl.int8, tl.int16, tl.int32, tl.int64, tl.uint8, tl.uint16, tl.uint32,
           tl.uint64, tl.float8e4nv, tl.float8e5, tl.float8e4b15, tl.float8e4b8,
           tl.float8e5b16, tl.float16, tl.bfloat16, tl.float32, tl.float64]


@pytest.mark.parametrize("ty", SCALARS, ids=str)
def test_dtype_names_kinds_and_signedness(ty):
    name = ty.name
    assert tl.dtype.is_dtype(name) and ty.cache_key_part == name
    public = {"fp16": "float16", "bf16": "bfloat16", "fp32": "float32",
              "fp64": "float64"}.get(name, name.replace("fp8", "float8"))
    assert ty.codegen_name() == public
    assert eval(repr(ty), {"triton": triton}) == ty
    if ty.is_int():
        signed = name.startswith("int") and name != "int1"
        assert ty.int_signedness is (tl.dtype.SIGNEDNESS.SIGNED if signed
                                     else tl.dtype.SIGNEDNESS.UNSIGNED)
        assert ty.mangle() == ("i" if signed else "u") + str(ty.int_bitwidth)
        assert ty.kind() is (tl.dtype.KIND.BOOLEAN if name == "int1" else
                             tl.dtype.KIND.INTEGRAL)
    else:
        assert ty.mangle() == name and ty.kind() is tl.dtype.KIND.FLOATING
    assert ty.with_element_ty(tl.float16) is tl.float16


def test_dtype_members_of_pointers_blocks_and_void():
    assert [k.name for k in tl.dtype.KIND] == ["BOOLEAN", "INTEGRAL", "FLOATING"]
    assert [s.value for s in tl.dtype.SIGNEDNESS] == [0, 1]
    assert tl.dtype.KIND.BOOLEAN < tl.dtype.KIND.INTEGRAL < tl.dtype.KIND.FLOATING
    for spelling in ("float32", "bool", "f32", "pointer<fp32>", "", None):
        assert not tl.dtype.is_dtype(spelling)
    assert tl.dtype.is_dtype("void") and tl.void.mangle() == "V"
    ptr = tl.pointer_type(tl.int8)
    assert ptr.mangle() == "Pi8" and tl.pointer_type(ptr).mangle() == "PPi8"
    assert ptr.codegen_name() == ptr.name == ptr.cache_key_part == "pointer<int8>"
    block = tl.block_type(tl.uint16, [2, 64])
    assert block.mangle() == "u16S2_64S"
    assert tl.block_type(ptr, [8]).mangle() == "Pi8S8S"
    widened = block.with_element_ty(tl.float32)
    assert widened == tl.block_type(tl.float32, [2, 64]) and block.shape == (2, 64)
    assert block.with_element_ty(tl.constexpr(tl.int8)) == tl.block_type(tl.int8, [2, 64])
    assert block.cache_key_part == block.name
    assert tl.block_type.is_dtype("fp16") and tl.pointer_type.is_dtype("int8")


# ---------------------------------------------------------------------------
# tl.constexpr_type
# ---------------------------------------------------------------------------

def test_constexpr_type():
    t = tl.constexpr(7).type
    assert isinstance(t, tl.constexpr_type) and t.value == 7
    assert t == tl.constexpr_type(7) and t != tl.constexpr_type(8) and t != 7
    assert hash(t) == hash(tl.constexpr_type(tl.constexpr(7)))
    assert repr(t) == "constexpr_type[7]" and t.mangle() == "c7"
    assert tl.constexpr_type(tl.float32).mangle() == "cfp32"
    assert tl.constexpr_type("a").mangle() == "c'a'"
    assert len({tl.constexpr_type(1), tl.constexpr_type(1), tl.constexpr_type(2)}) == 2


# ---------------------------------------------------------------------------
# Kernels: tl.slice, tl.condition and the tensor methods
# ---------------------------------------------------------------------------

@triton.jit
def outer_kernel(a_ptr, b_ptr, out_ptr, m, n, BM: tl.constexpr, BN: tl.constexpr):
    # out = a[:, None] * b[None, :], spelled with tl.slice, masked at the edges.
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.arange(0, BN)
    a = tl.load(a_ptr + rows, mask=rows < m, other=0.0)
    b = tl.load(b_ptr + cols, mask=cols < n, other=0.0)
    full = tl.slice(None, None, None)
    prod = a[full, None] * b[None, tl.slice(None, None, None)]
    tl.store(out_ptr + rows[:, None] * n + cols[None, :], prod,
             mask=(rows[:, None] < m) & (cols[None, :] < n))


@triton.jit
def collatz_kernel(x_ptr, steps_ptr):
    # Per program, the Collatz steps of one value, with a scalar while loop.
    pid = tl.program_id(0)
    v = tl.load(x_ptr + pid)
    steps = 0
    while tl.condition(v != 1, disable_licm=True):
        v = tl.where(v % 2 == 0, v // 2, 3 * v + 1)
        steps += 1
    tl.store(steps_ptr + pid, steps)


@triton.jit
def _halve_below_one(x):
    # Per element (tl.map_elementwise): halve until below 1.
    while tl.condition(x >= 1.0):
        x = x * 0.5
    return x


@triton.jit
def halve_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(out_ptr + offs, tl.map_elementwise(_halve_below_one, x), mask=mask)


@triton.jit
def methods_kernel(x_ptr, out_ptr, first_ptr, n, BLOCK: tl.constexpr):
    # out = sqrt_rn(x) through the pointer's store method; first[pid] is
    # 2 * x[pid * BLOCK] taken from a one-element block by item().
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1.0)
    (out_ptr + offs).store(x.sqrt_rn(), mask=mask)
    one = tl.load(x_ptr + pid * BLOCK + tl.arange(0, 1)[:, None])
    tl.store(first_ptr + pid, one.item() * 2.0)


@triton.jit
def block_pointer_advance_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # out[i] = x[i + BLOCK] through a block pointer advanced by its method.
    src = tl.make_block_ptr(x_ptr, (n,), (1,), (0,), (BLOCK,), (0,))
    src = src.advance((BLOCK,))
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(src, boundary_check=(0,)), mask=offs < n - BLOCK)


def _collatz(v: int) -> int:
    steps = 0
    while v != 1:
        v = v // 2 if v % 2 == 0 else 3 * v + 1
        steps += 1
    return steps


@pytest.mark.parametrize("m,n", [(1, 1), (20, 13), (64, 32)])
def test_slice_indexes_like_a_colon(m, n, rng):
    a = rng.standard_normal(m).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    out = np.full((m, n), np.nan, np.float32)
    interp(outer_kernel)[(triton.cdiv(m, 16),)](a, b, out, m, n, BM=16, BN=32)
    np.testing.assert_allclose(out, np.outer(a.astype(np.float64), b), rtol=1e-6)


def test_condition_is_the_while_condition(rng):
    x = rng.integers(1, 2000, 37).astype(np.int32)
    steps = np.full(37, -1, np.int32)
    interp(collatz_kernel)[(37,)](x, steps)
    np.testing.assert_array_equal(steps, [_collatz(int(v)) for v in x])


def test_condition_in_map_elementwise(rng):
    n = 1000
    x = (rng.random(n) * 100).astype(np.float32)
    out = np.full(n, np.nan, np.float32)
    interp(halve_kernel)[(triton.cdiv(n, 256),)](x, out, n, BLOCK=256)
    expect = x.astype(np.float64)
    for i in range(n):
        while expect[i] >= 1.0:
            expect[i] *= 0.5
    np.testing.assert_array_equal(out, expect.astype(np.float32))


@pytest.mark.parametrize("n", [1, 100, 512])
def test_tensor_methods_store_sqrt_rn_and_item(n, rng):
    x = (rng.random(n) * 10).astype(np.float32)
    out = np.full(n, np.nan, np.float32)
    grid = triton.cdiv(n, 128)
    # first reads x[pid * 128]: the input is padded to whole blocks.
    padded = np.concatenate([x, np.ones(grid * 128 - n, np.float32)])
    first = np.full(grid, np.nan, np.float32)
    interp(methods_kernel)[(grid,)](padded, out, first, n, BLOCK=128)
    np.testing.assert_allclose(out, np.sqrt(x.astype(np.float64)), rtol=1e-6)
    np.testing.assert_array_equal(first, 2 * padded[::128])


def test_block_pointer_advance_method(rng):
    n = 50
    x = rng.standard_normal(n).astype(np.float32)
    out = np.full(32, np.nan, np.float32)
    interp(block_pointer_advance_kernel)[(1,)](x, out, n, BLOCK=32)
    np.testing.assert_array_equal(out[:n - 32], x[32:])
    assert np.isnan(out[n - 32:]).all()  # masked tail untouched


def test_the_methods_are_the_language_functions():
    assert tl.tensor.store is tl.store and tl.tensor.sqrt_rn is tl.sqrt_rn
    assert tl.tensor.advance is tl.advance
    assert list(inspect.signature(tl.tensor.item).parameters) == ["input"]


def _z(shape, dt=np.float32):
    return np.zeros(shape, dt)


IR_CASES = {
    "slice": (outer_kernel, lambda: (_z(20), _z(13), _z((20, 13)), 20, 13),
              dict(BM=16, BN=16), "tile.broadcast"),
    "condition": (collatz_kernel, lambda: (_z(4, np.int32), _z(4, np.int32)), {},
                  "scf.while"),
    "condition_block": (halve_kernel, lambda: (_z(100), _z(100), 100), dict(BLOCK=128),
                        "scf.while"),
    "methods": (methods_kernel, lambda: (_z(256), _z(256), _z(2), 256), dict(BLOCK=128),
                "math.sqrt"),
}


@pytest.mark.parametrize("num_warps", [1, 4])
@pytest.mark.parametrize("case", sorted(IR_CASES))
def test_kernels_lower_to_ptx(case, num_warps, check_ir):
    kernel, make_args, meta, needle = IR_CASES[case]
    text = kernel.ir(*make_args(), **meta)
    assert needle in text, text
    check_ir.opt(text)
    assert ".entry" in check_ir.compile(text, num_warps=num_warps)


@triton.jit
def item_of_many_kernel(x_ptr):
    v = tl.load(x_ptr + tl.arange(0, 4)).item()
    tl.store(x_ptr, v)


@triton.jit
def advance_a_tensor_kernel(x_ptr):
    p = (x_ptr + tl.arange(0, 4)).advance((4,))
    tl.store(p, 1.0)


@triton.jit
def partial_slice_kernel(x_ptr):
    v = tl.load(x_ptr + tl.arange(0, 4))[tl.slice(0, 2, None)]
    tl.store(x_ptr + tl.arange(0, 2), v)


@pytest.mark.parametrize("interpret", [False, True])
@pytest.mark.parametrize("kernel,pattern", [
    (item_of_many_kernel, r"item\(\) needs a block of one element, got shape \[4\]"),
    (advance_a_tensor_kernel, r"tl.advance needs a block pointer"),
    (partial_slice_kernel, r"unsupported tensor index: slice\(0, 2, None\)"),
])
def test_errors_name_the_line(kernel, pattern, interpret):
    src, start = inspect.getsourcelines(kernel.fn)
    line = start + 2  # the decorator, the def, then the line
    with pytest.raises(CompilationError, match=pattern) as info:
        if interpret:
            interp(kernel)[(1,)](_z(4))
        else:
            kernel.ir(_z(4))
    assert f":{line}" in str(info.value)


# ---------------------------------------------------------------------------
# AsyncCompileMode and FutureKernel
# ---------------------------------------------------------------------------

def test_future_kernel_and_mode_semantics():
    release = threading.Event()
    calls, finals = [], []

    def compile_fn(value):
        def run():
            calls.append(value)
            release.wait(5)
            if value == "bad":
                raise ValueError("does not compile")
            return {"value": value}
        return run

    with ThreadPoolExecutor(2) as pool:
        with triton.AsyncCompileMode(pool) as mode:
            assert triton.runtime.async_compile.active_mode() is mode
            with pytest.raises(RuntimeError, match="already active"):
                triton.AsyncCompileMode(pool).__enter__()
            fk = mode.submit("k", compile_fn("a"), finals.append)
            assert mode.submit("k", compile_fn("other"), finals.append) is fk  # one compile
            assert isinstance(fk, triton.FutureKernel) and "compiling" in repr(fk)
            release.set()
            assert fk.result() == {"value": "a"} and fk.result() is fk.kernel
            assert fk.get("value") == "a"  # attributes are the kernel's
            assert copy.copy(fk).kernel == {"value": "a"}
            with pytest.raises(AttributeError):
                triton.FutureKernel.__new__(triton.FutureKernel).kernel
            assert finals == [{"value": "a"}]  # finalized once
        assert triton.runtime.async_compile.active_mode() is None
        assert calls == ["a"]
        # The first failure is raised on leaving the block...
        with pytest.raises(ValueError, match="does not compile"):
            with triton.AsyncCompileMode(pool) as mode:
                mode.submit("x", compile_fn("bad"), finals.append)
        # ... not with ignore_errors, where result() of it is None.
        with triton.AsyncCompileMode(pool, ignore_errors=True) as mode:
            bad = mode.submit("x", compile_fn("bad"), finals.append)
        assert bad.result(ignore_errors=True) is None
        with pytest.raises(ValueError):
            bad.result()
        # An exception leaving the block is the one raised.
        with pytest.raises(KeyError):
            with triton.AsyncCompileMode(pool) as mode:
                mode.submit("y", compile_fn("bad"), finals.append)
                raise KeyError("mine")
    assert finals == [{"value": "a"}]


@triton.jit
def scale_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * 3.0, mask=mask)


@triton.jit
def never_compiles_kernel(x_ptr, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK < 0, "BLOCK must be negative")
    tl.store(x_ptr, 1.0)


@needs_extension
def test_warmups_compile_in_the_background(monkeypatch):
    monkeypatch.setenv("TERRAZZO_DRY_LAUNCH", "1")
    k = triton.jit(scale_kernel.fn)
    threads = set()
    compile_for_key = k._kernel_for_key

    def recording(key):
        threads.add(threading.current_thread().name)
        return compile_for_key(key)
    monkeypatch.setattr(k, "_kernel_for_key", recording)
    args = (MockTensor("float32"), MockTensor("float32"), 1000)
    with ThreadPoolExecutor(3, thread_name_prefix="async-test") as pool:
        with triton.AsyncCompileMode(pool) as mode:
            futures = {b: k.warmup(*args, BLOCK=b, grid=(1,)) for b in (64, 128, 256)}
            again = k.warmup(*args, BLOCK=128, grid=(1,))
        assert all(isinstance(f, triton.FutureKernel) for f in futures.values())
        assert again is futures[128] and len(mode.future_kernels) == 3
        assert threads and all(t.startswith("async-test") for t in threads)
        for block, future in futures.items():
            compiled = future.result()
            assert compiled.metadata.num_warps == 4 and compiled.signature == "ppi"
            assert future.name == compiled.name  # the compiled kernel's attributes
        # The launches take the kernels compiled in the background.
        monkeypatch.setattr(k, "_kernel_for_key", lambda key: pytest.fail("compiled again"))
        for block in (64, 128, 256):
            k[(1,)](*args, BLOCK=block)
        # Outside a block, warmup compiles at once again.
        monkeypatch.setattr(k, "_kernel_for_key", compile_for_key)
        assert not isinstance(k.warmup(*args, BLOCK=32, grid=(1,)), triton.FutureKernel)
        # A compile error comes on leaving the block, as a CompilationError.
        bad = triton.jit(never_compiles_kernel.fn)
        with pytest.raises(CompilationError, match="BLOCK must be negative"):
            with triton.AsyncCompileMode(pool):
                bad.warmup(MockTensor("float32"), BLOCK=4, grid=(1,))


@pytest.mark.gpu
def test_gpu_kernels_compiled_in_the_background_run(torch_cuda, rng):
    torch = torch_cuda
    n = 3001
    x = torch.from_numpy(rng.standard_normal(n).astype(np.float32)).cuda()
    k = triton.jit(scale_kernel.fn)
    with ThreadPoolExecutor(2) as pool, triton.AsyncCompileMode(pool):
        warm = {b: k.warmup(x, x, n, BLOCK=b, grid=(1,)) for b in (128, 512)}
    for block, future in warm.items():
        out = torch.full_like(x, float("nan"))
        future[(triton.cdiv(n, block),)](x, out, n, block)
        torch.cuda.synchronize()
        np.testing.assert_allclose(out.cpu().numpy(), 3.0 * x.cpu().numpy().astype(np.float64),
                                   rtol=1e-6)


@pytest.mark.gpu
@pytest.mark.parametrize("n", [1, 1000])
def test_gpu_methods_condition_and_slice(torch_cuda, n, rng):
    torch = torch_cuda
    x = torch.from_numpy((rng.random(n) * 10).astype(np.float32)).cuda()
    grid = triton.cdiv(n, 128)
    padded = torch.cat([x, torch.ones(grid * 128 - n, device="cuda")])
    out = torch.full_like(x, float("nan"))
    first = torch.full((grid,), float("nan"), device="cuda")
    triton.jit(methods_kernel.fn)[(grid,)](padded, out, first, n, BLOCK=128)
    halved = torch.full_like(x, float("nan"))
    triton.jit(halve_kernel.fn)[(triton.cdiv(n, 256),)](x, halved, n, BLOCK=256)
    torch.cuda.synchronize()
    xs = x.cpu().numpy().astype(np.float64)
    np.testing.assert_allclose(out.cpu().numpy(), np.sqrt(xs), rtol=1e-6)
    np.testing.assert_array_equal(first.cpu().numpy(), 2 * padded.cpu().numpy()[::128])
    expect = xs.copy()
    for i in range(n):
        while expect[i] >= 1.0:
            expect[i] *= 0.5
    np.testing.assert_array_equal(halved.cpu().numpy(), expect.astype(np.float32))
    b = x[:min(n, 13)].contiguous()
    outer = torch.full((n, b.numel()), float("nan"), device="cuda")
    triton.jit(outer_kernel.fn)[(triton.cdiv(n, 16),)](x, b, outer, n, b.numel(), BM=16,
                                                        BN=16)
    torch.cuda.synchronize()
    np.testing.assert_allclose(outer.cpu().numpy(), np.outer(xs, b.cpu().numpy()), rtol=1e-6)


# ---------------------------------------------------------------------------
# triton.testing.cuda_memcheck
# ---------------------------------------------------------------------------

class _Node:
    name = "test_x[32-fp16]"


class _Request:
    node = _Node()


def test_cuda_memcheck_runs_matching_tests_under_the_sanitizer(monkeypatch, tmp_path):
    sanitizer = tmp_path / "compute-sanitizer"
    sanitizer.write_text("#!/bin/sh\n")
    sanitizer.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.delenv("TERRAZZO_UNDER_COMPUTE_SANITIZER", raising=False)
    ran, commands = [], []
    answer = {"returncode": 0, "stdout": "========= ERROR SUMMARY: 0 errors\n"}

    def fake_run(cmd, capture_output, text, env):
        commands.append((cmd, env))
        return subprocess.CompletedProcess(cmd, answer["returncode"], answer["stdout"], "")
    monkeypatch.setattr(subprocess, "run", fake_run)

    @triton.testing.cuda_memcheck(BLOCK=32)
    def test_x(request, BLOCK, dtype):
        ran.append((BLOCK, dtype))

    assert test_x.__name__ == "test_x"
    test_x(request=_Request(), BLOCK=64, dtype="fp16")  # not a target: runs here
    assert ran == [(64, "fp16")] and not commands
    test_x(request=_Request(), BLOCK=32, dtype="fp16")  # a target: under the sanitizer
    assert ran == [(64, "fp16")] and len(commands) == 1
    cmd, env = commands[0]
    assert cmd[0] == str(sanitizer) and cmd[1:5] == ["--tool", "memcheck", sys.executable, "-m"]
    assert cmd[-1] == f"{os.path.realpath(__file__)}::test_x[32-fp16]"
    assert env["TERRAZZO_UNDER_COMPUTE_SANITIZER"] == "1"
    assert env["PYTORCH_NO_CUDA_MEMORY_CACHING"] == "1"
    answer["stdout"] = "========= Invalid __global__ read\n========= ERROR SUMMARY: 1 error\n"
    with pytest.raises(AssertionError, match="Invalid __global__ read"):
        test_x(request=_Request(), BLOCK=32, dtype="fp16")
    answer.update(returncode=1, stdout="========= ERROR SUMMARY: 0 errors\n")
    with pytest.raises(AssertionError, match="exit status 1"):
        test_x(request=_Request(), BLOCK=32, dtype="fp16")
    with pytest.raises(TypeError, match="request"):
        test_x(BLOCK=32, dtype="fp16")
    # Inside the sanitizer's run the test runs itself.
    monkeypatch.setenv("TERRAZZO_UNDER_COMPUTE_SANITIZER", "1")
    test_x(request=_Request(), BLOCK=32, dtype="bf16")
    assert ran[-1] == (32, "bf16") and len(commands) == 3


def test_cuda_memcheck_without_the_sanitizer_says_so(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    for var in ("CUDA_HOME", "CUDA_PATH", "TERRAZZO_UNDER_COMPUTE_SANITIZER"):
        monkeypatch.delenv(var, raising=False)
    # Not in /usr/local/cuda either, whatever this machine has.
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode: "compute-sanitizer" not in
                        str(path) and real_access(path, mode))

    @triton.testing.cuda_memcheck()
    def test_y(request):
        pass
    with pytest.raises(RuntimeError, match="compute-sanitizer"):
        test_y(request=_Request())


@pytest.mark.gpu
@triton.testing.cuda_memcheck(n=1000)
@pytest.mark.parametrize("n", [1000])
def test_gpu_cuda_memcheck_passes_a_masked_kernel(request, torch_cuda, n, rng):
    torch = torch_cuda
    x = torch.from_numpy(rng.standard_normal(n).astype(np.float32)).cuda()
    out = torch.empty_like(x)
    triton.jit(scale_kernel.fn)[(triton.cdiv(n, 256),)](x, out, n, BLOCK=256)
    torch.cuda.synchronize()
    np.testing.assert_allclose(out.cpu().numpy(), 3.0 * x.cpu().numpy().astype(np.float64),
                               rtol=1e-6)
    assert math.isfinite(float(out.sum()))
