"""tl.inline_asm_elementwise: the tile.inline_asm op the frontend emits
(results, packing, purity, source locations), the PTX it lowers to
(assembled by ptxas where present), its errors, the interpreter's refusal,
and on a GPU the kernels of Triton's inline-assembly tests, written anew,
against NumPy.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import terrazzo as triton
import terrazzo.language as tl
from terrazzo.errors import CompilationError, InterpreterError


@triton.jit
def funnel_shift_kernel(x_ptr, y_ptr, z_ptr, n: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    s = tl.full([BLOCK], n, tl.int32)
    # z = (y << n) | (x >> (32 - n)): PTX's funnel shift.
    z = tl.inline_asm_elementwise("shf.l.wrap.b32 $0, $1, $2, $3;", "=r,r, r, r", [x, y, s],
                                  dtype=tl.int32, is_pure=True, pack=1)
    tl.store(z_ptr + offs, z)


@triton.jit
def packed_shift_kernel(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    # Four bytes per register: shift each left by 3 within its byte.
    y = tl.inline_asm_elementwise("and.b32 $0, $1, 0x1F1F1F1F; shl.b32 $0, $0, 3;", "=r,r",
                                  [x], dtype=tl.int8, is_pure=True, pack=4)
    tl.store(y_ptr + offs, y)


@triton.jit
def pointers_kernel(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    # The assembly reads and writes memory itself (not pure: kept although
    # its result is unused).
    tl.inline_asm_elementwise("ld.global.b8 $0, [$1]; shl.b32 $0, $0, 3; st.global.b8 [$2], $0;",
                              "=r,l,l", [x_ptr + offs, y_ptr + offs], dtype=tl.int8,
                              is_pure=False, pack=1)


@triton.jit
def two_results_kernel(a_ptr, b_ptr, c_ptr, d_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    c, d = tl.inline_asm_elementwise(
        asm="sub.u32 $0, $2, $3; sub.u32 $1, $3, $2;",
        constraints="=r,=r,r,r", args=[a, b], dtype=(tl.uint32, tl.uint32),
        is_pure=True, pack=1)
    tl.store(c_ptr + offs, c)
    tl.store(d_ptr + offs, d)


# Four uint8 values a and four float32 values b per invocation: ai = a as
# int32, m = max(float(ai), b).
_PACKED_TWO = """
{
    .reg .b8 t<4>;
    mov.b32 {t0, t1, t2, t3}, $8;
    cvt.u32.u8 $0, t0;
    cvt.u32.u8 $1, t1;
    cvt.u32.u8 $2, t2;
    cvt.u32.u8 $3, t3;
}
cvt.rn.f32.s32 $4, $0;
cvt.rn.f32.s32 $5, $1;
cvt.rn.f32.s32 $6, $2;
cvt.rn.f32.s32 $7, $3;
max.f32 $4, $4, $9;
max.f32 $5, $5, $10;
max.f32 $6, $6, $11;
max.f32 $7, $7, $12;
"""


@triton.jit
def packed_two_results_kernel(a_ptr, b_ptr, c_ptr, d_ptr, ASM: tl.constexpr,
                              BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    c, d = tl.inline_asm_elementwise(ASM, "=r,=r,=r,=r,=r,=r,=r,=r,r,r,r,r,r", [a, b],
                                     dtype=(tl.int32, tl.float32), is_pure=True, pack=4)
    tl.store(c_ptr + offs, c)
    tl.store(d_ptr + offs, d)


@triton.jit
def scalar_kernel(out_ptr, v):
    # Scalars and a broadcast Python constant.
    r = tl.inline_asm_elementwise("add.s32 $0, $1, $2;", "=r,r,r", [v, 5], dtype=tl.int32,
                                  is_pure=True, pack=1)
    tl.store(out_ptr, r)


@triton.jit
def dot_chain_kernel(q_ptr, k_ptr, v_ptr, o_ptr, BLOCK: tl.constexpr):
    # Assembly on a dot's accumulator and on the operand of the next dot:
    # elementwise, so it runs in their layouts (P reaches the second dot in
    # registers on sm_90). f32 doubled one element at a time, then f16
    # doubled two at a time in the packed register.
    r = tl.arange(0, BLOCK)
    offs = r[:, None] * BLOCK + r[None, :]
    s = tl.dot(tl.load(q_ptr + offs), tl.load(k_ptr + offs))
    s = tl.inline_asm_elementwise("add.f32 $0, $1, $1;", "=f,f", [s], dtype=tl.float32,
                                  is_pure=True, pack=1)
    p = tl.inline_asm_elementwise("add.rn.f16x2 $0, $1, $1;", "=r,r", [s.to(tl.float16)],
                                  dtype=tl.float16, is_pure=True, pack=2)
    tl.store(o_ptr + offs, tl.dot(p, tl.load(v_ptr + offs)))


def _dot_chain_args(rng, block=64):
    q, k, v = (rng.standard_normal((block, block)).astype(np.float16) for _ in range(3))
    return q, k, v, np.zeros((block, block), np.float32)


def _dot_chain_expected(q, k, v):
    s = 2 * (q.astype(np.float64) @ k.astype(np.float64))
    p = 2 * s.astype(np.float16).astype(np.float64)
    return p @ v.astype(np.float64)


def _u32(rng, n):
    return rng.integers(0, 2 ** 32, n, dtype=np.uint64).astype(np.uint32)


# Kernel, argument maker, meta-parameters, the asm text the PTX must contain.
CASES = {
    "funnel_shift": (funnel_shift_kernel,
                     lambda rng: [_u32(rng, 128), _u32(rng, 128), np.zeros(128, np.uint32)],
                     dict(n=17, BLOCK=128), "shf.l.wrap.b32"),
    "packed_shift": (packed_shift_kernel,
                     lambda rng: [rng.integers(0, 256, 512).astype(np.uint8),
                                  np.zeros(512, np.uint8)], dict(BLOCK=512), "0x1F1F1F1F"),
    "pointers": (pointers_kernel,
                 lambda rng: [rng.integers(0, 256, 512).astype(np.uint8),
                              np.zeros(512, np.uint8)], dict(BLOCK=512), "ld.global.b8"),
    "two_results": (two_results_kernel,
                    lambda rng: [_u32(rng, 512), _u32(rng, 512), np.zeros(512, np.uint32),
                                 np.zeros(512, np.uint32)], dict(BLOCK=512), "sub.u32"),
    "packed_two_results": (packed_two_results_kernel,
                           lambda rng: [rng.integers(0, 256, 512).astype(np.uint8),
                                        rng.uniform(-256, 256, 512).astype(np.float32),
                                        np.zeros(512, np.int32), np.zeros(512, np.float32)],
                           dict(ASM=_PACKED_TWO, BLOCK=512), "max.f32"),
    "scalar": (scalar_kernel, lambda rng: [np.zeros(1, np.int32), 37], {}, "add.s32"),
}


def expected(case, args):
    """NumPy's answer for the outputs of `case` (a list parallel to args,
    None for inputs)."""
    if case == "funnel_shift":
        x, y, _ = args
        n = 17
        return [None, None, ((y.astype(np.uint64) << n | x.astype(np.uint64) >> (32 - n))
                             & 0xFFFFFFFF).astype(np.uint32)]
    if case in ("packed_shift", "pointers"):
        return [None, (args[0] << 3).astype(np.uint8)]
    if case == "two_results":
        a, b = args[:2]
        return [None, None, a - b, b - a]
    if case == "packed_two_results":
        a, b = args[:2]
        return [None, None, a.astype(np.int32), np.maximum(a.astype(np.float32), b)]
    return [np.array([42], np.int32), None]


# ---------------------------------------------------------------------------
# Tile IR
# ---------------------------------------------------------------------------

def test_ir_forms(rng):
    kernel, make, meta, _ = CASES["two_results"]
    text = kernel.ir(*make(rng), **meta)
    line = next(i for i, l in enumerate(open(kernel.parsed.file).read().splitlines(), 1)
                if "c, d = tl.inline_asm_elementwise(" in l)
    assert re.search(r'%\d+:2 = tile\.inline_asm "sub\.u32 \$0, \$2, \$3; sub\.u32 \$1, \$3, '
                     r'\$2;" constraints "=r,=r,r,r" \(%\d+, %\d+\) \{pack = 1 : i32, pure = '
                     r'true\} : \(tensor<512xi32>, tensor<512xi32>\) -> \(tensor<512xi32>, '
                     rf'tensor<512xi32>\) loc\("[^"]*":{line}:', text), text
    kernel, make, meta, _ = CASES["packed_shift"]
    assert re.search(r'tile\.inline_asm ".*" constraints "=r,r" \(%\d+\) \{pack = 4 : i32, '
                     r'pure = true\} : \(tensor<512xi8>\) -> \(tensor<512xi8>\)',
                     kernel.ir(*make(rng), **meta))
    kernel, make, meta, _ = CASES["pointers"]
    assert re.search(r'tile\.inline_asm .* \(%\d+, %\d+\) \{pack = 1 : i32, pure = false\} : '
                     r'\(tensor<512x!tile\.ptr<i8>>, tensor<512x!tile\.ptr<i8>>\) -> '
                     r'\(tensor<512xi8>\)', kernel.ir(*make(rng), **meta))
    kernel, make, meta, _ = CASES["scalar"]
    assert re.search(r'tile\.inline_asm "add\.s32 \$0, \$1, \$2;" constraints "=r,r,r" '
                     r'\(%\w+, %\d+\) .* : \(i32, i32\) -> \(i32\)', kernel.ir(*make(rng), **meta))


@pytest.mark.parametrize("case", sorted(CASES))
def test_lowers_to_ptx(case, rng, tmp_path):
    pytest.importorskip("terrazzo._C")
    from conftest import assemble_ptx
    kernel, make, meta, needle = CASES[case]
    ptx = kernel.compile(*make(rng), stage="ptx", **meta)
    assert needle in ptx
    assemble_ptx(ptx)


def test_packing_in_llvm(rng):
    # Four int8 share an i32 register: one asm per four elements.
    pytest.importorskip("terrazzo._C")
    kernel, make, meta, _ = CASES["packed_shift"]
    llvm = kernel.compile(*make(rng), stage="llvm", num_warps=4, **meta)
    asms = re.findall(r'llvm\.inline_asm "and\.b32[^"]*", "=r,r" %\S+ : \(i32\) -> i32', llvm)
    # 512 elements, 128 threads: 4 a thread, one invocation each.
    assert len(asms) == 1, llvm
    kernel, make, meta, _ = CASES["packed_two_results"]
    llvm = kernel.compile(*make(rng), stage="llvm", num_warps=4, **meta)
    assert re.search(r'llvm\.inline_asm .* : \(i32, f32, f32, f32, f32\) -> '
                     r'!llvm\.struct<\(i32, i32, i32, i32, f32, f32, f32, f32\)>', llvm), llvm


# ---------------------------------------------------------------------------
# Errors and the interpreter
# ---------------------------------------------------------------------------

@triton.jit
def k_too_few_inputs(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r", [x], dtype=tl.int32,  # <-
                                  is_pure=True, pack=1)
    tl.store(x_ptr + tl.arange(0, 16), y)


@triton.jit
def k_packed_outputs(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    y = tl.inline_asm_elementwise("mov.b32 $0, $4;", "=r,=r,=r,=r,r", [x],  # <-
                                  dtype=tl.int8, is_pure=True, pack=4)
    tl.store(x_ptr + tl.arange(0, 16), y)


@triton.jit
def k_bad_pack(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], dtype=tl.int32,  # <-
                                  is_pure=True, pack=0)
    tl.store(x_ptr + tl.arange(0, 16), y)


@triton.jit
def k_order(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    y = tl.inline_asm_elementwise("mov.b32 $1, $0;", "r,=r", [x], dtype=tl.int32,  # <-
                                  is_pure=True, pack=1)
    tl.store(x_ptr + tl.arange(0, 16), y)


@triton.jit
def k_bad_dtype(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], dtype=3,  # <-
                                  is_pure=True, pack=1)
    tl.store(x_ptr + tl.arange(0, 16), y)


ERROR_CASES = [
    (k_too_few_inputs, r"'=r' has 0 input constraints, but the inputs take 1 register with "
                       r"pack=1"),
    (k_packed_outputs, r"has 4 output constraints, but the outputs take 1 register with "
                       r"pack=4 \(values narrower than 32 bits share 32-bit registers\)"),
    (k_bad_pack, r"pack must be a positive integer, got 0"),
    (k_order, r"output constraints \(=\.\.\.\) must come before the inputs"),
    (k_bad_dtype, r"result types must be scalar dtypes, got 3"),
]


@pytest.mark.parametrize("kernel,pattern", ERROR_CASES,
                         ids=[k.fn.__name__ for k, _ in ERROR_CASES])
def test_errors_name_the_line(kernel, pattern):
    with pytest.raises(CompilationError) as ei:
        kernel.ir(np.zeros(16, np.int32))
    e = ei.value
    assert re.search(pattern, str(e)), str(e)
    lines = [l for l, text in kernel.parsed.src_lines.items() if "# <-" in text]
    assert e.line == lines[0], str(e)


def test_interpreter_refuses(rng):
    kernel, make, meta, _ = CASES["funnel_shift"]
    with pytest.raises(InterpreterError) as ei:
        triton.jit(kernel.fn, interpret=True)[(1,)](*make(rng), **meta)
    msg = str(ei.value)
    assert "cannot run inline assembly (tl.inline_asm_elementwise)" in msg
    assert "shf.l.wrap.b32" in msg
    assert ei.value.line == next(
        l for l, text in kernel.parsed.src_lines.items() if "inline_asm_elementwise(" in text)


def test_dot_chain_through_assembly_stays_in_registers(rng):
    # Pure assembly is elementwise in any layout: the chain of dots passes
    # through it, and the second wgmma takes P from registers (before, the
    # assembly ended the chain and P went through shared memory).
    pytest.importorskip("terrazzo._C")
    from conftest import assemble_ptx
    ptx = dot_chain_kernel.compile(*_dot_chain_args(rng), BLOCK=64, stage="ptx",
                                   target="cuda:90", num_warps=4)
    assert "add.rn.f16x2" in ptx and "add.f32" in ptx
    assert re.search(r"wgmma\.mma_async\.sync\.aligned\.m64n64k16\.f32\.f16\.f16 \{[^}]*\}, "
                     r"\{%r\d+, %r\d+, %r\d+, %r\d+\}", ptx), ptx
    assemble_ptx(ptx)


# ---------------------------------------------------------------------------
# GPU
# ---------------------------------------------------------------------------

@pytest.mark.gpu
@pytest.mark.parametrize("num_warps", [1, 4])
@pytest.mark.parametrize("case", sorted(CASES))
def test_gpu(torch_cuda, case, num_warps, rng):
    torch = torch_cuda
    kernel, make, meta, _ = CASES[case]
    args = make(rng)
    want = expected(case, args)
    device = [torch.from_numpy(a.view(np.int32) if a.dtype == np.uint32 else a).cuda()
              if isinstance(a, np.ndarray) else a for a in args]
    triton.jit(kernel.fn)[(1,)](*device, num_warps=num_warps, **meta)
    torch.cuda.synchronize()
    for w, d, a in zip(want, device, args):
        if w is not None:
            got = d.cpu().numpy()
            if a.dtype == np.uint32:
                got = got.view(np.uint32)
            np.testing.assert_array_equal(got, w)


@pytest.mark.gpu
@pytest.mark.parametrize("num_warps", [4, 8])
def test_gpu_dot_chain_through_assembly(torch_cuda, num_warps, rng):
    torch = torch_cuda
    q, k, v, o = _dot_chain_args(rng)
    device = [torch.from_numpy(a).cuda() for a in (q, k, v)]
    out = torch.full(o.shape, float("nan"), device="cuda")
    triton.jit(dot_chain_kernel.fn)[(1,)](*device, out, BLOCK=64, num_warps=num_warps)
    torch.cuda.synchronize()
    want = _dot_chain_expected(q, k, v)
    got = out.cpu().numpy().astype(np.float64)
    assert not np.isnan(got).any()
    assert np.abs(got - want).max() / np.abs(want).max() < 1e-2
