"""A probe of ptxas's scheduling of the warp-specialized attention
consumers (bench/RESULTS.md, session 21): in their SASS the wait for the
P V wgmma (wgmma.wait_group 0) comes right after the row maximum, before
the exponentials, because ptxas moves the conversion of P into them and P's
registers are the ones the P V in flight reads; the softmax then does not
overlap P V. With PATCH=1 this script puts that wait behind a branch on a
uniform value ptxas cannot know (%nctaid.z == 7777, never taken, its arm a
copy of the wait), which keeps the wait after the exponentials, and times
tutorial 06's forward that way: the PTX of _attn_fwd and
_attn_fwd_persistent is patched at compile time and assembled with ptxas
(on PATH). PATCH=0 times the compiler's own code. SASS_OUT=prefix writes
each patched kernel's PTX and SASS (cuobjdump). Run the two in turns and
summarise with bench/ab_builds.py:

    for r in 1 2 3; do for p in 0 1; do
      PATCH=$p python3 bench/attention_wait_probe.py 1024,4096,16384 128:0 64:0 128:1 > ab-p$p-$r.txt
    done; done
    python3 bench/ab_builds.py --summarise ab-*.txt

(arguments: sequence lengths, then HEAD_DIM:CAUSAL cases; each result is
checked against SDPA first.) PATCH=2 instead moves each stage's release to
right after the Q K^T wait, before the P V that reads the stage's V is
complete: results may be wrong (not checked); it bounds what an earlier
release could gain.) PATCH=3 replaces every barrier of all consumer warps
(`bar.sync 0, 256`: at D=128 and with a producer warp group, those of a
tile's prologue and epilogue, none in the key loop) by one barrier per
warp group, so that the warp groups no longer meet at a tile's start and
end: results are wrong (not checked), an upper bound of warp-group-local
barriers outside the key loop (session 28). Non-causal only: the causal
kernel's two key loops need the consumers' barrier between them (it
hangs without). PERSISTENT=1 times the persistent kernel at every head
dimension, PERSISTENT=0 the kernel of one program per tile.) PATCH=4 times a copy of the tutorial whose scores' exp2 is
`ex2.approx.f16x2` (inline assembly on the scores converted to float16,
two per MUFU instruction instead of one; the row sum from their float32
conversions), its PTX patched so that ptxas does not serialise the wgmmas
(C7513): the exponentials that become P V's A operand write registers of
their own, copied into P's after the next `wgmma.wait_group 0` through an
xor with a zero ptxas cannot know (a plain move it would coalesce back,
session 29). Results are checked against SDPA; float16, the per-tile
forward (D=64 non-causal is the case it is for). PATCH=5 to 8 time copies
of the tutorial whose results are wrong (not checked), as bounds: 5
without the row sum's additions, 6 without the row maximum, 7 without
either, 8 with the maximum computed but the exponentials taken against
the previous one (session 29: whether the maximum costs its instructions
or the exponentials' wait for it). PATCH=9 returns the producer warp
group's warps but its first right after their setmaxnreg (its first
thread issues every copy; the others only spin on the ring's
mbarriers: a quarter of the kernel's stall samples at D=64, Nsight
Compute, session 29); results are checked. PATCH=10 (with PERSISTENT=1)
has the persistent kernel touch the next tile's rows of Q at each tile's
start, one element of each 128-byte line, so that they are in L2 when
that tile loads them; results are checked (session 31). PATCH=11
prefetches the same lines into L2 instead (`prefetch.global.L2`, inline
assembly, which leaves no register for any wait to be placed on). PATCH=12
is 3 but for the first such barrier in the code, which stays one of all
consumers (session 36: in the persistent D=128 kernel, the barrier before
a tile's Q is written, which the epilogue's scratch shares: what is left
of 3's bound when the warp groups still meet once per tile). PATCH=13
makes only the third to fifth such barriers one per warp group (there,
the epilogue's: the row vectors' and O's layout conversions), PATCH=14
only the second (after Q is written, before the first Q K^T). PATCH=15
(results wrong, not checked) leaves out the output's store and its layout
conversion (behind a branch never taken): what a tile's store of O costs
(session 40). PATCH=16 divides O by the row sums as a product with their
reciprocals (results checked); PATCH=17 (a bound) leaves out the
log-sum-exp's store and keeps O's (session 41)."""
import math, os, re, subprocess, sys, tempfile

PATCH = os.environ.get("PATCH", "0")
HALF_EXP = PATCH == "4"
EARLY = PATCH == "2"
LOCAL_BARRIERS = PATCH in ("3", "12", "13", "14")
# PERSISTENT=1: the persistent forward at every head dimension; 0: one
# program per tile at every head dimension; unset: the tutorial's choice.
PERSISTENT = {"1": True, "0": False}.get(os.environ.get("PERSISTENT", ""))
WAIT = """	// begin inline asm
	wgmma.wait_group.sync.aligned 0;
	// end inline asm
	bar.warp.sync 	-1;
"""
pat = re.compile(re.escape(WAIT) + r"\t@(%p\d+) bra \t(\$L__BB\d+_\d+);\n((?:(?!\$L__).*\n)*?\tbra\.uni \t\2;\n)")

def transform(ptx):
    count = 0
    def sub(m):
        nonlocal count
        count += 1
        k = count
        return (f"\tmov.u32 \t%rfk, %nctaid.z;\n\tsetp.eq.u32 \t%pfk, %rfk, 7777;\n\t@%pfk bra \t$L__FAKE{k};\n"
                + m.group(0) +
                f"$L__FAKE{k}:\n" + WAIT + "\tmembar.cta;\n" + f"\tbra.uni \t{m.group(2)};\n")
    out = pat.sub(sub, ptx)
    out = out.replace("\t.reg .pred \t%p<", "\t.reg .pred \t%pfk;\n\t.reg .b32 \t%rfk;\n\t.reg .pred \t%p<", 1)
    return out, count

WAIT1 = "\twgmma.wait_group.sync.aligned 1;\n\t// end inline asm\n"


def release_early(ptx):
    """PATCH=2: the stage release (the arrive after the P V wait) moved to
    right after the Q K^T wait, before P V is complete: the producer may
    overwrite V while it is read, so results may be wrong; an upper bound
    on what releasing earlier (K apart from V) could gain."""
    out, count, pos = [], 0, 0
    for m in pat.finditer(ptx):
        body = m.group(3).rsplit("\tbra.uni", 1)[0]
        w1 = ptx.rfind(WAIT1, pos, m.start())
        if w1 < 0:
            continue
        count += 1
        cut = w1 + len(WAIT1)
        out.append(ptx[pos:cut])
        out.append(f"\t@{m.group(1)} bra \t$L__EARLY{count};\n{body}$L__EARLY{count}:\n")
        out.append(ptx[cut:m.start()])
        out.append(WAIT + f"\tbra.uni \t{m.group(2)};\n")
        pos = m.end()
    out.append(ptx[pos:])
    return "".join(out), count


CONSUMERS_BARRIER = "bar.sync 0, 256;"
# Warp group g of the consumers (threads 128 g to 128 g + 127) at barrier 8 + g.
GROUP_BARRIER = ("{ .reg .u32 wgb; mov.u32 wgb, %tid.x; shr.u32 wgb, wgb, 7; "
                 "add.u32 wgb, wgb, 8; bar.sync wgb, 128; }")


def local_barriers(ptx):
    """PATCH=3: every barrier of all consumers made one per warp group."""
    return ptx.replace(CONSUMERS_BARRIER, GROUP_BARRIER), ptx.count(CONSUMERS_BARRIER)


def local_barriers_numbered(ptx, which):
    """The barriers of all consumers numbered `which` (0: the first in the
    code) made one per warp group."""
    parts = ptx.split(CONSUMERS_BARRIER)
    out = parts[0]
    for i, part in enumerate(parts[1:]):
        out += (GROUP_BARRIER if i in which else CONSUMERS_BARRIER) + part
    return out, len([i for i in which if i < len(parts) - 1])


def local_barriers_but_first(ptx):
    """PATCH=12: as 3, but the first barrier of all consumers in the code
    (in the persistent D=128 kernel the one before a tile's Q is written,
    which the epilogue's scratch shares) stays one of all consumers."""
    head, sep, tail = ptx.partition(CONSUMERS_BARRIER)
    return head + sep + tail.replace(CONSUMERS_BARRIER, GROUP_BARRIER), tail.count(CONSUMERS_BARRIER)


EX2_F16X2 = re.compile(r"\tex2\.approx\.f16x2 (%r\d+), (%r\d+);\n")
WAIT0 = "\twgmma.wait_group.sync.aligned 0;\n\t// end inline asm\n"


def half_exponentials(ptx):
    """PATCH=4: each run of f16x2 exponentials followed by a wait for all
    wgmmas before any label (the key loop's) writes fresh registers, which
    the uses up to the wait read, copied into the original ones after it
    (xor with %nctaid.z >> 31, zero)."""
    out, pos, count = [], 0, 0
    while True:
        first = EX2_F16X2.search(ptx, pos)
        if not first:
            break
        wait = ptx.find(WAIT0, first.start())
        if wait < 0 or "$L__" in ptx[first.start():wait]:
            out.append(ptx[pos:first.end()])
            pos = first.end()
            continue
        section = ptx[first.start():wait]
        fresh = {}
        for m in EX2_F16X2.finditer(section):
            fresh[m.group(1)] = f"%rhx{count + len(fresh)}"
        for old, new in fresh.items():
            section = re.sub(re.escape(old) + r"\b", new, section)
        copies = "".join(f"\txor.b32 \t{old}, {new}, %rhz;\n" for old, new in fresh.items())
        count += len(fresh)
        out.append(ptx[pos:first.start()] + section + WAIT0 + copies)
        pos = wait + len(WAIT0)
    out.append(ptx[pos:])
    new = "".join(out)
    new = new.replace("\t.reg .pred \t%p<",
                      f"\t.reg .b32 \t%rhx<{count + 1}>;\n\t.reg .b32 \t%rhz;\n\t.reg .pred \t%p<", 1)
    body = new.index("{", new.index(".entry"))
    decl_end = new.index("\n\n", body)
    new = (new[:decl_end] + "\n\tmov.u32 \t%rhz, %nctaid.z;\n\tshr.u32 \t%rhz, %rhz, 31;"
           + new[decl_end:])
    return new, count


SETMAXNREG_DEC = re.compile(r"\tsetmaxnreg\.dec\.sync\.aligned\.u32 \t\d+;\n")


def one_producer_warp(ptx):
    """PATCH=9: the producer warp group's warps but its first return right
    after giving up their registers (the first thread of the first warp
    issues every copy; the others only wait on the ring's mbarriers)."""
    consumers = int(re.search(r"\.maxntid (\d+)", ptx).group(1)) - 128
    count = 0

    def sub(m):
        nonlocal count
        count += 1
        return (m.group(0) + "\t{\n\t.reg .b32 %opw;\n\t.reg .pred %opp;\n"
                f"\tmov.u32 %opw, %tid.x;\n\tsetp.ge.u32 %opp, %opw, {consumers + 32};\n"
                "\t@%opp ret;\n\t}\n")
    return SETMAXNREG_DEC.sub(sub, ptx), count


SCORES_EXP = """        p = tl.math.exp2(qk * qk_scale - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
"""
SCORES_EXP_F16X2 = """        p = tl.inline_asm_elementwise(
            "ex2.approx.f16x2 $0, $1;", "=r,r",
            [(qk * qk_scale - m_ij[:, None]).to(tl.float16)],
            dtype=tl.float16, is_pure=True, pack=2)
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p.to(tl.float32), 1)
"""


# PATCH=5, 6, 7 (and 8, below): timing bounds, results wrong (not checked): without
# the row sum's additions (l_i grows by one per block), without the row
# maximum (the scores' exp2 taken against the previous maximum, which
# stays at its start), and without either.
SCORES_NO_SUM = SCORES_EXP.replace("tl.sum(p, 1)", "1.0")
SCORES_NO_MAX = """        m_ij = tl.maximum(m_i, 0.0)
""" + SCORES_EXP
SCORES_NO_MAX_SUM = """        m_ij = tl.maximum(m_i, 0.0)
""" + SCORES_NO_SUM
ROW_MAX = "        m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)\n"
# PATCH=8: the row maximum computed (and carried, and scaling acc and l)
# but the scores' exp2 taken against the previous one: whether PATCH=6's
# gain is the maximum's instructions or the exponentials' wait for it.
SCORES_STALE_MAX = SCORES_EXP.replace("m_ij[:, None])", "tl.maximum(m_i, 0.0)[:, None])")
# PATCH=10: the persistent kernel touches the next tile's rows of Q (one
# element of each 128-byte line, loaded at the tile's start and kept alive
# by a store that never happens) so that they are in L2 when that tile
# loads Q: what prefetching the next tile's Q is worth (results correct,
# checked; with PERSISTENT=1, or where the persistent form is the default).
TILE_CALL = "        _attn_fwd_tile(Q, K, V, sm_scale, M, Out, stride_qz, stride_qh, stride_qm,\n"
TILE_CALL_END = "                       CAUSAL, EVEN_N, WARP_SPECIALIZE, True)\n"
TOUCH_NEXT_Q = """        nxt = tile + tl.num_programs(0)
        n_hz = nxt // tiles_m
        lines = tl.arange(0, BLOCK_M * HEAD_DIM // 64)
        q_rows = (nxt % tiles_m) * BLOCK_M + lines // (HEAD_DIM // 64)
        q_next = (Q + (n_hz // H) * stride_qz + (n_hz % H) * stride_qh + q_rows * stride_qm
                  + (lines % (HEAD_DIM // 64)) * 64)
        q_touch = tl.load(q_next, mask=(nxt < tiles_m * Z * H) & (q_rows < N_CTX), other=0.0)
"""
KEEP_TOUCH = "        tl.store(M + lines, q_touch.to(tl.float32), mask=lines < -N_CTX)\n"
# PATCH=11: the same lines prefetched into L2 (`prefetch.global.L2`,
# inline assembly: no register waits for them) instead of loaded.
PREFETCH_NEXT_Q = TOUCH_NEXT_Q.replace(
    "        q_touch = tl.load(q_next, mask=(nxt < tiles_m * Z * H) & (q_rows < N_CTX), other=0.0)\n",
    """        q_ok = ((nxt < tiles_m * Z * H) & (q_rows < N_CTX)).to(tl.int32)
        tl.inline_asm_elementwise(
            "{ .reg .pred p; setp.ne.b32 p, $2, 0; @p prefetch.global.L2 [$1]; mov.b32 $0, 0; }",
            "=r,l,r", [q_next, q_ok], dtype=tl.int32, is_pure=False, pack=1)
""")


def never_taken(code):
    """`code` (lines of the tile function's body) behind a branch that no
    launch takes (sm_scale is positive): kept in the kernel, never run."""
    return "    if sm_scale < 0.0:\n" + "".join("    " + line + "\n"
                                              for line in code.splitlines())


# PATCH=15: the output's store (and its layout conversion) behind a branch
# never taken, the log-sum-exp's kept: what a tile's epilogue store costs.
O_STORE = """    tl.store(o_base + offs_m[:, None] * stride_om + offs_d[None, :],
             acc.to(Out.dtype.element_ty), mask=row_ok[:, None])
"""
NO_O_STORE = never_taken(O_STORE)
# PATCH=16: the output divided by the row sums as a product with their
# reciprocals (one division per row instead of one per element; results
# checked). PATCH=17: the log-sum-exp's store behind a branch never taken
# (a bound, O's store kept).
O_DIVIDE = "    acc = acc / l_i[:, None]\n"
O_TIMES_RECIPROCAL = "    acc = acc * (1.0 / l_i)[:, None]\n"
LSE_STORE = "    tl.store(M + off_hz * N_CTX + offs_m, m_i + tl.math.log2(l_i), mask=row_ok)\n"
NO_LSE_STORE = never_taken(LSE_STORE)
VARIANTS = {"4": {SCORES_EXP: SCORES_EXP_F16X2},
            "15": {O_STORE: NO_O_STORE},
            "16": {O_DIVIDE: O_TIMES_RECIPROCAL},
            "17": {LSE_STORE: NO_LSE_STORE},
            "11": {TILE_CALL: PREFETCH_NEXT_Q + TILE_CALL},
            "10": {TILE_CALL: TOUCH_NEXT_Q + TILE_CALL, TILE_CALL_END: TILE_CALL_END + KEEP_TOUCH},
            "5": {SCORES_EXP: SCORES_NO_SUM},
            "6": {ROW_MAX: "", SCORES_EXP: SCORES_NO_MAX},
            "7": {ROW_MAX: "", SCORES_EXP: SCORES_NO_MAX_SUM},
            "8": {SCORES_EXP: SCORES_STALE_MAX}}
BOUND = PATCH in ("5", "6", "7", "8", "15", "17")
# Each PATCH's rewrite of the PTX of _attn_fwd and _attn_fwd_persistent.
PTX_PATCHES = {"1": transform, "2": release_early, "3": local_barriers, "12": local_barriers_but_first,
               "13": lambda ptx: local_barriers_numbered(ptx, (2, 3, 4)),
               "14": lambda ptx: local_barriers_numbered(ptx, (1,)),
               "4": half_exponentials, "9": one_producer_warp}


def tutorial_variant(edits):
    """A copy of tutorial 06 with `edits` (old -> new, each must match once)
    made, in a new folder."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tutorials",
                        "06-fused-attention.py")
    src = open(path).read()
    for old, new in edits.items():
        if src.count(old) != 1:
            raise ValueError(f"tutorial 06 changed, update this probe: expected 1 of {old!r}, "
                             f"found {src.count(old)}")
        src = src.replace(old, new)
    d = tempfile.mkdtemp()
    open(os.path.join(d, "06-fused-attention.py"), "w").write(src)
    return d


def main():
    import torch
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from loading import load_tutorial
    import terrazzo as triton
    from terrazzo.runtime import jit as J

    orig = J.JITFunction._binary_for_key
    def patched(self, key, use_cache=True):
        binary, meta, cached = orig(self, key, use_cache=False)
        if PATCH in PTX_PATCHES and self.parsed.name in ("_attn_fwd", "_attn_fwd_persistent"):
            ptx = self._stage_for_key(key, "ptx")
            new, n = PTX_PATCHES[PATCH](ptx)
            d = tempfile.mkdtemp()
            open(f"{d}/k.ptx", "w").write(new)
            r = subprocess.run(["ptxas", "-arch=sm_90a", "-o", f"{d}/k.cubin", f"{d}/k.ptx"], capture_output=True, text=True)
            assert r.returncode == 0, r.stderr
            if "C751" in r.stderr:
                print(f"# ptxas: {r.stderr.strip()}", file=sys.stderr)
            binary = open(f"{d}/k.cubin", "rb").read()
            if os.environ.get("SASS_OUT"):
                s = subprocess.run(["cuobjdump", "-sass", f"{d}/k.cubin"], capture_output=True, text=True).stdout
                open(os.environ["SASS_OUT"] + f"-{self.parsed.name}.sass", "w").write(s)
                open(os.environ["SASS_OUT"] + f"-{self.parsed.name}.ptx", "w").write(new)
            print(f"# patched {self.parsed.name}: {n} {'barriers' if LOCAL_BARRIERS else 'waits'}",
                  file=sys.stderr)
        return binary, meta, False
    J.JITFunction._binary_for_key = patched

    variant = VARIANTS.get(PATCH)
    t06 = load_tutorial("06-fused-attention.py", tutorial_variant(variant) if variant else None)
    attention = t06.make_attention(t06.KERNELS, persistent=PERSISTENT)
    torch.manual_seed(int.from_bytes(os.urandom(4), "little"))
    for head_dim, causal in [tuple(map(int, c.split(":"))) for c in sys.argv[2:]]:
        if LOCAL_BARRIERS and causal:
            print(f"# PATCH=3 leaves out D={head_dim} causal (it would hang)", file=sys.stderr)
            continue
        for n_ctx in map(int, sys.argv[1].split(",")):
            batch, heads = (4, 32) if head_dim == 64 else (4, 16)
            q, k, v = (torch.randn((batch, heads, n_ctx, head_dim), device="cuda", dtype=torch.float16) for _ in range(3))
            scale = 1 / math.sqrt(head_dim)
            want = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=bool(causal), scale=scale)
            got = attention(q, k, v, bool(causal), scale)
            err = (got.float() - want.float()).abs().max().item()
            assert err < 2e-2 or EARLY or LOCAL_BARRIERS or BOUND, err
            if HALF_EXP:
                print(f"# D={head_dim} causal={causal} N={n_ctx}: max |o - sdpa| {err:.2e}", file=sys.stderr)
            ms = triton.testing.do_bench(lambda: attention(q, k, v, bool(causal), scale), warmup=25, rep=100, return_mode="median")
            flops = 4.0 * batch * heads * n_ctx * n_ctx * head_dim * (0.5 if causal else 1)
            print(f"attn-d{head_dim}-{'causal' if causal else 'full'}-{n_ctx}", round(flops / ms / 1e9, 1), flush=True)


if __name__ == "__main__":
    main()
