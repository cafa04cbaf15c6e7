"""Triton's launch options launch_pdl and launch_cooperative_grid on a GPU:
with programmatic dependent launch the second of two kernels on a stream
starts while the first still runs (their global-timer stamps overlap,
which an ordinary launch never shows) and reads the first's results
after gdc_wait; a cooperative grid of one program per SM meets at a grid-
wide barrier, and one too large to be resident at once is refused by the
driver, named, instead of launched. (The launches without a GPU, variants
and types: test_jit_compile.py and test_launch_checks.py.)"""

from __future__ import annotations

import pytest

import terrazzo as triton
import terrazzo.language as tl


@triton.jit
def spin_kernel(stamps_ptr, x_ptr, y_ptr, n, ns):
    # Lets the next kernel start at once, then writes y = x + 1 and spins
    # for `ns` nanoseconds; stamps: start and end.
    tl.extra.cuda.gdc_launch_dependents()
    start = tl.extra.cuda.globaltimer()
    offs = tl.arange(0, 1024)
    for i in range(0, n, 1024):
        mask = i + offs < n
        tl.store(y_ptr + i + offs, tl.load(x_ptr + i + offs, mask=mask) + 1.0, mask=mask)
    now = tl.extra.cuda.globaltimer()
    while now - start < ns:
        now = tl.extra.cuda.globaltimer()
    tl.store(stamps_ptr, start)
    tl.store(stamps_ptr + 1, now)


@triton.jit
def dependent_kernel(stamps_ptr, y_ptr, z_ptr, n, BLOCK: tl.constexpr):
    # Stamps its start, then waits for the previous kernel's memory and
    # writes z = 2 y.
    pid = tl.program_id(0)
    if pid == 0:
        tl.store(stamps_ptr + 2, tl.extra.cuda.globaltimer())
    tl.extra.cuda.gdc_wait()
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(z_ptr + offs, tl.load(y_ptr + offs, mask=mask) * 2.0, mask=mask)


def sm90(torch):
    if torch.cuda.get_device_capability()[0] < 9:
        pytest.skip("programmatic dependent launch needs sm_90 or later")


@pytest.mark.gpu
@pytest.mark.parametrize("pdl", [True, False])
def test_dependent_launch_overlaps_and_waits(torch_cuda, pdl):
    torch = torch_cuda
    sm90(torch)
    n = 1 << 20
    spin = 2_000_000  # ns: time enough for the host to launch the second kernel
    # A first round, not timed: the kernels' compiles and module loads would
    # hold the second launch back until the first kernel has ended.
    for timed in (False, True, True, True):
        x = torch.randn(n, device="cuda")
        y = torch.full_like(x, float("nan"))
        z = torch.full_like(x, float("nan"))
        stamps = torch.zeros(3, dtype=torch.int64, device="cuda")
        spin_kernel[(1,)](stamps, x, y, n, spin)
        dependent_kernel[(triton.cdiv(n, 1024),)](stamps, y, z, n, BLOCK=1024,
                                                 launch_pdl=pdl)
        torch.cuda.synchronize()
        start, end, dependent = stamps.tolist()
        torch.testing.assert_close(z, (x + 1.0) * 2.0, rtol=0, atol=0)
        if not timed:
            continue
        assert end - start >= spin
        if pdl:
            # Started while the first kernel spun, and still saw all of y.
            assert start <= dependent < end, (start, dependent, end)
        else:
            assert dependent >= end, (start, dependent, end)


@triton.jit
def grid_barrier_kernel(count_ptr, out_ptr, programs):
    # Every program arrives, then waits for all of them: only a grid whose
    # programs are all resident at once gets past it.
    tl.atomic_add(count_ptr, 1, sem="release")
    seen = tl.atomic_add(count_ptr, 0, sem="acquire")
    while seen < programs:
        seen = tl.atomic_add(count_ptr, 0, sem="acquire")
    tl.store(out_ptr + tl.program_id(0), seen)


@triton.jit
def nothing_kernel(out_ptr):
    tl.store(out_ptr + tl.program_id(0), 1)


@pytest.mark.gpu
def test_cooperative_grid(torch_cuda):
    torch = torch_cuda
    sms = triton.runtime.driver.active.utils.get_device_properties(0)["multiprocessor_count"]
    for programs in (sms, 2 * sms):
        count = torch.zeros(1, dtype=torch.int32, device="cuda")
        out = torch.zeros(programs, dtype=torch.int32, device="cuda")
        grid_barrier_kernel[(programs,)](count, out, programs, num_warps=4,
                                         launch_cooperative_grid=True)
        torch.cuda.synchronize()
        assert bool((out == programs).all()) and count.item() == programs


@pytest.mark.gpu
def test_cooperative_grid_too_large_is_refused(torch_cuda):
    torch = torch_cuda
    programs = 1 << 22  # far more than are ever resident at once
    out = torch.zeros(programs, dtype=torch.int32, device="cuda")
    with pytest.raises(RuntimeError, match=r"cuLaunchKernelEx.*nothing_kernel.*cooperative"):
        nothing_kernel[(programs,)](out, launch_cooperative_grid=True)
    # An ordinary launch of the same grid runs.
    nothing_kernel[(programs,)](out)
    torch.cuda.synchronize()
    assert bool((out == 1).all())


@triton.jit
def scaled_copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask) * 3.0, mask=mask)


@pytest.mark.gpu
@pytest.mark.parametrize("dims", [(2, 1, 1), (4, 1, 1)])
def test_cluster_launch(torch_cuda, dims):
    """A kernel's _C.Kernel made with cluster_dims launches its grid as
    clusters (cuLaunchKernelEx's cluster dimension): every program runs."""
    torch = torch_cuda
    sm90(torch)
    from terrazzo.runtime import jit as J
    n, block = 1000 * 128 + 17, 128
    x = torch.randn(n, device="cuda")
    y = torch.full_like(x, float("nan"))
    scaled_copy_kernel.warmup(x, y, n, BLOCK=block, grid=(1,))
    key = scaled_copy_kernel.key_for(x, y, n, BLOCK=block)
    binary, meta, _ = scaled_copy_kernel._binary_for_key(key)
    kernel = J._make_kernel_from(
        triton.runtime.driver.get_C(), binary, meta,
        cls=lambda *a, **kw: triton.runtime.driver.get_C().Kernel(*a, cluster_dims=dims, **kw))
    assert kernel.cluster_dims == dims
    programs = -(-n // block)
    programs += -programs % dims[0]
    kernel.launch((programs, 1, 1), torch.cuda.current_stream().cuda_stream,
                  [x.data_ptr(), y.data_ptr(), n])
    torch.cuda.synchronize()
    assert torch.equal(y, x * 3.0)
