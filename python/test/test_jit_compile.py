"""The frontend with the compiled extension `terrazzo._C`.

Without a GPU these run the whole launch path with dry-run kernels
(TERRAZZO_DRY_LAUNCH: the dispatcher binds, keys, compiles through the
callback, packs the arguments and stops before the driver). Tests marked
`gpu` run kernels and compare with float64 references.

When the extension cannot be imported these tests are skipped, unless
TERRAZZO_REQUIRE_EXTENSION=1 (set by CI), in which case they fail.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import numpy as np
import pytest

import terrazzo as triton
import terrazzo.language as tl
from terrazzo import CompilationError

try:
    from terrazzo import _C
    _C_ERROR = None
except ImportError as e:  # not built
    _C = None
    _C_ERROR = e


@pytest.fixture(autouse=True)
def extension(_private_cache, monkeypatch):
    if _C is None:
        if os.environ.get("TERRAZZO_REQUIRE_EXTENSION", "") not in ("", "0"):
            pytest.fail(f"terrazzo._C cannot be imported: {_C_ERROR}", pytrace=False)
        pytest.skip(f"terrazzo._C is not built ({_C_ERROR})")
    monkeypatch.setenv("TERRAZZO_DRY_LAUNCH", "1")
    return _C


class FakeTensor:
    """Looks like a CUDA tensor to the dispatcher (data_ptr and dtype)."""

    def __init__(self, address, dtype="float32"):
        self.address = address
        self.dtype = dtype

    def data_ptr(self):
        return self.address


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


@triton.jit
def cross_thread_kernel(x_ptr, out_ptr, BM: tl.constexpr, BN: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BM))
    y = tl.load(x_ptr + tl.arange(0, BN))
    z = x[:, None] * y[None, :] + x[:, None]  # moves x between threads
    tl.store(out_ptr + tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :], z)


def ptrs(*dtypes, base=1 << 20):
    return [FakeTensor(base + 4096 * i, d) for i, d in enumerate(dtypes)]


def fresh(kernel):
    """A new JITFunction for the same Python function (empty in-memory
    caches, as in a new process)."""
    return triton.jit(kernel.fn)


# ---------------------------------------------------------------------------
# Compiling
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("stage,marker", [("tile", "tile.load"), ("tilegpu", "#tilegpu.blocked"),
                                          ("llvm", "llvm.func"), ("ptx", ".entry add_kernel")])
def test_compile_stages(stage, marker):
    x = np.zeros(16, np.float32)
    out = add_kernel.compile(x, x, x, 1024, BLOCK_SIZE=1024, stage=stage)
    assert isinstance(out, str) and marker in out


def test_compile_cubin_and_vectorized_ptx():
    x = np.zeros(16, np.float32)
    binary = add_kernel.compile(x, x, x, 1024, BLOCK_SIZE=1024, stage="cubin")
    assert isinstance(binary, bytes) and len(binary) > 100
    ptx = add_kernel.compile(x, x, x, 1024, BLOCK_SIZE=1024, stage="ptx")
    assert "ld.global.v4" in ptx  # divisibility hints reach the backend


def test_maxnreg_caps_the_registers():
    # Triton's maxnreg: the kernel's .maxnreg, a compile of its own (the
    # uncapped kernel keeps no cap), and the range the compiler checks.
    from terrazzo.compiler.kernel import MAXNREG_RANGE
    assert MAXNREG_RANGE == _C.maxnreg_range()
    x = np.zeros(16, np.float32)
    capped = add_kernel.compile(x, x, x, 1024, BLOCK_SIZE=1024, maxnreg=32, stage="ptx")
    assert ".maxnreg 32" in capped
    plain = add_kernel.compile(x, x, x, 1024, BLOCK_SIZE=1024, stage="ptx")
    assert ".maxnreg" not in plain
    with pytest.raises(ValueError, match="maxnreg must be from 24 to 255 registers per thread, got 300"):
        add_kernel.compile(x, x, x, 1024, BLOCK_SIZE=1024, maxnreg=300, stage="ptx")


def test_maxnreg_out_of_range_in_the_compiler():
    # The C++ entry point checks it too (terrazzo-compile --maxnreg, C++
    # users), naming the option.
    x = np.zeros(16, np.float32)
    kir = add_kernel.ir_for_key(add_kernel.key_for(x, x, x, 1024, BLOCK_SIZE=1024))
    res = _C.compile(kir.text, "k.mlir", "cuda:90", 4, "ptx", maxnreg=8)
    assert not res.success
    assert "maxnreg must be from 24 to 255 registers per thread, got 8" in str(res.diagnostics[0])


def test_cross_thread_conversion_goes_through_shared_memory():
    x = np.zeros(64, np.float32)
    ptx = cross_thread_kernel.compile(x, np.zeros(512, np.float32), BM=16, BN=32,
                                      stage="ptx")
    assert ".extern .shared" in ptx and "st.shared" in ptx and "ld.shared" in ptx
    assert "bar.sync" in ptx


@triton.jit
def transposing_kernel(x_ptr, out_ptr, B: tl.constexpr):
    r = tl.arange(0, B)
    x = tl.load(x_ptr + r[:, None] * B + r[None, :])
    tl.store(out_ptr + r[:, None] * B + r[None, :], tl.trans(x))  # moves x between threads


def test_compiler_diagnostics_are_mapped_to_the_users_line():
    # The transpose of 256 x 256 floats moves 256 KiB through shared
    # memory, more than an H100 has, in one round (the lanes of one layout
    # span the other's rows: no halves of them to move one at a time).
    x = np.zeros(64, np.float32)
    with pytest.raises(CompilationError) as ei:
        transposing_kernel.compile(x, x, B=256, stage="ptx")
    e = ei.value
    assert e.file == transposing_kernel.parsed.file
    assert "moves x between threads" in e.source_line
    assert "bytes of shared memory" in str(e)
    assert str(e).startswith(f"{e.file}:{e.line}:")


# ---------------------------------------------------------------------------
# The dispatcher
# ---------------------------------------------------------------------------

def test_dispatcher_launch_packs_arguments_and_caches():
    k = fresh(add_kernel)
    x, y, o = ptrs("float32", "float32", "float32")
    kern = k[(3,)](x, y, o, 1000, BLOCK_SIZE=512)
    assert kern.signature == "pppi" and kern.threads_per_block == 128
    launch = kern.last_launch()
    assert launch["grid"] == (3, 1, 1)
    assert launch["args"] == (x.address, y.address, o.address, 1000)
    assert k[(3,)](x, y, o, 1000, BLOCK_SIZE=512) is kern
    assert k._dispatcher.cache_size() == 1
    # Another constexpr, num_warps, dtype or divisibility: another kernel.
    k2 = k[(1,)](x, y, o, 1000, BLOCK_SIZE=256)
    k3 = k[(1,)](x, y, o, 1000, BLOCK_SIZE=512, num_warps=8)
    k4 = k[(1,)](*ptrs("float16", "float16", "float16"), 1000, BLOCK_SIZE=512)
    k5 = k[(1,)](x, y, o, 1024, BLOCK_SIZE=512)
    assert len({id(v) for v in (kern, k2, k3, k4, k5)}) == 5
    assert k3.threads_per_block == 256
    assert k._dispatcher.cache_size() == 5


def test_grid_callable_gets_the_bound_arguments():
    k = fresh(add_kernel)
    seen = {}

    def grid(meta):
        seen.update(meta)
        return (triton.cdiv(meta["n_elements"], meta["BLOCK_SIZE"]),)

    kern = k[grid](*ptrs("float32", "float32", "float32"), 1000, BLOCK_SIZE=128)
    assert kern.last_launch()["grid"] == (8, 1, 1)
    assert seen["BLOCK_SIZE"] == 128 and seen["n_elements"] == 1000


@pytest.mark.parametrize("args, kwargs", [
    ((1 << 20, 1 << 20, 1 << 20, 48), dict(BLOCK_SIZE=64, num_warps=2)),
    ((1 << 20, 1 << 20, 1 << 20, 1024), dict(BLOCK_SIZE=256)),
    ((1 << 20, None, (1 << 20) + 4, 1), dict(BLOCK_SIZE=64, num_warps=8, num_stages=2)),
    ((1 << 20, 1 << 20, 1 << 20, 2 ** 40), dict(BLOCK_SIZE=128, num_warps=2)),
    ((1 << 20, 1 << 20, 1 << 20, -48), dict(BLOCK_SIZE=32)),
])
def test_key_matches_the_python_reference(args, kwargs):
    # The dispatcher's key and the Python-only path's are the same key,
    # which split_key takes apart.
    from terrazzo.compiler.kernel import split_key
    dtypes = iter(("float32", "float16", "int8"))
    values = [FakeTensor(a, next(dtypes)) if isinstance(a, int) and i < 3 else a
              for i, a in enumerate(args)]
    kernel = fresh(add_kernel)
    dispatcher = kernel._make_dispatcher()
    key = dispatcher.key_for(values, kwargs)
    assert key == kernel.key_for(*values, **kwargs)
    parts = split_key(key, len(kernel.arg_names))
    assert (parts.num_warps, parts.num_stages) == (kwargs.get("num_warps", _C.default_num_warps()),
                                                   kwargs.get("num_stages", 3))
    assert parts.entries[3][0] == ("l" if args[3] >= 2 ** 31 else "i")


def test_none_pointer_arguments():
    @triton.jit
    def k(x_ptr, bias_ptr, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        v = tl.load(x_ptr + offs, mask=offs < n)
        if bias_ptr is not None:
            v += tl.load(bias_ptr + offs, mask=offs < n)
        tl.store(x_ptr + offs, v, mask=offs < n)

    x, b = ptrs("float32", "float32")
    with_bias = k[(1,)](x, b, 10, BLOCK=64)
    without = k[(1,)](x, None, 10, BLOCK=64)
    assert with_bias is not without
    assert without.last_launch()["args"][1] == 0


# ---------------------------------------------------------------------------
# The disk cache and IR dumps
# ---------------------------------------------------------------------------

def _count_compiles(monkeypatch):
    calls = []
    real = _C.compile

    def counting(*args, **kwargs):
        calls.append(args[4] if len(args) > 4 else kwargs.get("stage"))
        return real(*args, **kwargs)
    monkeypatch.setattr(_C, "compile", counting)
    return calls


def test_disk_cache_is_reused_and_corrupt_entries_are_recompiled(monkeypatch, tmp_path):
    calls = _count_compiles(monkeypatch)
    args = (*ptrs("float32", "float32", "float32"), 1000)
    k1 = fresh(add_kernel)
    first = k1[(1,)](*args, BLOCK_SIZE=256)
    assert calls == ["cubin"]
    entries = list(Path(os.environ["TERRAZZO_CACHE_DIR"]).glob("*/*/kernel.bin"))
    assert len(entries) == 1
    # A new function object (a new process) loads the binary from disk.
    k2 = fresh(add_kernel)
    second = k2[(1,)](*args, BLOCK_SIZE=256)
    assert calls == ["cubin"]
    assert second.binary == first.binary and second.signature == first.signature
    # A corrupt entry is never trusted: it is recompiled and rewritten.
    entries[0].write_bytes(b"garbage")
    k3 = fresh(add_kernel)
    third = k3[(1,)](*args, BLOCK_SIZE=256)
    assert calls == ["cubin", "cubin"]
    assert third.binary == first.binary
    assert entries[0].read_bytes() == first.binary
    # Unparseable metadata too.
    (entries[0].parent / "kernel.json").write_text("{not json")
    fresh(add_kernel)[(1,)](*args, BLOCK_SIZE=256)
    assert calls == ["cubin"] * 3
    # No temporary files are left behind.
    assert not list(Path(os.environ["TERRAZZO_CACHE_DIR"]).rglob("*.tmp"))


def test_cache_key_changes_with_called_functions(monkeypatch, tmp_path):
    from test_interpreter import nested_kernel, _scale_shift
    calls = _count_compiles(monkeypatch)
    args = (*ptrs("float32", "float32"), 64, 1.5)
    fresh(nested_kernel)[(1,)](*args, BLOCK=128)
    fresh(nested_kernel)[(1,)](*args, BLOCK=128)
    assert calls == ["cubin"]
    saved = _scale_shift.parsed.source
    try:
        _scale_shift.parsed.source = saved + "# edited\n"
        fresh(nested_kernel)[(1,)](*args, BLOCK=128)
    finally:
        _scale_shift.parsed.source = saved
    assert calls == ["cubin", "cubin"]


def test_dump_ir(monkeypatch, tmp_path):
    monkeypatch.setenv("TERRAZZO_DUMP_IR", str(tmp_path / "dump"))
    fresh(add_kernel)[(1,)](*ptrs("float32", "float32", "float32"), 1000, BLOCK_SIZE=256)
    names = sorted(p.name for p in (tmp_path / "dump").iterdir())
    stages = [re.sub(r"^add_kernel-[0-9a-f]{8}\.", "", n) for n in names]
    assert stages == ["llvm.mlir", "ptx.ptx", "source.mlir", "tile.mlir", "tilegpu.mlir"]
    text = (tmp_path / "dump" / names[2]).read_text()
    assert "func.func @add_kernel" in text


def test_autotune_and_heuristics_pick_configs():
    @triton.autotune(configs=[triton.Config({"BLOCK": 128}, num_warps=4)], key=["n"])
    @triton.heuristics({"EVEN": lambda args: args["n"] % args["BLOCK"] == 0})
    @triton.jit
    def k(x_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        if EVEN:
            tl.store(x_ptr + offs, 1.0)
        else:
            tl.store(x_ptr + offs, 1.0, mask=offs < n)

    (x,) = ptrs("float32")
    kern = k[lambda m: (triton.cdiv(m["n"], m["BLOCK"]),)](x, 256)
    assert kern.last_launch()["grid"] == (2, 1, 1)
    assert k.best_config.kwargs == {"BLOCK": 128}


# ---------------------------------------------------------------------------
# On a GPU
# ---------------------------------------------------------------------------



def _to_torch(torch, a):
    return torch.from_numpy(np.ascontiguousarray(a)).cuda()


@pytest.mark.gpu
@pytest.mark.parametrize("n", [1, 1000, 98432])
def test_gpu_vector_add(torch_cuda, n, rng):
    torch = torch_cuda
    x = torch.from_numpy(rng.standard_normal(n).astype(np.float32)).cuda()
    y = torch.from_numpy(rng.standard_normal(n).astype(np.float32)).cuda()
    out = torch.full_like(x, float("nan"))
    k = fresh(add_kernel)
    k[lambda m: (triton.cdiv(n, m["BLOCK_SIZE"]),)](x, y, out, n, BLOCK_SIZE=1024)
    torch.cuda.synchronize()
    assert torch.equal(out, x + y)


@pytest.mark.gpu
def test_gpu_matches_the_interpreter_on_every_case(torch_cuda, rng):
    """Every kernel of test_interpreter.CASES that the backend lowers gives
    the interpreter's results on the GPU."""
    from test_frontend import BACKEND_LIMITS
    from test_interpreter import CASES
    torch = torch_cuda
    for name, (kernel, make_args, meta) in sorted(CASES.items()):
        if name in BACKEND_LIMITS:
            continue
        host = []
        for a in make_args():
            if isinstance(a, np.ndarray):
                if a.dtype.kind == "f":
                    a = rng.standard_normal(a.shape).astype(a.dtype)
                elif a.dtype.kind in "iu":
                    a = rng.integers(1, 50, a.shape).astype(a.dtype)
            host.append(a)
        interp = [a.copy() if isinstance(a, np.ndarray) else a for a in host]
        triton.jit(kernel.fn, interpret=True)[(2,)](*interp, **meta)
        dev = [_to_torch(torch, a) if isinstance(a, np.ndarray) else a for a in host]
        fresh(kernel)[(2,)](*dev, **meta)
        torch.cuda.synchronize()
        for i, (a, d) in enumerate(zip(interp, dev)):
            if isinstance(a, np.ndarray):
                got = d.cpu().numpy()
                if a.dtype.kind == "f":
                    np.testing.assert_allclose(got, a, rtol=2e-3, atol=2e-3, equal_nan=True,
                                               err_msg=f"{name}: argument {i}")
                else:
                    np.testing.assert_array_equal(got, a, err_msg=f"{name}: argument {i}")


def test_terrazzo_target_overrides_the_device(monkeypatch):
    """TERRAZZO_TARGET picks the target instead of the driver's device."""
    from terrazzo.runtime import jit as jit_module

    class Driver:
        def current_target(self):
            return "cuda:75"

    monkeypatch.setenv("TERRAZZO_TARGET", "cuda:80")
    assert jit_module._default_target(Driver()) == "cuda:80"
    monkeypatch.delenv("TERRAZZO_TARGET")
    assert jit_module._default_target(Driver()) == "cuda:75"


# ---------------------------------------------------------------------------
# Options that change the code compiled (Triton's enable_fp_fusion, arch)
# and the num_warps check
# ---------------------------------------------------------------------------

@triton.jit
def mul_add_kernel(data):
    ptrs = data + tl.arange(0, 128)
    tl.store(ptrs, tl.load(ptrs) * 1.5 + 1.0)


_FMA = re.compile(r"(mad|fma)\.r[nzmp]\.(ftz\.)?f32")


def test_fp_fusion_is_on_by_default_and_off_on_request(monkeypatch):
    (d,) = ptrs("float32")
    fused = fresh(mul_add_kernel)[(1,)](d)
    assert _FMA.search(fused.asm["ptx"])
    k = fresh(mul_add_kernel)
    separate = k[(1,)](d, enable_fp_fusion=False)
    assert not _FMA.search(separate.asm["ptx"]) and "mul.rn.f32" in separate.asm["ptx"]
    # A variant of its own: the default launch still fuses.
    assert separate is not k[(1,)](d) and _FMA.search(k[(1,)](d).asm["ptx"])
    assert k[(1,)](d, enable_fp_fusion=False) is separate
    monkeypatch.setenv("TRITON_DEFAULT_FP_FUSION", "0")
    assert not _FMA.search(fresh(mul_add_kernel)[(1,)](d).asm["ptx"])
    assert _FMA.search(fresh(mul_add_kernel)[(1,)](d, enable_fp_fusion=True).asm["ptx"])


@pytest.mark.parametrize("options, cooperative, pdl", [
    ({"launch_pdl": True}, False, True),
    ({"launch_cooperative_grid": True}, True, False),
    ({"launch_pdl": True, "launch_cooperative_grid": True}, True, True),
])
def test_launch_attributes_make_a_variant(options, cooperative, pdl):
    # Triton's launch_pdl and launch_cooperative_grid: a variant whose
    # kernels launch with the attributes, compiled as the function's own
    # (the same binary), kept for the next launch with them; False is an
    # ordinary launch, the function itself.
    (d,) = ptrs("float32")
    k = fresh(mul_add_kernel)
    plain = k[(1,)](d)
    assert not plain.cooperative and not plain.programmatic_dependent_launch
    launched = k[(1,)](d, **options)
    assert launched is not plain and launched.binary == plain.binary
    assert launched.cooperative == cooperative
    assert launched.programmatic_dependent_launch == pdl
    assert k[(1,)](d, **options) is launched
    assert k[(1,)](d, launch_pdl=False, launch_cooperative_grid=False) is plain
    assert k._variant({"launch_pdl": False})[0] is k
    # warmup's kernel launches so too.
    warm = k.warmup(d, grid=(1,), **options).kernel
    assert (warm.cooperative, warm.programmatic_dependent_launch) == (cooperative, pdl)


def test_a_variant_compiles_on_its_own():
    # A variant made while the parent compiles in an autotuner's threads
    # does not inherit that pool (it is closed once the tuning ends).
    k = fresh(mul_add_kernel)
    k._compile_mode = object()
    variant, rest = k._variant({"enable_fp_fusion": False, "x": 1})
    assert variant is not k and variant._compile_mode is None and rest == {"x": 1}


def test_compile_option_fp_fusion(extension):
    text = mul_add_kernel.ir(ptrs("float32")[0])
    on = extension.compile(text, "k.mlir", "cuda:90", 4, "ptx")
    off = extension.compile(text, "k.mlir", "cuda:90", 4, "ptx", enable_fp_fusion=False)
    assert _FMA.search(bytes(on.output).decode())
    assert not _FMA.search(bytes(off.output).decode())


@pytest.mark.parametrize("arch, target", [("sm80", "cuda:80"), ("sm_90a", "cuda:90"), (75, "cuda:75")])
def test_arch_option_picks_the_target(arch, target):
    (d,) = ptrs("float32")
    kern = fresh(mul_add_kernel)[(1,)](d, arch=arch)
    assert kern.metadata.target == target
    # Triton's stage names reach Terrazzo's stages.
    assert f'tilegpu.target = "{target}"' in kern.asm["ttgir"]
    assert "tile.store" in kern.asm["ttir"] and "store float" in kern.asm["llir"]


def test_triton_override_arch(monkeypatch):
    monkeypatch.setenv("TRITON_OVERRIDE_ARCH", "sm80")
    (d,) = ptrs("float32")
    kern = fresh(mul_add_kernel)[(1,)](d)
    assert kern.metadata.target == "cuda:80"
    # The stages are the kernel's, whatever the environment says later.
    monkeypatch.delenv("TRITON_OVERRIDE_ARCH")
    assert 'tilegpu.target = "cuda:80"' in kern.asm["ttgir"]


def test_bad_arch_is_a_value_error():
    with pytest.raises(ValueError, match="arch='ampere'"):
        fresh(mul_add_kernel)[(1,)](ptrs("float32")[0], arch="ampere")


def test_num_warps_must_be_a_power_of_two_at_launch():
    k = fresh(mul_add_kernel)
    with pytest.raises(AssertionError, match="num_warps must be a power of 2"):
        k[(1,)](ptrs("float32")[0], num_warps=3)
    assert k[(1,)](ptrs("float32")[0], num_warps=2).threads_per_block == 64


@pytest.mark.gpu
def test_gpu_host_tensors_are_refused(torch_cuda):
    torch = torch_cuda
    k = fresh(mul_add_kernel)
    with pytest.raises(ValueError, match=r"argument 0 \('data'\) is in host memory"):
        k[(1,)](torch.ones(128))
    pinned = torch.ones(128, pin_memory=True)
    k[(1,)](pinned)
    torch.cuda.synchronize()
    assert torch.equal(pinned, torch.full((128,), 2.5))


@pytest.mark.gpu
@pytest.mark.parametrize("arch", ["sm80", "sm90"])
def test_gpu_kernel_for_another_arch_runs(torch_cuda, arch):
    torch = torch_cuda
    data = torch.ones(128, device="cuda")
    fresh(mul_add_kernel)[(1,)](data, arch=arch)
    torch.cuda.synchronize()
    assert torch.equal(data, torch.full_like(data, 2.5))


def test_default_num_warps_is_the_compilers():
    from terrazzo.compiler.kernel import DEFAULT_NUM_WARPS
    assert DEFAULT_NUM_WARPS == _C.default_num_warps()
    assert triton.Config({}).num_warps == DEFAULT_NUM_WARPS


@pytest.mark.parametrize("name, warp_size", [("cuda:80", 32), ("cuda:90", 32), ("hip:gfx942", 64),
                                             ("hip:gfx1100", 32)])
def test_describe_target(name, warp_size):
    description = _C.describe_target(name)
    assert description["name"] == name and description["warp_size"] == warp_size
    assert description["vendor"] == name.split(":")[0]
    with pytest.raises(ValueError, match="unknown target 'cuda:1'.*cuda:80"):
        _C.describe_target("cuda:1")


def test_plain_launches_go_straight_to_the_dispatcher(monkeypatch):
    """After the first launch, kernel[grid](...) calls the C++ dispatcher
    without JITFunction.run (the per-launch checks that depend on the
    function alone were decided when the dispatcher was made); keywords,
    the environment and arguments that need run() still get it."""
    pytest.importorskip("terrazzo._C")
    monkeypatch.setenv("TERRAZZO_DRY_LAUNCH", "1")
    kernel = triton.jit(add_kernel.fn)
    x, y, out = FakeTensor(0x1000), FakeTensor(0x2000), FakeTensor(0x3000)
    first = kernel[(2,)](x, y, out, 100, BLOCK_SIZE=64)
    runs = []
    original = type(kernel).run
    monkeypatch.setattr(type(kernel), "run",
                        lambda self, *a, **k: runs.append(k) or original(self, *a, **k))
    launched = kernel[(3,)](x, y, out, 50, BLOCK_SIZE=64, num_warps=4)
    assert launched is first and runs == []
    assert launched.last_launch()["args"] == (0x1000, 0x2000, 0x3000, 50)
    assert launched.last_launch()["grid"][0] == 3
    # An ignored launch option is checked by run(), and still rejected there.
    kernel[(1,)](x, y, out, 50, BLOCK_SIZE=64, num_ctas=1)
    assert len(runs) == 1
    with pytest.raises(TypeError):
        kernel[(1,)](x, y, out, 50, BLOCK_SIZE=64, num_ctas="two")
    # The dispatcher's own errors are unchanged.
    with pytest.raises(AssertionError):
        kernel[(1,)](x, y, out, 50, BLOCK_SIZE=64, num_warps=3)
    # The interpreter, when asked for at run time.
    monkeypatch.setenv("TERRAZZO_INTERPRET", "1")
    a = np.arange(8, dtype=np.float32)
    b = np.full(8, 2.0, np.float32)
    c = np.zeros(8, np.float32)
    kernel[(1,)](a, b, c, 8, BLOCK_SIZE=8)
    np.testing.assert_array_equal(c, a + 2)
