"""Tests of the C++ extension terrazzo._C (python/src/).

Everything but the tests marked `gpu` runs without a GPU: compiling to PTX and
cubins, and the Dispatcher's binding, keys, caching, packing and error
messages through dry-run kernels (Kernel(..., dry_run=True) converts and packs
the arguments and stops before the driver call).

    PYTHONPATH=build/python python3 -m pytest -q python/test/test_extension.py
"""

import gc
import importlib.util
import os
import pathlib
import re
import shutil
import subprocess
import sys
import threading
import time
import warnings

import pytest


def _load_extension():
    """terrazzo._C, imported through the package when the package imports,
    else straight from its file (so that these tests do not depend on the
    state of the pure-Python frontend)."""
    try:
        from terrazzo import _C

        return _C
    except ImportError as error:
        if "_C" in str(error):
            raise
        problem = error
    except Exception as error:  # the frontend's __init__ failed
        problem = error
    spec = importlib.util.find_spec("terrazzo")
    for folder in spec.submodule_search_locations or []:
        for path in sorted(pathlib.Path(folder).glob("_C*.so")):
            warnings.warn(f"importing terrazzo failed ({problem!r}); loading {path} directly")
            module_spec = importlib.util.spec_from_file_location("terrazzo._C", path)
            module = importlib.util.module_from_spec(module_spec)
            module_spec.loader.exec_module(module)
            sys.modules["terrazzo._C"] = module
            return module
    raise problem


_C = _load_extension()

ROOT = pathlib.Path(__file__).resolve().parents[2]
VECTOR_ADD = (ROOT / "tutorials" / "vector-add.mlir").read_text()

gpu = pytest.mark.gpu
requires_gpu = pytest.mark.skipif(
    not _C.runtime_available(), reason=f"no GPU runtime: {_C.runtime_error()}"
)


def find_ptxas():
    for candidate in (os.environ.get("PTXAS"), shutil.which("ptxas"), "/usr/local/cuda/bin/ptxas"):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


# --------------------------------------------------------------------------
# Fakes: pointer-like objects as torch and CuPy present them.
# --------------------------------------------------------------------------


class FakeTensor:
    """Looks like a torch tensor to the launcher: data_ptr() and dtype."""

    def __init__(self, address, dtype="float32"):
        self.address = address
        self.dtype = dtype

    def data_ptr(self):
        return self.address


class FakeCudaArray:
    """Looks like a CuPy/Numba array: __cuda_array_interface__ only."""

    def __init__(self, address, typestr="<f4"):
        self.__cuda_array_interface__ = {
            "shape": (4,),
            "typestr": typestr,
            "data": (address, False),
            "version": 3,
        }


class FakeDtype:
    """Like torch.float16: str() gives 'torch.float16'."""

    def __init__(self, name):
        self.name = name

    def __str__(self):
        return f"torch.{self.name}"


def dry_kernel(signature, name="k", threads_per_block=128):
    return _C.Kernel(b"not a real binary", name, threads_per_block, 0, signature, dry_run=True)


class Recorder:
    """A compile callback that records its calls and returns dry-run kernels."""

    def __init__(self, signature_for=None):
        self.calls = []
        self.signature_for = signature_for

    def __call__(self, key, bound):
        self.calls.append((key, bound))
        if self.signature_for:
            signature = self.signature_for(key)
        else:
            signature = "".join(
                {"p": "p", "i": "i", "l": "l", "f": "f", "b": "b"}[entry[0]]
                for entry in key[:-1]
                if isinstance(entry, tuple) and entry and isinstance(entry[0], str)
            )
        return dry_kernel(signature, name=f"k{len(self.calls)}")


def make_dispatcher(names, constexpr=None, do_not_specialize=None, defaults=None, compile=None):
    n = len(names)
    return _C.Dispatcher(
        names,
        constexpr or [False] * n,
        do_not_specialize or [False] * n,
        defaults or [_C.NO_DEFAULT] * n,
        compile or Recorder(),
        "add_kernel",
    )


# --------------------------------------------------------------------------
# Compiler
# --------------------------------------------------------------------------


def test_version():
    assert re.match(r"terrazzo \d+\.\d+\.\d+ \(LLVM \d+", _C.version())


@pytest.mark.parametrize(
    "stage,expected",
    [
        ("tile", "tile.load"),
        ("tilegpu", "#tilegpu"),
        ("llvm", "llvm.func"),
        ("llvmir", "define"),
        ("ptx", ".entry add_kernel"),
    ],
)
def test_compile_text_stages(stage, expected):
    result = _C.compile(VECTOR_ADD, "vector-add.mlir", "cuda:90", 4, stage)
    assert result.success, result.format_diagnostics()
    assert isinstance(result.output, bytes)
    assert expected in result.output.decode()
    assert result.diagnostics == []


def test_compile_metadata():
    result = _C.compile(VECTOR_ADD, "vector-add.mlir", "cuda:80", 8, "ptx")
    assert result.success
    metadata = result.metadata
    assert metadata["name"] == "add_kernel"
    assert metadata["target"] == "cuda:80"
    assert metadata["num_warps"] == 8
    assert metadata["threads_per_block"] == 256
    assert metadata["shared_memory_bytes"] == 0
    assert metadata["binary"] == "ptx"
    assert metadata["arguments"] == [
        {"type": "!tile.ptr<f32>", "divisibility": 16},
        {"type": "!tile.ptr<f32>", "divisibility": 16},
        {"type": "!tile.ptr<f32>", "divisibility": 16},
        {"type": "i32", "divisibility": 16},
    ]
    assert ".target sm_80" in result.output.decode()


@pytest.mark.skipif(find_ptxas() is None, reason="no ptxas")
def test_compile_cubin_with_ptxas():
    result = _C.compile(VECTOR_ADD, "vector-add.mlir", "cuda:90", 4, "cubin", "ptxas")
    assert result.success, result.format_diagnostics()
    assert result.output.startswith(b"\x7fELF")
    assert result.metadata["binary"] == "cubin"
    assert result.metadata["assembler"] == "ptxas"


def test_compile_cubin_for_the_driver():
    result = _C.compile(VECTOR_ADD, "vector-add.mlir", "cuda:90", 4, "cubin", "driver")
    assert result.success, result.format_diagnostics()
    assert result.metadata["binary"] == "ptx"
    assert result.metadata["assembler"] == "driver"
    assert b".entry add_kernel" in result.output


def test_compile_error_has_position():
    source = "func.func @k(%a: i32) {\n  %x = arith.addi %a, %b : i32\n  return\n}\n"
    result = _C.compile(source, "kernel.py", "cuda:90", 4, "ptx")
    assert not result.success
    assert result.output == b""
    assert len(result.diagnostics) == 1
    diagnostic = result.diagnostics[0]
    assert diagnostic.severity == "error"
    assert diagnostic.file == "kernel.py"
    assert (diagnostic.line, diagnostic.column) == (2, 23)
    assert "undeclared SSA value" in diagnostic.message
    assert str(diagnostic) == f"kernel.py:2:23: error: {diagnostic.message}"
    assert result.format_diagnostics() == str(diagnostic) + "\n"


def test_compile_locations_from_the_frontend():
    # The frontend puts loc("file.py":line:col) on ops; diagnostics point there.
    source = 'func.func @k(%a: i32) {\n  return %a : i32 loc("user.py":12:5)\n}\n'
    result = _C.compile(source, "<terrazzo>", "cuda:90", 4, "tile")
    assert not result.success
    assert any(d.file == "user.py" and d.line == 12 and d.column == 5 for d in result.diagnostics), [
        str(d) for d in result.diagnostics
    ]


@pytest.mark.parametrize(
    "target,num_warps,assembler,message",
    [
        ("cuda:90", 3, "auto", "num-warps must be a power of two"),
        ("cuda:xx", 4, "auto", "unknown target 'cuda:xx'"),
        ("cuda:90", 4, "bogus", "unknown assembler 'bogus'"),
    ],
)
def test_compile_bad_options_are_diagnostics(target, num_warps, assembler, message):
    result = _C.compile(VECTOR_ADD, "v.mlir", target, num_warps, "cubin", assembler)
    assert not result.success
    assert any(message in d.message for d in result.diagnostics), [str(d) for d in result.diagnostics]


def test_compile_unknown_stage():
    with pytest.raises(ValueError, match="unknown stage 'sass'"):
        _C.compile(VECTOR_ADD, "v.mlir", "cuda:90", 4, "sass")


def test_compile_releases_the_gil():
    # While one thread compiles, another keeps running Python code.
    ticks = []
    done = threading.Event()

    def tick():
        while not done.is_set():
            ticks.append(1)
            time.sleep(0)

    ticker = threading.Thread(target=tick)
    ticker.start()
    try:
        start = len(ticks)
        for _ in range(5):
            assert _C.compile(VECTOR_ADD, "v.mlir", "cuda:90", 4, "ptx").success
        during = len(ticks) - start
    finally:
        done.set()
        ticker.join()
    assert during > 0


def test_compile_from_threads():
    results = [None] * 4

    def work(i):
        results[i] = _C.compile(VECTOR_ADD, f"v{i}.mlir", "cuda:90", 4, "ptx")

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(r.success for r in results)
    assert len({r.output for r in results}) == 1


# --------------------------------------------------------------------------
# Runtime
# --------------------------------------------------------------------------


def test_runtime_status_is_consistent():
    available = _C.runtime_available()
    error = _C.runtime_error()
    assert isinstance(available, bool)
    assert (error == "") == available
    if not available:
        with pytest.raises(RuntimeError):
            _C.current_target()


@pytest.mark.skipif(_C.runtime_available(), reason="needs a machine without a GPU runtime")
def test_device_queries_without_driver_are_runtime_errors():
    """The device queries terrazzo.runtime.driver makes through the runtime
    say why there is no device, as the runtime does."""
    why = re.escape(_C.runtime_error()[:20])
    for query in (_C.device_count, _C.current_device, lambda: _C.set_current_device(0),
                  lambda: _C.device_properties(0), lambda: _C.kernel_attributes(b"x", "k")):
        with pytest.raises(RuntimeError, match=why):
            query()


@gpu
@requires_gpu
def test_device_queries():
    count = _C.device_count()
    assert count >= 1
    _C.set_current_device(count - 1)
    assert _C.current_device() == count - 1
    _C.set_current_device(0)
    assert _C.current_device() == 0
    props = _C.device_properties(0)
    major, minor = props["compute_capability"]
    assert _C.current_target() == f"cuda:{major}{minor}"
    assert props["warp_size"] == 32 and props["multiprocessor_count"] > 0
    assert props["max_shared_memory_per_block_optin"] >= props["max_shared_memory_per_block"]
    with pytest.raises(RuntimeError):
        _C.device_properties(count)
    result = _C.compile(VECTOR_ADD, "vector-add.mlir", _C.current_target(), 4, "cubin")
    assert result.success, result.diagnostics
    attributes = _C.kernel_attributes(bytes(result.output), "add_kernel")
    assert 8 <= attributes["num_regs"] <= 255 and attributes["local_bytes"] == 0
    assert attributes["max_threads"] >= 128
    with pytest.raises(RuntimeError, match="no_such_kernel"):
        _C.kernel_attributes(bytes(result.output), "no_such_kernel")


# --------------------------------------------------------------------------
# Kernel
# --------------------------------------------------------------------------


def test_kernel_properties():
    kernel = _C.Kernel(b"\x7fELF...", "add_kernel", 128, 0, "pppi", dry_run=True)
    assert kernel.name == "add_kernel"
    assert kernel.signature == "pppi"
    assert kernel.threads_per_block == 128
    assert kernel.shared_memory_bytes == 0
    assert kernel.binary == b"\x7fELF..."
    assert not kernel.loaded
    assert kernel.last_launch() is None
    assert "add_kernel" in repr(kernel)


def test_kernel_cluster_dims():
    kernel = _C.Kernel(b"\x7fELF...", "k", 128, 0, "p", dry_run=True)
    assert kernel.cluster_dims == (1, 1, 1)
    clustered = _C.Kernel(b"\x7fELF...", "k", 128, 0, "p", dry_run=True, cluster_dims=(2, 1, 1))
    assert clustered.cluster_dims == (2, 1, 1)
    clustered.launch((6, 1, 1), 0, [0])
    assert clustered.last_launch()["grid"] == (6, 1, 1)
    # The grid counts programs: a multiple of the cluster, else refused
    # before the driver, naming the kernel and the dimension.
    with pytest.raises(ValueError, match=r"kernel 'k': grid dimension 0 \(5\) is not a multiple "
                                         r"of its cluster dimension \(2\)"):
        clustered.launch((5, 1, 1), 0, [0])


@pytest.mark.parametrize("dims, message", [
    ((2, 1), "cluster_dims must have 3 entries, got 2"),
    ((0, 1, 1), "cluster_dims entries must be 1 to 16, got 0"),
    ((4, 4, 2), "a cluster holds at most 16 programs, cluster_dims asks for 32"),
])
def test_kernel_cluster_dims_checked(dims, message):
    with pytest.raises(ValueError, match=message):
        _C.Kernel(b"", "k", 128, 0, "p", dry_run=True, cluster_dims=dims)


def test_kernel_cluster_dims_not_on_hip():
    with pytest.raises(ValueError, match="AMD GPUs have no thread-block clusters"):
        _C.Kernel(b"", "k", 128, 0, "p", dry_run=True, target="hip:gfx942",
                  cluster_dims=(2, 1, 1))


def test_kernel_accepts_ptx_text():
    assert _C.Kernel(".version 8.0", "k", 32, 0, "", dry_run=True).binary == b".version 8.0"


def test_kernel_packs_every_signature_character():
    kernel = dry_kernel("pilfdb")
    kernel.launch((2, 3, 4), 1234, (FakeTensor(0x7000), -5, 2**40, 1.5, 2.25, True))
    launch = kernel.last_launch()
    assert launch == {"grid": (2, 3, 4), "stream": 1234, "args": (0x7000, -5, 2**40, 1.5, 2.25, True)}
    assert kernel.launch_count == 1


def test_kernel_pointer_forms():
    kernel = dry_kernel("pppp")
    kernel.launch((1,), 0, (0x1000, None, FakeTensor(0x2000), FakeCudaArray(0x3000)))
    assert kernel.last_launch()["args"] == (0x1000, 0, 0x2000, 0x3000)
    assert kernel.last_launch()["grid"] == (1, 1, 1)


def test_kernel_numbers_convert():
    import numpy as np

    kernel = dry_kernel("ilfdb")
    kernel.launch([5], 0, (np.int32(7), 2**64 - 1, 3, np.float32(0.5), np.bool_(True)))
    assert kernel.last_launch()["args"] == (7, -1, 3.0, 0.5, True)


def test_kernel_skips_dash_arguments():
    kernel = dry_kernel("p-i")
    kernel.launch((1,), 0, (FakeTensor(16), 1, 7))
    assert kernel.last_launch()["args"] == (16, 7)


@pytest.mark.parametrize(
    "signature,args,error,message",
    [
        ("i", (2**31,), OverflowError, r"argument 0 = 2147483648 is out of range for int32"),
        ("i", (-(2**31) - 1,), OverflowError, r"argument 0 .* out of range for int32"),
        ("pi", (0, 1.5), TypeError, r"argument 1 must be an int \(int32\), got a float"),
        ("l", (2**64,), OverflowError, r"argument 0 = 18446744073709551616 does not fit in 64 bits"),
        ("b", (2,), OverflowError, r"argument 0 = 2 is out of range for int1"),
        ("p", (1.5,), TypeError, r"argument 0 must be a pointer"),
        ("p", (-8,), OverflowError, r"argument 0 = -8 is out of range for a pointer"),
        ("p", ("x",), TypeError, r"argument 0 has type str"),
        ("f", (FakeTensor(0),), TypeError, r"argument 0 must be a float \(float32\), got a pointer"),
        ("pp", (0,), TypeError, r"takes 2 arguments \(signature 'pp'\), got 1"),
    ],
)
def test_kernel_argument_errors(signature, args, error, message):
    with pytest.raises(error, match=message):
        dry_kernel(signature).launch((1, 1, 1), 0, args)


def test_kernel_data_ptr_errors():
    class Bad:
        dtype = "float32"

        def data_ptr(self):
            return "nope"

    with pytest.raises(TypeError, match=r"argument 0: data_ptr\(\) gave str, not an int address"):
        dry_kernel("p").launch((1,), 0, (Bad(),))

    class Raising:
        def data_ptr(self):
            raise KeyError("inner")

    with pytest.raises(KeyError, match="inner"):
        dry_kernel("p").launch((1,), 0, (Raising(),))


@pytest.mark.parametrize(
    "grid,error,message",
    [
        ((1, 2, 3, 4), ValueError, "1 to 3 dimensions"),
        ((), ValueError, "1 to 3 dimensions"),
        ((-1,), ValueError, "grid dimension 0 = -1 is out of range"),
        ((1, "a"), TypeError, "grid dimension 1 must be an int"),
        ("abc", TypeError, "grid must be a tuple"),
    ],
)
def test_kernel_grid_errors(grid, error, message):
    with pytest.raises(error, match=message):
        dry_kernel("").launch(grid, 0, ())


def test_kernel_constructor_errors():
    with pytest.raises(ValueError, match="signature character 1 is 'x'"):
        _C.Kernel(b"", "k", 128, 0, "px")
    with pytest.raises(ValueError, match="threads_per_block"):
        _C.Kernel(b"", "k", 0, 0, "p")
    with pytest.raises(TypeError, match="binary must be bytes or str"):
        _C.Kernel(123, "k", 128, 0, "p")


@pytest.mark.skipif(_C.runtime_available(), reason="needs a machine without a GPU runtime")
def test_kernel_launch_without_driver_is_a_runtime_error():
    kernel = _C.Kernel(b"binary", "k", 128, 0, "i", dry_run=False)
    with pytest.raises(RuntimeError, match=re.escape(_C.runtime_error()[:20])):
        kernel.launch((1, 1, 1), 0, (1,))
    assert not kernel.loaded


def test_dry_launch_environment_variable():
    code = "from terrazzo import _C; print(_C.Kernel(b'', 'k', 32, 0, '').dry_run)"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    for value, expected in (("1", "True"), ("0", "False"), (None, "False")):
        env.pop("TERRAZZO_DRY_LAUNCH", None)
        if value is not None:
            env["TERRAZZO_DRY_LAUNCH"] = value
        output = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        ).stdout
        assert output.strip() == expected


# --------------------------------------------------------------------------
# Dispatcher: binding
# --------------------------------------------------------------------------


def test_bind_positional_keyword_and_defaults():
    dispatcher = _C.Dispatcher(
        ["x", "n", "BLOCK"], [False, False, True], [False] * 3, [_C.NO_DEFAULT, 7, 128], Recorder(), "k"
    )
    x = FakeTensor(0x1000)
    assert dispatcher.bind((x,), {}) == {"x": x, "n": 7, "BLOCK": 128}
    assert dispatcher.bind((), {"BLOCK": 64, "x": x}) == {"x": x, "n": 7, "BLOCK": 64}
    assert dispatcher.bind((x, 3), {"num_warps": 8}) == {"x": x, "n": 3, "BLOCK": 128}
    assert dispatcher.param_names == ["x", "n", "BLOCK"]
    assert repr(_C.NO_DEFAULT) == "NO_DEFAULT"


@pytest.mark.parametrize(
    "args,kwargs,message",
    [
        ((), {}, r"add_kernel\(\) missing 2 required arguments: 'x', 'n'"),
        ((1,), {}, r"add_kernel\(\) missing 1 required argument: 'n'"),
        ((1, 2), {"m": 3}, r"add_kernel\(\) got an unexpected keyword argument 'm'"),
        ((1, 2), {"x": 3}, r"add_kernel\(\) got multiple values for argument 'x'"),
        ((1, 2, 3, 4), {}, r"add_kernel\(\) takes 3 positional arguments but 4 were given"),
    ],
)
def test_bind_errors(args, kwargs, message):
    dispatcher = _C.Dispatcher(
        ["x", "n", "BLOCK"], [False, False, True], [False] * 3, [_C.NO_DEFAULT, _C.NO_DEFAULT, 4], Recorder(), "add_kernel"
    )
    with pytest.raises(TypeError, match=message):
        dispatcher.key_for(args, kwargs)
    with pytest.raises(TypeError, match=message):
        dispatcher.run((1,), args, kwargs, 0)


@pytest.mark.parametrize(
    "kwargs,error,message",
    [
        ({"num_warps": "4"}, TypeError, "num_warps must be an int, got str"),
        ({"num_warps": 0}, AssertionError, "num_warps must be a power of 2 from 1 to 32, got 0"),
        ({"num_warps": 64}, AssertionError, "num_warps must be a power of 2 from 1 to 32, got 64"),
        ({"num_warps": 1 << 40}, ValueError, "num_warps = 1099511627776 is out of range"),
        ({"num_stages": -1}, ValueError, "num_stages = -1 is out of range"),
    ],
)
def test_launch_option_errors(kwargs, error, message):
    with pytest.raises(error, match=message):
        make_dispatcher(["n"]).key_for((1,), kwargs)


class DLPackOnGpu:
    """Exports host memory through DLPack but says it lives on a GPU: enough
    to check that the address and dtype come from the capsule."""

    def __init__(self, array):
        self.array = array

    def __dlpack_device__(self):
        return (2, 0)  # kDLCUDA

    def __dlpack__(self, stream=None):
        return self.array.__dlpack__()


def test_dlpack_pointer_argument():
    np = pytest.importorskip("numpy")
    array = np.arange(16, dtype=np.float16)[1:]  # 2 bytes off the buffer start
    key = make_dispatcher(["x", "n"]).key_for((DLPackOnGpu(array), 3), {})
    # DLPack says nothing of the memory around the tensor: not known to fit.
    assert key[0] == ("p", "float16", array.ctypes.data % 16 == 0, False)
    kernel = _C.Kernel(b"x", "k", 32, 0, "pi", dry_run=True)
    kernel.launch((1, 1, 1), 0, (DLPackOnGpu(array), 3))
    assert kernel.last_launch()["args"][0] == array.ctypes.data


def test_host_array_is_refused_with_a_clear_message():
    np = pytest.importorskip("numpy")
    with pytest.raises(TypeError, match=r"argument 0 \('x'\) is a numpy.ndarray in host "
                                        r"memory .*pass a CUDA tensor, or run the kernel "
                                        r"in the interpreter"):
        make_dispatcher(["x", "n"]).key_for((np.zeros(8, np.float32), 3), {})


def test_dispatcher_constructor_errors():
    with pytest.raises(ValueError, match="same length"):
        _C.Dispatcher(["a", "b"], [False], [False, False], [_C.NO_DEFAULT] * 2, Recorder())
    with pytest.raises(ValueError, match="duplicate parameter name 'a'"):
        _C.Dispatcher(["a", "a"], [False] * 2, [False] * 2, [_C.NO_DEFAULT] * 2, Recorder())
    with pytest.raises(ValueError, match="'num_warps' is reserved"):
        _C.Dispatcher(["num_warps"], [False], [False], [_C.NO_DEFAULT], Recorder())
    with pytest.raises(TypeError, match="compile must be callable"):
        _C.Dispatcher(["a"], [False], [False], [_C.NO_DEFAULT], 3)


# --------------------------------------------------------------------------
# Dispatcher: keys
# --------------------------------------------------------------------------


def test_key_layout():
    dispatcher = _C.Dispatcher(
        ["x", "y", "n", "scale", "flag", "BLOCK"],
        [False, False, False, False, False, True],
        [False] * 6,
        [_C.NO_DEFAULT] * 6,
        Recorder(),
        "k",
    )
    key = dispatcher.key_for((FakeTensor(0x1000), FakeTensor(0x1004, "float16"), 1024, 0.5, True, 256), {})
    assert key == (
        ("p", "float32", True, False),  # no untyped_storage(): size unknown
        ("p", "float16", False, False),
        ("i", False, True, True),
        ("f",),
        ("b",),
        256,
        (4, 3),
    )
    key = dispatcher.key_for(
        (None, FakeCudaArray(0x2000, "<f2"), 1, 1.0, False), {"BLOCK": 64, "num_warps": 8, "num_stages": 2}
    )
    assert key == (("p", None, True, True), ("p", "float16", True, False), ("i", True, False, True),
                   ("f",), ("b",), 64,
                   (8, 2))


@pytest.mark.parametrize(
    "value,entry",
    [
        (0, ("i", False, True, True)),
        (1, ("i", True, False, True)),
        (17, ("i", False, False, True)),
        (-16, ("i", False, True, False)),
        (-1, ("i", False, False, False)),
        (2**31 - 1, ("i", False, False, True)),
        (2**31, ("l", False, True, True)),
        (-(2**31), ("i", False, True, False)),
        (-(2**31) - 1, ("l", False, False, False)),
        (2**63, ("l", False, True, True)),
        (2**64 - 1, ("l", False, False, True)),
    ],
)
def test_integer_specialization(value, entry):
    assert make_dispatcher(["n"]).key_for((value,), {})[0] == entry


def test_do_not_specialize():
    dispatcher = make_dispatcher(["n", "m"], do_not_specialize=[True, False])
    assert dispatcher.key_for((1, 1), {})[:2] == (("i",), ("i", True, False, True))
    assert dispatcher.key_for((2**40, 16), {})[:2] == (("l",), ("i", False, True, True))


def test_dtype_names():
    import numpy as np

    dispatcher = make_dispatcher(["p"])
    cases = [
        (np.dtype("float32"), "float32"),
        (np.dtype("float16"), "float16"),
        (np.dtype("int64"), "int64"),
        (np.dtype(bool), "bool"),
        (np.float64, "float64"),
        (FakeDtype("bfloat16"), "bfloat16"),
        (FakeDtype("float8_e4m3fn"), "float8_e4m3fn"),
        ("int8", "int8"),
    ]
    for dtype, name in cases:
        assert dispatcher.key_for((FakeTensor(0x100, dtype),), {})[0] == ("p", name, True, False)
    for typestr, name in (("<f4", "float32"), ("|u1", "uint8"), ("<i8", "int64"), ("|b1", "bool")):
        assert dispatcher.key_for((FakeCudaArray(0x100, typestr),), {})[0] == ("p", name, True, False)


def test_numpy_scalars_are_numbers():
    import numpy as np

    key = make_dispatcher(["a", "b", "c", "d"]).key_for(
        (np.int32(16), np.int64(2**40), np.float32(1.5), np.bool_(False)), {}
    )
    assert key[:4] == (("i", False, True, True), ("l", False, True, True), ("f",), ("b",))


def test_unsupported_argument_type():
    dispatcher = make_dispatcher(["x", "n"])
    with pytest.raises(TypeError, match=r"argument 1 \('n'\) has type str, which is not a pointer"):
        dispatcher.key_for((None, "text"), {})
    with pytest.raises(TypeError, match=r"argument 0 \('x'\) .*has data_ptr\(\) but no dtype"):

        class NoDtype:
            def data_ptr(self):
                return 0

        dispatcher.key_for((NoDtype(), 1), {})


def test_instance_attributes_count_as_pointers():
    class Namespace:
        pass

    thing = Namespace()
    thing.data_ptr = lambda: 0x40
    thing.dtype = "float32"
    assert make_dispatcher(["x"]).key_for((thing,), {})[0] == ("p", "float32", True, False)


def test_constexpr_values_by_type_and_value():
    recorder = Recorder()
    dispatcher = make_dispatcher(["n", "C"], constexpr=[False, True], compile=recorder)
    for value in (1, True, 1.0, "1", 1, (1, 2), None):
        dispatcher.run((1,), (5, value), {}, 0)
    # 1 and True and 1.0 compare equal in Python but are different kernels.
    assert [key[1] for key, _ in recorder.calls] == [1, True, 1.0, "1", (1, 2), None]
    assert dispatcher.cache_size() == 6
    with pytest.raises(TypeError, match=r"argument 1 \('C'\) is a constexpr and must be hashable, got list"):
        dispatcher.key_for((5, [1]), {})


# --------------------------------------------------------------------------
# Dispatcher: compile, cache and launch
# --------------------------------------------------------------------------


def test_run_compiles_once_per_key_and_launches():
    recorder = Recorder()
    dispatcher = _C.Dispatcher(
        ["x", "y", "out", "n", "BLOCK"],
        [False, False, False, False, True],
        [False] * 5,
        [_C.NO_DEFAULT] * 4 + [1024],
        recorder,
        "add",
    )
    x, y, out = FakeTensor(0x1000), FakeTensor(0x2000), FakeTensor(0x3000)
    kernel = dispatcher.run((4, 1, 1), (x, y, out, 4096), {}, 77)
    assert isinstance(kernel, _C.Kernel)
    assert len(recorder.calls) == 1
    key, bound = recorder.calls[0]
    assert key == dispatcher.key_for((x, y, out, 4096), {})
    assert bound == (x, y, out, 4096, 1024)
    assert kernel.signature == "pppi"
    assert kernel.last_launch() == {"grid": (4, 1, 1), "stream": 77, "args": (0x1000, 0x2000, 0x3000, 4096)}

    # Same key: a hit, new values packed.
    again = dispatcher.run((8,), (y, x, out, 2048), {}, 0)
    assert again is kernel
    assert len(recorder.calls) == 1
    assert kernel.last_launch()["args"] == (0x2000, 0x1000, 0x3000, 2048)
    assert kernel.launch_count == 2

    # Each part of the key makes a new kernel.
    dispatcher.run((1,), (x, y, out, 4096), {"BLOCK": 512}, 0)
    dispatcher.run((1,), (x, y, out, 4096), {"num_warps": 8}, 0)
    dispatcher.run((1,), (x, y, out, 4096), {"num_stages": 4}, 0)
    dispatcher.run((1,), (x, y, out, 4095), {}, 0)
    dispatcher.run((1,), (x, y, FakeTensor(0x3004), 4096), {}, 0)
    dispatcher.run((1,), (x, y, FakeTensor(0x3000, "float16"), 4096), {}, 0)
    assert len(recorder.calls) == 7
    assert dispatcher.cache_size() == 7
    dispatcher.clear()
    assert dispatcher.cache_size() == 0
    dispatcher.run((1,), (x, y, out, 4096), {}, 0)
    assert len(recorder.calls) == 8


def test_grid_callable_gets_the_bound_arguments():
    seen = []

    def grid(meta):
        seen.append(meta)
        return ((meta["n"] + meta["BLOCK"] - 1) // meta["BLOCK"],)

    dispatcher = _C.Dispatcher(
        ["x", "n", "BLOCK"], [False, False, True], [False] * 3, [_C.NO_DEFAULT] * 3, Recorder(), "k"
    )
    x = FakeTensor(0)
    kernel = dispatcher.run(grid, (x, 1000), {"BLOCK": 256}, 0)
    assert seen == [{"x": x, "n": 1000, "BLOCK": 256}]
    assert kernel.last_launch()["grid"] == (4, 1, 1)

    with pytest.raises(ValueError, match="1 to 3 dimensions"):
        dispatcher.run(lambda meta: (), (x, 1000), {"BLOCK": 256}, 0)
    with pytest.raises(ZeroDivisionError):
        dispatcher.run(lambda meta: (1 // 0,), (x, 1000), {"BLOCK": 256}, 0)


def test_compile_errors_propagate_unchanged():
    class CompilationError(Exception):
        pass

    error = CompilationError("at kernel.py:3:5: bad")

    def compile(key, bound):
        raise error

    dispatcher = make_dispatcher(["n"], compile=compile)
    with pytest.raises(CompilationError) as caught:
        dispatcher.run((1,), (1,), {}, 0)
    assert caught.value is error
    assert dispatcher.cache_size() == 0


def test_compile_callback_must_return_a_matching_kernel():
    dispatcher = make_dispatcher(["x", "n"], compile=lambda key, bound: "not a kernel")
    with pytest.raises(TypeError, match="must return a terrazzo._C.Kernel, got str"):
        dispatcher.run((1,), (None, 1), {}, 0)
    dispatcher = make_dispatcher(["x", "n"], compile=lambda key, bound: dry_kernel("p"))
    with pytest.raises(ValueError, match="signature 'p' .* 2 non-constexpr parameters"):
        dispatcher.run((1,), (None, 1), {}, 0)


def test_specialized_arguments_can_be_dropped():
    # The frontend may turn n == 1 into a constant and drop it: '-'.
    recorder = Recorder(signature_for=lambda key: "p-" if key[1][1] else "pi")
    dispatcher = make_dispatcher(["x", "n"], compile=recorder)
    assert dispatcher.run((1,), (FakeTensor(32), 1), {}, 0).last_launch()["args"] == (32,)
    assert dispatcher.run((1,), (FakeTensor(32), 5), {}, 0).last_launch()["args"] == (32, 5)


def test_packing_errors_name_the_parameter():
    # A kernel whose signature disagrees with the values (the frontend chose
    # int32 but the call passes a value that needs 64 bits, with
    # do_not_specialize so that the key does not change... except its width).
    dispatcher = make_dispatcher(["x", "n"], compile=lambda key, bound: dry_kernel("pi"))
    dispatcher.run((1,), (None, 5), {}, 0)
    with pytest.raises(TypeError, match=r"argument 0 \('x'\) must be a pointer"):
        dispatcher.run((1,), (2.5, 5), {}, 0)


def test_recursive_and_concurrent_misses():
    # The callback itself launches the same function (e.g. autotuning).
    dispatcher = None

    def compile(key, bound):
        if len(calls) == 0:
            calls.append(key)
            dispatcher.run((1,), bound, {}, 0)
        else:
            calls.append(key)
        return dry_kernel("i")

    calls = []
    dispatcher = make_dispatcher(["n"], compile=compile)
    kernel = dispatcher.run((1,), (3,), {}, 0)
    assert dispatcher.cache_size() == 1
    assert dispatcher.run((1,), (3,), {}, 0) is kernel


def test_no_reference_leaks():
    dispatcher = make_dispatcher(["x", "n"], compile=lambda key, bound: dry_kernel("pi"))
    x = FakeTensor(0x100)
    dispatcher.run((1,), (x, 5), {}, 0)
    before = sys.getrefcount(x)
    for _ in range(1000):
        dispatcher.run((1,), (x, 5), {}, 0)
        dispatcher.key_for((x, 5), {})
        try:
            dispatcher.run((1,), (x, "bad"), {}, 0)
        except TypeError:
            pass
    gc.collect()
    assert sys.getrefcount(x) == before


# --------------------------------------------------------------------------
# Host-side launch overhead (dry run: everything but cuLaunchKernel)
# --------------------------------------------------------------------------


def measure_dispatch_overhead(calls=100_000):
    dispatcher = _C.Dispatcher(
        ["x", "y", "out", "n", "BLOCK"],
        [False, False, False, False, True],
        [False] * 5,
        [_C.NO_DEFAULT] * 5,
        lambda key, bound: dry_kernel("pppi"),
        "add",
    )
    x, y, out = FakeTensor(0x1000), FakeTensor(0x2000), FakeTensor(0x3000)
    args = (x, y, out, 98432)
    kwargs = {"BLOCK": 1024}
    grid = (97,)
    run = dispatcher.run
    run(grid, args, kwargs, 0)
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(calls):
            run(grid, args, kwargs, 0)
        best = min(best, (time.perf_counter() - start) / calls)
    return best * 1e6


def test_dispatch_overhead():
    microseconds = measure_dispatch_overhead()
    print(f"\nDispatcher.run hit, 4 arguments + 1 constexpr, dry launch: {microseconds:.2f} us/call")
    # Generous: this machine is shared; the point is a few microseconds.
    assert microseconds < 20


# --------------------------------------------------------------------------
# GPU
# --------------------------------------------------------------------------


def torch_or_skip():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch has no CUDA")
    return torch


def compile_vector_add(target=None):
    result = _C.compile(VECTOR_ADD, "vector-add.mlir", target or _C.current_target(), 4, "cubin")
    assert result.success, result.format_diagnostics()
    return result


@gpu
@requires_gpu
def test_gpu_current_target():
    assert re.fullmatch(r"cuda:\d+", _C.current_target())


@gpu
@requires_gpu
def test_gpu_kernel_launch_with_torch():
    torch = torch_or_skip()
    result = compile_vector_add()
    meta = result.metadata
    kernel = _C.Kernel(result.output, meta["name"], meta["threads_per_block"], meta["shared_memory_bytes"], "pppi")
    # The tutorial kernel declares n divisible by 16.
    for n in (16, 1008, 98432):
        x = torch.rand(n, device="cuda", dtype=torch.float32)
        y = torch.rand(n, device="cuda", dtype=torch.float32)
        out = torch.full((n + 64,), float("nan"), device="cuda")
        kernel.launch(((n + 1023) // 1024, 1, 1), torch.cuda.current_stream().cuda_stream, (x, y, out, n))
        torch.cuda.synchronize()
        assert torch.equal(out[:n], x + y)
        assert torch.isnan(out[n:]).all()
    assert kernel.loaded


@gpu
@requires_gpu
def test_gpu_cuda_array_interface_arguments():
    torch = torch_or_skip()
    result = compile_vector_add()
    kernel = _C.Kernel(result.output, "add_kernel", 128, 0, "pppi")
    n = 4096
    x, y = torch.rand(n, device="cuda"), torch.rand(n, device="cuda")
    out = torch.zeros(n, device="cuda")

    class Wrapped:
        def __init__(self, tensor):
            self.__cuda_array_interface__ = tensor.__cuda_array_interface__

    kernel.launch((n // 1024, 1, 1), 0, (Wrapped(x), Wrapped(y), Wrapped(out), n))
    _C.synchronize()
    assert torch.equal(out, x + y)


@gpu
@requires_gpu
def test_gpu_dispatcher_end_to_end():
    torch = torch_or_skip()
    compiled = []

    def compile(key, bound):
        assert key[:3] == (("p", "float32", True, True),) * 3  # small: they fit
        compiled.append(key)
        result = compile_vector_add()
        return _C.Kernel(result.output, "add_kernel", result.metadata["threads_per_block"], 0, "pppi")

    dispatcher = _C.Dispatcher(
        ["x", "y", "out", "n", "BLOCK"], [False] * 4 + [True], [False] * 5, [_C.NO_DEFAULT] * 4 + [1024], compile, "add"
    )
    grid = lambda meta: ((meta["n"] + meta["BLOCK"] - 1) // meta["BLOCK"],)
    for n in (4096, 8192, 65536):
        x, y = torch.rand(n, device="cuda"), torch.rand(n, device="cuda")
        out = torch.empty(n, device="cuda")
        dispatcher.run(grid, (x, y, out, n), {}, torch.cuda.current_stream().cuda_stream)
        torch.cuda.synchronize()
        assert torch.equal(out, x + y)
    assert len(compiled) == 1


@gpu
@requires_gpu
def test_gpu_driver_errors_name_the_call():
    kernel = _C.Kernel(b"this is not a cubin", "k", 128, 0, "")
    with pytest.raises(RuntimeError, match="cuModuleLoadDataEx"):
        kernel.launch((1, 1, 1), 0, ())
    result = compile_vector_add()
    kernel = _C.Kernel(result.output, "no_such_kernel", 128, 0, "pppi")
    with pytest.raises(RuntimeError, match="no_such_kernel"):
        kernel.launch((1, 1, 1), 0, (0, 0, 0, 0))


@gpu
@requires_gpu
def test_gpu_dispatch_overhead_with_torch():
    torch = torch_or_skip()
    result = compile_vector_add()
    dispatcher = _C.Dispatcher(
        ["x", "y", "out", "n"],
        [False] * 4,
        [False] * 4,
        [_C.NO_DEFAULT] * 4,
        lambda key, bound: _C.Kernel(result.output, "add_kernel", 128, 0, "pppi", dry_run=True),
        "add",
    )
    n = 1 << 20
    x, y, out = (torch.empty(n, device="cuda") for _ in range(3))
    args = (x, y, out, n)
    dispatcher.run((n // 1024,), args, {}, 0)
    calls = 100_000
    start = time.perf_counter()
    for _ in range(calls):
        dispatcher.run((n // 1024,), args, {}, 0)
    microseconds = (time.perf_counter() - start) / calls * 1e6
    print(f"\nDispatcher.run hit with torch tensors, dry launch: {microseconds:.2f} us/call")
    assert microseconds < 20


# Inputs that once ended the Python process inside _C.compile (a segfault on
# a rank-0 tensor, a trap on an f80 argument, a segfault on an op outside any
# function): each is a failed compile with a located diagnostic, and the
# process carries on compiling.
@pytest.mark.parametrize(
    "source,line,message",
    [
        (
            "func.func @k(%p: !tile.ptr<i64>) {\n"
            "  %c = arith.constant 7 : i64\n"
            "  %v = tile.splat %c : i64 -> tensor<i64>\n"
            "  %ps = tile.splat %p : !tile.ptr<i64> -> tensor<!tile.ptr<i64>>\n"
            "  tile.store %ps, %v : tensor<!tile.ptr<i64>>\n"
            "  return\n"
            "}\n",
            3,
            "a tensor of rank 0, which has no layout on the GPU; use a scalar",
        ),
        (
            "func.func @k(%p: !tile.ptr<f32>, %x: f80) {\n"
            "  %y = arith.truncf %x : f80 to f32\n"
            "  tile.store %p, %y : !tile.ptr<f32>\n"
            "  return\n"
            "}\n",
            1,
            "has type 'f80', which has no lowering to the GPU",
        ),
        (
            "tilegpu.barrier\nfunc.func @k(%p: !tile.ptr<i32>) {\n  return\n}\n",
            1,
            "is outside any function",
        ),
        (
            "func.func @k(%p: !tile.ptr<f32>, %t: tensor<3xf32>) {\n  return\n}\n",
            1,
            "shape entry 3 is not a power of two",
        ),
    ],
)
def test_compile_inputs_that_crashed_the_process(source, line, message):
    for _ in range(2):
        result = _C.compile(source, "kernel.mlir", "cuda:90", 4, "ptx")
        assert not result.success
        assert result.output == b""
        errors = [d for d in result.diagnostics if d.severity == "error"]
        assert len(errors) == 1, result.format_diagnostics()
        assert message in errors[0].message
        assert "internal compiler error" not in errors[0].message
        assert (errors[0].file, errors[0].line) == ("kernel.mlir", line)
    # The process is intact: a good kernel still compiles.
    assert _C.compile(VECTOR_ADD, "vector-add.mlir", "cuda:90", 4, "ptx").success
