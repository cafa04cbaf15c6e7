"""
Grouped GEMM
============

A *grouped* GEMM computes a list of independent products C_g = A_g @ B_g of
different sizes in one kernel launch: the expert layers of a
mixture-of-experts model, or the per-request products of a batch whose
requests differ in length. A loop of torch.matmul calls pays one launch
per product and leaves the GPU partly idle at the end of each small one;
one launch over every product's tiles keeps all SMs busy from the first
tile to the last.

You will learn about:

* passing a list of tensors to a kernel as arrays of their addresses
  (int64), turned back into typed pointers in the kernel
  (`.to(tl.pointer_type(DTYPE))`);
* a static persistent schedule: one program per SM, each taking one tile
  of every round of num_programs tiles of the concatenated tile list of all
  the problems, in a snake order over problems sorted by their K, so that
  the programs end together although the problems' tiles differ in cost;
* finding which problem a tile belongs to with block operations: the
  running total of the problems' tile counts (`tl.cumsum`) and a count of
  the totals at or below the tile (`tl.sum`);
* reading the next tile's problem (its sizes, strides and addresses) while
  the current tile computes: values carried from one iteration of the loop
  over tiles to the next;
* masking every edge (M, N and K of each problem need not be multiples of
  the block sizes);
* the same products through tensor descriptors made inside the loop over
  problems (`tl.make_tensor_descriptor`), whose blocks move by TMA on the
  H100.

Run it:

    python tutorials/08-grouped-gemm.py          # check against float64
    python tutorials/08-grouped-gemm.py --bench  # against a loop of torch.matmul (and Triton)
        [--dtypes float16 bfloat16] [--rounds 3]

With an NVIDIA GPU and PyTorch the kernel runs on the GPU, checked against
float64 products of fresh random data; without one the tutorial prints the
kernel's PTX for the H100 (the interpreter cannot follow raw addresses:
it knows memory only through a kernel's array arguments).
"""

import argparse
import functools
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


def _load_tutorial_09():
    import importlib.util
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "09-persistent-matmul.py")
    spec = importlib.util.spec_from_file_location("tutorial_09_persistent_matmul", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# Tutorial 03's K loop, as tutorial 09 keeps it (a @jit function called
# from a kernel is inlined into it).
_tutorial_09 = _load_tutorial_09()
accumulate_k_blocks = _tutorial_09.accumulate_k_blocks
# Tutorial 09's order of a problem's tiles: GROUP_SIZE_M rows of tiles at a
# time, column by column, so that the programs in flight share blocks of A
# and B in the L2 cache.
tile_coordinates = _tutorial_09.tile_coordinates


# %%
# Compute kernel
# --------------
#
# The problems are described by arrays of GROUP_COUNT entries:
#
# * `a_addrs`, `b_addrs`, `c_addrs`: the address of each A_g, B_g and C_g;
# * `sizes`: M_g, N_g, K_g of each problem (row-major, three per problem);
# * `lds`: the row strides of A_g, B_g and C_g (in elements).
#
# Each program first reads every problem's M and N (one block of
# GROUPS_POW2 >= GROUP_COUNT lanes, the extra lanes masked to zero) and
# computes its tile count and the running total `tile_ends` (tile_ends[g]:
# the tiles of problems 0..g). Tile t of the concatenation belongs to the
# problem g that has tile_ends[g-1] <= t < tile_ends[g]: g is the number of
# running totals at or below t. Inside its problem, the tiles are numbered
# as tutorial 09 numbers them (GROUP_SIZE_M rows of tiles at a time; 1: row
# by row).
#
# The schedule. A tile's cost is its number of K steps, the same for every
# tile of a problem, and the launcher lists the problems by decreasing K:
# the concatenation runs from the dearest tiles to the cheapest. Handing
# them out in rounds of num_programs, program p taking the p-th tile of
# every round, would give the first programs the dearer tile of every
# round: with this tutorial's eight problems and 132 programs, the busiest
# program has 10% more K steps than the average, and everyone waits for
# it. `snake_tile` reads every other round backwards instead, so that what
# a program gains in one round it gives back in the next: 1.4% over the
# average. The rounds are paired from the last full one down (it is read
# backwards), so that the first programs, which alone take a tile of the
# last, partial round, have the least work before it. The order is static
# (no atomic counter to reset between launches), and neighbouring programs
# still take neighbouring tiles of a problem, which share blocks of A and B
# in the L2 cache.

@triton.jit
def snake_tile(i, total_tiles, programs):
    """The tile of a program's loop index i (i = program id + a multiple of
    `programs`, below `total_tiles`): in rounds of `programs` tiles, the
    last full round and every second one before it read backwards."""
    round_ = i // programs
    first = round_ * programs
    full_rounds = total_tiles // programs
    backwards = (round_ < full_rounds) & ((full_rounds - 1 - round_) % 2 == 0)
    return tl.where(backwards, first + programs - 1 - (i - first), i)


@triton.jit
def problem_entries(g, sizes, lds, a_addrs, b_addrs, c_addrs, ALIGNED: tl.constexpr):
    """Problem g's M, N, K, the row strides of A, B and C and their
    addresses."""
    M = tl.load(sizes + g * 3)
    N = tl.load(sizes + g * 3 + 1)
    K = tl.load(sizes + g * 3 + 2)
    lda = tl.load(lds + g * 3)
    ldb = tl.load(lds + g * 3 + 1)
    ldc = tl.load(lds + g * 3 + 2)
    if ALIGNED:
        # The launcher checked that every matrix starts at a multiple of 16
        # bytes and that N, K and the row strides are multiples of 8
        # elements (16 bytes): rows are then copied 16 bytes at a time
        # (cp.async), which the compiler cannot know of values loaded from
        # memory. (The addresses are checked likewise: problem_pointer.)
        N = tl.multiple_of(N, 8)
        K = tl.multiple_of(K, 8)
        lda = tl.multiple_of(lda, 8)
        ldb = tl.multiple_of(ldb, 8)
        ldc = tl.multiple_of(ldc, 8)
    return (M, N, K, lda, ldb, ldc,
            tl.load(a_addrs + g), tl.load(b_addrs + g), tl.load(c_addrs + g))


@triton.jit
def problem_pointer(address, DTYPE: tl.constexpr, ALIGNED: tl.constexpr):
    """A matrix's address as a pointer to DTYPE (16-byte aligned with
    ALIGNED: see problem_entries)."""
    pointer = address.to(tl.pointer_type(DTYPE))
    if ALIGNED:
        pointer = tl.multiple_of(pointer, 16)
    return pointer


@triton.jit
def tile_problem(t, groups, tiles, tile_ends, tiles_n, sizes, lds, a_addrs, b_addrs, c_addrs,
                 GROUP_COUNT, ALIGNED: tl.constexpr):
    """What a program needs of tile t's problem: the tile's index in it, the
    problem's tiles per row of tiles, and its problem_entries. Past the last
    tile (t >= the total) the last problem's, so that the loads stay within
    the arrays."""
    g = tl.minimum(tl.sum((tile_ends <= t).to(tl.int32), axis=0), GROUP_COUNT - 1)
    first_tile = tl.sum(tl.where(groups == g, tile_ends - tiles, 0), axis=0)
    n_tiles = tl.sum(tl.where(groups == g, tiles_n, 0), axis=0)
    M, N, K, lda, ldb, ldc, a_addr, b_addr, c_addr = problem_entries(
        g, sizes, lds, a_addrs, b_addrs, c_addrs, ALIGNED)
    return t - first_tile, n_tiles, M, N, K, lda, ldb, ldc, a_addr, b_addr, c_addr


@triton.jit
def tile_counts(sizes, GROUP_COUNT, GROUPS_POW2: tl.constexpr, BLOCK_SIZE_M: tl.constexpr,
                BLOCK_SIZE_N: tl.constexpr):
    """Every problem's tiles per row of tiles and its tiles, one block of
    GROUPS_POW2 >= GROUP_COUNT lanes (the extra lanes 0), and the lanes'
    problem indices."""
    groups = tl.arange(0, GROUPS_POW2)
    in_list = groups < GROUP_COUNT
    ms = tl.load(sizes + groups * 3, mask=in_list, other=0)
    ns = tl.load(sizes + groups * 3 + 1, mask=in_list, other=0)
    tiles_n = tl.cdiv(ns, BLOCK_SIZE_N)
    return groups, tiles_n, tl.cdiv(ms, BLOCK_SIZE_M) * tiles_n


@triton.jit
def grouped_matmul_kernel(a_addrs, b_addrs, c_addrs, sizes, lds, GROUP_COUNT,
                          DTYPE: tl.constexpr, GROUPS_POW2: tl.constexpr,
                          ALIGNED: tl.constexpr,
                          BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                          BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr = 1):
    groups, tiles_n, tiles = tile_counts(sizes, GROUP_COUNT, GROUPS_POW2, BLOCK_SIZE_M,
                                         BLOCK_SIZE_N)
    tile_ends = tl.cumsum(tiles, axis=0)
    total_tiles = tl.sum(tiles, axis=0)
    programs = tl.num_programs(0)
    # The problem of the program's first tile. In the loop, the next tile's
    # is read before this tile's K loop, so that its loads (a chain of two:
    # the problem's index, then its entries) are in flight while this tile
    # computes instead of delaying the start of the next one.
    (tile, n_tiles, M, N, K, lda, ldb, ldc, a_addr, b_addr,
     c_addr) = tile_problem(snake_tile(tl.program_id(0), total_tiles, programs), groups, tiles,
                            tile_ends, tiles_n, sizes, lds, a_addrs, b_addrs, c_addrs,
                            GROUP_COUNT, ALIGNED)
    for i in tl.range(tl.program_id(0), total_tiles, programs):
        pid_m, pid_n = tile_coordinates(tile, tl.cdiv(M, BLOCK_SIZE_M), n_tiles, GROUP_SIZE_M)
        a_ptr = problem_pointer(a_addr, DTYPE, ALIGNED)
        b_ptr = problem_pointer(b_addr, DTYPE, ALIGNED)
        c_ptr = problem_pointer(c_addr, DTYPE, ALIGNED)

        offs_m = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
        offs_n = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
        offs_k = tl.arange(0, BLOCK_SIZE_K)
        # Rows of A and columns of B past the problem's edge are wrapped
        # (their results are not stored); the K loop is tutorial 03's, kept
        # in tutorial 09 (accumulate_k_blocks).
        a_ptrs = a_ptr + (offs_m % M)[:, None] * lda + offs_k[None, :]
        b_ptrs = b_ptr + offs_k[:, None] * ldb + (offs_n % N)[None, :]
        (next_tile, next_n_tiles, next_M, next_N, next_K, next_lda, next_ldb, next_ldc,
         next_a, next_b, next_c) = tile_problem(snake_tile(i + programs, total_tiles, programs),
                                                groups, tiles, tile_ends, tiles_n, sizes, lds,
                                                a_addrs, b_addrs, c_addrs, GROUP_COUNT, ALIGNED)
        accumulator = accumulate_k_blocks(a_ptrs, b_ptrs, offs_k, 0, tl.cdiv(K, BLOCK_SIZE_K), K,
                                          1, ldb, BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K)
        c_ptrs = c_ptr + offs_m[:, None] * ldc + offs_n[None, :]
        tl.store(c_ptrs, accumulator.to(DTYPE),
                 mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))
        tile, n_tiles, M, N, K = next_tile, next_n_tiles, next_M, next_N, next_K
        lda, ldb, ldc, a_addr, b_addr, c_addr = next_lda, next_ldb, next_ldc, next_a, next_b, next_c


# %%
# The same products through tensor descriptors
# ---------------------------------------------
#
# Triton's own grouped GEMM with TMA takes the problems in turn and makes
# descriptors for A, B and C once per problem a program has tiles in: on
# the H100 their tensor maps are built in the loop, in the program's
# scratch, and the blocks move by TMA (no address arithmetic per element,
# no masks: a box past a problem's edge reads zeros and writes nothing).
# This form keeps the schedule of the kernel above (snake_tile over the
# problems sorted by K): a program's tile of round r is snake_tile(r * P +
# pid), so within problem g it walks the rounds that overlap g's tiles.
# It needs 16-byte rows (ALIGNED).

@triton.jit
def grouped_matmul_tma_kernel(a_addrs, b_addrs, c_addrs, sizes, lds, GROUP_COUNT,
                              DTYPE: tl.constexpr, GROUPS_POW2: tl.constexpr,
                              ALIGNED: tl.constexpr,
                              BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                              BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr = 1):
    tl.static_assert(ALIGNED, "the TMA form needs 16-byte rows")
    pid = tl.program_id(0)
    programs = tl.num_programs(0)
    _, _, tiles = tile_counts(sizes, GROUP_COUNT, GROUPS_POW2, BLOCK_SIZE_M, BLOCK_SIZE_N)
    total_tiles = tl.sum(tiles, axis=0)
    first_tile = 0  # of problem g in the concatenation
    for g in range(GROUP_COUNT):
        M, N, K, lda, ldb, ldc, a_addr, b_addr, c_addr = problem_entries(
            g, sizes, lds, a_addrs, b_addrs, c_addrs, ALIGNED)
        tiles_m = tl.cdiv(M, BLOCK_SIZE_M)
        tiles_n = tl.cdiv(N, BLOCK_SIZE_N)
        end_tile = first_tile + tiles_m * tiles_n
        first_round = first_tile // programs
        last_round = tl.cdiv(end_tile, programs)
        # Whether this program has a tile of problem g (a scalar loop over
        # the few rounds that overlap it): the maps are built only then.
        mine = 0
        for r in range(first_round, last_round):
            t = snake_tile(r * programs + pid, total_tiles, programs)
            mine += ((t >= first_tile) & (t < end_tile)).to(tl.int32)
        if mine > 0:
            a_desc = tl.make_tensor_descriptor(problem_pointer(a_addr, DTYPE, ALIGNED), [M, K],
                                               [lda, 1], [BLOCK_SIZE_M, BLOCK_SIZE_K])
            b_desc = tl.make_tensor_descriptor(problem_pointer(b_addr, DTYPE, ALIGNED), [K, N],
                                               [ldb, 1], [BLOCK_SIZE_K, BLOCK_SIZE_N])
            c_desc = tl.make_tensor_descriptor(problem_pointer(c_addr, DTYPE, ALIGNED), [M, N],
                                               [ldc, 1], [BLOCK_SIZE_M, BLOCK_SIZE_N])
            for r in range(first_round, last_round):
                t = snake_tile(r * programs + pid, total_tiles, programs)
                if (t >= first_tile) & (t < end_tile):
                    pid_m, pid_n = tile_coordinates(t - first_tile, tiles_m, tiles_n,
                                                    GROUP_SIZE_M)
                    # (The maximum with 0 changes nothing but lets the
                    # compiler know the coordinates are not negative, as TMA
                    # stores need.)
                    off_m = tl.maximum(pid_m, 0) * BLOCK_SIZE_M
                    off_n = tl.maximum(pid_n, 0) * BLOCK_SIZE_N
                    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
                    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
                        accumulator = tl.dot(a_desc.load([off_m, k * BLOCK_SIZE_K]),
                                             b_desc.load([k * BLOCK_SIZE_K, off_n]),
                                             accumulator)
                    c_desc.store([off_m, off_n], accumulator.to(DTYPE))
        first_tile = end_tile


def grouped_configs(config_type=None):
    config_type = config_type or triton.Config
    shapes = [  # BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K, num_stages, num_warps
        (128, 256, 64, 3, 8),
        (128, 256, 64, 4, 8),
        (128, 128, 64, 4, 8),
        (128, 128, 32, 4, 4),
        (64, 128, 64, 4, 4),
    ]
    # Eight rows of tiles walked together (tutorial 09's order): on the
    # mixed sizes 3-5% faster than row by row (bench/grouped_gemm_sweep.py,
    # bench/RESULTS.md, session 19).
    return [config_type({"BLOCK_SIZE_M": m, "BLOCK_SIZE_N": n, "BLOCK_SIZE_K": k,
                         "GROUP_SIZE_M": 8}, num_stages=s, num_warps=w)
            for m, n, k, s, w in shapes]


# %%
# The launcher
# ------------
#
# `GroupedMatmul(a_list, b_list)` allocates the outputs and the problem
# arrays once (they hold the tensors' addresses, so the tensors must stay
# alive and in place); calling it launches the kernel, one program per SM
# (the driver's `multiprocessor_count`).

def problem_order(ks):
    """The problems' indices by decreasing K (their tiles' cost), ties in
    the given order."""
    return sorted(range(len(ks)), key=lambda g: -ks[g])


class GroupedMatmul:
    def __init__(self, a_list, b_list, lib=None, kernel=None, configs=None):
        lib = lib or triton
        assert len(a_list) == len(b_list) and a_list, "one B per A, at least one"
        dtype, device = a_list[0].dtype, a_list[0].device
        for a, b in zip(a_list, b_list):
            assert a.dtype == b.dtype == dtype, "one element type for every problem"
            assert a.device == b.device == device, "one device for every problem"
            assert a.shape[1] == b.shape[0], "incompatible dimensions"
            assert a.stride(1) == 1 and b.stride(1) == 1, "rows must be contiguous"
        self.c_list = [torch.empty((a.shape[0], b.shape[1]), device=device, dtype=dtype)
                       for a, b in zip(a_list, b_list)]
        self.inputs = (a_list, b_list)  # keep the tensors alive
        # The kernel sees the problems by decreasing K (the schedule's
        # order, see snake_tile); c_list stays in the caller's order.
        order = problem_order([a.shape[1] for a in a_list])
        a_list, b_list = [a_list[g] for g in order], [b_list[g] for g in order]
        c_sorted = [self.c_list[g] for g in order]

        def addresses(xs):
            return torch.tensor([x.data_ptr() for x in xs], dtype=torch.int64, device=device)

        def ints(rows):
            return torch.tensor(rows, dtype=torch.int32, device=device)
        self.a_addrs, self.b_addrs, self.c_addrs = (addresses(xs) for xs in
                                                    (a_list, b_list, c_sorted))
        self.sizes = ints([[a.shape[0], b.shape[1], a.shape[1]] for a, b in zip(a_list, b_list)])
        self.lds = ints([[a.stride(0), b.stride(0), c.stride(0)]
                         for a, b, c in zip(a_list, b_list, c_sorted)])
        self.count = len(a_list)
        # 16-byte rows for every problem (see ALIGNED in the kernel).
        per_16_bytes = 16 // a_list[0].element_size()
        matrices = list(a_list) + list(b_list) + self.c_list
        self.aligned = all(x.data_ptr() % 16 == 0 and x.stride(0) % per_16_bytes == 0
                           for x in matrices) and \
            all(b.shape[0] % per_16_bytes == 0 and b.shape[1] % per_16_bytes == 0
                for b in b_list)
        self.groups_pow2 = max(2, triton.next_power_of_2(self.count))
        # The element type in the compiler's own language module (Terrazzo's,
        # or Triton's for the same kernel under Triton).
        self.dtype = getattr(lib.language, str(dtype).split(".")[-1])
        self.programs = lib.runtime.driver.active.utils.get_device_properties(
            device.index)["multiprocessor_count"]
        self.kernel = lib.autotune(configs=configs or grouped_configs(),
                                   key=["GROUP_COUNT"])(kernel or grouped_matmul_kernel)

    def __call__(self):
        self.kernel[(self.programs,)](self.a_addrs, self.b_addrs, self.c_addrs, self.sizes,
                                      self.lds, self.count, DTYPE=self.dtype,
                                      GROUPS_POW2=self.groups_pow2, ALIGNED=self.aligned)
        return self.c_list


def compile_for_sm90(config_index=0, stage="ptx", aligned=True, kernel=None):
    """The kernel (grouped_matmul_kernel unless given) for the H100 under
    one configuration, without a GPU (the interpreter cannot follow the
    problems' raw addresses: it knows memory only through the kernel's
    array arguments)."""
    cfg = grouped_configs()[config_index]
    addrs = np.zeros(8, np.int64)
    sizes = np.zeros(24, np.int32)
    return (kernel or grouped_matmul_kernel).compile(
        addrs, addrs, addrs, sizes, sizes, 8, DTYPE=tl.float16, GROUPS_POW2=8,
        ALIGNED=aligned, stage=stage, target="cuda:90", num_warps=cfg.num_warps,
        num_stages=cfg.num_stages, **cfg.kwargs)


# %%
# Problem lists
# -------------
#
# Eight mixed sizes (M, N, K): square and skewed, large and small, none a
# multiple of every block size.

MIXED_SIZES = [
    (4096, 4096, 4096),
    (2048, 4096, 1024),
    (4096, 1024, 2048),
    (1024, 1024, 4096),
    (3000, 2000, 1000),
    (512, 8192, 1024),
    (1536, 768, 3072),
    (257, 1000, 640),
]


def random_problems(sizes, make):
    """A list of A_g (M x K) and one of B_g (K x N), from make(rows, cols)."""
    return [make(m, k) for m, _, k in sizes], [make(k, n) for _, n, k in sizes]


def relative_errors(a_list, b_list, c_list):
    """Each C_g against A_g @ B_g in float64 (relative Frobenius error)."""
    errors = []
    for a, b, c in zip(a_list, b_list, c_list):
        want = a.double() @ b.double()
        errors.append(((c.double() - want).norm() / want.norm()).item())
    return errors


# %%
# Unit test
# ---------

def check(configs=None, kernel=None):
    """The kernel (grouped_matmul_kernel unless given) on GPU against
    float64 products, autotuned over grouped_configs() or over `configs`
    (one: that configuration). The TMA form takes the aligned lists only."""
    rng = np.random.default_rng()
    # Tails everywhere, one-row and eight-column problems, a K of 8; rows
    # of 16 bytes or more (the aligned kernel), and the same with an odd N
    # (33: the general one).
    aligned = [(512, 512, 512), (1000, 776, 328), (96, 136, 72), (1, 264, 40),
               (300, 8, 1000), (2048, 1024, 512), (17, 32, 8)]
    lists = [(torch.float16, aligned), (torch.bfloat16, aligned)]
    if kernel in (None, grouped_matmul_kernel):
        lists.append((torch.float16, aligned[:-1] + [(17, 33, 8)]))
    for dtype, sizes in lists:
        make = lambda r, c: torch.from_numpy(
            rng.standard_normal((r, c)).astype(np.float32)).cuda().to(dtype)
        a_list, b_list = random_problems(sizes, make)
        errors = relative_errors(a_list, b_list,
                                 GroupedMatmul(a_list, b_list, kernel=kernel,
                                               configs=configs)())
        limit = 1e-2 if dtype == torch.bfloat16 else 2e-3
        print(f"GPU: {len(sizes)} problems {dtype}: largest relative error "
              f"{max(errors):.2e} against float64")
        assert max(errors) < limit, f"relative errors {errors} (limit {limit})"
    print("The results match.")


# %%
# Benchmark
# ---------
#
# MIXED_SIZES in one launch against a loop of torch.matmul calls (and the
# same kernel under Triton, when installed): median time of the whole list
# with the L2 flushed before each call (`triton.testing.do_bench`), as
# TFLOP/s of the list's 2 M N K.

@functools.lru_cache(maxsize=None)
def _triton_module():
    """This tutorial's kernel (and the helpers it calls) under Triton, built
    once; None where Triton is not installed."""
    return triton.testing.under_triton(accumulate_k_blocks, tile_coordinates, snake_tile,
                                       tile_counts, problem_entries, problem_pointer,
                                       tile_problem, grouped_matmul_kernel,
                                       grouped_matmul_tma_kernel, name="triton_grouped_gemm")


def triton_grouped(a_list, b_list, configs=None, tma=False):
    """GroupedMatmul over the same kernel (grouped_matmul_tma_kernel with
    `tma`) compiled by Triton, autotuned over grouped_configs() or over
    those of the indices `configs`; None where Triton is not installed."""
    module = _triton_module()
    if module is None:
        return None
    import triton as real
    if tma:
        # Triton builds device-made tensor maps in scratch it asks for.
        real.set_allocator(lambda size, alignment, stream:
                           torch.empty(size, dtype=torch.int8, device="cuda"))
    every = grouped_configs(real.Config)
    kernel = module.grouped_matmul_tma_kernel if tma else module.grouped_matmul_kernel
    return GroupedMatmul(a_list, b_list, lib=real, kernel=kernel,
                         configs=every if configs is None else [every[i] for i in configs])


def tuned_configuration(fn):
    """The configuration the autotuner of a GroupedMatmul chose, as
    "BLOCK_SIZE_M x BLOCK_SIZE_N x BLOCK_SIZE_K, stages, warps"; empty for
    other providers."""
    config = getattr(getattr(fn, "kernel", None), "best_config", None)
    if config is None:
        return ""
    k = config.kwargs
    return (f"{k['BLOCK_SIZE_M']} x {k['BLOCK_SIZE_N']} x {k['BLOCK_SIZE_K']}, "
            f"{config.num_stages} stages, {config.num_warps} warps")


def bench(dtypes, rounds):
    flops = sum(2 * m * n * k for m, n, k in MIXED_SIZES)
    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}")
    print(f"problems (M, N, K): {MIXED_SIZES}")
    rows = []
    for dtype in dtypes:
        tdt = getattr(torch, dtype)
        make = lambda r, c: torch.randn(r, c, device="cuda", dtype=tdt)
        providers = {}
        a_list, b_list = random_problems(MIXED_SIZES, make)
        providers["terrazzo grouped"] = (GroupedMatmul(a_list, b_list), a_list, b_list)
        a_list, b_list = random_problems(MIXED_SIZES, make)
        providers["torch.matmul loop"] = (
            lambda a_list=a_list, b_list=b_list: [torch.matmul(a, b) for a, b in
                                                  zip(a_list, b_list)], a_list, b_list)
        a_list, b_list = random_problems(MIXED_SIZES, make)
        found = triton_grouped(a_list, b_list)
        if found is not None:
            providers["triton grouped"] = (found, a_list, b_list)
        a_list, b_list = random_problems(MIXED_SIZES, make)
        providers["terrazzo grouped tma"] = (
            GroupedMatmul(a_list, b_list, kernel=grouped_matmul_tma_kernel), a_list, b_list)
        a_list, b_list = random_problems(MIXED_SIZES, make)
        found = triton_grouped(a_list, b_list, tma=True)
        if found is not None:
            providers["triton grouped tma"] = (found, a_list, b_list)
        for name, (fn, a_list, b_list) in providers.items():
            errors = relative_errors(a_list, b_list, fn())
            assert max(errors) < 1e-2, f"{name}: relative errors {errors}"
        times = {name: [] for name in providers}
        for _ in range(rounds):
            for name, (fn, _, _) in providers.items():
                times[name].append(triton.testing.do_bench(fn, warmup=25, rep=200,
                                                           return_mode="median"))
        base = statistics.median(times["torch.matmul loop"])
        for name, (fn, _, _) in providers.items():
            ms = statistics.median(times[name])
            rows.append((dtype, name, ms, flops / (ms * 1e-3) * 1e-12, base / ms,
                         tuned_configuration(fn)))
        providers.clear()
        torch.cuda.empty_cache()
    print(f"\nmedian of {rounds} rounds of do_bench medians (L2 flushed before each call)\n")
    print("| dtype | provider | ms | TFLOP/s | x torch loop | configuration |\n"
          "|---|---|---:|---:|---:|---|")
    for dtype, name, ms, tflops, speedup, config in rows:
        print(f"| {dtype} | {name} | {ms:.3f} | {tflops:.1f} | {speedup:.2f} | {config} |")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].strip())
    parser.add_argument("--bench", action="store_true", help="print a timing table")
    parser.add_argument("--dtypes", nargs="*", default=["float16", "bfloat16"])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    on_gpu = gpu_available() and torch is not None and torch.cuda.is_available()
    if not on_gpu:
        # The problems are reached through raw addresses, which the
        # interpreter cannot follow: show the H100 code instead.
        ptx = compile_for_sm90()
        print("No GPU: grouped_matmul_kernel compiled for sm_90 (128 x 256 x 64 blocks, "
              f"3 stages, 8 warps): {ptx.count(chr(10))} lines of PTX, with")
        for what in ("wgmma.mma_async", "cp.async.cg.shared.global", "cp.async.wait_group",
                     "bar.sync", "st.global"):
            print(f"  {ptx.count(what):4d} x {what}")
        if args.bench:
            print("--bench needs a GPU and torch")
        return
    check()
    if args.bench:
        bench(args.dtypes, args.rounds)


if __name__ == "__main__":
    main()
