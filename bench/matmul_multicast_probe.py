"""What TMA multicast across a cluster of two programs would give tutorial
09's warp-specialized persistent GEMM (issue 20): a probe, before the
compiler does it. cuBLAS's Hopper kernels run clusters of two CTAs
(`nvjet_..._1x2_...`, bench/RESULTS.md session 35), whose multicast halves
one operand's traffic from L2; tutorial 09's tma-ws form matches cuBLAS per
cycle at 4096^3 but runs at a 1-2% lower clock under the power limit.

The kernel (`matmul_tma_persistent_kernel`, WARP_SPECIALIZE, 128 x 256 x 64
blocks, 3 stages, 8 warps, GROUP_SIZE_M 8) is compiled by Terrazzo, its PTX
patched and assembled with ptxas (on PATH), and launched as clusters of two
consecutive programs (`_C.Kernel(cluster_dims=(2, 1, 1))`). Programs 2c and
2c + 1 take tiles t and t + 1 (t even) in every round, which lie in one
column of a group of GROUP_SIZE_M rows: the same B tile. The patch:

* each ring stage's "empty" mbarrier expects the consumer warps of both
  programs (its count doubled); every consumer release also arrives on the
  other program's mbarrier (`mapa`, `mbarrier.arrive.shared::cluster`);
* B's copies of K step k are issued by the program of cluster rank k % 2
  only, multicast to both (`.multicast::cluster`, mask 0b11), into the same
  offsets of both programs' shared memory and signalling both "full"
  mbarriers, whose expected bytes are unchanged;
* a cluster barrier after the mbarriers' initialisation (instead of the
  block's barrier) and before exit (so that no program leaves while the
  other may still write its shared memory or arrive on its mbarriers); the
  mbarriers' invalidation is left out.

A form that is not clustered, `--forms producer-warp`, returns the
producer warp group's warps but the first right after their setmaxnreg.

The cluster forms require an even number of programs that all run the same number of
tiles (4096^3 and 8192^3 with 132 SMs do), and is checked against
torch.matmul before it is timed.

    python3 bench/matmul_multicast_probe.py --sizes 4096 8192 --dtypes float16 bfloat16 --rounds 3

With `--skinny M [--skinny-ring BLOCK_SIZE_K STAGES]` the probe patches
bench/matmul_skinny.py's splitk_tma_kernel instead (128 x 64 blocks of C,
a producer warp group): A is the same for every program, and the pair's
A copies are multicast (see `skinny`). On the H200 it did not pay
either (RESULTS.md session 38).

Per case: cuBLAS, the kernel as compiled (clusters of one), with --plain
the kernel as compiled in other configurations, and the patched forms,
interleaved rounds of do_bench medians (L2 flushed), TFLOP/s.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

COPY = "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
CLUSTER_BARRIER = "\tbarrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;\n"


#: The patches, cumulative: "launch" is the kernel as compiled, launched
#: as clusters of two; "cluster" adds the cluster barriers (5 and 2), with
#: nothing shared; "coupled" adds the
#: consumers' releases to both programs' mbarriers (1 and 3), each program
#: still loading its own B; "multicast" adds B's multicast (4).
CLUSTER_FORMS = ("launch", "cluster", "coupled", "multicast")
#: Not clustered: "producer-warp" returns the producer warp group's warps
#: but the one whose first thread issues the copies right after their
#: setmaxnreg (the others only spin on the ring's mbarriers; at the power
#: limit, whether that costs energy).
FORMS = CLUSTER_FORMS + ("producer-warp",)


def patch_ptx(ptx: str, form: str = "multicast", consumer_warps: int = 8, k_shift: int = 6,
              halves: bool = False, tensor_map: str = None, k_index: int = 1) -> str:
    """`form` (FORMS) of the tma-ws kernel's PTX (see the module's
    docstring): the multicast operand is the one whose copies of a K step
    are a group of consecutive copies (or those through the `tensor_map`
    register, or the first copy's: "first"), those of K step k issued by the program of rank k % 2
    (`k_shift`: log2 of BLOCK_SIZE_K; `k_index`: K's place in the copy's
    coordinates), or with `halves` the group's i-th copy by the program of
    rank i % 2. Raises if the PTX does not have the expected shape."""
    if form == "producer-warp":
        exit_after_setmaxnreg = (r"(\tsetmaxnreg\.dec\.sync\.aligned\.u32 \t\d+;\n)"
                                 r"(\t@%p\d+ bra \t(\$L__BB\d+_\d+);\n)")
        ptx, n = re.subn(exit_after_setmaxnreg,
                         lambda m: (m.group(1) + "\t{\n\t.reg .b32 tzw;\n\t.reg .pred tzidle;\n"
                                    "\tmov.u32 tzw, %tid.x;\n\tshr.u32 tzw, tzw, 5;\n"
                                    "\tand.b32 tzw, tzw, 3;\n"
                                    "\tsetp.ne.u32 tzidle, tzw, 0;\n"
                                    f"\t@tzidle bra \t{m.group(3)};\n\t}}\n" + m.group(2)),
                         ptx, count=1)
        assert n == 1, "no producer setmaxnreg followed by its exit branch"
        return ptx
    level = CLUSTER_FORMS.index(form) - 1
    if level < 0:
        return ptx
    # 5. No invalidation; a cluster barrier before the exit.
    ptx = re.sub(r"\tmbarrier\.inval\.shared\.b64 \t\[[^\]]*\];\n", "", ptx)
    ptx, n = re.subn(r"\n\tret;\n", "\n" + CLUSTER_BARRIER + "\tret;\n", ptx)
    assert n == 1, "expected one exit"
    # 2. The block barrier after the initialisation becomes a cluster barrier.
    ptx, n = re.subn(r"(fence\.mbarrier_init\.release\.cluster;\n\$L__BB\d+_\d+:\n"
                     r"(?:\t(?!bar\.sync)[^\n]*\n)*?)\tbar\.sync \t0;\n",
                     lambda m: m.group(1) + CLUSTER_BARRIER, ptx, count=1)
    assert n == 1, "no barrier after the mbarriers' initialisation"
    if level < 1:
        return ptx
    # 1. Empty mbarriers: initialised with the consumer warps' count.
    counts = dict(re.findall(r"mov\.b32 \t(%r\d+), (\d+);", ptx))
    inits = re.findall(r"mbarrier\.init\.shared\.b64 \t\[global_smem\+(\d+)\], (%r\d+);", ptx)
    empty_regs = {reg for _, reg in inits if counts.get(reg) == str(consumer_warps)}
    assert len(empty_regs) == 1, inits
    (empty_reg,) = empty_regs
    ptx, n = re.subn(rf"mov\.b32 \t{re.escape(empty_reg)}, {consumer_warps};",
                     f"mov.b32 \t{empty_reg}, {2 * consumer_warps};", ptx, count=1)
    assert n == 1
    # 3. Consumer releases also arrive on the other program's mbarrier.
    def remote(m):
        addr = m.group(1)
        return (m.group(0) + "\n\t{\n\t.reg .b32 tzpeer, tzaddr;\n"
                "\tmov.u32 tzpeer, %cluster_ctarank;\n\txor.b32 tzpeer, tzpeer, 1;\n"
                f"\tcvt.u32.u64 tzaddr, {addr};\n"
                "\tmapa.shared::cluster.u32 tzaddr, tzaddr, tzpeer;\n"
                "\tmbarrier.arrive.shared::cluster.b64 _, [tzaddr];\n\t}")
    ptx, n = re.subn(r"mbarrier\.arrive\.shared::cta\.b64 _, \[(%rd\d+)\];", remote, ptx)
    assert n >= 1, "no consumer release"
    if level < 2:
        return ptx
    # 4. B's copies: the group of consecutive copies through one map.
    lines = ptx.split("\n")
    if tensor_map == "first":
        tensor_map = re.search(r"\[(%rd\d+), \{", next(x for x in lines if COPY in x)).group(1)
    groups, run = [], []
    for i, line in enumerate(lines):
        if COPY in line and (tensor_map is None or f"[{tensor_map}, {{" in line):
            run.append(i)
        else:
            if len(run) > (0 if tensor_map else 1):
                groups.append(run)
            run = []
    assert len(groups) == 1 or tensor_map and not halves, groups
    for group in groups:
        multicast_group(lines, group, halves, k_index, k_shift)
    return "\n".join(lines)


def multicast_group(lines, group, halves, k_index, k_shift):
    """The copies lines[group] (consecutive, of one K step) multicast, each
    issued by one program of the cluster (see `patch_ptx`)."""
    if halves:
        assert len(group) % 2 == 0, group
        head = ("\t{\n\t.reg .b32 tzrank;\n\t.reg .pred tzmine, tzother;\n\t.reg .b16 tzmask;\n"
                "\tmov.u32 tzrank, %cluster_ctarank;\n\tsetp.eq.u32 tzmine, tzrank, 0;\n"
                "\tnot.pred tzother, tzmine;\n\tmov.b16 tzmask, 3;")
    else:
        k_coord = re.search(r"\{(%r\d+), (%r\d+)\}", lines[group[0]]).group(1 + k_index)
        head = ("\t{\n\t.reg .b32 tzk, tzrank;\n\t.reg .pred tzmine;\n\t.reg .b16 tzmask;\n"
                f"\tshr.u32 tzk, {k_coord}, {k_shift};\n\tand.b32 tzk, tzk, 1;\n"
                "\tmov.u32 tzrank, %cluster_ctarank;\n\tsetp.eq.u32 tzmine, tzk, tzrank;\n"
                "\tmov.b16 tzmask, 3;")
    for n, i in enumerate(group):
        line = lines[i].strip()
        assert line.endswith(";")
        guard = "tzother" if halves and n % 2 else "tzmine"
        lines[i] = (f"\t@{guard} " + line[:-1].replace(COPY, COPY + ".multicast::cluster")
                    + ", tzmask;")
    lines[group[0]] = head + "\n" + lines[group[0]]
    lines[group[-1]] = lines[group[-1]] + "\n\t}"


def install_hooks(dump=None):
    """Makes every kernel function with a `_probe_form` attribute (FORMS)
    compile to its patched PTX (`patch_ptx` with the function's
    `_probe_patch` keywords, if any), assembled by ptxas and launched as
    clusters of `_probe_cluster` (default (2, 1, 1)) programs."""
    from terrazzo.runtime import jit as J

    patched_binaries = {}
    original = J.JITFunction._binary_for_key

    def binary_for_key(self, key, use_cache=True):
        binary, meta, cached = original(self, key, use_cache=use_cache)
        form = getattr(self, "_probe_form", None)
        if form is None:
            return binary, meta, cached
        ptx = patch_ptx(self._stage_for_key(key, "ptx"), form, **getattr(self, "_probe_patch", {}))
        if dump:
            open(f"{dump}-{form}.ptx", "w").write(ptx)
        folder = tempfile.mkdtemp()
        open(f"{folder}/k.ptx", "w").write(ptx)
        run = subprocess.run(
            ["ptxas", "-arch=sm_90a", "-o", f"{folder}/k.cubin", f"{folder}/k.ptx"],
            capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        if run.stderr.strip():
            print(f"# ptxas: {run.stderr.strip()}", file=sys.stderr)
        binary = open(f"{folder}/k.cubin", "rb").read()
        # By identity ("launch" is the same code), with the cluster shape.
        cluster = getattr(self, "_probe_cluster", (2, 1, 1))
        patched_binaries[id(binary)] = (binary, cluster if form in CLUSTER_FORMS else (1, 1, 1))
        return binary, meta, False

    make_kernel = J._make_kernel

    def make(C, binary, name, threads, smem, signature, scratch=0, cls=None, *rest, **kwargs):
        if id(binary) in patched_binaries:
            base = cls or C.Kernel
            cluster = patched_binaries[id(binary)][1]
            cls = lambda *a, **kw: base(*a, cluster_dims=cluster, **kw)  # noqa: E731
        return make_kernel(C, binary, name, threads, smem, signature, scratch, cls, *rest,
                           **kwargs)

    J.JITFunction._binary_for_key = binary_for_key
    J._make_kernel = make


def skinny(args):
    """A x B with M = args.skinny rows (bench/matmul_skinny.py's
    splitk_tma_kernel, one program per 128 x 64 tile of C, K steps and
    stages `args.skinny_ring`, a producer warp group and two consumer
    groups), programs (0, 2c) and (0, 2c + 1) as a cluster of two, whose A
    blocks are the same: with 128-deep K steps A's two 64-column copies of
    each step, one by each program, multicast to both; with 64-deep steps
    step k's by the program of rank k % 2."""
    import torch
    import triton.testing
    import matmul_skinny

    bk, stages = args.skinny_ring
    config = dict(BLOCK_SIZE_M=128, BLOCK_SIZE_N=64, BLOCK_SIZE_K=bk, SPLIT_K=1, B_NK=False,
                  WARP_SPECIALIZE=True, num_stages=stages, num_warps=8)
    kernels = {"tma-ws": matmul_skinny.splitk_tma_kernel}
    for form in args.forms:
        kernels[form] = fresh_splitk_tma_kernel(matmul_skinny)
        kernels[form]._probe_form = form
        # 128-deep K steps: A's two copies, one by each program; 64-deep:
        # A's copy of step k by the program of rank k % 2.
        kernels[form]._probe_patch = dict(halves=True) if bk == 128 else dict(
            tensor_map="first", k_index=0, k_shift=bk.bit_length() - 1)
        kernels[form]._probe_cluster = (1, 2, 1)
    print(f"# {torch.cuda.get_device_name()}; median us of {args.rounds} rounds of do_bench "
          "medians (L2 flushed)")
    print("| M | N = K | dtype | cuBLAS | " + " | ".join(kernels) + " |")
    print("|---:|---:|---|" + "---:|" * (len(kernels) + 1))
    for size in args.sizes:
        for dtype_name in args.dtypes:
            dtype = getattr(torch, dtype_name)
            M, N, K = args.skinny, size, size
            a = torch.randn((M, K), device="cuda", dtype=dtype)
            b = torch.randn((K, N), device="cuda", dtype=dtype)
            want = a.double() @ b.double()

            def launcher(kernel):
                def run():
                    c = torch.empty((M, N), device="cuda", dtype=dtype)
                    kernel[(1, N // 64, 1)](a, b, c, c, M, N, K, **config)
                    return c
                return run
            providers = {"cuBLAS": lambda: torch.matmul(a, b)}
            providers.update((name, launcher(k)) for name, k in kernels.items())
            for name, fn in providers.items():
                err = matmul_skinny.relative_error(fn(), want)
                assert err < 1e-2, f"{name}: relative error {err:.2e}"
            times = {name: [] for name in providers}
            for _ in range(args.rounds):
                for name, fn in providers.items():
                    times[name].append(triton.testing.do_bench(fn) * 1e3)
            us = {name: statistics.median(t) for name, t in times.items()}
            cells = " | ".join(f"{us[name]:.1f} ({us['cuBLAS'] / us[name]:.3f})"
                               for name in providers if name != "cuBLAS")
            print(f"| {M} | {size} | {dtype_name} | {us['cuBLAS']:.1f} | {cells} |", flush=True)


def fresh_splitk_tma_kernel(module):
    """A fresh kernel function of `module`'s splitk_tma_kernel (its own
    compiled binaries), from a new import of the module's file."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(f"probe_{id(object())}", module.__file__)
    copy = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(copy)
    return copy.splitk_tma_kernel


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[4096, 8192])
    parser.add_argument("--dtypes", nargs="+", default=["float16", "bfloat16"])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--grids", type=int, nargs="+", default=None,
                        help="programs to launch (even; default: the SM count)")
    parser.add_argument("--forms", nargs="*", choices=FORMS, default=list(CLUSTER_FORMS))
    parser.add_argument("--dump", help="write each form's PTX to DUMP-<form>.ptx")
    parser.add_argument("--plain", nargs="*", default=[], metavar="M,N,K,STAGES,WARPS,SUBTILE,WS",
                        help="also the kernel as compiled with these configurations (0 or 1 for "
                             "EPILOGUE_SUBTILE and WARP_SPECIALIZE), to compare block shapes")
    parser.add_argument("--skinny", type=int, metavar="M",
                        help="instead, a skinny product of M rows (at most 128) against N = K = "
                             "--sizes, A multicast (see skinny())")
    parser.add_argument("--skinny-ring", type=int, nargs=2, default=[128, 4],
                        metavar=("BLOCK_SIZE_K", "STAGES"))
    args = parser.parse_args()

    install_hooks(args.dump)
    if args.skinny:
        return skinny(args)
    import torch
    import triton.testing
    from loading import load_tutorial

    plain = load_tutorial("09-persistent-matmul.py").matmul_tma_persistent_kernel
    patched = {}
    for form in args.forms:
        patched[form] = load_tutorial("09-persistent-matmul.py").matmul_tma_persistent_kernel
        patched[form]._probe_form = form
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    grids = args.grids or [sms - sms % 2]
    config = dict(BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, BLOCK_SIZE_K=64, GROUP_SIZE_M=8,
                  SCALING="none", B_COLUMN_MAJOR=False, FLAT=False, WARP_SPECIALIZE=True,
                  EPILOGUE_SUBTILE=False, num_warps=8, num_stages=3)
    torch.manual_seed(int.from_bytes(os.urandom(4), "little"))
    print(f"# {torch.cuda.get_device_name()}, {sms} SMs; median TFLOP/s of {args.rounds} "
          "rounds of do_bench medians (L2 flushed)")
    columns = [(form, g) for form in args.forms for g in grids]
    names = list(args.plain) + [f"{f}, {g} programs" for f, g in columns]
    print("| case | cuBLAS | tma-ws | " + "".join(f"{name} | " for name in names))
    print("|---|---:|---:|" + "---:|" * (len(columns) + len(args.plain)))
    for size in args.sizes:
        for dtype_name in args.dtypes:
            dtype = getattr(torch, dtype_name)
            a = torch.randn((size, size), device="cuda", dtype=dtype)
            b = torch.randn((size, size), device="cuda", dtype=dtype)
            want = (a.double() @ b.double())

            def launcher(kernel, grid, config=config):
                def run():
                    c = torch.empty((size, size), device="cuda", dtype=dtype)
                    kernel[(grid,)](a, b, c, None, None, size, size, size, **config)
                    return c
                return run
            providers = {"cuBLAS": lambda: torch.matmul(a, b),
                         "tma-ws": launcher(plain, sms)}
            for text in args.plain:
                m, n, k, stages, warps, subtile, ws = (int(x) for x in text.split(","))
                providers[text] = launcher(plain, sms, dict(
                    config, BLOCK_SIZE_M=m, BLOCK_SIZE_N=n, BLOCK_SIZE_K=k, num_stages=stages,
                    num_warps=warps, EPILOGUE_SUBTILE=bool(subtile), WARP_SPECIALIZE=bool(ws)))
            for form, g in columns:
                providers[f"{form} {g}"] = launcher(patched[form], g)
            for name, fn in providers.items():
                got = fn().double()
                err = ((got - want).norm() / want.norm()).item()
                assert err < 1e-2, f"{name}: relative error {err:.2e}"
            flops = 2 * size ** 3
            times = {name: [] for name in providers}
            for _ in range(args.rounds):
                for name, fn in providers.items():
                    times[name].append(triton.testing.do_bench(fn))
            tf = {name: flops / statistics.median(t) * 1e-9 for name, t in times.items()}
            cells = " | ".join(f"{tf[name]:.1f} ({tf[name] / tf['cuBLAS']:.3f})"
                               for name in providers if name != "cuBLAS")
            print(f"| {size}^3 {dtype_name} | {tf['cuBLAS']:.1f} | {cells} |", flush=True)


if __name__ == "__main__":
    main()
