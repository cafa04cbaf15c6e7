"""
Layer Normalization
===================

In this tutorial you write a layer normalization (forward and backward) with
Terrazzo, as in Triton's tutorial. Each row x of an (M, N) matrix becomes

    y = (x - mean(x)) / sqrt(var(x) + eps) * w + b

with weights w and biases b shared by all rows. You will learn about:

* loops over the columns of a row in blocks, with accumulators carried in
  registers (`tl.zeros` + `for`);
* the backward pass, where every row contributes to the gradients of w and
  b: rows are grouped, each group accumulates its partial sums under a lock
  taken with `tl.atomic_cas` and released with `tl.atomic_xchg`, and a
  second kernel adds up the groups' partial sums.

Run it:

    python tutorials/05-layer-norm.py          # check forward and backward
    python tutorials/05-layer-norm.py --bench  # GB/s against torch / Triton
                                               # and its plot: bench-results/*.png, *.csv

With an NVIDIA GPU and PyTorch the kernels run on the GPU and are checked
against torch.nn.functional.layer_norm and its autograd in float64; without
one they run in Terrazzo's interpreter (NumPy), checked against float64
NumPy references.
"""

import argparse
import os

import numpy as np

import terrazzo as triton
import terrazzo.language as tl
from terrazzo.testing import extension, gpu_available

try:
    import torch
except ImportError:
    torch = None


# %%
# Forward pass
# ------------
#
# One program per row. The row is read three times (mean, variance, output),
# in blocks of BLOCK_SIZE columns; for the sizes benchmarked below one block
# holds the whole row and the second and third reads come from the cache.

@triton.jit
def _layer_norm_fwd_fused(
    X,  # pointer to the input
    Y,  # pointer to the output
    W,  # pointer to the weights
    B,  # pointer to the biases
    Mean,  # pointer to the mean
    Rstd,  # pointer to the 1/std
    stride,  # how much to increase the pointer when moving by 1 row
    N,  # number of columns in X
    eps,  # epsilon to avoid division by zero
    BLOCK_SIZE: tl.constexpr,
):
    # Map the program id to the row of X and Y it should compute.
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    # Compute mean
    mean = 0
    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        a = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        _mean += a
    mean = tl.sum(_mean, axis=0) / N
    # Compute variance
    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.)
        _var += x * x
    var = tl.sum(_var, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    # Write mean / rstd
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    # Normalize and apply linear transformation
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        x_hat = (x - mean) * rstd
        y = x_hat * w + b
        # Write output
        tl.store(Y + cols, y, mask=mask)


# %%
# Backward pass
# -------------
#
# The gradient with respect to x needs the row's own values only; the
# gradients with respect to w and b sum over all rows. Rows are split into
# GROUP_SIZE_M groups (row % GROUP_SIZE_M); the rows of a group take turns,
# under the group's lock, adding their contributions to the group's partial
# sums DW[group], DB[group]. Count[group] says whether the group's partial
# sums hold anything yet.

@triton.jit
def _layer_norm_bwd_dx_fused(DX,  # pointer to the input gradient
                             DY,  # pointer to the output gradient
                             DW,  # pointer to the partial sum of weights gradient
                             DB,  # pointer to the partial sum of biases gradient
                             X,  # pointer to the input
                             W,  # pointer to the weights
                             Mean,  # pointer to the mean
                             Rstd,  # pointer to the 1/std
                             Lock,  # pointer to the lock
                             stride,  # how much to increase the pointer when moving by 1 row
                             N,  # number of columns in X
                             GROUP_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    # Map the program id to the elements of X, DX, and DY it should compute.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE_N)
    mask = cols < N
    X += row * stride
    DY += row * stride
    DX += row * stride
    # Offset locks and weights/biases gradient pointer for parallel reduction
    lock_id = row % GROUP_SIZE_M
    Lock += lock_id
    Count = Lock + GROUP_SIZE_M
    DW = DW + lock_id * N + cols
    DB = DB + lock_id * N + cols
    # Load data to SRAM
    x = tl.load(X + cols, mask=mask, other=0).to(tl.float32)
    dy = tl.load(DY + cols, mask=mask, other=0).to(tl.float32)
    w = tl.load(W + cols, mask=mask).to(tl.float32)
    mean = tl.load(Mean + row)
    rstd = tl.load(Rstd + row)
    # Compute dx
    xhat = (x - mean) * rstd
    wdy = w * dy
    xhat = tl.where(mask, xhat, 0.)
    wdy = tl.where(mask, wdy, 0.)
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    dx = (wdy - (xhat * c1 + c2)) * rstd
    # Write dx
    tl.store(DX + cols, dx, mask=mask)
    # Accumulate partial sums for dw/db
    partial_dw = (dy * xhat).to(w.dtype)
    partial_db = (dy).to(w.dtype)
    while tl.atomic_cas(Lock, 0, 1) == 1:
        pass
    count = tl.load(Count)
    # First store doesn't accumulate
    if count == 0:
        tl.atomic_xchg(Count, 1)
    else:
        partial_dw += tl.load(DW, mask=mask)
        partial_db += tl.load(DB, mask=mask)
    tl.store(DW, partial_dw, mask=mask)
    tl.store(DB, partial_db, mask=mask)
    # Every thread's stores must be done before the lock is released.
    tl.debug_barrier()
    # Release the lock
    tl.atomic_xchg(Lock, 0)


@triton.jit
def _layer_norm_bwd_dwdb(DW,  # pointer to the partial sum of weights gradient
                         DB,  # pointer to the partial sum of biases gradient
                         FINAL_DW,  # pointer to the weights gradient
                         FINAL_DB,  # pointer to the biases gradient
                         M,  # GROUP_SIZE_M
                         N,  # number of columns
                         BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    # Map the program id to the elements of DW and DB it should compute.
    pid = tl.program_id(0)
    cols = pid * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    dw = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    db = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    # Iterate through the rows of DW and DB to sum the partial sums.
    for i in range(0, M, BLOCK_SIZE_M):
        rows = i + tl.arange(0, BLOCK_SIZE_M)
        mask = (rows[:, None] < M) & (cols[None, :] < N)
        offs = rows[:, None] * N + cols[None, :]
        dw += tl.load(DW + offs, mask=mask, other=0.)
        db += tl.load(DB + offs, mask=mask, other=0.)
    # Write the final sum to the output.
    sum_dw = tl.sum(dw, axis=0)
    sum_db = tl.sum(db, axis=0)
    tl.store(FINAL_DW + cols, sum_dw, mask=cols < N)
    tl.store(FINAL_DB + cols, sum_db, mask=cols < N)


# %%
# Launch helpers, for torch tensors on the GPU or NumPy arrays in the
# interpreter.

def _is_torch(x):
    return torch is not None and isinstance(x, torch.Tensor)


def _empty(shape, dtype, like):
    if _is_torch(like):
        return torch.empty(shape, dtype=dtype, device=like.device)
    return np.empty(shape, dtype=dtype)


def _zeros(shape, dtype, like):
    if _is_torch(like):
        return torch.zeros(shape, dtype=dtype, device=like.device)
    return np.zeros(shape, dtype=dtype)


def _f32(like):
    return torch.float32 if _is_torch(like) else np.float32


def _i32(like):
    return torch.int32 if _is_torch(like) else np.int32


def block_size_for(x, n):
    # Less than 64 KB per feature: enough for rows of up to 64K bytes.
    itemsize = x.element_size() if _is_torch(x) else x.itemsize
    max_fused_size = 65536 // itemsize
    block = min(max_fused_size, triton.next_power_of_2(n))
    return block, min(max(block // 256, 1), 8)


def layer_norm_forward(x, weight, bias, eps=1e-5):
    m, n = x.shape
    y = _empty(x.shape, x.dtype, x)
    mean = _empty((m,), _f32(x), x)
    rstd = _empty((m,), _f32(x), x)
    block, num_warps = block_size_for(x, n)
    if n > block:
        raise RuntimeError("This layer norm doesn't support feature dim >= 64KB.")
    _layer_norm_fwd_fused[(m,)](x, y, weight, bias, mean, rstd, n, n, eps,
                                BLOCK_SIZE=block, num_warps=num_warps)
    return y, mean, rstd


def group_size_for(n):
    # How many partial sums of dw/db: fewer for wider rows.
    group = 64
    if n <= 8192:
        group = 96
    if n <= 4096:
        group = 128
    if n <= 1024:
        group = 256
    return group


def layer_norm_backward(dy, x, weight, mean, rstd):
    m, n = x.shape
    block, num_warps = block_size_for(x, n)
    group = group_size_for(n)
    locks = _zeros((2 * group,), _i32(x), x)
    partial_dw = _zeros((group, n), x.dtype, x)
    partial_db = _zeros((group, n), x.dtype, x)
    dw = _empty((n,), weight.dtype, x)
    db = _empty((n,), weight.dtype, x)
    dx = _empty(dy.shape, dy.dtype, x)
    _layer_norm_bwd_dx_fused[(m,)](dx, dy, partial_dw, partial_db, x, weight, mean, rstd,
                                   locks, n, n, GROUP_SIZE_M=group, BLOCK_SIZE_N=block,
                                   num_warps=num_warps)
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE_N"]),)
    _layer_norm_bwd_dwdb[grid](partial_dw, partial_db, dw, db, min(group, m), n,
                               BLOCK_SIZE_M=32, BLOCK_SIZE_N=128, num_warps=4)
    return dx, dw, db


# %%
# References in float64.

def reference_forward(x, w, b, eps):
    x = np.asarray(x, np.float64)
    mean = x.mean(axis=1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=1, keepdims=True)
    rstd = 1 / np.sqrt(var + eps)
    return (x - mean) * rstd * w + b, mean[:, 0], rstd[:, 0]


def reference_backward(dy, x, w, eps):
    x = np.asarray(x, np.float64)
    dy = np.asarray(dy, np.float64)
    w = np.asarray(w, np.float64)
    n = x.shape[1]
    mean = x.mean(axis=1, keepdims=True)
    rstd = 1 / np.sqrt(((x - mean) ** 2).mean(axis=1, keepdims=True) + eps)
    xhat = (x - mean) * rstd
    wdy = w * dy
    c1 = (xhat * wdy).sum(axis=1, keepdims=True) / n
    c2 = wdy.sum(axis=1, keepdims=True) / n
    dx = (wdy - (xhat * c1 + c2)) * rstd
    return dx, (dy * xhat).sum(axis=0), dy.sum(axis=0)


# %%
# The same kernels under the real Triton, for the benchmark.

def triton_forward():
    module = triton.testing.under_triton(
        _layer_norm_fwd_fused, _layer_norm_bwd_dx_fused, _layer_norm_bwd_dwdb,
        name="triton_layer_norm")
    if module is None:
        return None

    def run(x, weight, bias, eps=1e-5):
        m, n = x.shape
        y = torch.empty_like(x)
        mean = torch.empty((m,), dtype=torch.float32, device=x.device)
        rstd = torch.empty((m,), dtype=torch.float32, device=x.device)
        block, num_warps = block_size_for(x, n)
        module._layer_norm_fwd_fused[(m,)](x, y, weight, bias, mean, rstd, n, n, eps,
                                           BLOCK_SIZE=block, num_warps=num_warps)
        return y, mean, rstd
    return run


def check(on_gpu: bool):
    rng = np.random.default_rng()
    eps = 1e-5
    # N is not a power of two: the last lanes of every block are masked;
    # M is not a multiple of the backward's group size.
    m, n = (1151, 1000) if on_gpu else (37, 300)
    x_np = (rng.standard_normal((m, n)) * 2 + 0.5).astype(np.float32)
    w_np = rng.uniform(0.5, 1.5, n).astype(np.float32)
    b_np = rng.standard_normal(n).astype(np.float32)
    dy_np = rng.standard_normal((m, n)).astype(np.float32)
    want_y, want_mean, want_rstd = reference_forward(x_np, w_np, b_np, eps)
    want_dx, want_dw, want_db = reference_backward(dy_np, x_np, w_np, eps)
    if on_gpu:
        x, w, b, dy = (torch.from_numpy(a).cuda() for a in (x_np, w_np, b_np, dy_np))
        y, mean, rstd = layer_norm_forward(x, w, b, eps)
        dx, dw, db = layer_norm_backward(dy, x, w, mean, rstd)
        torch.cuda.synchronize()
        got = {k: v.cpu().numpy() for k, v in
               dict(y=y, mean=mean, rstd=rstd, dx=dx, dw=dw, db=db).items()}
        # And against torch's own layer norm and autograd.
        xt = x.double().requires_grad_(True)
        wt = w.double().requires_grad_(True)
        bt = b.double().requires_grad_(True)
        yt = torch.nn.functional.layer_norm(xt, (n,), wt, bt, eps)
        yt.backward(dy.double())
        torch.testing.assert_close(y.double(), yt.detach(), rtol=1e-4, atol=1e-4)
        torch.testing.assert_close(dx.double(), xt.grad, rtol=1e-4, atol=1e-4)
        torch.testing.assert_close(dw.double(), wt.grad, rtol=1e-4, atol=1e-3)
        torch.testing.assert_close(db.double(), bt.grad, rtol=1e-4, atol=1e-3)
        where = "GPU"
    else:
        y, mean, rstd = layer_norm_forward(x_np, w_np, b_np, eps)
        dx, dw, db = layer_norm_backward(dy_np, x_np, w_np, mean, rstd)
        got = dict(y=y, mean=mean, rstd=rstd, dx=dx, dw=dw, db=db)
        where = "interpreter"
    want = dict(y=want_y, mean=want_mean, rstd=want_rstd, dx=want_dx, dw=want_dw,
                db=want_db)
    for name in want:
        diff = float(np.max(np.abs(got[name] - want[name])))
        print(f"{where}: {name:4s} max difference from float64 {diff:.3g}")
        # dw and db add up M rows in float32.
        tol = 1e-3 if name in ("dw", "db") else 1e-4
        np.testing.assert_allclose(got[name], want[name], rtol=1e-4, atol=tol)
    print("The results match.")


def show_generated_code():
    x = np.zeros((4, 300), np.float32)
    w = np.zeros(300, np.float32)
    mean = np.zeros(4, np.float32)
    args = (x, x, w, w, mean, mean, 300, 300, 1e-5)
    if extension() is not None:
        ptx = _layer_norm_fwd_fused.compile(*args, BLOCK_SIZE=512, stage="ptx")
        print("PTX generated for _layer_norm_fwd_fused (target cuda:90, 4 warps):\n")
        print(ptx)
    else:
        print(_layer_norm_fwd_fused.ir(*args, BLOCK_SIZE=512))


# %%
# Benchmark
# ---------
#
# Forward bandwidth in GB/s (x read once, y written once) for M = 4096 rows
# of float16 and N from 1024 to 16384 columns, against
# torch.nn.functional.layer_norm and, when installed, Triton.

def bench(on_gpu: bool, save_path: str):
    if not on_gpu:
        print("No GPU: nothing to benchmark (the interpreter is for correctness).")
        return
    m = 4096
    dtype = torch.float16
    providers = [("terrazzo", lambda x, w, b: layer_norm_forward(x, w, b)),
                 ("torch", lambda x, w, b: torch.nn.functional.layer_norm(
                     x, (x.shape[1],), w, b, 1e-5))]
    t = triton_forward()
    if t is not None:
        providers.append(("triton", t))

    @triton.testing.perf_report(triton.testing.Benchmark(
        x_names=["N"], x_vals=[512 * i for i in range(2, 32)], line_arg="provider",
        line_vals=[name for name, _ in providers], line_names=[name for name, _ in providers],
        plot_name="layer-norm-forward (GB/s)", args={}))
    def benchmark(N, provider):
        x = -2.3 + 0.5 * torch.randn(m, N, device="cuda", dtype=dtype)
        w = torch.rand(N, device="cuda", dtype=dtype)
        b = torch.rand(N, device="cuda", dtype=dtype)
        fn = dict(providers)[provider]
        ms = triton.testing.do_bench(lambda: fn(x, w, b), warmup=25, rep=100)
        return 2 * x.numel() * x.element_size() * 1e-9 / (ms * 1e-3)

    benchmark.run(print_data=True, save_path=save_path)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].strip())
    parser.add_argument("--bench", action="store_true",
                        help="print a GB/s table and plot it")
    parser.add_argument("--save-path", default="bench-results",
                        help="where --bench writes the table (CSV) and the plot (PNG, "
                        "with matplotlib)")
    args = parser.parse_args(argv)
    on_gpu = gpu_available()
    if not on_gpu:
        os.environ["TERRAZZO_INTERPRET"] = "1"
    check(on_gpu)
    if not on_gpu and not args.bench:
        show_generated_code()
    if args.bench:
        bench(on_gpu, args.save_path)


if __name__ == "__main__":
    main()
