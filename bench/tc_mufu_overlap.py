"""Whether the H100 runs its tensor cores and its special-function units
(MUFU, ex2.approx) at the same time: attention's forward needs both, about
equally at head dimension 64 (a 64 x 128 block of scores per warp group
takes 512 cycles of the SM's tensor cores for Q K^T and P V and 512 of its
MUFU for the exponentials, at 16 a cycle).

Hand-written PTX kernels, one per mode, one program of two warp groups per
SM, each warp group looping `--iterations` times over, per iteration, any
of:
  mma  eight wgmma.mma_async m64n128k16 (f16 in, f32 out; operands are
       whatever shared memory holds: the timing does not depend on them),
       committed and waited for at the end of the iteration;
  ex2  64 ex2.approx.ftz.f32 per thread (independent chains);
as the mode says (each warp group's share: "mma", "ex2", "both" or "-"); or
  chain  attention's forward at head dimension 64 without its row maximum:
         S = Q K^T (four wgmma m64n128k16 from shared memory), waited for;
         P = ex2(S) (64 per thread); P packed to f16 feeds O += P V (eight
         wgmma m64n64k16, A from registers), waited for: the same tensor-core
         and MUFU work as 8 wgmmas and 64 ex2, each step waiting for the last;
  chainmax  the chain with the row maximum of S (in-thread tree, two
         shuffles) and the exponentials of S * scale - max (one FMA each);
  chainadd  chainmax with the maximum's tree and shuffles as additions
         (wrong results; what FMNMX's rate costs against FADD's);
  chainall  chainmax with the running maximum, the row sum (l = l * alpha +
         sum P) and O rescaled by alpha = ex2(old max - new max): the
         tutorial's loop less its loads and masks.
  chainstale  chainall with the exponentials taken against the running
         maximum from before the block (wrong results: what the
         exponentials' wait for the new maximum costs);
  chainturn  chainall with the two warp groups taking turns around their
         exponentials (cuDNN's schedule: named barriers, the maxima tied to
         the turn's wait and the row sums to its pass, as the compiler's
         tilegpu.warp_group_turn_wait / _pass lower);
  chainh2  chainall with the maximum's tree over S rounded to f16 pairs
         (HMNMX2 after F2FP packing);
  chainrot  chainall rotated, as the compiler's default warp-specialized
         loop: the block's Q K^T and the previous block's P V issued
         together, Q K^T waited for, the softmax, P V waited for before O's
         rescaling and P's packing.
The kernels are loaded through the CUDA driver (ctypes, no toolkit needed)
and timed with torch's CUDA events; it also records the SM clock's cycles
of program 0's first thread. If the two units overlap, both warp groups
doing both take about as long as the longer of the two alone; if they
exclude each other, the sum.

    python3 bench/tc_mufu_overlap.py [--iterations 2000] [--rounds 5] [--wgmmas 8]
    python3 bench/tc_mufu_overlap.py --ptx FILE   # write the PTX only (no GPU)
"""
from __future__ import annotations

import argparse
import ctypes
import statistics
import sys

MODES = {  # (warp group 0, warp group 1)
    "mma alone (both groups)": ("mma", "mma"),
    "ex2 alone (both groups)": ("ex2", "ex2"),
    "group 0 mma, group 1 ex2": ("mma", "ex2"),
    "both groups mma and ex2": ("both", "both"),
    "group 0 mma only": ("mma", "-"),
    "group 0 ex2 only": ("ex2", "-"),
    "chain (both groups)": ("chain", "chain"),
    "group 0 chain only": ("chain", "-"),
    "chain + max (both groups)": ("chainmax", "chainmax"),
    "chain + max, sum, rescale (both)": ("chainall", "chainall"),
    "chain + max as adds (both)": ("chainadd", "chainadd"),
    "chain + all, stale maximum (both)": ("chainstale", "chainstale"),
    "chain + all, turns (both)": ("chainturn", "chainturn"),
    "chain + all, f16x2 maximum (both)": ("chainh2", "chainh2"),
    "chain + all, rotated (both)": ("chainrot", "chainrot"),
}
# Modes with the running maximum, row sums and rescaling.
FULL_SOFTMAX = ("chainall", "chainstale", "chainturn", "chainh2", "chainrot")
EX2_PER_ITERATION = 64
WGMMA_PER_ITERATION = 8


ROWS = ([i for i in range(64) if i % 4 < 2], [i for i in range(64) if i % 4 >= 2])


def tree(op: str, out: str, values: list[str], tmp: str, kind: str = "f32") -> list[str]:
    """`out` = op over `values` as a tree (temporaries `tmp`0, 1, ...)."""
    lines, level, n = [], list(values), 0
    while len(level) > 1:
        nxt = []
        for i in range(0, len(level) - 1, 2):
            name = f"{tmp}{n}"
            n += 1
            lines.append(f"{op}.{kind} {name}, {level[i]}, {level[i + 1]};")
            nxt.append(name)
        if len(level) % 2:
            nxt.append(level[-1])
        level = nxt
    lines.append(f"mov.{'f32' if kind == 'f32' else 'b32'} {out}, {level[0]};")
    return lines


def quad(op: str, value: str) -> list[str]:
    """`value` = op over the four lanes of a quad (one row's threads)."""
    return [line for lane in (1, 2) for line in (
        f"shfl.sync.bfly.b32 %t, {value}, {lane}, 31, -1;",
        f"{op}.f32 {value}, {value}, %t;")]


def softmax_ptx(full: bool, reduce: str = "max", stale: bool = False,
                half: bool = False, turn: list[str] | None = None,
                rescale: bool = True) -> list[str]:
    """Between S's wait and P's packing: the row maxima of S, then the
    exponentials of S * scale - max * scale into %x; with `full`, also the
    running maximum %mo, the row sums %l and O's rescaling. `stale`: the
    exponentials subtract the running maximum from before this block
    (wrong results: what waiting for the new one costs). `half`: the
    maximum's tree over S rounded to f16 pairs (HMNMX2). `turn`: lines
    put between the maxima and the exponentials (a warp-group turn).
    Without `rescale`, O's rescaling is left to the caller (rescale_ptx)."""
    lines = []
    for r, row in enumerate(ROWS):
        if half:
            pairs = [f"%h{r}_{j}" for j in range(len(row) // 2)]
            lines += [f"cvt.rn.f16x2.f32 {pair}, %d{row[2 * j + 1]}, %d{row[2 * j]};"
                      for j, pair in enumerate(pairs)]
            lines += tree("max", f"%hp{r}", pairs, f"%th{r}_", "f16x2")
            lines += [f"mov.b32 {{%hl, %hh}}, %hp{r}; max.f16 %hl, %hl, %hh;",
                      f"cvt.f32.f16 %mx{r}, %hl;"]
        else:
            lines += tree(reduce, f"%mx{r}", [f"%d{i}" for i in row], f"%tm{r}_")
        lines += quad(reduce, f"%mx{r}")
    lines += turn or []
    for r, row in enumerate(ROWS):
        if stale:
            lines.append(f"mul.f32 %nm{r}, %mo{r}, 0fBF800000;")  # -(previous maximum)
        lines.append(f"mul.f32 %mx{r}, %mx{r}, 0f3E000000;")  # * scale (0.125)
        if full:
            lines += [f"max.f32 %mx{r}, %mx{r}, %mo{r};",
                      f"sub.f32 %al{r}, %mo{r}, %mx{r}; ex2.approx.ftz.f32 %al{r}, %al{r};",
                      f"mov.f32 %mo{r}, %mx{r};"]
        if not stale:
            lines.append(f"neg.f32 %nm{r}, %mx{r};")
        lines += [f"fma.rn.f32 %y, %d{i}, 0f3E000000, %nm{r}; ex2.approx.ftz.f32 %x{i}, %y;"
                  for i in row]
        if full:
            lines += tree("add", f"%sm{r}", [f"%x{i}" for i in row], f"%ts{r}_")
            lines += quad("add", f"%sm{r}")
            lines.append(f"fma.rn.f32 %l{r}, %l{r}, %al{r}, %sm{r};")
            lines += rescale_ptx(r) if rescale else []
    return lines


def rescale_ptx(row: int) -> list[str]:
    """O's accumulators of row `row` (of the thread's two) times alpha."""
    return [f"mul.f32 %o{i}, %o{i}, %al{row};" for i in range(32) if (i % 4 < 2) == (row == 0)]


def turn_wait(group: int) -> list[str]:
    """Warp group `group`'s turn (named barrier 1 + group, which the other
    group arrives at after its exponentials), the row maxima tied to it
    as the compiler ties them: or-ed with a zero that ptxas cannot fold
    (the population count of a volatile shared-memory word, shifted right
    by 6), so that no exponential moves above the barrier."""
    return [f"bar.sync {1 + group}, 256;",
            "ld.volatile.shared.u32 %z, [smem]; popc.b32 %z, %z; shr.u32 %z, %z, 6;"] + [
        f"mov.b32 %t, %mx{r}; or.b32 %t, %t, %z; mov.b32 %mx{r}, %t;" for r in (0, 1)]


def turn_pass(group: int) -> list[str]:
    """The other warp group's turn, after the row sums: the arrival's
    thread count depends on them (256 | (sums & zero))."""
    return ["mov.b32 %t, %l0; mov.b32 %c, %l1; or.b32 %t, %t, %c; and.b32 %t, %t, %z;",
            f"or.b32 %t, %t, 256; bar.arrive {2 - group}, %t;"]


def kernel_ptx(name: str, mode: tuple[str, str], wgmmas: int) -> str:
    """The probe kernel `name`(u64 out, u32 iterations) for one mode: each
    warp group takes its own branch to a loop of its share (no branch
    inside a loop: ptxas serialises wgmmas that a branch separates from
    their wait)."""
    acc = ", ".join(f"%d{i}" for i in range(64))

    def shared_wgmmas(count: int, overwrite: bool) -> list[str]:
        """`count` wgmma m64n128k16 into %d from the two descriptors, the
        first one overwriting %d with `overwrite` (scale-d 0)."""
        return [f"wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{{acc}}}, "
                f"%rd3, %rd4, {0 if overwrite and k == 0 else 1}, 1, 1, 0, 0;"
                for k in range(count)]

    lines = [
        f".visible .entry {name}(.param .u64 out, .param .u32 iterations)",
        ".maxntid 256, 1, 1",
        "{",
        ".reg .pred %p<8>; .reg .b32 %r<32>; .reg .b64 %rd<16>;",
        ".reg .f32 %d<64>; .reg .f32 %x<64>; .reg .f32 %s; .reg .f32 %o<32>; .reg .b32 %a<32>;",
        ".reg .f32 %tm0_<40>; .reg .f32 %tm1_<40>; .reg .f32 %ts0_<40>; .reg .f32 %ts1_<40>;",
        ".reg .f32 %mx<2>; .reg .f32 %mo<2>; .reg .f32 %nm<2>; .reg .f32 %al<2>; .reg .f32 %sm<2>;",
        ".reg .f32 %l<2>; .reg .f32 %y; .reg .b32 %t; .reg .b32 %c; .reg .b32 %z;",
        ".reg .b32 %h0_<16>; .reg .b32 %h1_<16>; .reg .b32 %th0_<20>; .reg .b32 %th1_<20>;",
        ".reg .b32 %hp<2>; .reg .f16 %hl; .reg .f16 %hh;",
        "ld.param.u64 %rd1, [out]; ld.param.u32 %r1, [iterations];",
        "mov.u32 %r3, %tid.x; shr.u32 %r4, %r3, 7;",  # warp group
        # Descriptors of shared memory: start >> 4, leading byte offset 128,
        # stride 256, no swizzle; B 1 KiB after A.
        "mov.u32 %r9, smem; shr.u32 %r10, %r9, 4; cvt.u64.u32 %rd2, %r10;",
        "or.b64 %rd3, %rd2, 0x0000001000080000;",
        "add.s64 %rd4, %rd3, 64;",
    ]
    lines += [f"mov.f32 %d{i}, 0f00000000;" for i in range(64)]
    lines += [f"mov.f32 %o{i}, 0f00000000; mov.b32 %a{i}, 0;" for i in range(32)]
    lines += [f"mov.f32 %mo{r}, 0fFF800000; mov.f32 %l{r}, 0f00000000;" for r in (0, 1)]
    out_acc = ", ".join(f"%o{i}" for i in range(32))
    lines += [f"cvt.rn.f32.u32 %x{i}, %r3; mul.f32 %x{i}, %x{i}, 0f3A800000;"
              for i in range(EX2_PER_ITERATION)]
    lines += ["mov.u64 %rd5, %clock64;", "setp.ne.u32 %p1, %r4, 0;", "@%p1 bra GROUP1;"]
    for group, share in enumerate(mode):
        label = f"G{group}"
        lines += [f"GROUP{group}:"] if group else []
        if share == "chainturn" and group == 1:
            lines.append("bar.arrive 1, 256;")  # warp group 0 takes the first turn
        lines += ["mov.u32 %r11, 0;", f"{label}_LOOP:"]
        if share in ("mma", "both"):
            lines.append("wgmma.fence.sync.aligned;")
            lines += shared_wgmmas(wgmmas, overwrite=False)
            lines.append("wgmma.commit_group.sync.aligned;")
        if share in ("ex2", "both"):
            lines += [f"ex2.approx.ftz.f32 %x{i}, %x{i};" for i in range(EX2_PER_ITERATION)]
        if share in ("mma", "both"):
            lines.append("wgmma.wait_group.sync.aligned 0;")
        pv = [f"wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{{out_acc}}}, "
              f"{{%a{4 * k}, %a{4 * k + 1}, %a{4 * k + 2}, %a{4 * k + 3}}}, "
              f"%rd4, 1, 1, 1, 0;" for k in range(8)]
        pack = [f"cvt.rn.f16x2.f32 %a{j}, %x{2 * j + 1}, %x{2 * j};" for j in range(32)]
        if share == "chainrot":
            # Rotated: this block's Q K^T and the previous block's P V
            # issued together, Q K^T waited for, the softmax, then P V
            # waited for before O's rescaling and P's packing.
            lines.append("wgmma.fence.sync.aligned;")
            lines += shared_wgmmas(4, overwrite=True)
            lines += ["wgmma.commit_group.sync.aligned;"] + pv
            lines += ["wgmma.commit_group.sync.aligned;", "wgmma.wait_group.sync.aligned 1;"]
            lines += softmax_ptx(True, rescale=False)
            lines += ["wgmma.wait_group.sync.aligned 0;"] + rescale_ptx(0) + rescale_ptx(1)
            lines += pack
        elif share.startswith("chain"):
            lines.append("wgmma.fence.sync.aligned;")
            lines += shared_wgmmas(4, overwrite=True)
            lines += ["wgmma.commit_group.sync.aligned;", "wgmma.wait_group.sync.aligned 0;"]
            if share == "chain":
                lines += [f"ex2.approx.ftz.f32 %x{i}, %d{i};" for i in range(EX2_PER_ITERATION)]
            else:
                turn = share == "chainturn"
                lines += softmax_ptx(share in FULL_SOFTMAX, "add" if share == "chainadd" else "max",
                                     stale=share == "chainstale", half=share == "chainh2",
                                     turn=turn_wait(group) if turn else None)
                lines += turn_pass(group) if turn else []
            lines += pack
            lines.append("wgmma.fence.sync.aligned;")
            lines += pv
            lines += ["wgmma.commit_group.sync.aligned;", "wgmma.wait_group.sync.aligned 0;"]
        lines += [f"add.u32 %r11, %r11, 1; setp.lt.u32 %p3, %r11, %r1; @%p3 bra {label}_LOOP;"]
        if share == "chainturn" and group == 0:
            lines.append("bar.sync 1, 256;")  # warp group 1's last arrival
        lines.append("bra.uni DONE;" if group == 0 else "DONE:")
    lines += [
        "mov.u64 %rd6, %clock64; sub.s64 %rd7, %rd6, %rd5;",
        "mov.f32 %s, 0f00000000;",
    ]
    lines += [f"add.f32 %s, %s, %d{i};" for i in range(64)]
    lines += [f"add.f32 %s, %s, %x{i};" for i in range(EX2_PER_ITERATION)]
    lines += [f"add.f32 %s, %s, %o{i};" for i in range(32)]
    lines += [f"add.f32 %s, %s, %l{r};" for r in (0, 1)]
    lines += [
        # out's first 8 bytes: program 0's thread 0 cycles; then a float32
        # checksum per thread of program 0, so that nothing is dead.
        "mov.u32 %r12, %ctaid.x; or.b32 %r13, %r12, %r3; setp.eq.u32 %p4, %r13, 0;",
        "@%p4 st.global.u64 [%rd1], %rd7;",
        "setp.eq.u32 %p5, %r12, 0; mul.wide.u32 %rd8, %r3, 4; add.s64 %rd9, %rd1, %rd8;",
        "@%p5 st.global.f32 [%rd9+8], %s;",
        "ret;", "}",
    ]
    return "\n".join(lines) + "\n"


def module_ptx(wgmmas: int = WGMMA_PER_ITERATION) -> str:
    """Every mode's kernel (probe0, probe1, ...) in one module, `wgmmas`
    wgmma m64n128k16 per iteration."""
    head = (".version 8.0\n.target sm_90a\n.address_size 64\n"
            ".shared .align 1024 .b8 smem[49152];\n")
    return head + "".join(kernel_ptx(f"probe{i}", mode, wgmmas) for i, mode in enumerate(MODES.values()))


def run(iterations: int, rounds: int, wgmmas: int) -> None:
    import torch

    torch.zeros(1, device="cuda")  # the primary context, current
    cuda = ctypes.CDLL("libcuda.so.1")

    def check(result, call):
        if result != 0:
            name = ctypes.c_char_p()
            cuda.cuGetErrorName(result, ctypes.byref(name))
            raise RuntimeError(f"{call} failed: {name.value.decode() if name.value else result}")

    module = ctypes.c_void_p()
    ptx = module_ptx(wgmmas).encode() + b"\0"
    check(cuda.cuModuleLoadData(ctypes.byref(module), ptx), "cuModuleLoadData")
    functions = {}
    for i, name in enumerate(MODES):
        function = ctypes.c_void_p()
        check(cuda.cuModuleGetFunction(ctypes.byref(function), module, f"probe{i}".encode()),
              "cuModuleGetFunction")
        functions[name] = function
    programs = torch.cuda.get_device_properties(0).multi_processor_count
    out = torch.zeros(2 + 256, dtype=torch.float64, device="cuda")
    stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)

    def launch(name):
        args = [ctypes.c_uint64(out.data_ptr()), ctypes.c_uint32(iterations)]
        params = (ctypes.c_void_p * len(args))(
            *[ctypes.cast(ctypes.pointer(a), ctypes.c_void_p) for a in args])
        check(cuda.cuLaunchKernel(functions[name], programs, 1, 1, 256, 1, 1, 0, stream,
                                  params, None), "cuLaunchKernel")

    results = {name: ([], []) for name in MODES}
    for name in MODES:
        launch(name)  # warm-up
    torch.cuda.synchronize()
    for _ in range(rounds):
        for name in MODES:
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            launch(name)
            end.record()
            torch.cuda.synchronize()
            cycles = out[:1].view(torch.int64).item()
            results[name][0].append(start.elapsed_time(end) * 1e3)
            results[name][1].append(cycles)
    print(f"{programs} programs of two warp groups, {iterations} iterations; per warp group "
          f"and iteration {wgmmas} wgmma m64n128k16 and/or "
          f"{EX2_PER_ITERATION} ex2 per thread (medians of {rounds} rounds)")
    print(f"{'mode':28s} {'us':>9s} {'cycles/iter':>12s} {'MHz':>6s}")
    for name, (times, cycles) in results.items():
        us, cyc = statistics.median(times), statistics.median(cycles)
        print(f"{name:28s} {us:9.1f} {cyc / iterations:12.1f} {cyc / us:6.0f}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--wgmmas", type=int, default=WGMMA_PER_ITERATION,
                        help="wgmma m64n128k16 per iteration (8: attention at head "
                             "dimension 64, 16: at 128)")
    parser.add_argument("--ptx", help="write the kernel's PTX to this file and stop")
    args = parser.parse_args(argv)
    if args.ptx:
        with open(args.ptx, "w") as f:
            f.write(module_ptx(args.wgmmas))
        return 0
    run(args.iterations, args.rounds, args.wgmmas)
    return 0


if __name__ == "__main__":
    sys.exit(main())
