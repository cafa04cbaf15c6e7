"""Hand-edited forms of tutorial 06's D=128 non-causal persistent forward,
for bench/RESULTS.md session 45: what the tile loop's structure is worth
before the compiler is taught it. Writes one cubin per form (and its
JSON) from this compiler's tilegpu IR of the kernel, edited, compiled from
there (terrazzo-compile takes tilegpu IR) and assembled with ptxas; time
them on a GPU machine with bench/swap_cached_binary.py and
bench/attention_configs.py (whose check against SDPA is their test):

    PYTHONPATH=build/python python3 bench/attention_hand_edited.py OUT
    # on the GPU machine, OUT carried:
    TERRAZZO_CACHE_DIR=/tmp/a python3 bench/attention_configs.py --cases 128:0 \\
        --sizes 1024 2048 4096 --rounds 1 --persistent 1
    python3 bench/swap_cached_binary.py /tmp/a /tmp/d OUT/unrotated-oq-lse.cubin
    TERRAZZO_CACHE_DIR=/tmp/d python3 bench/attention_configs.py ...   # the same

The forms (each edit asserts the lines it changes, so a compiler whose IR
moved fails here instead of measuring something else):
  rotated           the loop over tiles rotated: the next tile's Q stored
                    and its first Q K^T issued before the current tile's
                    epilogue, which converts O through the last V stage
                    (released after it); Q's buffer live across the loop
  rotated-lse       that, and the log-sum-exp stored from its row layout
                    (no conversion through shared memory)
  lse               the compiler's loop, the log-sum-exp from its row layout
  oq                the compiler's loop, O converted through Q's own buffer
                    (rows a warp wrote, it reads) and Q's stores waited for
                    per warp group
  unrotated-oq-lse  both: no barrier of both consumer warp groups per tile
  producer-q        Q loaded by the producer warp group, by TMA, into one
                    buffer that the consumers release after each tile's
                    last Q K^T, so that the next tile's Q lands while they
                    finish the current one; O converted through the last V
                    stage (Q's buffer is no longer free for it). From a copy
                    of the tutorial whose persistent kernel loads Q through
                    a descriptor (OUT/t06pq, written here; the compiler has
                    the consumers issue that copy and wait for it): time it
                    with `--tutorials OUT/t06pq` in both runs above
In every form the full barriers that the wgmma lowering puts in front of
a dot reading a buffer written by plain stores, in the loops where nothing
writes it, are dropped from the PTX (the edits make Q's buffer mutable);
the one after Q's store is kept (narrowed to the warp group where the
form's O does not go through a buffer both groups read)."""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from loading import load_tutorial  # noqa: E402

FORMS = ("rotated", "rotated-lse", "lse", "oq", "unrotated-oq-lse", "producer-q")
MMA = "#tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>"
ACC = f"tensor<128x128xf32, {MMA}>"
QB = "!tilegpu.memdesc<128x128xf16, #shared, mutable>"
KT = "!tilegpu.memdesc<128x128xf16, #shared3, mutable>"
BAR = "!tilegpu.memdesc<1xi64, #shared2, mutable>"
STACK = "!tilegpu.memdesc<3x1xi64, #shared1, mutable>"
RING = "!tilegpu.memdesc<3x128x128xf16, #shared, mutable>"
# The program barrier of the consumers, and one of the thread's warp group.
PROGRAM_BARRIER = "bar.sync 0, 256;"
GROUP_BARRIER = ("{ .reg .b32 tzb; mov.u32 tzb, %tid.x; shr.u32 tzb, tzb, 7; "
                 "add.u32 tzb, tzb, 8; bar.sync tzb, 128; }")


def tilegpu_ir(directory=None):
    """The kernel's tilegpu IR from this compiler (4 x 16 heads of 1k), of
    tutorials/ or of the copy in `directory`."""
    os.environ.setdefault("TERRAZZO_TARGET", "cuda:90")
    t06 = load_tutorial("06-fused-attention.py", directory and str(directory))
    z, h, n, d = 4, 16, 1024, 128
    q = np.zeros((z, h, n, d), np.float16)
    lse = np.zeros((z, h, n), np.float32)
    s = t06._strides(q)
    cfg = t06.fwd_config(d, False, False, n_ctx=n)
    assert t06.fwd_persistent(d, False, False, n)
    return str(t06._attn_fwd_persistent.compile(
        q, q, q, 0.125, lse, q, *s, *s, *s, *s, z, h, n, stage="tilegpu", HEAD_DIM=d,
        CAUSAL=False, EVEN_N=True, **cfg))


class Source:
    """The dump's lines, 1-based, each edit asserting what it replaces."""

    def __init__(self, text, check=True):
        self.lines = text.split("\n")
        if not check:  # the caller checks its own lines
            return
        self.expect(60, "scf.for %arg23 = %13 to %15")
        self.expect(89, "%58 = tile.load")
        self.expect(115, "tilegpu.local_alloc %58")
        self.expect(116, "tilegpu.fence_async_shared %83")
        self.expect(123, "%106 = tilegpu.warp_group_dot %83")
        self.expect(207, "%133 = tilegpu.warp_group_dot %128#7")
        self.expect(214, "%86 = tile.addptr %arg4, %42")
        self.expect(221, "tile.store %88, %92, %46")
        self.expect(231, "%102 = tilegpu.convert_layout %96")
        self.expect(235, "tilegpu.partition_end")

    def expect(self, n, text):
        if text not in self.lines[n - 1]:
            sys.exit(f"error: line {n} of the kernel's tilegpu IR is not '{text}' "
                     f"(the compiler's IR moved): {self.lines[n - 1].strip()[:100]}")

    def __call__(self, a, b=None):
        return self.lines[a - 1:(b if b is not None else a)]


def with_mutable_q(line):
    """A line reading Q's immutable buffer %83, reading %qb instead."""
    return line.replace("%83,", "%qb,").replace(
        ": !tilegpu.memdesc<128x128xf16, #shared>, " + KT, f": {QB}, {KT}")


def store_fenced(indent, value, layout):
    """`value` (128 x 128 f16 in `layout`) stored into Q's buffer %qb and
    fenced for the async proxy (the dots read it next)."""
    return [f"{indent}tilegpu.local_store {value}, %qb : tensor<128x128xf16, {layout}> -> {QB}",
            f"{indent}tilegpu.fence_async_shared %qb : {QB}"]


def converted_through(indent, value, buffer, result, layout):
    """O's 16-bit `value` (the accumulator's layout) converted to `layout`
    as `result` through `buffer` (stored, read back)."""
    return [f"{indent}tilegpu.local_store {value}, {buffer} : "
            f"tensor<128x128xf16, {MMA}> -> {QB}",
            f"{indent}{result} = tilegpu.local_load {buffer} : {QB} -> "
            f"tensor<128x128xf16, {layout}>"]


def lse_from_rows(indent, sums, maxima):
    """The log-sum-exp stored from the row layout of the sums and maxima."""
    i = indent
    return [f"{i}%ls0 = tile.splat %86 : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>, #slice>",
            f"{i}%ls1 = tile.make_range 0 to 128 : tensor<128xi32, #slice>",
            f"{i}%ls2 = tile.splat %43 : i32 -> tensor<128xi32, #slice>",
            f"{i}%ls3 = arith.addi %ls2, %ls1 : tensor<128xi32, #slice>",
            f"{i}%ls4 = tile.addptr %ls0, %ls3 : tensor<128x!tile.ptr<f32>, #slice>, "
            "tensor<128xi32, #slice>",
            f"{i}%ls5 = tile.splat %arg20 : i32 -> tensor<128xi32, #slice>",
            f"{i}%ls6 = arith.cmpi slt, %ls3, %ls5 : tensor<128xi32, #slice>",
            f"{i}%ls7 = math.log2 {sums} : tensor<128xf32, #slice>",
            f"{i}%ls8 = arith.addf {maxima}, %ls7 : tensor<128xf32, #slice>",
            f"{i}tile.store %ls4, %ls8, %ls6 : tensor<128x!tile.ptr<f32>, #slice>"]


def unrotated(src, oq, lse):
    """The compiler's loop, O through Q's buffer (oq), the lse from its rows."""
    out = src(1, 59) + [f"      %qb = tilegpu.local_alloc : () -> {QB}"]
    for n in range(60, 235):
        line = src(n)[0]
        if oq and n == 115:
            out += store_fenced("        ", "%58", "#blocked")
        elif oq and n == 116:
            continue  # (store_fenced's fence)
        elif lse and 215 <= n <= 221:
            if n == 215:
                out += lse_from_rows("        ", "%85#1", "%85#2")
        elif oq and n == 231:
            out += converted_through("        ", "%96", "%qb", "%102", "#blocked")
        else:
            out.append(with_mutable_q(line) if oq else line)
    return out + src(235, len(src.lines))


def rotated(src, lse):
    """The loop over tiles rotated (see the module's description)."""
    out = src(1, 59)
    i = "      "
    out += [f"{i}%qb = tilegpu.local_alloc : () -> {QB}",
            f"{i}%npos = arith.cmpi sgt, %arg20, %c0_i32 : i32"]
    # The first tile's Q (the loop's first lines for tile %13, renamed).
    for line in src(61, 89):
        line = re.sub(r"%(3\d|4\d|5\d)\b", r"%p\1", line.replace("%arg23", "%13"))
        out.append(line[2:])
    out += store_fenced(i, "%p58", "#blocked")
    out += [f"{i}%phas = arith.cmpi slt, %13, %15 : i32",
            f"{i}%pgo = arith.andi %phas, %npos : i1",
            f"{i}scf.if %pgo {{",
            f"{i}  %pb = tilegpu.memdesc_index %3[%c0_i32] : {STACK} -> {BAR}",
            f"{i}  tilegpu.mbarrier_wait %pb, %c0_i32 : {BAR}",
            f"{i}}}",
            f"{i}%pk = tilegpu.memdesc_index %1[%c0_i32] : {RING} -> {QB}",
            f"{i}%pkt = tilegpu.memdesc_trans %pk : {QB} -> {KT}",
            f"{i}%pS = tilegpu.warp_group_dot async %qb, %pkt, %0 use_c = %false : "
            f"{QB}, {KT} -> {ACC}",
            f"{i}%29:3 = scf.for %arg23 = %13 to %15 step %16 iter_args(%arg24 = %c0_i32, "
            f"%arg25 = %c0_i32, %argS = %pS) -> (i32, i32, {ACC})  : i32 {{"]
    out += src(61, 88) + src(90, 114)
    i = "        "
    rows = "tensor<128xf32, #slice>"
    out += [f"{i}%85:6 = scf.if %npos -> ({ACC}, {rows}, {rows}, i32, i32, {ACC}) {{",
            f"{i}  %106 = tilegpu.warp_group_dot_wait %argS {{pendings = 0 : i32}} : {ACC}"]
    out += [with_mutable_q(line) for line in src(124, 206)]
    out.append(src(207)[0].replace("tilegpu.warp_group_dot %128#7",
                                   "tilegpu.warp_group_dot async %128#7"))
    i = "          "
    out.append(f"{i}%q1 = tile.load %76, %82, %cst_0 : tensor<128x128x!tile.ptr<f16>, #blocked>")
    out += store_fenced(i, "%q1", "#blocked")
    out += [f"{i}%acc = tilegpu.warp_group_dot_wait %133 {{pendings = 0 : i32}} : {ACC}",
            f"{i}%hasn = arith.cmpi slt, %59, %15 : i32",
            f"{i}scf.if %hasn {{",
            f"{i}  %nb = tilegpu.memdesc_index %3[%128#3] : {STACK} -> {BAR}",
            f"{i}  tilegpu.mbarrier_wait %nb, %128#4 : {BAR}",
            f"{i}}}",
            f"{i}%nk = tilegpu.memdesc_index %1[%128#3] : {RING} -> {QB}",
            f"{i}%nkt = tilegpu.memdesc_trans %nk : {QB} -> {KT}",
            f"{i}%nS = tilegpu.warp_group_dot async %qb, %nkt, %0 use_c = %false : "
            f"{QB}, {KT} -> {ACC}"]
    for n in range(214, 231):
        if lse and 215 <= n <= 221:
            if n == 215:
                out += lse_from_rows(i, "%128#1", "%128#2")
            continue
        line = src(n)[0].replace("%85#0", "%acc").replace("%85#1", "%128#1")
        out.append("  " + line.replace("%85#2", "%128#2"))
    # O through the last V stage (%129), released once read back.
    out += converted_through(i, "%96", "%129", "%102", "#blocked")
    out.append(f"{i}tilegpu.fence_async_shared %129 : {QB}")
    out += src(208, 209)
    out += [f"{i}tile.store %101, %102, %57 : tensor<128x128x!tile.ptr<f16>, #blocked>",
            f"{i}scf.yield %acc, %128#1, %128#2, %128#3, %128#4, %nS : {ACC}, {rows}, {rows}, "
            f"i32, i32, {ACC}",
            "        } else {",
            f"          scf.yield %cst_1, %cst_2, %cst_3, %arg24, %arg25, %argS : {ACC}, {rows}, "
            f"{rows}, i32, i32, {ACC}",
            "        }",
            f"        scf.yield %85#3, %85#4, %85#5 : i32, i32, {ACC}",
            "      }"]
    return out + src(235, len(src.lines))


# The tutorial copy whose persistent kernel loads Q through a descriptor of
# (Z * H * N_CTX, HEAD_DIM) rows (D=128 without the mask, N_CTX a multiple
# of the blocks): (anchor, replacement) in tutorials/06-fused-attention.py.
Q_DESCRIPTOR = (
    ("""                   WARP_SPECIALIZE: tl.constexpr, FLAT_KV: tl.constexpr):
    off_z = off_hz // H""",
     """                   WARP_SPECIALIZE: tl.constexpr, FLAT_KV: tl.constexpr,
                   q_desc=None, Q_DESC: tl.constexpr = False):
    off_z = off_hz // H"""),
    ("""    q = tl.load(q_base + offs_m[:, None] * stride_qm + offs_d[None, :],
                mask=row_ok[:, None], other=0.0)
""",
     """    if Q_DESC:
        q = q_desc.load([tl.maximum(off_hz * N_CTX + start_m * BLOCK_M, 0), 0])
    else:
        q = tl.load(q_base + offs_m[:, None] * stride_qm + offs_d[None, :],
                    mask=row_ok[:, None], other=0.0)
"""),
    ("""    tiles_m = tl.cdiv(N_CTX, BLOCK_M)
    for tile in tl.range(""",
     """    tiles_m = tl.cdiv(N_CTX, BLOCK_M)
    Q_DESC: tl.constexpr = EVEN_N and not CAUSAL and HEAD_DIM == 128
    q_desc = tl.make_tensor_descriptor(Q, [Z * H * N_CTX, HEAD_DIM], [HEAD_DIM, 1],
                                       [BLOCK_M, HEAD_DIM])
    for tile in tl.range("""),
    ("""                       CAUSAL, EVEN_N, WARP_SPECIALIZE, True)""",
     """                       CAUSAL, EVEN_N, WARP_SPECIALIZE, True, q_desc, Q_DESC)"""))


def q_descriptor_tutorial(directory):
    """Writes the tutorial copy that loads Q through a descriptor."""
    here = Path(__file__).resolve().parent.parent / "tutorials" / "06-fused-attention.py"
    text = here.read_text()
    for anchor, replacement in Q_DESCRIPTOR:
        if text.count(anchor) != 1:
            sys.exit(f"error: tutorial 06 changed: no single '{anchor.strip()[:60]}'")
        text = text.replace(anchor, replacement)
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "06-fused-attention.py").write_text(text)


def producer_q(src):
    """The copy's Q by the producer warp group (see the module's description)."""
    for n, text in ((42, "tilegpu.warp_specialize producer_warps = 4"),
                    (65, "%33 = tilegpu.tensormap_create %26, %arg0"),
                    (77, "%45:2 = scf.for %arg24 = %15 to %32 step %19"),
                    (93, "%61 = tilegpu.local_alloc"),
                    (100, "tilegpu.fence_async_shared %61"),
                    (186, "tilegpu.warp_group_turn_wait {only = 0 : i32}"),
                    (192, "%119 = tilegpu.memdesc_index %4[%113#5]"),
                    (193, "tilegpu.mbarrier_arrive %119"),
                    (195, "} else {"),
                    (221, "%87 = tilegpu.convert_layout %75"),
                    (226, "} producer {"),
                    (233, "%17:2 = scf.for %arg24 = %13 to %15 step %16"),
                    (236, "%20:2 = scf.for %arg27 = %c0_i32 to %arg20")):
        src.expect(n, text)
    pair = "!tilegpu.memdesc<2x1xi64, #shared1, mutable>"
    out = src(1, 41)
    out += [f"    %qb = tilegpu.local_alloc : () -> {QB}",
            f"    %qbars = tilegpu.local_alloc : () -> {pair}",
            f"    %qfull = tilegpu.memdesc_index %qbars[%c0_i32] : {pair} -> {BAR}",
            f"    tilegpu.mbarrier_init %qfull, 1 : {BAR}",
            f"    %qempty = tilegpu.memdesc_index %qbars[%c1_i32] : {pair} -> {BAR}",
            f"    tilegpu.mbarrier_init %qempty, 8 : {BAR}"]
    # Consumers: Q's buffer released once the map is made, then after each
    # tile's last Q K^T; each tile waits for its Q (parity: the tile's
    # place in the program's sequence).
    out += src(42, 76) + [f"      tilegpu.mbarrier_arrive %qempty : {BAR}"]
    out += src(77, 92)
    out += ["        %qk0 = arith.subi %arg24, %15 : i32",
            "        %qk1 = arith.divsi %qk0, %19 : i32",
            "        %qph = arith.andi %qk1, %c1_i32 : i32",
            f"        tilegpu.mbarrier_wait %qfull, %qph : {BAR}"]
    out += [line.replace("%61,", "%qb,") for line in src(101, 185)]
    out.append(f"          tilegpu.mbarrier_arrive %qempty : {BAR}")
    out += src(186, 191) + src(194, 195)
    out.append(f"          tilegpu.mbarrier_arrive %qempty : {BAR}")
    out += src(196, 220)
    # O through the last V stage, released once read back.
    out += ["        %vs0 = arith.addi %64#3, %c2_i32 : i32",
            "        %vs = arith.remsi %vs0, %c3_i32 : i32",
            f"        %vb = tilegpu.memdesc_index %2[%vs] : {RING} -> {QB}"]
    out += converted_through("        ", "%75", "%vb", "%87", "#blocked1")
    out += [f"        tilegpu.fence_async_shared %vb : {QB}",
            f"        %vbar = tilegpu.memdesc_index %4[%vs] : {STACK} -> {BAR}",
            f"        tilegpu.mbarrier_arrive %vbar : {BAR}"]
    out += src(222, 226)
    # Producer: the map's address (the consumers' slot of global scratch,
    # its computation cloned), and each tile's Q before its keys.
    out += [re.sub(r"%(1[1-9]|2[0-6])\b", r"%m\1", line) for line in src(43, 58)]
    out += src(227, 234)
    out += ["        %pk0 = arith.subi %arg24, %13 : i32",
            "        %pk1 = arith.divsi %pk0, %16 : i32",
            "        %pph = arith.andi %pk1, %c1_i32 : i32",
            f"        tilegpu.mbarrier_wait %qempty, %pph : {BAR}",
            f"        tilegpu.mbarrier_expect_tx %qfull, 32768 : {BAR}",
            "        %prow0 = arith.muli %arg24, %c128_i32 : i32",
            "        %prow = arith.maxsi %prow0, %c0_i32 : i32",
            f"        tilegpu.async_tma_copy_global_to_local %m26[%prow, %c0_i32] %qb, %qfull : "
            f"!tile.ptr<i8>, {QB}, {BAR}"]
    return out + src(235, len(src.lines))


def acquire_map_in_producer(ptx):
    """The producer's first copy (Q's) goes through the map the consumers
    made: the issuing thread acquires it first (tensormap proxy)."""
    lines = ptx.split("\n")
    first = next(i for i, l in enumerate(lines) if "cp.async.bulk.tensor" in l)
    reg = re.search(r"\[(%rd\d+), \{", lines[first]).group(1)
    # After the branch that leaves the issuing thread alone.
    branch = max(i for i in range(first) if re.match(r"\s*@%p\d+ bra", lines[i]))
    lines.insert(branch + 1, f"\tfence.proxy.tensormap::generic.acquire.gpu [{reg}], 128;")
    return "\n".join(lines)


def patch_ptx(ptx, narrow, keep=True):
    """Drops the fence and program barrier in front of a wgmma where no
    plain store to shared memory came since the last one kept (in program
    text order: the loops' dots, whose Q and V nothing rewrites there);
    keeps the others, narrowed to the warp group with `narrow`; without
    `keep`, drops them all (Q by TMA: no dot reads plain stores)."""
    lines = ptx.split("\n")
    stored = False
    kept = dropped = 0
    for n, line in enumerate(lines):
        text = line.strip()
        if text.startswith(("st.shared", "stmatrix")):
            stored = True
        if text != PROGRAM_BARRIER:
            continue
        after = [t.strip() for t in lines[n + 1:n + 4] if "inline asm" not in t]
        before = [t.strip() for t in lines[max(n - 3, 0):n] if "inline asm" not in t]
        if not (after and after[0] == "wgmma.fence.sync.aligned;" and before and
                before[-1].startswith("fence.proxy.async")):
            continue
        if stored and keep:
            kept += 1
            if narrow:
                lines[n] = "\t" + GROUP_BARRIER
        else:
            dropped += 1
            lines[n] = "\t// (barrier dropped)"
            fence = max(i for i in range(n - 3, n)
                        if lines[i].strip().startswith("fence.proxy"))
            lines[fence] = "\t// (fence dropped)"
        stored = False
    return "\n".join(lines), kept, dropped


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.split("\n\n")[1])
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    build = Path(os.environ.get("TERRAZZO_BUILD_DIR", "build"))
    compile_tool = build / "bin" / "terrazzo-compile"
    ptxas = shutil.which("ptxas") or os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"),
                                                  "bin", "ptxas")
    src = Source(tilegpu_ir())
    forms = {"rotated": rotated(src, lse=False), "rotated-lse": rotated(src, lse=True),
             "lse": unrotated(src, oq=False, lse=True), "oq": unrotated(src, oq=True, lse=False),
             "unrotated-oq-lse": unrotated(src, oq=True, lse=True)}
    q_descriptor_tutorial(out / "t06pq")
    forms["producer-q"] = producer_q(Source(tilegpu_ir(out / "t06pq"), check=False))
    for name in FORMS:
        ir = out / f"{name}.tilegpu.mlir"
        ir.write_text("\n".join(forms[name]))
        ptx = out / f"{name}.ptx"
        subprocess.run([str(compile_tool), str(ir), "--target=cuda:90", "--emit=ptx",
                        "-o", str(ptx)], check=True)
        # Narrowed where O does not go through a buffer both groups read.
        patched, kept, dropped = patch_ptx(ptx.read_text(),
                                           narrow=name in ("oq", "unrotated-oq-lse"),
                                           keep=name != "producer-q")
        if name == "producer-q":
            patched = acquire_map_in_producer(patched)
        ptx.write_text(patched)
        cubin = out / f"{name}.cubin"
        info = subprocess.run([ptxas, "-arch=sm_90a", "-v", str(ptx), "-o", str(cubin)],
                              check=True, capture_output=True, text=True).stderr
        shutil.copy(str(ptx) + ".json", str(cubin) + ".json")
        usage = re.search(r"Used (\d+) registers", info)
        spills = re.search(r"(\d+) bytes spill stores", info)
        print(f"{name}: wgmma barriers kept {kept}, dropped {dropped}; "
              f"{usage.group(1) if usage else '?'} registers, "
              f"{spills.group(1) if spills else '?'} bytes spilled -> {cubin}")


if __name__ == "__main__":
    main()
