"""Where a tile's time goes in tutorial 06's forward: a copy of its kernels
that stamps each tile with the SM's cycle counter (%clock64) and the global
timer at its entry, before and after its loops over keys and after its
stores, and a summary of those stamps per case (bench/RESULTS.md, session
28).

    python3 bench/attention_timeline.py [--sizes 1024 2048 16384]
        [--head-dims 64 128] [--causal 0 1] [--forms per-tile persistent]
        [--iterations] [--tutorial VARIANT.py]

Per case: the plain kernel's and the stamped copy's TFLOP/s (do_bench
medians; the stamps cost 0-8%), SDPA's on the same inputs, and in cycles
of the SM clock (medians over the tiles of one run): the prologue (entry
to the first loop), the loops and their cost per key block, the epilogue
(after the loops to the stores issued), the gap on an SM between one
tile's stores and the next tile's entry, and the fraction of SM time
inside tiles. With --iterations, thread 0 of each consumer warp group also
stamps every key block (its start, after its row maximum, after its row
sum), and the summary gives each warp group's period and phases and how
far warp group 1 runs behind warp group 0. Those stamps change ptxas's
schedule a little (the wait for P V moves after the exponentials, as in
session 27's experiment): read their phases, not their speed. The copy is
made by editing the tutorial's source (each edit must match once, which
python/test/test_attention_timeline.py checks), so it is the tutorial's
kernel but for the stamps; its results are checked against SDPA."""
import argparse
import json
import os
import re
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from attention_case import AttentionCase  # noqa: E402
from loading import load_module  # noqa: E402

TUTORIAL = os.path.join(HERE, "..", "tutorials", "06-fused-attention.py")

# Per tile: global timer and clock at entry, clock before and after the
# loops over keys, clock and global timer after the stores, the SM.
FIELDS = ("gt_entry", "clk_entry", "clk_loop0", "clk_loop1", "clk_exit", "gt_exit", "smid")
SLOTS = 8
MAX_BLOCKS = 128

HELPERS = '''

@triton.jit
def _clock(x):
    return tl.inline_asm_elementwise("mov.u64 $0, %clock64;", "=l,r", [x],
                                     dtype=tl.int64, is_pure=False, pack=1)


@triton.jit
def _gtimer(x):
    return tl.inline_asm_elementwise("mov.u64 $0, %globaltimer;", "=l,r", [x],
                                     dtype=tl.int64, is_pure=False, pack=1)


@triton.jit
def _wg_stamp(at):
    # Thread 0 of each warp group (tid.x / 128 = g) writes the clock to
    # at[3 * g].
    return tl.inline_asm_elementwise(
        "{ .reg .u32 t, g; .reg .u64 a, c; .reg .pred p; mov.u32 t, %tid.x; "
        "and.b32 g, t, 127; setp.eq.u32 p, g, 0; shr.u32 g, t, 7; "
        "mul.wide.u32 a, g, 24; add.u64 a, a, $1; mov.u64 c, %clock64; "
        "@p st.global.u64 [a], c; mov.u32 $0, 0; }",
        "=r,l", [at], dtype=tl.int32, is_pure=False, pack=1)


@triton.jit
def _smid(x):
    return tl.inline_asm_elementwise("mov.u32 $0, %smid;", "=r,r", [x],
                                     dtype=tl.int32, is_pure=False, pack=1)

'''


def _edit(src, old, new, count=1):
    found = src.count(old)
    if found != count:
        raise SystemExit(f"attention_timeline: expected {count} of {old!r} in the "
                         f"tutorial, found {found}")
    return src.replace(old, new)


def stamped_source(tutorial=TUTORIAL, iterations=False):
    """The tutorial's source with a stamp buffer T after N_CTX in the
    forward kernels and the stamps in _attn_fwd_tile."""
    src = open(tutorial).read()
    src = _edit(src, "\nLOG2E = ", HELPERS + "\nLOG2E = ")
    src = _edit(src, "H, N_CTX, start_m, off_hz,\n", "H, N_CTX, start_m, off_hz, T,\n")
    # _attn_fwd and _attn_fwd_persistent take T after N_CTX; their calls of
    # the tile function pass it on.
    src = _edit(src, "              H, N_CTX,\n              HEAD_DIM",
                "              H, N_CTX, T,\n              HEAD_DIM")
    src = _edit(src, "                         Z, H, N_CTX,\n",
                "                         Z, H, N_CTX, T,\n")
    src = _edit(src, "stride_oz, stride_oh, stride_om, H, N_CTX,\n"
                     "                   start_m, off_hz,",
                "stride_oz, stride_oh, stride_om, H, N_CTX,\n"
                "                   start_m, off_hz, T,")
    src = _edit(src, "H, N_CTX,\n                       start_m, off_hz,",
                "H, N_CTX,\n                       start_m, off_hz, T,")
    entry = re.compile(r"(def _attn_fwd_tile\(.*?\n    off_h = off_hz % H\n)", re.S)
    if len(entry.findall(src)) != 1:
        raise SystemExit("attention_timeline: _attn_fwd_tile's off_h not found once")
    src = entry.sub(lambda m: m.group(1) +
                    f"    slot = T + (off_hz * tl.cdiv(N_CTX, BLOCK_M) + start_m) * "
                    f"{record_size(iterations)}\n"
                    "    tl.store(slot, _gtimer(off_hz))\n"
                    "    tl.store(slot + 1, _clock(off_hz))\n", src)
    src = _edit(src, "    qk_scale = sm_scale * 1.4426950408889634\n\n    if CAUSAL:",
                "    qk_scale = sm_scale * 1.4426950408889634\n"
                "    tl.store(slot + 2, _clock(off_hz))\n\n    if CAUSAL:")
    src = _edit(src, "    # The log-sum-exp per row (base 2), for the backward pass.\n",
                "    tl.store(slot + 3, _clock(off_hz))\n"
                "    # The log-sum-exp per row (base 2), for the backward pass.\n")
    src = _edit(src, "             acc.to(Out.dtype.element_ty), mask=row_ok[:, None])\n",
                "             acc.to(Out.dtype.element_ty), mask=row_ok[:, None])\n"
                "    tl.store(slot + 4, _clock(off_hz))\n"
                "    tl.store(slot + 5, _gtimer(off_hz))\n"
                "    tl.store(slot + 6, _smid(off_hz).to(tl.int64))\n")
    return _iteration_stamps(src) if iterations else src


def record_size(iterations):
    """Stamps per tile: SLOTS, and with iterations 8 per key block (3 per
    warp group, for two warp groups and a third that has none) for up to
    MAX_BLOCKS key blocks."""
    return SLOTS + (8 * MAX_BLOCKS if iterations else 0)


def _iteration_stamps(src):
    """Stamps in the loops over keys, for thread 0 of each warp group: the
    clock at an iteration's start, after its row maximum and after its row
    sum (in program order: the clock reads are assembly with side effects,
    which the compiler keeps in order with the loop's other effects; ptxas
    may move the arithmetic around them). The assembly picks the thread and
    its warp group's slot itself, so the stamps add no layout conversion
    or barrier to the loop."""
    src = _edit(src, "qk_scale, N_CTX,\n", "qk_scale, N_CTX, S,\n")
    src = _edit(src, "N_CTX, BLOCK_N, ", "N_CTX, S, BLOCK_N, ", count=5)
    src = _edit(src, "        cols = start_n + offs_n\n",
                "        cols = start_n + offs_n\n"
                "        stamp = S + (start_n // BLOCK_N) * 8\n"
                "        _wg_stamp(stamp)\n")
    src = _edit(src, "        p = tl.math.exp2(qk * qk_scale - m_ij[:, None])\n",
                "        _wg_stamp(stamp + 1)\n"
                "        p = tl.math.exp2(qk * qk_scale - m_ij[:, None])\n")
    src = _edit(src, "        l_i = l_i * alpha + tl.sum(p, 1)\n",
                "        l_i = l_i * alpha + tl.sum(p, 1)\n"
                "        _wg_stamp(stamp + 2)\n")
    src = _edit(src, "    tl.store(slot + 1, _clock(off_hz))\n",
                "    tl.store(slot + 1, _clock(off_hz))\n"
                f"    S = slot + {SLOTS}\n")
    return src


class _WithStamps:
    """A kernel launched with the stamp buffer after its positional
    arguments (N_CTX is the last of them)."""

    def __init__(self, kernel, buffer):
        self.kernel, self.buffer = kernel, buffer

    def __getitem__(self, grid):
        launch = self.kernel[grid]
        return lambda *args, **kw: launch(*args, self.buffer, **kw)


def _median(values):
    return float(np.median(values)) if len(values) else float("nan")


def summarise(stamps, label, n_iters):
    """Medians over tiles, and the SM time inside tiles against the
    kernel's span."""
    s = {f: stamps[:, i] for i, f in enumerate(FIELDS)}
    prologue = s["clk_loop0"] - s["clk_entry"]
    loops = s["clk_loop1"] - s["clk_loop0"]
    epilogue = s["clk_exit"] - s["clk_loop1"]
    tile = s["clk_exit"] - s["clk_entry"]
    gt_tile = s["gt_exit"] - s["gt_entry"]
    long = gt_tile > np.median(gt_tile) / 2
    mhz = np.median(tile[long] / np.maximum(gt_tile[long], 1) * 1e3)
    gaps, firsts = [], []
    span = s["gt_exit"].max() - s["gt_entry"].min()
    busy = 0.0
    for sm in np.unique(s["smid"]):
        on = np.where(s["smid"] == sm)[0]
        on = on[np.argsort(s["clk_entry"][on])]
        firsts.append(s["gt_entry"][on[0]] - s["gt_entry"].min())
        gaps.extend(s["clk_entry"][on[1:]] - s["clk_exit"][on[:-1]])
        busy += gt_tile[on].sum()
    sms = len(np.unique(s["smid"]))
    med = _median
    print(f"{label}: {len(tile)} tiles on {sms} SMs, clock {mhz:.0f} MHz, "
          f"{n_iters} key blocks per tile")
    print(f"  cycles per tile (median): prologue {med(prologue):.0f}, loops {med(loops):.0f} "
          f"({med(loops) / max(n_iters, 1):.0f} per key block), epilogue {med(epilogue):.0f}, "
          f"tile {med(tile):.0f}")
    inside = busy / (span * sms)
    if inside <= 1.05:
        print(f"  gap between an SM's tiles (median / 90th percentile): {med(gaps):.0f} / "
              f"{float(np.percentile(gaps, 90)) if gaps else float('nan'):.0f} cycles; "
              f"last SM starts {max(firsts) / 1e3:.1f} us after the first")
    else:  # more than one program at a time on an SM: tiles overlap
        print(f"  programs at once per SM: {inside:.2f} on average (no gap between tiles); "
              f"last SM starts {max(firsts) / 1e3:.1f} us after the first")
    print(f"  SM time inside tiles: {inside:.3f} of the span ({span / 1e3:.1f} us)")


def summarise_iterations(stamps, n_iters):
    """From the key-block stamps of every tile (thread 0 of warp groups 0
    and 1): the period of an iteration, its phases, and how far warp group
    1 runs behind warp group 0 (a fraction of the period: 0 in lockstep,
    0.5 alternating)."""
    blocks = stamps[:, SLOTS:SLOTS + 8 * n_iters].reshape(len(stamps), n_iters, 8)
    wg = [blocks[:, :, 0:3], blocks[:, :, 3:6]]
    if not (wg[0] > 0).all() or not (wg[1] > 0).all():
        print("  iteration stamps: missing (a warp group wrote none)")
        return
    med = _median
    for g in range(2):
        top, after_max, after_sum = (wg[g][:, :, k].astype(np.float64) for k in range(3))
        period = np.diff(top, axis=1)
        rest = top[:, 1:] - after_sum[:, :-1]
        print(f"  warp group {g}: period {med(period):.0f} cycles (first "
              f"{med(period[:, 0]) if n_iters > 1 else float('nan'):.0f}); start to "
              f"maximum {med(after_max - top):.0f}, exponentials and sum "
              f"{med(after_sum - after_max):.0f}, sum to the next start {med(rest):.0f}")
    period = np.diff(wg[0][:, :, 0].astype(np.float64), axis=1)
    lag = (wg[1][:, :, 0] - wg[0][:, :, 0]).astype(np.float64)[:, :-1]
    frac = np.mod(lag / np.maximum(period, 1), 1.0)
    print(f"  warp group 1 behind 0: {med(lag):.0f} cycles, {med(frac):.2f} of a period "
          f"(quartiles {np.percentile(frac, 25):.2f} / {np.percentile(frac, 75):.2f})")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1024, 2048, 16384])
    parser.add_argument("--head-dims", type=int, nargs="+", default=[64, 128])
    parser.add_argument("--causal", type=int, nargs="+", default=[0])
    parser.add_argument("--forms", nargs="+", default=["per-tile", "persistent"])
    parser.add_argument("--tutorial", default=TUTORIAL,
                        help="a variant of tutorials/06-fused-attention.py to stamp and time")
    parser.add_argument("--config", help="a JSON object laid over fwd_config's choice "
                        "(as bench/attention_configs.py takes it)")
    parser.add_argument("--shapes", nargs="+", default=[None], metavar="B,H",
                        help="batch and heads (default 4,32 at D=64, 4,16 at D=128)")
    parser.add_argument("--iterations", action="store_true",
                        help="also stamp each key block (up to %d per tile), for each "
                        "warp group" % MAX_BLOCKS)
    args = parser.parse_args(argv)
    import torch

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "attention_stamped.py")
        with open(path, "w") as f:
            f.write(stamped_source(args.tutorial, args.iterations))
        stamped = load_module(path, "attention_stamped")
    plain = load_module(args.tutorial, "fused_attention")
    from terrazzo import cdiv
    from terrazzo.testing import do_bench

    for head_dim, shape in ((d, sh) for d in args.head_dims for sh in args.shapes):
        for causal in map(bool, args.causal):
            for n_ctx in args.sizes:
                case = AttentionCase(torch, head_dim, causal, n_ctx, torch.float16, shape)
                q, k, v, sm_scale, flops = case.q, case.k, case.v, case.scale, case.flops
                z, h = case.batch, case.heads
                ms_sdpa = do_bench(case.sdpa)
                for form in args.forms:
                    persistent = form == "persistent"
                    # The configuration is passed to every run, so that the
                    # stamps' buffer has a record for each of its tiles.
                    cfg = plain.fwd_config(head_dim, causal, False, n_ctx=n_ctx)
                    cfg.update(json.loads(args.config) if args.config else {})
                    tiles = cdiv(n_ctx, cfg["BLOCK_M"]) * z * h
                    n_iters = cdiv(n_ctx, cfg["BLOCK_N"])
                    if args.iterations and n_iters > MAX_BLOCKS:
                        # The key-block stamps would run into the next tile's.
                        print(f"D={head_dim} N={n_ctx} {form}: {n_iters} key blocks, more "
                              f"than the {MAX_BLOCKS} the stamps have room for; left out")
                        continue
                    size = record_size(args.iterations)
                    buffer = torch.zeros(tiles * size, dtype=torch.int64, device="cuda")
                    kernels = {name: _WithStamps(kern, buffer)
                               for name, kern in stamped.KERNELS.items()}
                    run = lambda: stamped.attention_forward(q, k, v, causal, sm_scale,
                                                            kernels, config=cfg,
                                                            persistent=persistent)
                    o, _ = run()
                    err = (o.float() - case.want).abs().max().item()
                    assert err < 1e-2, (form, n_ctx, err)
                    ms_stamped = do_bench(run)
                    ms_plain = do_bench(lambda: plain.attention_forward(
                        q, k, v, causal, sm_scale, config=cfg, persistent=persistent))
                    buffer.zero_()
                    run()
                    torch.cuda.synchronize()
                    stamps = buffer.view(tiles, size).cpu().numpy()
                    label = (f"D={head_dim} {'causal' if causal else 'non-causal'} {z}x{h} "
                             f"N={n_ctx} {form}: {flops / ms_plain * 1e-9:.1f} TFLOP/s "
                             f"(stamped {flops / ms_stamped * 1e-9:.1f}), max |o - sdpa| "
                             f"{err:.1e}; SDPA {flops / ms_sdpa * 1e-9:.1f}")
                    summarise(stamps, label, n_iters)
                    if args.iterations and not causal:
                        summarise_iterations(stamps, n_iters)


if __name__ == "__main__":
    main()
