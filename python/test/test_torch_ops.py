"""terrazzo.torch_op (Terrazzo kernels inside torch.compile) and launches
captured in CUDA graphs.

Without torch (CI) the operator's wiring is checked against a stand-in for
torch.library and the launch skipping of its fake implementation in the
interpreter; tests marked `gpu` compile functions with torch.compile on a
CUDA device and compare with float64 references.

No `from __future__ import annotations` here: torch.library.custom_op reads
the operators' type hints as types.
"""

import os
import subprocess
import sys
import threading
import types

import numpy as np
import pytest

import terrazzo as triton
import terrazzo.language as tl
from terrazzo.runtime.jit import skipping_launches
from test_multi_device import axpb_kernel  # x * alpha + y


@triton.jit
def scale_kernel(x_ptr, n, a, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=mask) * a, mask=mask)


def _launch_axpb(x, y, out, a):
    n = x.numel() if hasattr(x, "numel") else x.size
    axpb_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, y, out, n, a, BLOCK=256)


# ---------------------------------------------------------------------------
# Without torch
# ---------------------------------------------------------------------------

def test_skipping_launches_in_its_block_and_thread_only(monkeypatch, rng):
    monkeypatch.setenv("TERRAZZO_INTERPRET", "1")
    x = rng.standard_normal(300).astype(np.float32)
    y = rng.standard_normal(300).astype(np.float32)
    want = np.float32(2) * x + y
    out = np.full_like(x, np.nan)
    elsewhere = np.full_like(x, np.nan)
    with skipping_launches():
        with skipping_launches():
            _launch_axpb(x, y, out, 2.0)
        _launch_axpb(x, y, out, 2.0)
        assert np.isnan(out).all()
        other = threading.Thread(target=_launch_axpb, args=(x, y, elsewhere, 2.0))
        other.start()
        other.join()
        np.testing.assert_array_equal(elsewhere, want)  # another thread launches
    _launch_axpb(x, y, out, 2.0)
    np.testing.assert_array_equal(out, want)


class _StandInOp:
    """What torch.library.custom_op returns, as far as torch_op uses it."""

    def __init__(self, name, fn, options):
        self.name, self.fn, self.options, self.fake = name, fn, options, None

    def __call__(self, *args, **kwargs):
        return self.fn(*args, **kwargs)

    def register_fake(self, fn):
        self.fake = fn
        return fn


def _stand_in_torch(monkeypatch):
    library = types.ModuleType("torch.library")
    library.custom_op = lambda name, **options: lambda fn: _StandInOp(name, fn, options)
    torch = types.ModuleType("torch")
    torch.library = library
    torch.__version__ = "stand-in"
    monkeypatch.setitem(sys.modules, "torch", torch)
    monkeypatch.setitem(sys.modules, "torch.library", library)
    return torch


def test_torch_op_registers_the_function_and_a_fake_that_launches_nothing(monkeypatch, rng):
    _stand_in_torch(monkeypatch)
    monkeypatch.setenv("TERRAZZO_INTERPRET", "1")

    @triton.torch_op("mylib::axpb", mutates_args=())
    def axpb(x, y, a):
        out = np.full_like(x, np.nan)
        _launch_axpb(x, y, out, a)
        return out

    assert axpb.name == "mylib::axpb"
    assert axpb.options == {"mutates_args": (), "device_types": None}
    x = rng.standard_normal(1000).astype(np.float32)
    y = rng.standard_normal(1000).astype(np.float32)
    np.testing.assert_array_equal(axpb(x, y, 0.5), np.float32(0.5) * x + y)
    shaped = axpb.fake(x, y, 0.5)  # what torch.compile runs on fake tensors
    assert shaped.shape == x.shape and shaped.dtype == x.dtype and np.isnan(shaped).all()
    assert axpb.fake.__name__ == "axpb"
    _launch_axpb(x, y, shaped, 0.5)  # launches again after the fake
    np.testing.assert_array_equal(shaped, np.float32(0.5) * x + y)

    def own_fake(x, a):
        return None

    def scale_(x, a):
        scale_kernel[(triton.cdiv(x.size, 128),)](x, x.size, a, BLOCK=128)

    op = triton.torch_op("mylib::scale_", scale_, mutates_args=["x"], device_types="cuda",
                         schema="(Tensor(a!) x, float a) -> ()", fake=own_fake)
    assert op.fake is own_fake
    assert op.options == {"mutates_args": ["x"], "device_types": "cuda",
                          "schema": "(Tensor(a!) x, float a) -> ()"}
    x0 = x.copy()
    op(x, 2.0)
    np.testing.assert_array_equal(x, 2 * x0)
    assert op.fake(x, 2.0) is None


def test_torch_op_without_torch_says_what_it_needs(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)  # `import torch` fails
    with pytest.raises(ImportError, match=r"terrazzo.torch_op\('mylib::f'\) needs PyTorch"):
        triton.torch_op("mylib::f", lambda x: x, mutates_args=())
    old = _stand_in_torch(monkeypatch)
    del old.library.custom_op
    with pytest.raises(ImportError, match=r"needs torch.library.custom_op \(torch 2.4 or "
                                          r"newer\), not torch stand-in"):
        triton.torch_op("mylib::f", lambda x: x, mutates_args=())


def test_importing_terrazzo_does_not_import_torch():
    code = "import sys, terrazzo; print('torch' in sys.modules)"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                       timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "False", r.stderr


# ---------------------------------------------------------------------------
# On a GPU, through torch
# ---------------------------------------------------------------------------

_OPS = {}


def _ops(torch):
    """The test operators, registered once per process (torch keeps them)."""
    if not _OPS:
        @triton.torch_op("terrazzo_test::axpb", mutates_args=())
        def axpb(x: torch.Tensor, y: torch.Tensor, a: float) -> torch.Tensor:
            out = torch.empty_like(x)
            _launch_axpb(x, y, out, a)
            return out

        @triton.torch_op("terrazzo_test::scale_", mutates_args=("x",))
        def scale_(x: torch.Tensor, a: float) -> None:
            n = x.numel()
            scale_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, n, a, BLOCK=512)

        _OPS.update(axpb=axpb, scale_=scale_)
    return _OPS["axpb"], _OPS["scale_"]


def _backend(torch, name, graphs):
    if name == "graph":  # records Dynamo's graphs and runs them as they are
        def record(gm, example_inputs):
            graphs.append(gm)
            return gm.forward
        return record
    if name == "inductor":
        import importlib.util
        if importlib.util.find_spec("triton") is None:
            pytest.skip("torch.compile's inductor needs Triton for its own kernels")
    return name


@pytest.mark.gpu
@pytest.mark.parametrize("backend", ["graph", "aot_eager", "inductor"])
def test_gpu_torch_compile_calls_the_operator_without_graph_breaks(torch_cuda, rng, backend):
    torch = torch_cuda
    axpb, _ = _ops(torch)
    graphs = []

    def f(x, y):
        return torch.sin(axpb(x, y, 2.5)) * y + 1

    # fullgraph: a graph break is an error.
    compiled = torch.compile(f, fullgraph=True, backend=_backend(torch, backend, graphs))
    for n in (1000, 98432, 1 << 20):  # new sizes: dynamic shapes, through the fake
        x = torch.from_numpy(rng.standard_normal(n).astype(np.float32)).cuda()
        y = torch.from_numpy(rng.standard_normal(n).astype(np.float32)).cuda()
        got = compiled(x, y)
        torch.cuda.synchronize()
        xd, yd = x.double(), y.double()
        want = torch.sin(2.5 * xd + yd) * yd + 1
        assert got.shape == x.shape and got.dtype == torch.float32
        assert torch.allclose(got.double(), want, rtol=1e-5, atol=1e-5), \
            (got.double() - want).abs().max()
    if backend == "graph":
        assert graphs, "torch.compile made no graph"
        for gm in graphs:
            targets = [str(node.target) for node in gm.graph.nodes]
            assert any("terrazzo_test.axpb" in t for t in targets), targets


@pytest.mark.gpu
def test_gpu_torch_compile_with_an_operator_that_writes_its_input(torch_cuda, rng):
    torch = torch_cuda
    _, scale_ = _ops(torch)

    def g(x):
        scale_(x, 3.0)
        return x + 1

    compiled = torch.compile(g, fullgraph=True, backend="aot_eager")
    x0 = torch.from_numpy(rng.standard_normal(5000).astype(np.float32)).cuda()
    x = x0.clone()
    got = compiled(x)
    torch.cuda.synchronize()
    assert torch.allclose(x.double(), 3 * x0.double(), rtol=1e-6, atol=1e-6)
    assert torch.allclose(got.double(), 3 * x0.double() + 1, rtol=1e-6, atol=1e-6)


@pytest.mark.gpu
def test_gpu_opcheck_accepts_the_operator_and_its_fake(torch_cuda, rng):
    torch = torch_cuda
    axpb, scale_ = _ops(torch)
    x = torch.from_numpy(rng.standard_normal(3000).astype(np.float32)).cuda()
    y = torch.from_numpy(rng.standard_normal(3000).astype(np.float32)).cuda()
    torch.library.opcheck(axpb, (x, y, 0.75))
    torch.library.opcheck(scale_, (x.clone(), 2.0))


@pytest.mark.gpu
def test_gpu_cuda_graph_capture_of_launches(torch_cuda, rng):
    torch = torch_cuda
    axpb, _ = _ops(torch)
    n = (1 << 20) + 3
    x = torch.empty(n, device="cuda")
    y = torch.empty(n, device="cuda")
    out = torch.empty(n, device="cuda")
    x.normal_()
    y.normal_()
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # compile and warm up outside the capture
        _launch_axpb(x, y, out, 1.5)
        axpb(x, y, -0.5)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        _launch_axpb(x, y, out, 1.5)
        through_op = axpb(out, y, -0.5)
    for _ in range(3):  # new inputs in the captured buffers, replayed
        x.copy_(torch.from_numpy(rng.standard_normal(n).astype(np.float32)))
        y.copy_(torch.from_numpy(rng.standard_normal(n).astype(np.float32)))
        out.fill_(float("nan"))
        graph.replay()
        torch.cuda.synchronize()
        first = 1.5 * x.double() + y.double()
        assert torch.allclose(out.double(), first, rtol=1e-6, atol=1e-6)
        assert torch.allclose(through_op.double(), -0.5 * out.double() + y.double(),
                              rtol=1e-6, atol=1e-6)
