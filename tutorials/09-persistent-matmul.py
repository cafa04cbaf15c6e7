"""
Persistent Matrix Multiplication
================================

Tutorial 03 launches one program per BLOCK_SIZE_M x BLOCK_SIZE_N block of C:
at 8192^3 with 128 x 256 blocks that is 2048 programs, queued in waves over
the GPU's streaming multiprocessors (SMs). A *persistent* kernel launches
one program per SM instead, and each program loops over the blocks (tiles)
of C it is given: tile `pid`, then `pid + num_programs`, and so on. The
programs stay resident, so a tile's set-up costs nothing extra and the last
wave is never a nearly empty one.

This tutorial puts three kernels side by side, all computing C = A @ B with
A (M x K) and B (K x N) row-major and float32 accumulation:

* `matmul_kernel`: tutorial 03's kernel, one program per tile;
* `matmul_persistent_kernel`: the same K loop with pointers, in a loop over
  tiles (`tl.range(start, num_tiles, tl.num_programs(0))`);
* `matmul_tma_persistent_kernel`: the loop over tiles with tensor
  descriptors (`tl.make_tensor_descriptor`): on the H100 (sm_90) the blocks
  of A and B are copied by the Tensor Memory Accelerator (TMA), pipelined
  num_stages deep, and each tile of C is written back by a TMA store from
  shared memory, left in flight while the next tile is computed; its K
  loop is pipelined inside the loop over tiles (`flatten=True` is a hint
  Terrazzo takes as one: the fused loop measured slower on the H100), and
  with FLAT the two are written as one loop by hand; with WARP_SPECIALIZE
  (`tl.range(..., warp_specialize=True)` on the K loop) a producer warp
  group issues every TMA copy of A and B, for this tile and the next, while
  the other warps only wait for them, multiply and store: a stage is handed
  back to the producer through an mbarrier as soon as the wgmma that read it
  is complete, not at a barrier of the whole program; with
  EPILOGUE_SUBTILE, C goes out in two halves (`tl.reshape`, `tl.permute`,
  `tl.split`, as Triton's tutorial writes it) through one buffer half the
  size, and the room left takes a fourth stage of A and B; the two flags
  go together too (`tma-ws-subtile`).

You will learn about:

* sizing a grid by the number of SMs, which the driver reports
  (`triton.runtime.driver.active.utils.get_device_properties(device)
  ["multiprocessor_count"]`);
* loops over tiles with `tl.range` and `tl.num_programs`, and the grouped
  tile order of tutorial 03 as a helper function;
* writing the tile coordinates so that the compiler can see they are not
  negative, which a TMA store requires.

Run it:

    python tutorials/09-persistent-matmul.py          # check the kernels
    python tutorials/09-persistent-matmul.py --bench  # TFLOP/s against cuBLAS and Triton
        [--sizes 4096 8192] [--dtypes float16 bfloat16] [--fp8-size 8192] [--rounds 3]

With an NVIDIA GPU and PyTorch the kernels run on the GPU, checked against
float64 products of fresh random data (masked tails included); without one
they run small cases in Terrazzo's interpreter, checked against NumPy.
"""

import argparse
import os
import statistics

import numpy as np

import terrazzo as triton
import terrazzo.language as tl
from terrazzo.testing import gpu_available

try:
    import torch
except ImportError:
    torch = None


# %%
# Tile order
# ----------
#
# Tile t of the num_pid_m x num_pid_n tiles of C is visited in tutorial 03's
# grouped order: GROUP_SIZE_M block rows at a time, down each column of the
# group first, so that tiles computed at the same time share blocks of A and
# B in the L2 cache. The rows of the last group are fewer when num_pid_m is
# not a multiple of GROUP_SIZE_M.
#
# `tl.maximum(..., 1)` changes nothing for a tile that exists (its group has
# at least one row), but it tells the compiler that the divisor is positive:
# then pid_m and pid_n are provably not negative (sums, products, quotients
# and remainders of program ids, loop counters counting up from them and
# non-negative arguments), and a tensor descriptor may store at
# (pid_m * BLOCK_SIZE_M, pid_n * BLOCK_SIZE_N) by TMA, which faults at
# negative coordinates. Without it the store keeps the pointer lowering.

@triton.jit
def tile_coordinates(tile_id, num_pid_m, num_pid_n, GROUP_SIZE_M: tl.constexpr):
    tiles_per_group = GROUP_SIZE_M * num_pid_n
    first_pid_m = (tile_id // tiles_per_group) * GROUP_SIZE_M
    rows_in_group = tl.maximum(tl.minimum(num_pid_m - first_pid_m, GROUP_SIZE_M), 1)
    pid_m = first_pid_m + (tile_id % tiles_per_group) % rows_in_group
    pid_n = (tile_id % tiles_per_group) // rows_in_group
    return pid_m, pid_n


# %%
# Scales for fp8
# --------------
#
# fp8 products (e4m3 or e5m2 operands, float32 accumulation) are computed on
# scaled data: A = a_scale * A8 and B = B8 * b_scale, so C = (A8 @ B8)
# scaled back in the epilogue, while the tile is still float32. The scales
# are one number per tensor ("tensor"), or one per row of A and one per
# column of B ("row", as torch._scaled_mm's row-wise scaling).

@triton.jit
def apply_scales(accumulator, a_scale_ptr, b_scale_ptr, first_m, first_n, M, N,
                 SCALING: tl.constexpr):
    # The tile at rows first_m.., columns first_n.. of C.
    if SCALING == "tensor":
        accumulator = accumulator * (tl.load(a_scale_ptr) * tl.load(b_scale_ptr))
    if SCALING == "row":
        offs_m = first_m + tl.arange(0, accumulator.shape[0])
        offs_n = first_n + tl.arange(0, accumulator.shape[1])
        a_scale = tl.load(a_scale_ptr + offs_m, mask=offs_m < M, other=0.0)
        b_scale = tl.load(b_scale_ptr + offs_n, mask=offs_n < N, other=0.0)
        accumulator = accumulator * a_scale[:, None] * b_scale[None, :]
    return accumulator


# %%
# Persistent kernel with pointers
# -------------------------------
#
# The body of the tile loop is tutorial 03's kernel: pointers to the first
# blocks of A and B, a K loop with the K tail masked to zero, and a masked
# store. `tl.range(..., flatten=True)` asks the compiler to fuse the tile
# loop and the K loop into one (so that the next tile's first loads are
# issued during this tile's epilogue); Terrazzo keeps the two loops (the
# fused form measured slower on the H100, bench/RESULTS.md) and pipelines
# the K loop on its own.

@triton.jit
def accumulate_k_blocks(a_ptrs, b_ptrs, offs_k, k_first, k_end, K, stride_ak, stride_bk,
                        BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                        BLOCK_SIZE_K: tl.constexpr):
    # Tutorial 03's K loop as a helper (tutorial 08 and the split-K
    # benchmark call it too): the float32 sum of the products of the
    # blocks k_first .. k_end - 1 of A and B along K, `a_ptrs` and `b_ptrs`
    # pointing at block k_first; the K tail reads zeros.
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(k_first, k_end):
        k_left = K - k * BLOCK_SIZE_K
        a = tl.load(a_ptrs, mask=offs_k[None, :] < k_left, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < k_left, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
    return accumulator


@triton.jit
def matmul_persistent_kernel(a_ptr, b_ptr, c_ptr, a_scale_ptr, b_scale_ptr, M, N, K,
                             stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                             BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                             BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr,
                             SCALING: tl.constexpr):
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_tiles = num_pid_m * num_pid_n
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    for tile_id in tl.range(tl.program_id(0), num_tiles, tl.num_programs(0), flatten=True):
        pid_m, pid_n = tile_coordinates(tile_id, num_pid_m, num_pid_n, GROUP_SIZE_M)
        offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
        offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
        a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
        b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
        accumulator = accumulate_k_blocks(a_ptrs, b_ptrs, offs_k, 0, tl.cdiv(K, BLOCK_SIZE_K), K,
                                          stride_ak, stride_bk, BLOCK_SIZE_M, BLOCK_SIZE_N,
                                          BLOCK_SIZE_K)
        offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
        offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
        accumulator = apply_scales(accumulator, a_scale_ptr, b_scale_ptr,
                                   pid_m * BLOCK_SIZE_M, pid_n * BLOCK_SIZE_N, M, N, SCALING)
        c = accumulator.to(c_ptr.dtype.element_ty)
        c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
        tl.store(c_ptrs, c, mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))


# %%
# Persistent kernel with tensor descriptors
# -----------------------------------------
#
# A tensor descriptor knows its tensor's shape and strides and the block it
# moves: `a_desc.load([row, col])` reads the BLOCK_SIZE_M x BLOCK_SIZE_K
# block at that corner, with zeros outside the tensor (no masks), and
# `c_desc.store` writes only the elements inside it. The descriptors are
# made once, before the tile loop (on sm_90 each becomes a TMA tensor map
# in the program's scratch memory). They stay in the kernel's own body:
# Terrazzo lowers a descriptor handed to another @jit function to pointer
# accesses, not TMA.
#
# With FLAT, the tile loop and the K loop are written as one loop. Run as
# two loops, each tile's K loop would start its pipeline from empty (its
# first num_stages - 1 blocks requested only once the previous tile is
# stored) and drain it at the end. The one loop runs over this program's
# tiles times K's blocks: step s is block s % k_tiles of tile
# pid + (s // k_tiles) * num_programs, both computed from s, so that the
# software pipeline requests the next tile's first blocks while this
# tile's last ones are multiplied and it is stored; the accumulator is
# stored and cleared on a tile's last step. This is what `flatten=True`
# asks of a compiler, written by hand (its tensor-core product stays in
# flight across steps, waited for only on a tile's last one); Terrazzo
# runs the two loops below as written, which measured faster on the H100
# (terrazzo-flatten-loops, in terrazzo-opt, would fuse them).

@triton.jit
def matmul_tma_persistent_kernel(a_ptr, b_ptr, c_ptr, a_scale_ptr, b_scale_ptr, M, N, K,
                                 BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                                 BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr,
                                 SCALING: tl.constexpr, B_COLUMN_MAJOR: tl.constexpr,
                                 FLAT: tl.constexpr, WARP_SPECIALIZE: tl.constexpr,
                                 EPILOGUE_SUBTILE: tl.constexpr = False):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1],
                                       block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_K])
    if B_COLUMN_MAJOR:  # B stored as its transpose, N x K (fp8 tensor cores read that)
        b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1],
                                           block_shape=[BLOCK_SIZE_N, BLOCK_SIZE_K])
    else:
        b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1],
                                           block_shape=[BLOCK_SIZE_K, BLOCK_SIZE_N])
    # With EPILOGUE_SUBTILE, C is written in two BLOCK_SIZE_N / 2 wide halves
    # through one buffer half the size, which leaves room for another stage.
    c_desc = tl.make_tensor_descriptor(
        c_ptr, shape=[M, N], strides=[N, 1],
        block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_N // 2 if EPILOGUE_SUBTILE else BLOCK_SIZE_N])
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    k_tiles = tl.cdiv(K, BLOCK_SIZE_K)
    tl.static_assert(not (FLAT and EPILOGUE_SUBTILE), "the FLAT loop stores C whole")
    if FLAT:
        first = tl.program_id(0)
        programs = tl.num_programs(0)
        my_tiles = tl.cdiv(tl.maximum(num_pid_m * num_pid_n - first, 0), programs)
        accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
        for step in range(0, my_tiles * k_tiles):
            tile_id = first + (step // k_tiles) * programs
            k = step % k_tiles
            pid_m, pid_n = tile_coordinates(tile_id, num_pid_m, num_pid_n, GROUP_SIZE_M)
            offs_am = pid_m * BLOCK_SIZE_M
            offs_bn = pid_n * BLOCK_SIZE_N
            a = a_desc.load([offs_am, k * BLOCK_SIZE_K])
            if B_COLUMN_MAJOR:
                b = b_desc.load([offs_bn, k * BLOCK_SIZE_K]).T
            else:
                b = b_desc.load([k * BLOCK_SIZE_K, offs_bn])
            accumulator = tl.dot(a, b, accumulator)
            if k == k_tiles - 1:
                accumulator = apply_scales(accumulator, a_scale_ptr, b_scale_ptr, offs_am,
                                           offs_bn, M, N, SCALING)
                c_desc.store([offs_am, offs_bn], accumulator.to(c_ptr.dtype.element_ty))
                accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    else:
        for tile_id in tl.range(tl.program_id(0), num_pid_m * num_pid_n, tl.num_programs(0),
                                flatten=True):
            pid_m, pid_n = tile_coordinates(tile_id, num_pid_m, num_pid_n, GROUP_SIZE_M)
            offs_am = pid_m * BLOCK_SIZE_M
            offs_bn = pid_n * BLOCK_SIZE_N
            accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
            for k in tl.range(0, k_tiles, warp_specialize=WARP_SPECIALIZE):
                a = a_desc.load([offs_am, k * BLOCK_SIZE_K])
                if B_COLUMN_MAJOR:
                    b = b_desc.load([offs_bn, k * BLOCK_SIZE_K]).T
                else:
                    b = b_desc.load([k * BLOCK_SIZE_K, offs_bn])
                accumulator = tl.dot(a, b, accumulator)
            accumulator = apply_scales(accumulator, a_scale_ptr, b_scale_ptr, offs_am, offs_bn,
                                       M, N, SCALING)
            if EPILOGUE_SUBTILE:
                halves = tl.permute(tl.reshape(accumulator, (BLOCK_SIZE_M, 2, BLOCK_SIZE_N // 2)),
                                    (0, 2, 1))
                left, right = tl.split(halves)
                c_desc.store([offs_am, offs_bn], left.to(c_ptr.dtype.element_ty))
                c_desc.store([offs_am, offs_bn + BLOCK_SIZE_N // 2],
                             right.to(c_ptr.dtype.element_ty))
            else:
                c_desc.store([offs_am, offs_bn], accumulator.to(c_ptr.dtype.element_ty))


# %%
# Configurations and launchers
# ----------------------------
#
# Block shapes for large float16/bfloat16 products (as in tutorial 03; the
# TMA kernel also keeps a BLOCK_SIZE_M x BLOCK_SIZE_N tile of C in shared
# memory for its store, so its deepest 128 x 256 pipeline is 3 stages).
# The autotuner times them at the first call for each (M, N, K).

def persistent_configs(config_type=None, fp8=False, subtile=False):
    """The autotuner's configurations; with `subtile` (EPILOGUE_SUBTILE: C
    stored through a buffer half the size) also 128 x 256 blocks 4 stages
    deep, which then fit in shared memory."""
    config_type = config_type or triton.Config
    shapes = [  # BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K, num_stages, num_warps
        (128, 256, 64, 3, 8),
        (128, 128, 64, 4, 8),
        (128, 128, 64, 4, 4),
        (256, 128, 64, 3, 8),
        (64, 128, 64, 4, 4),
    ]
    if fp8:
        # K steps of 128 bytes, as float16's 64 elements (one 128-byte
        # swizzled row); fp8 blocks take half the shared memory.
        shapes = [(128, 256, 128, 3, 8), (256, 128, 128, 3, 8), (128, 128, 128, 4, 8),
                  (128, 128, 128, 4, 4)]
    if subtile:
        shapes = [(128, 256, shapes[0][2], 4, 8)] + shapes
    return [config_type({"BLOCK_SIZE_M": m, "BLOCK_SIZE_N": n, "BLOCK_SIZE_K": k,
                         "GROUP_SIZE_M": 8}, num_stages=s, num_warps=w)
            for m, n, k, s, w in shapes]


def num_sms(device=None):
    """The number of streaming multiprocessors of `device` (the current
    one by default), from the driver, as Triton's
    `driver.active.utils.get_device_properties`."""
    props = triton.runtime.driver.active.utils.get_device_properties(device)
    if "multiprocessor_count" not in props:
        raise RuntimeError("the driver does not report multiprocessor_count")
    return props["multiprocessor_count"]


def persistent_grid(M, N, sms):
    """One program per SM, or one per tile when there are fewer tiles."""
    def grid(META):
        tiles = triton.cdiv(M, META["BLOCK_SIZE_M"]) * triton.cdiv(N, META["BLOCK_SIZE_N"])
        return (max(1, min(sms, tiles)),)
    return grid


def strides(x):
    """Element strides of a torch tensor or a NumPy array."""
    if hasattr(x, "stride") and callable(x.stride):
        return x.stride()
    return [s // x.itemsize for s in x.strides]


def scaling_of(a_scale, b_scale):
    """"none", "tensor" (one scale each) or "row" (M and N scales)."""
    if a_scale is None and b_scale is None:
        return "none"
    assert a_scale is not None and b_scale is not None, "give both scales or neither"
    if a_scale.numel() == 1 and b_scale.numel() == 1:
        return "tensor"
    return "row"


def make_matmuls(lib, pointer_kernel, tma_kernel, configs, subtile_configs):
    """Launchers (name -> fn(a, b, a_scale=None, b_scale=None,
    out_dtype=None) -> c) of the persistent kernels and their forms
    (compiled by `lib`: Terrazzo or Triton), autotuned over `configs`. A is row-major; B K x N
    row-major or column-major (the transpose of a row-major N x K, as
    torch._scaled_mm takes it); scales are float32 tensors, one element
    each or M and N of them. In the interpreter (no GPU) the grid is 3
    programs, so that each loops over several tiles."""
    # The scaling is part of the key: row scales take shared memory of
    # their own, so the best configuration with tensor scales may not fit.
    key = ["M", "N", "K", "SCALING"]
    pointer = lib.autotune(configs=configs, key=key)(pointer_kernel)
    tma = lib.autotune(configs=configs, key=key)(tma_kernel)
    flat = lib.autotune(configs=configs, key=key)(tma_kernel)
    specialized = lib.autotune(configs=configs, key=key)(tma_kernel)
    subtiled = lib.autotune(configs=subtile_configs, key=key)(tma_kernel)
    specialized_subtiled = lib.autotune(configs=subtile_configs, key=key)(tma_kernel)

    def prepare(a, b, out_dtype):
        assert a.shape[1] == b.shape[0], "incompatible dimensions"
        M, N = a.shape[0], b.shape[1]
        if torch is not None and isinstance(a, torch.Tensor):
            c = torch.empty((M, N), device=a.device, dtype=out_dtype or a.dtype)
            sms = num_sms(a.device.index)
        else:
            c = np.empty((M, N), dtype=out_dtype or a.dtype)
            sms = 3
        return c, persistent_grid(M, N, sms)

    def run_pointer(a, b, a_scale=None, b_scale=None, out_dtype=None):
        c, grid = prepare(a, b, out_dtype)
        sa, sb, sc = (strides(x) for x in (a, b, c))
        pointer[grid](a, b, c, a_scale, b_scale, a.shape[0], b.shape[1], a.shape[1],
                      sa[0], sa[1], sb[0], sb[1], sc[0], sc[1],
                      SCALING=scaling_of(a_scale, b_scale))
        return c

    def descriptor_launcher(kernel, flat, warp_specialize=False, subtile=False):
        def run(a, b, a_scale=None, b_scale=None, out_dtype=None):
            c, grid = prepare(a, b, out_dtype)
            sa, sb = strides(a), strides(b)
            assert sa[1] == 1, "A must be row-major"
            column_major = sb[0] == 1 and sb[1] != 1
            assert column_major or sb[1] == 1, "B must be row- or column-major"
            kernel[grid](a, b, c, a_scale, b_scale, a.shape[0], b.shape[1], a.shape[1],
                         SCALING=scaling_of(a_scale, b_scale), B_COLUMN_MAJOR=column_major,
                         FLAT=flat, WARP_SPECIALIZE=warp_specialize,
                         EPILOGUE_SUBTILE=subtile)
            return c
        run.autotuner = kernel
        return run
    run_pointer.autotuner = pointer
    return {"persistent": run_pointer, "tma-persistent": descriptor_launcher(tma, False),
            "tma-flat": descriptor_launcher(flat, True),
            "tma-ws": descriptor_launcher(specialized, False, warp_specialize=True),
            "tma-subtile": descriptor_launcher(subtiled, False, subtile=True),
            "tma-ws-subtile": descriptor_launcher(specialized_subtiled, False,
                                                  warp_specialize=True, subtile=True)}


def load_tutorial_03():
    """Tutorial 03's module (its kernel is the non-persistent baseline)."""
    import importlib.util
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "03-matrix-multiplication.py")
    spec = importlib.util.spec_from_file_location("tutorial_03_matmul", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def terrazzo_matmuls(fp8=False):
    """name -> launcher: tutorial 03's kernel (not for fp8) and the two
    persistent ones."""
    matmuls = {} if fp8 else {"tutorial-03": load_tutorial_03().matmul}
    matmuls.update(make_matmuls(triton, matmul_persistent_kernel, matmul_tma_persistent_kernel,
                                persistent_configs(fp8=fp8),
                                persistent_configs(fp8=fp8, subtile=True)))
    return matmuls


def triton_matmuls(fp8=False):
    """The same kernels under the real Triton (3.6), or {} where it is not
    installed."""
    module = triton.testing.under_triton(tile_coordinates, apply_scales,
                                         accumulate_k_blocks, matmul_persistent_kernel,
                                         matmul_tma_persistent_kernel,
                                         name="triton_persistent_matmul")
    if module is None or torch is None:
        return {}
    import triton as real  # the real Triton, found above
    # Triton builds the tensor maps of device-side descriptors in memory
    # the caller gives.
    real.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8,
                                                               device="cuda"))
    matmuls = {} if fp8 else {"tutorial-03": load_tutorial_03().triton_matmul()}
    matmuls.update(make_matmuls(real, module.matmul_persistent_kernel,
                                module.matmul_tma_persistent_kernel,
                                persistent_configs(real.Config, fp8=fp8),
                                persistent_configs(real.Config, fp8=fp8, subtile=True)))
    return {name: fn for name, fn in matmuls.items() if fn is not None}


# %%
# Unit test
# ---------
#
# Every kernel against a float64 product of fresh random data, on sizes
# that are not multiples of any block (tails in M, N and K) and on one that
# has more tiles than SMs (each program does several tiles). The TMA kernel
# needs rows of A, B and C that are a whole number of 16 bytes (K and N
# multiples of 8 for 2-byte types), as TMA does. fp8 (GPU only): e4m3 and
# e5m2 with per-tensor and per-row scales, B column-major.

def relative_error(got, want):
    if torch is not None and isinstance(got, torch.Tensor):
        return ((got.double() - want).norm() / want.norm()).item()
    return float(np.linalg.norm(got.astype(np.float64) - want) / np.linalg.norm(want))


def random_fp8(rows, cols, dtype_name, column_major=False):
    """fp8 data (unit normal, rounded), row-major or the transpose of a
    row-major cols x rows."""
    dtype = dict(e4m3=torch.float8_e4m3fn, e5m2=torch.float8_e5m2)[dtype_name]
    if column_major:
        return torch.randn(cols, rows, device="cuda").to(dtype).t()
    return torch.randn(rows, cols, device="cuda").to(dtype)


def random_scales(a, b, scaling):
    """float32 scales: one each ("tensor"), or one per row of A and per
    column of B ("row"), as (M, 1) and (1, N) (torch._scaled_mm's shapes)."""
    if scaling == "tensor":
        return (torch.rand((), device="cuda") + 0.5, torch.rand((), device="cuda") + 0.5)
    return (torch.rand((a.shape[0], 1), device="cuda") + 0.5,
            torch.rand((1, b.shape[1]), device="cuda") + 0.5)


def scaled_reference(a, b, a_scale, b_scale):
    return (a.double() * a_scale.double()) @ (b.double() * b_scale.double())


def check(on_gpu: bool):
    rng = np.random.default_rng()
    matmuls = terrazzo_matmuls()
    if on_gpu:
        shapes = [(512, 512, 512), (1000, 776, 328), (2048, 3072, 1024), (96, 136, 72)]
        dtypes = ["float16", "bfloat16"]
    else:
        shapes = [(70, 88, 104)]
        dtypes = ["float16"]
    for (m, n, k) in shapes:
        for dtype in dtypes:
            a_np = rng.standard_normal((m, k)).astype(np.float32)
            b_np = rng.standard_normal((k, n)).astype(np.float32)
            for name, fn in matmuls.items():
                if on_gpu:
                    tdt = getattr(torch, dtype)
                    a = torch.from_numpy(a_np).cuda().to(tdt)
                    b = torch.from_numpy(b_np).cuda().to(tdt)
                    want = a.double() @ b.double()
                else:
                    if name == "tutorial-03":
                        continue  # tutorial 03 checks itself
                    a, b = a_np.astype(dtype), b_np.astype(dtype)
                    want = a.astype(np.float64) @ b.astype(np.float64)
                err = relative_error(fn(a, b), want)
                print(f"{'GPU' if on_gpu else 'interpreter'}: {name:15s} {m}x{n}x{k} {dtype}: "
                      f"relative error {err:.2e} against float64")
                limit = 1e-2 if dtype == "bfloat16" else 2e-3
                assert err < limit, f"{name}: relative error {err} is above {limit}"
    if on_gpu:
        fp8_matmuls = terrazzo_matmuls(fp8=True)
        for (m, n, k) in [(512, 512, 512), (1000, 784, 336), (2048, 3072, 1024)]:
            for fp8 in ("e4m3", "e5m2"):
                for scaling in ("tensor", "row"):
                    a = random_fp8(m, k, fp8)
                    b = random_fp8(k, n, fp8, column_major=True)
                    a_scale, b_scale = random_scales(a, b, scaling)
                    want = scaled_reference(a, b, a_scale, b_scale)
                    for name, fn in fp8_matmuls.items():
                        c = fn(a, b, a_scale, b_scale, out_dtype=torch.bfloat16)
                        err = relative_error(c, want)
                        print(f"GPU: {name:15s} {m}x{n}x{k} fp8 {fp8} {scaling} scales: "
                              f"relative error {err:.2e} against float64")
                        assert err < 1e-2, f"{name}: relative error {err}"
    print("The results match.")


# %%
# Benchmark
# ---------
#
# Median TFLOP/s (2 M N K per product) of square products, the L2 cache
# flushed before every call (`triton.testing.do_bench`), against
# torch.matmul (cuBLAS) and, when installed, the same kernels under Triton;
# fp8 against torch._scaled_mm. Every provider's result is checked against
# float64 first, each on its own fresh random inputs.

def bench_case(case, make, providers, flops, rounds, baseline):
    """Rows (case, provider, TFLOP/s, ratio to `baseline`) of `providers`
    (name -> fn(*inputs) -> (c, want)), each on its own make() inputs."""
    providers = dict(providers)
    inputs = {}
    for name, fn in list(providers.items()):
        inputs[name] = make()
        try:
            c = fn(*inputs[name])
        except Exception as e:  # noqa: BLE001 - the installed Triton's own limits
            if not name.startswith("triton "):
                raise
            print(f"{case}: {name} left out: Triton raised {type(e).__name__}: "
                  f"{str(e).splitlines()[0] if str(e) else ''}")
            del providers[name], inputs[name]
            continue
        want = reference_of(*inputs[name])
        err = relative_error(c, want)
        assert err < 1e-2, f"{name}: relative error {err} at {case}"
        del c, want
    times = {name: [] for name in providers}
    # Rounds interleaved over the providers (clock and temperature drift
    # hit all of them).
    for _ in range(rounds):
        for name, fn in providers.items():
            times[name].append(triton.testing.do_bench(
                lambda: fn(*inputs[name]), warmup=25, rep=200, return_mode="median"))
    tflops = {name: flops / (statistics.median(t) * 1e-3) * 1e-12 for name, t in times.items()}
    inputs.clear()
    torch.cuda.empty_cache()
    return [(case, name, tf, tf / tflops[baseline]) for name, tf in tflops.items()]


def reference_of(a, b, a_scale=None, b_scale=None):
    if a_scale is None:
        return a.double() @ b.double()
    return scaled_reference(a, b, a_scale, b_scale)


def bench(sizes, dtypes, rounds, fp8_size):
    print(f"device: {torch.cuda.get_device_name()}, {num_sms()} SMs, torch {torch.__version__}")
    rows = []
    providers = {f"terrazzo {name}": fn for name, fn in terrazzo_matmuls().items()}
    providers["torch"] = torch.matmul
    providers.update({f"triton {name}": fn for name, fn in triton_matmuls().items()})
    for n in sizes:
        for dtype in dtypes:
            make = lambda n=n, dtype=dtype: (
                torch.randn(n, n, device="cuda", dtype=getattr(torch, dtype)),
                torch.randn(n, n, device="cuda", dtype=getattr(torch, dtype)))
            rows += bench_case(f"{n}^3 {dtype}", make, providers, 2.0 * n ** 3, rounds, "torch")
    if fp8_size:
        n = fp8_size
        fp8_providers = {}
        for name, fn in terrazzo_matmuls(fp8=True).items():
            fp8_providers[f"terrazzo {name}"] = \
                lambda a, b, sa, sb, fn=fn: fn(a, b, sa, sb, out_dtype=torch.bfloat16)
        fp8_providers["torch._scaled_mm"] = lambda a, b, sa, sb: torch._scaled_mm(
            a, b, scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16)
        for name, fn in triton_matmuls(fp8=True).items():
            fp8_providers[f"triton {name}"] = \
                lambda a, b, sa, sb, fn=fn: fn(a, b, sa, sb, out_dtype=torch.bfloat16)
        for scaling in ("tensor", "row"):
            def make(scaling=scaling):
                a = random_fp8(n, n, "e4m3")
                b = random_fp8(n, n, "e4m3", column_major=True)
                return (a, b) + random_scales(a, b, scaling)
            rows += bench_case(f"{n}^3 fp8 e4m3, {scaling} scales -> bf16", make,
                               fp8_providers, 2.0 * n ** 3, rounds, "torch._scaled_mm")
        # cuBLAS has no e5m2 x e5m2 product: Terrazzo and Triton only.
        e5m2_providers = {k: v for k, v in fp8_providers.items() if not k.startswith("torch")}

        def make_e5m2():
            a = random_fp8(n, n, "e5m2")
            b = random_fp8(n, n, "e5m2", column_major=True)
            return (a, b) + random_scales(a, b, "tensor")
        first = next(iter(e5m2_providers))
        rows += bench_case(f"{n}^3 fp8 e5m2, tensor scales -> bf16", make_e5m2,
                           e5m2_providers, 2.0 * n ** 3, rounds, first)
    print(f"\nmedian TFLOP/s (median of {rounds} rounds of do_bench medians, L2 flushed "
          "before each call); ratio to torch (cuBLAS), for e5m2 to the first row\n")
    print("| case | provider | TFLOP/s | ratio |\n|---|---|---:|---:|")
    for case, name, tflops, ratio in rows:
        print(f"| {case} | {name} | {tflops:.1f} | {ratio:.2f} |")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].strip())
    parser.add_argument("--bench", action="store_true", help="print a TFLOP/s table")
    parser.add_argument("--sizes", type=int, nargs="*", default=[4096, 8192])
    parser.add_argument("--dtypes", nargs="*", default=["float16", "bfloat16"])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--fp8-size", type=int, default=8192,
                        help="the fp8 cases' M = N = K (0: none)")
    parser.add_argument("--no-check", action="store_true", help="skip the correctness check")
    args = parser.parse_args(argv)
    on_gpu = gpu_available() and torch is not None and torch.cuda.is_available()
    if not on_gpu:
        os.environ["TERRAZZO_INTERPRET"] = "1"
    if not args.no_check:
        check(on_gpu)
    if args.bench:
        if not on_gpu:
            print("--bench needs a GPU and torch")
            return
        bench(args.sizes, args.dtypes, args.rounds, args.fp8_size)


if __name__ == "__main__":
    main()
