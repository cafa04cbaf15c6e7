"""Tile IR generation: the emitted text, validated by the compiler binaries
(`terrazzo-opt` parses and verifies it, `terrazzo-compile --emit=ptx` lowers
it). No extension and no GPU needed."""

from __future__ import annotations

import re

import numpy as np
import pytest

import terrazzo as triton
import terrazzo.language as tl

from test_interpreter import CASES, add_kernel, nested_kernel


def ir_of(kernel, *args, **kwargs) -> str:
    return kernel.ir(*args, **kwargs)


def f32(n=64):
    return np.zeros(n, dtype=np.float32)


def body_lines(text: str):
    return [l.strip() for l in text.splitlines()
            if l.strip() and not l.strip().startswith("//")]


# Kernels the backend cannot lower yet, with the diagnostic it gives (at the
# user's line).
BACKEND_LIMITS: dict = {
    # (none at the moment; "outer" moved here until layout conversions
    # across threads went through shared memory)
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_interpreter_kernels_lower_to_ptx(case, check_ir):
    kernel, make_args, meta = CASES[case]
    text = kernel.ir(*make_args(), **meta)
    check_ir.opt(text)
    if case in BACKEND_LIMITS:
        err = check_ir.compile_fails(text)
        assert BACKEND_LIMITS[case] in err
        assert kernel.parsed.file in err  # the diagnostic names the user's file
        return
    ptx = check_ir.compile(text)
    assert ".entry" in ptx


def test_vector_add_ir(check_ir):
    text = ir_of(add_kernel, f32(), f32(), f32(), 4096, BLOCK_SIZE=1024)
    assert ("func.func @add_kernel(%arg0: !tile.ptr<f32> {tile.divisibility = 16 : i32, "
            "tile.pointer_range = 32 : i32}") in text
    assert "%arg3: i32 {tile.divisibility = 16 : i32, tile.nonnegative}" in text
    assert "tile.program_id x : i32" in text
    assert "tile.make_range 0 to 1024 : tensor<1024xi32>" in text
    assert re.search(r"tile.load %\d+, %\d+ : tensor<1024x!tile.ptr<f32>>", text)
    assert re.search(r"tile.store %\d+, %\d+, %\d+ : tensor<1024x!tile.ptr<f32>>", text)
    assert "arith.cmpi slt" in text and "arith.addf" in text
    ptx = check_ir(text)
    assert "ld.global" in ptx


def test_every_op_has_a_location_on_the_users_line():
    text = ir_of(add_kernel, f32(), f32(), f32(), 1000, BLOCK_SIZE=256)
    src = add_kernel.parsed
    for line in body_lines(text):
        if line.startswith(("func.func", "}")) or "=" in line or line.startswith(("tile.", "return")):
            assert 'loc("' in line, line
    # The load of x is on the line that says `x = tl.load(...)`.
    load_line = next(l for l in body_lines(text) if "tile.load" in l)
    m = re.search(r'loc\("([^"]+)":(\d+):(\d+)\)', load_line)
    assert m.group(1) == src.file
    assert "x = tl.load(x_ptr + offsets" in src.src_lines[int(m.group(2))]


def test_specialisation_divisibility_and_equal_to_one(check_ir):
    n16, n1, n7 = 4096, 1, 7
    t16 = add_kernel.ir(f32(), f32(), f32(), n16, BLOCK_SIZE=128)
    t1 = add_kernel.ir(f32(), f32(), f32(), n1, BLOCK_SIZE=128)
    t7 = add_kernel.ir(f32(), f32(), f32(), n7, BLOCK_SIZE=128)
    assert "%arg3: i32 {tile.divisibility = 16 : i32, tile.nonnegative}" in t16
    assert "%arg3: i32 {tile.nonnegative} loc" in t7
    # A negative value is specialised apart: no hint that it is not.
    tneg = add_kernel.ir(f32(), f32(), f32(), -16, BLOCK_SIZE=128)
    assert "%arg3: i32 {tile.divisibility = 16 : i32} loc" in tneg
    # n == 1 is replaced by the constant 1 in the body; the argument stays.
    assert "%arg3: i32 loc" in t1 and "arith.constant 1 : i32" in t1
    assert "tile.splat %arg3" not in t1 and "tile.splat %arg3" in t7
    # A pointer that is not 16-byte aligned gets no divisibility hint.
    unaligned = np.zeros(65, np.float32)[1:]
    tu = add_kernel.ir(unaligned, f32(), f32(), n7, BLOCK_SIZE=128)
    assert "%arg0: !tile.ptr<f32> {tile.pointer_range = 32 : i32} loc" in tu
    for t in (t16, t1, t7, tu):
        check_ir(t)


def test_key_computation():
    key = add_kernel.key_for(f32(), np.zeros(3, np.float16), np.zeros(3, np.int8), 2**40,
                             BLOCK_SIZE=64, num_warps=8)
    assert key[0] == ("p", "float32", True, True)
    assert key[1] == ("p", "float16", True, True)
    assert key[2] == ("p", "int8", True, True)
    assert key[3] == ("l", False, True, True)
    assert key[4] == 64 and key[5] == (8, 3)


def test_do_not_specialize(check_ir):
    @triton.jit(do_not_specialize=["n"])
    def k(x_ptr, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(x_ptr + offs, offs, mask=offs < n)

    key = k.key_for(np.zeros(4, np.int32), 32, BLOCK=64)
    assert key[1] == ("i",)
    text = k.ir(np.zeros(4, np.int32), 32, BLOCK=64)
    assert "%arg1: i32 loc" in text
    check_ir(text)


def test_constexpr_folding_and_static_branches(check_ir):
    @triton.jit
    def k(x_ptr, BLOCK: tl.constexpr, MODE: tl.constexpr):
        offs = tl.arange(0, BLOCK * 2)
        if MODE == 1:
            v = offs * (BLOCK // 4)
        else:
            v = offs - 1
        if BLOCK > 1000 and MODE:
            v = v + 99
        tl.store(x_ptr + offs, v)

    text = k.ir(np.zeros(4, np.int32), BLOCK=32, MODE=1)
    assert "tile.make_range 0 to 64" in text
    assert "arith.constant dense<8> : tensor<64xi32>" in text
    assert "scf.if" not in text and "99" not in text
    check_ir(text)


def test_runtime_control_flow_ir(check_ir):
    @triton.jit
    def k(x_ptr, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        p = x_ptr + offs
        for i in range(0, n):
            acc += tl.load(p)
            p += BLOCK
        j = 0
        while j < n:
            acc = acc * 0.5
            j += 2
        if n > 3:
            acc = acc + 1.0
            extra = 1
        else:
            extra = 2
        for s in tl.static_range(2):
            acc = acc + s
        tl.store(x_ptr + offs, acc + extra)

    text = k.ir(f32(), 9, BLOCK=128)
    assert re.search(r"scf.for %\d+ = %\d+ to %arg1 step %\d+ iter_args\(%\d+ = %\d+, %\d+ = %\d+\)"
                     r" -> \(tensor<128xf32>, tensor<128x!tile.ptr<f32>>\) : i32", text)
    assert re.search(r"scf.while \(%\d+ = %[\d#]+, %\d+ = %[\d#]+\) : "
                     r"\(tensor<128xf32>, i32\) -> \(tensor<128xf32>, i32\)", text)
    assert re.search(r"%\d+:2 = scf.if %\d+ -> \(tensor<128xf32>, i32\)", text)
    assert text.count("scf.for") == 1  # the static_range is unrolled
    ptx = check_ir(text)
    assert "ld.global" in ptx


def test_nested_calls_become_private_functions(check_ir):
    text = nested_kernel.ir(f32(), f32(), 64, 1.5, BLOCK=128)
    privates = re.findall(r"func.func private @(\S+)\(", text)
    # _offsets once, _scale_shift twice (SHIFT = 3 and SHIFT = 0).
    assert len(privates) == 3, privates
    assert len([p for p in privates if p.startswith("_scale_shift")]) == 2
    assert text.count("func.call @_offsets") == 1
    assert re.search(r"func.call @_offsets__\w+\(%\d+\) : \(i32\) -> "
                     r"\(tensor<128xi32>, i32\)", text)
    check_ir(text)


def test_same_specialisation_is_emitted_once(check_ir):
    @triton.jit
    def helper(x, K: tl.constexpr):
        return x * K

    @triton.jit
    def k(x_ptr):
        offs = tl.arange(0, 16)
        x = tl.load(x_ptr + offs)
        tl.store(x_ptr + offs, helper(x, 2) + helper(x, 2) + helper(x, 3))

    text = k.ir(f32())
    assert len(re.findall(r"func.func private @helper", text)) == 2
    assert text.count("func.call @helper") == 3
    check_ir(text)


@pytest.mark.parametrize("expr,dtypes,expected", [
    ("a + b", ("int32", "float32"), "arith.sitofp"),
    ("a + b", ("int8", "int32"), "arith.extsi"),
    ("a + b", ("uint8", "int32"), "arith.extui"),
    ("a * b", ("float16", "float32"), "arith.extf"),
    ("a / b", ("float16", "float16"), "arith.divf %\\d+, %\\d+ fastmath<afn> : tensor<16xf32>"),
    ("tl.div_rn(a, b)", ("float32", "float32"), "arith.divf %\\d+, %\\d+ : tensor<16xf32>"),
    ("tl.fdiv(a, b, ieee_rounding=True)", ("float32", "float32"),
     "arith.divf %\\d+, %\\d+ : tensor<16xf32>"),
    ("a / b", ("float64", "float64"), "arith.divf %\\d+, %\\d+ : tensor<16xf64>"),
    ("a + b", ("bfloat16", "bfloat16"), "arith.addf %\\d+, %\\d+ : tensor<16xbf16>"),
    ("a + b", ("bfloat16", "float16"), "tile.fp_to_fp"),
    ("a < b", ("uint32", "uint32"), "arith.cmpi ult"),
    ("a < b", ("int32", "int32"), "arith.cmpi slt"),
    ("a != b", ("float32", "float32"), "arith.cmpf une"),
    ("a >> b", ("uint16", "uint16"), "arith.shrui"),
    ("a >> b", ("int64", "int64"), "arith.shrsi"),
    ("a // b", ("int32", "int32"), "arith.divsi"),
    ("a % b", ("uint32", "uint32"), "arith.remui"),
    ("a % b", ("float32", "float32"), "arith.remf"),
    ("a + 1.5", ("float16", "float16"), "arith.constant dense<1.5> : tensor<16xf16>"),
    ("a + 1", ("int8", "int8"), "arith.constant dense<1> : tensor<16xi8>"),
    ("a * 2.0", ("int32", "int32"), "arith.sitofp %\\d+ : tensor<16xi32> to tensor<16xf32>"),
    ("-a", ("float32", "float32"), "arith.negf"),
    ("~a", ("int32", "int32"), "arith.xori"),
    ("tl.minimum(a, b)", ("float32", "float32"), "arith.minnumf"),
    ("tl.maximum(a, b, propagate_nan=tl.PropagateNan.ALL)", ("float32", "float32"),
     "arith.maximumf"),
    ("tl.maximum(a, b)", ("uint32", "uint32"), "arith.maxui"),
    ("tl.exp(a)", ("float16", "float16"), "math.exp %\\d+ : tensor<16xf32>"),
    ("tl.where(a > 0, a, b)", ("float32", "float32"), "arith.select"),
    ("a.to(tl.int16, bitcast=True)", ("float16", "float16"), "arith.bitcast"),
    ("tl.abs(a)", ("int32", "int32"), "math.absi"),
    ("tl.fma(a, b, a)", ("float32", "float32"), "math.fma"),
])
def test_type_promotion(expr, dtypes, expected, check_ir, tmp_path):
    src = f"""
import terrazzo as triton
import terrazzo.language as tl

@triton.jit
def k(a_ptr, b_ptr, out_ptr):
    offs = tl.arange(0, 16)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    r = {expr}
    tl.store(out_ptr + offs, r)
"""
    k = _kernel_from_source(src, "k", tmp_path)
    key = [("p", dtypes[0], True, True), ("p", dtypes[1], True, True),
           ("p", "float32", True, True), (4, 3)]
    text = k.ir_for_key(tuple(key)).text
    assert re.search(expected, text), text
    check_ir(text)


_counter = [0]


def _kernel_from_source(src: str, name: str, folder):
    """A @jit kernel defined in a real file (the frontend reads sources)."""
    import importlib.util
    _counter[0] += 1
    path = folder / f"kernel_{_counter[0]}.py"
    path.write_text(src)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return getattr(mod, name)


def test_load_store_options_and_bool_pointers(check_ir):
    @triton.jit
    def k(x_ptr, flags_ptr, out_ptr, n):
        offs = tl.arange(0, 64)
        m = offs < n
        x = tl.load(x_ptr + offs, mask=m, other=float("-inf"), cache_modifier=".cg",
                    eviction_policy="evict_last", volatile=True)
        f = tl.load(flags_ptr + offs, mask=m, other=False)
        tl.store(out_ptr + offs, tl.where(f, x, 0.0), mask=m, cache_modifier=".cs",
                 eviction_policy="evict_first")
        tl.store(flags_ptr + offs, x > 0, mask=m)

    text = k.ir(f32(), np.zeros(64, np.bool_), f32(), 64)
    assert "cache = cg evict = evict_last volatile : tensor<64x!tile.ptr<f32>>" in text
    assert "arith.constant dense<0xFF800000> : tensor<64xf32>" in text
    assert re.search(r"tile.bitcast %\d+ : tensor<64x!tile.ptr<i1>> -> "
                     r"tensor<64x!tile.ptr<i8>>", text)
    assert "cache = cs evict = evict_first : tensor<64x!tile.ptr<f32>>" in text
    assert re.search(r"arith.cmpi ne, %\d+, %\d+ : tensor<64xi8>", text)
    check_ir(text)


def test_none_pointer_argument_is_a_constexpr_none(check_ir):
    from test_interpreter import activation_kernel
    with_bias = activation_kernel.ir(f32(), f32(), f32(), 64, ACTIVATION="relu", BLOCK=128)
    without = activation_kernel.ir(f32(), None, f32(), 64, ACTIVATION="relu", BLOCK=128)
    assert with_bias.count("tile.load") == 2 and without.count("tile.load") == 1
    # The None argument keeps its place in the signature.
    assert "%arg1: !tile.ptr<i8> loc" in without
    check_ir(without)


def test_debug_mode_emits_asserts_and_prints(check_ir):
    @triton.jit(debug=True)
    def k(x_ptr, n):
        offs = tl.arange(0, 32)
        x = tl.load(x_ptr + offs)
        tl.device_assert(x >= 0, "negative input")
        assert n > 0, "n must be positive"
        tl.device_print("x = ", x, n)

    text = k.ir(f32(), 5)
    assert 'tile.assert %' in text and '"negative input" : tensor<32xi1>' in text
    assert '"n must be positive" : i1' in text
    assert re.search(r'tile.print "x = " \{isSigned = array<i32: 0, 1>\} : %\d+, %arg1 : '
                     r'tensor<32xf32>, i32', text)
    check_ir(text)

    @triton.jit
    def quiet(x_ptr):
        tl.device_assert(tl.load(x_ptr) >= 0, "negative input")

    assert "tile.assert" not in quiet.ir(f32())


def test_float_constants_exact_and_special(check_ir):
    @triton.jit
    def k(out_ptr):
        offs = tl.arange(0, 16)
        a = tl.full([16], float("nan"), tl.float32)
        b = tl.full([16], 0.1, tl.float16)
        c = tl.full([16], 1e-30, tl.bfloat16)
        d = tl.full([16], -1e300, tl.float64)
        tl.store(out_ptr + offs, a + b.to(tl.float32) + c.to(tl.float32) + d.to(tl.float32))

    text = k.ir(f32())
    assert "dense<0x7FC00000> : tensor<16xf32>" in text
    assert "dense<0.0999755859375> : tensor<16xf16>" in text
    assert "dense<-1.0e+300> : tensor<16xf64>" in text or "dense<-1e+300>" not in text
    check_ir(text)


def test_indexing_and_broadcast_ir(check_ir):
    @triton.jit
    def k(x_ptr, BM: tl.constexpr, BN: tl.constexpr):
        r = tl.arange(0, BM)
        c = tl.arange(0, BN)
        offs = r[:, None] * BN + c[None, :]
        v = tl.load(x_ptr + offs)
        w = tl.broadcast_to(tl.expand_dims(c, 0), (BM, BN))
        tl.store(x_ptr + offs, v + w)

    text = k.ir(f32(512), BM=16, BN=32)
    assert "tile.expand_dims %" in text and "axis = 1 : tensor<16xi32> -> tensor<16x1xi32>" in text
    assert "tile.broadcast %" in text and "tensor<1x32xi32> -> tensor<16x32xi32>" in text
    check_ir(text)


def test_module_is_stable_and_deterministic():
    a = add_kernel.ir(f32(), f32(), f32(), 64, BLOCK_SIZE=128)
    b = add_kernel.ir(f32(), f32(), f32(), 64, BLOCK_SIZE=128)
    assert a == b


def test_cache_key_covers_called_functions():
    from test_interpreter import _scale_shift
    k1 = nested_kernel.cache_key
    assert len(k1) == 64
    assert k1 != add_kernel.cache_key
    # The hash of a kernel changes when a function it calls changes.
    saved = _scale_shift.parsed.source
    try:
        _scale_shift.parsed.source = saved + "# edited\n"
        nested_kernel._cache_key = None
        assert nested_kernel.cache_key != k1
    finally:
        _scale_shift.parsed.source = saved
        nested_kernel._cache_key = None
    assert nested_kernel.cache_key == k1
