"""Bad launches (grids, launch options) give the same exception with the same
message naming what is wrong in both modes: compiled (the C++ dispatcher,
with dry-run kernels: no GPU needed) and interpreted (kernel.py's launch
checks). Without the extension the compiled mode is skipped, unless
TERRAZZO_REQUIRE_EXTENSION=1 (CI)."""

from __future__ import annotations

import os

import numpy as np
import pytest

import terrazzo as triton
import terrazzo.language as tl
from terrazzo.compiler.kernel import MAX_NUM_WARPS

try:
    from terrazzo import _C
    _C_ERROR = None
except ImportError as e:  # not built
    _C, _C_ERROR = None, e


@triton.jit
def scale_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=m) * 2, mask=m)


# (grid, launch options, exception, message): the whole message, so that
# both modes must agree on every word.
BAD_LAUNCHES = [
    ("abc", {}, TypeError,
     "grid must be a tuple of 1 to 3 ints (or a callable returning one), got str"),
    (None, {}, TypeError,
     "grid must be a tuple of 1 to 3 ints (or a callable returning one), got NoneType"),
    (2.0, {}, TypeError,
     "grid must be a tuple of 1 to 3 ints (or a callable returning one), got float"),
    (np.int64(2), {}, TypeError,
     "grid must be a tuple of 1 to 3 ints (or a callable returning one), got numpy.int64"),
    ((1.5,), {}, TypeError, "grid dimension 0 must be an int, got float"),
    ((1, "2"), {}, TypeError, "grid dimension 1 must be an int, got str"),
    ((1, 1, None), {}, TypeError, "grid dimension 2 must be an int, got NoneType"),
    ((), {}, ValueError, "grid must have 1 to 3 dimensions, got 0: ()"),
    ((1, 1, 1, 1), {}, ValueError, "grid must have 1 to 3 dimensions, got 4: (1, 1, 1, 1)"),
    ((-1,), {}, ValueError, "grid dimension 0 = -1 is out of range"),
    ((1, 1 << 32), {}, ValueError, "grid dimension 1 = 4294967296 is out of range"),
    ((1 << 70,), {}, ValueError, f"grid dimension 0 = {1 << 70} is out of range"),
    (lambda meta: "x", {}, TypeError,
     "grid must be a tuple of 1 to 3 ints (or a callable returning one), got str"),
    (lambda meta: (meta["n"] / 2,), {}, TypeError, "grid dimension 0 must be an int, got float"),
    ((1,), {"num_warps": 3}, AssertionError,
     f"num_warps must be a power of 2 from 1 to {MAX_NUM_WARPS}, got 3"),
    ((1,), {"num_warps": 2 * MAX_NUM_WARPS}, AssertionError,
     f"num_warps must be a power of 2 from 1 to {MAX_NUM_WARPS}, got {2 * MAX_NUM_WARPS}"),
    ((1,), {"num_warps": 0}, AssertionError,
     f"num_warps must be a power of 2 from 1 to {MAX_NUM_WARPS}, got 0"),
    ((1,), {"num_warps": -4}, AssertionError,
     f"num_warps must be a power of 2 from 1 to {MAX_NUM_WARPS}, got -4"),
    ((1,), {"num_warps": -(1 << 64)}, ValueError, f"num_warps = {-(1 << 64)} is out of range"),
    ((1,), {"num_warps": 4.0}, TypeError, "num_warps must be an int, got float"),
    ((1,), {"num_warps": "4"}, TypeError, "num_warps must be an int, got str"),
    ((1,), {"num_warps": 1 << 40}, ValueError, f"num_warps = {1 << 40} is out of range"),
    ((1,), {"num_stages": -1}, ValueError, "num_stages = -1 is out of range"),
    ((1,), {"num_stages": 2.5}, TypeError, "num_stages must be an int, got float"),
    ((1,), {"num_ctas": 0}, ValueError, "num_ctas = 0 is out of range"),
    ((1,), {"num_ctas": "1"}, TypeError, "num_ctas must be an int, got str"),
    ((1,), {"maxnreg": -5}, ValueError, "maxnreg = -5 is out of range"),
    ((1,), {"maxnreg": 16}, ValueError, "maxnreg must be from 24 to 255 registers per thread, got 16"),
    ((1,), {"maxnreg": 256}, ValueError, "maxnreg must be from 24 to 255 registers per thread, got 256"),
    ((1,), {"maxnreg": 128.0}, TypeError, "maxnreg must be an int, got float"),
    ((1,), {"enable_fp_fusion": "yes"}, TypeError, "enable_fp_fusion must be a bool, got str"),
    ((1,), {"launch_cooperative_grid": 1}, TypeError,
     "launch_cooperative_grid must be a bool, got int"),
    ((1,), {"launch_pdl": "yes"}, TypeError, "launch_pdl must be a bool, got str"),
    ((1,), {"extern_libs": "libdevice"}, TypeError, "extern_libs must be a dict, got str"),
    ((1,), {"arch": "ampere"}, ValueError,
     "arch='ampere': expected an architecture such as 'sm80', 'sm_90a' or 'gfx942'"),
]


@pytest.fixture(params=["compiled", "interpreted"])
def mode(request, _private_cache, monkeypatch):
    if request.param == "compiled":
        if _C is None:
            if os.environ.get("TERRAZZO_REQUIRE_EXTENSION", "") not in ("", "0"):
                pytest.fail(f"terrazzo._C cannot be imported: {_C_ERROR}", pytrace=False)
            pytest.skip(f"terrazzo._C is not built ({_C_ERROR})")
        monkeypatch.setenv("TERRAZZO_DRY_LAUNCH", "1")
        monkeypatch.delenv("TERRAZZO_INTERPRET", raising=False)
        monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    else:
        monkeypatch.setenv("TERRAZZO_INTERPRET", "1")
    return request.param


def _argument(mode):
    """A float32 buffer of 64 elements: a NumPy array for the interpreter,
    something that looks like a device tensor for the dry-run dispatcher."""
    if mode == "interpreted":
        return np.ones(64, np.float32)

    class DeviceBuffer:
        dtype = "float32"

        def data_ptr(self):
            return 1 << 20
    return DeviceBuffer()


@pytest.mark.parametrize("grid,options,exc,message", BAD_LAUNCHES,
                         ids=[f"{i}-{c[3][:40]}" for i, c in enumerate(BAD_LAUNCHES)])
def test_bad_launches_are_rejected_with_the_same_message(mode, grid, options, exc, message):
    kernel = triton.jit(scale_kernel.fn)
    with pytest.raises(exc) as ei:
        kernel[grid](_argument(mode), 64, BLOCK=64, **options)
    assert str(ei.value) == message


@pytest.mark.parametrize("grid", [(2,), [2], 2, (np.int32(2),), (2, 1, 1), lambda meta: (2,),
                                  (True,), (0,)])
def test_good_grids_launch(mode, grid):
    kernel = triton.jit(scale_kernel.fn)
    x = _argument(mode)
    kernel[grid](x, 64, BLOCK=32, num_warps=None, num_stages=None, num_ctas=1,
                 enable_fp_fusion=False)
    if mode == "interpreted":
        programs = 0 if grid == (0,) else (1 if grid == (True,) else 2)
        expected = np.where(np.arange(64) < 32 * programs, 2.0, 1.0)
        np.testing.assert_array_equal(x, expected)


def test_compile_only_requests_check_the_options_too():
    """kernel.compile / kernel.ir compute the key in Python: same checks."""
    x = np.ones(64, np.float32)
    with pytest.raises(AssertionError, match="num_warps must be a power of 2"):
        scale_kernel.ir(x, 64, BLOCK=64, num_warps=3)
    with pytest.raises(TypeError, match="num_stages must be an int, got str"):
        scale_kernel.ir(x, 64, BLOCK=64, num_stages="3")


@pytest.mark.skipif(_C is None, reason="needs terrazzo._C")
def test_the_largest_num_warps_is_the_compilers():
    assert _C.max_num_warps() == MAX_NUM_WARPS
