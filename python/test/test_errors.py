"""Every class of user mistake gives an error naming the file, the line, the
source line with a caret, and what is wrong.

Each kernel marks the line the error must point at with `# <-`.
"""

from __future__ import annotations

import re
import types

import numpy as np
import pytest

import terrazzo as triton
import terrazzo.language as tl
from terrazzo import CompilationError, InterpreterError, UnsupportedError
from terrazzo.compiler.kernel import KernelIR
from terrazzo.runtime.jit import compile_error


def f32(n=64):
    return np.zeros(n, dtype=np.float32)


def marked_line(kernel) -> int:
    lines = [l for l, text in kernel.parsed.src_lines.items() if "# <-" in text]
    assert len(lines) == 1, "mark exactly one line with # <-"
    return lines[0]


def check(excinfo, kernel, pattern, cls=CompilationError):
    e = excinfo.value
    assert isinstance(e, cls), type(e)
    text = str(e)
    assert re.search(pattern, text), text
    assert e.file == kernel.parsed.file, text
    line = marked_line(kernel)
    assert e.line == line, text
    src = kernel.parsed.src_lines[line]
    # file:line:col: error: ..., then the source line and a caret under the column
    assert text.startswith(f"{kernel.parsed.file}:{line}:{e.col + 1}: "), text
    lines = text.splitlines()
    assert lines[1].strip() == src.strip()
    caret = lines[2].index("^")
    indent = len(src) - len(src.lstrip())
    assert caret - 4 == e.col - indent
    return e


def ir_error(kernel, *args, pattern, cls=CompilationError, **kwargs):
    with pytest.raises(cls) as ei:
        kernel.ir(*args, **kwargs)
    return check(ei, kernel, pattern, cls)


# ---------------------------------------------------------------------------
# Unsupported Python constructs
# ---------------------------------------------------------------------------

@triton.jit
def k_with(x_ptr):
    with open("x"):  # <-
        pass


@triton.jit
def k_lambda(x_ptr):
    f = lambda v: v + 1  # <-
    tl.store(x_ptr, f(1.0))


@triton.jit
def k_listcomp(x_ptr):
    vals = [v for v in tl.load(x_ptr + tl.arange(0, 4))]  # <-


@triton.jit
def k_break(x_ptr, n):
    for i in range(n):
        break  # <-


@triton.jit
def k_subscript_assign(x_ptr):
    t = (1, 2)
    t[0] = 3  # <-


@triton.jit
def k_try(x_ptr):
    try:  # <-
        pass
    except Exception:
        pass


@triton.jit
def k_return_in_loop(x_ptr, n):
    for i in range(n):
        return  # <-


@pytest.mark.parametrize("kernel,pattern", [
    (k_with, r"`with` statements are not supported"),
    (k_lambda, r"lambda expressions are not supported"),
    (k_listcomp, r"a comprehension in a kernel iterates over a tuple or range known at "
                 r"compile time"),
    (k_break, r"`break` is not supported"),
    (k_subscript_assign, r"assigning to an element .* is not supported"),
    (k_try, r"`try` statements are not supported"),
    (k_return_in_loop, r"`return` inside a loop is not supported"),
])
def test_unsupported_python_constructs(kernel, pattern):
    args = (f32(),) if len(kernel.arg_names) == 1 else (f32(), 4)
    ir_error(kernel, *args, pattern=pattern, cls=UnsupportedError)


# ---------------------------------------------------------------------------
# Shapes
# ---------------------------------------------------------------------------

@triton.jit
def k_runtime_arange(x_ptr, n):
    offs = tl.arange(0, n)  # <-
    tl.store(x_ptr + offs, 1.0)


@triton.jit
def k_runtime_zeros(x_ptr, n):
    acc = tl.zeros([n], dtype=tl.float32)  # <-


@triton.jit
def k_arange_pow2(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)  # <-


@triton.jit
def k_zeros_pow2(x_ptr):
    acc = tl.zeros([8, 3], dtype=tl.float32)  # <-


@triton.jit
def k_broadcast(x_ptr):
    a = tl.arange(0, 32)
    b = tl.arange(0, 64)
    tl.store(x_ptr + a, a + b)  # <-


@triton.jit
def k_store_block_to_scalar(x_ptr):
    tl.store(x_ptr, tl.arange(0, 16))  # <-


def test_non_constexpr_shape():
    ir_error(k_runtime_arange, f32(), 64,
             pattern=r"arange's end must be a compile-time constant")
    ir_error(k_runtime_zeros, f32(), 64, pattern=r"shapes must be compile-time constants")


def test_non_power_of_two():
    ir_error(k_arange_pow2, f32(), BLOCK=1000,
             pattern=r"arange's length \(end - start\) must be a power of two, got 1000")
    ir_error(k_zeros_pow2, f32(), pattern=r"shape dimension 1 must be a power of two, got 3")


def test_shape_mismatch():
    ir_error(k_broadcast, f32(), pattern=r"cannot broadcast shapes \[32\] and \[64\]")
    ir_error(k_store_block_to_scalar, f32(),
             pattern=r"the value is a block .* but the pointer is a scalar")


# ---------------------------------------------------------------------------
# Types
# ---------------------------------------------------------------------------

@triton.jit
def k_float_offsets(x_ptr):
    offs = tl.arange(0, 16).to(tl.float32)
    tl.store(x_ptr + offs, 1.0)  # <-


@triton.jit
def k_exp_int(x_ptr):
    v = tl.exp(tl.arange(0, 16))  # <-


@triton.jit
def k_bitwise_float(x_ptr):
    v = tl.load(x_ptr + tl.arange(0, 16))
    w = v & 1  # <-


@triton.jit
def k_floordiv_float(x_ptr):
    v = tl.load(x_ptr + tl.arange(0, 16))
    w = v // 2.0  # <-


@triton.jit
def k_mask_not_bool(x_ptr):
    offs = tl.arange(0, 16)
    v = tl.load(x_ptr + offs, mask=offs)  # <-


@triton.jit
def k_loop_type_change(x_ptr, n):
    acc = tl.zeros([16], dtype=tl.int32)
    for i in range(n):  # <-
        acc = acc + 0.5


@triton.jit
def k_if_type_mismatch(x_ptr, n):
    if n > 0:  # <-
        v = tl.zeros([16], dtype=tl.float32)
    else:
        v = tl.zeros([16], dtype=tl.int32)
    tl.store(x_ptr + tl.arange(0, 16), v)


@triton.jit
def k_other_without_mask(x_ptr):
    v = tl.load(x_ptr, other=0.0)  # <-


@triton.jit
def k_store_pointer_as_float(x_ptr):
    tl.store(x_ptr, x_ptr)  # <-


def test_type_mismatches():
    ir_error(k_float_offsets, f32(), pattern=r"pointer arithmetic needs integer offsets")
    ir_error(k_exp_int, f32(), pattern=r"tl.exp expects floating-point values, got int32")
    ir_error(k_bitwise_float, f32(), pattern=r"invalid operands of type fp32 and int32 for `&`")
    ir_error(k_floordiv_float, f32(), pattern=r"`//` is defined on integers only")
    ir_error(k_mask_not_bool, f32(), pattern=r"mask must be boolean \(int1\), got int32")
    ir_error(k_loop_type_change, f32(), 4,
             pattern=r"loop-carried variable 'acc' has type <16xint32> when the loop starts "
                     r"but <16xfp32>")
    ir_error(k_if_type_mismatch, f32(), 4,
             pattern=r"'v' has type <16xfp32> at the end of the `if` branch but <16xint32>")
    ir_error(k_other_without_mask, f32(), pattern=r"`other` needs a `mask`")
    ir_error(k_store_pointer_as_float, f32(), pattern=r"cannot store pointer to fp32 through")


def test_storing_floats_through_an_int_pointer_converts_like_triton(monkeypatch):
    @triton.jit
    def k(out_ptr):
        tl.store(out_ptr + tl.arange(0, 4), tl.arange(0, 4) * 1.75)

    assert "arith.fptosi" in k.ir(np.zeros(4, np.int32))
    monkeypatch.setenv("TERRAZZO_INTERPRET", "1")
    out = np.zeros(4, np.int32)
    k[(1,)](out)
    np.testing.assert_array_equal(out, [0, 1, 3, 5])


def test_interpreter_reports_the_same_errors(monkeypatch):
    monkeypatch.setenv("TERRAZZO_INTERPRET", "1")
    with pytest.raises(CompilationError) as ei:
        k_broadcast[(1,)](f32())
    check(ei, k_broadcast, r"cannot broadcast shapes")
    with pytest.raises(CompilationError) as ei:
        k_loop_type_change[(1,)](f32(), 3)
    check(ei, k_loop_type_change, r"loop-carried variable 'acc'")


# ---------------------------------------------------------------------------
# Builtin calls, names
# ---------------------------------------------------------------------------

@triton.jit
def k_arange_arity(x_ptr):
    offs = tl.arange(0)  # <-


@triton.jit
def k_load_kwarg(x_ptr):
    v = tl.load(x_ptr, maks=None)  # <-


@triton.jit
def k_program_id_axis(x_ptr):
    p = tl.program_id(3)  # <-


@triton.jit
def _helper(a, b):
    return a + b


@triton.jit
def k_nested_arity(x_ptr):
    v = _helper(1.0)  # <-


@triton.jit
def k_unknown_name(x_ptr):
    v = undefined_thing + 1  # <-


@triton.jit
def k_unknown_attr(x_ptr):
    v = tl.not_a_function(x_ptr)  # <-


@triton.jit
def k_python_fn_with_tensor(x_ptr):
    v = np.sum(tl.load(x_ptr))  # <-


def test_wrong_arguments_to_builtins():
    ir_error(k_arange_arity, f32(), pattern=r"tl.arange\(\) missing 1 required positional "
                                             r"argument: 'end'")
    ir_error(k_load_kwarg, f32(), pattern=r"tl.load\(\) got an unexpected keyword argument "
                                           r"'maks'")
    ir_error(k_program_id_axis, f32(), pattern=r"program_id axis must be 0, 1, or 2 but got 3")
    ir_error(k_nested_arity, f32(), pattern=r"_helper\(\): missing a required argument: 'b'")


def test_unknown_names():
    ir_error(k_unknown_name, f32(), pattern=r"name 'undefined_thing' is not defined")
    ir_error(k_unknown_attr, f32(),
             pattern=r"module 'terrazzo.language' has no attribute 'not_a_function'")
    ir_error(k_python_fn_with_tensor, f32(),
             pattern=r"cannot pass runtime tensors to the Python function 'sum'")


# ---------------------------------------------------------------------------
# Not supported yet
# ---------------------------------------------------------------------------

@triton.jit
def k_power_operator(x_ptr):
    a = tl.load(x_ptr + tl.arange(0, 16))
    b = a ** a  # <-


@pytest.mark.parametrize("kernel,pattern", [
    (k_power_operator, r"`\*\*` on tensors: Triton's language has no power operator for "
                       r"tensors; use tl\.math\.pow\(x, y\) or libdevice\.pow\(x, y\)"),
])
def test_unsupported_construct(kernel, pattern):
    ir_error(kernel, f32(256), pattern=pattern, cls=UnsupportedError)


# ---------------------------------------------------------------------------
# Errors inside called functions, static asserts, misuse from Python
# ---------------------------------------------------------------------------

@triton.jit
def _bad_helper(x):
    return x + tl.arange(0, 3)  # <-


@triton.jit
def k_calls_bad_helper(x_ptr):
    v = _bad_helper(tl.load(x_ptr))


def test_error_in_called_function_points_at_the_callee():
    with pytest.raises(CompilationError) as ei:
        k_calls_bad_helper.ir(f32())
    e = check(ei, _bad_helper, r"arange's length .* power of two, got 3")
    assert "in the call of _bad_helper()" in str(e)


@triton.jit
def k_static_assert(x_ptr, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK >= 64, "BLOCK too small")  # <-


@triton.jit
def k_returns_value(x_ptr):
    return tl.load(x_ptr)  # <-


@triton.jit
def k_returns_value_in_a_branch(x_ptr, n):
    if n > 0:
        return tl.load(x_ptr)  # <-
    return tl.load(x_ptr + 1)


def test_static_assert_and_misuse():
    ir_error(k_static_assert, f32(), BLOCK=32, pattern=r"static_assert failed: BLOCK too small")
    # Located at the `return`, not the `def` line.
    ir_error(k_returns_value, f32(), pattern="a kernel cannot return a value")
    ir_error(k_returns_value_in_a_branch, f32(), 4,
             pattern="a kernel cannot return a value")
    with pytest.raises(RuntimeError, match=r"launch it with k_returns_value\[grid\]"):
        k_returns_value(f32())
    with pytest.raises(RuntimeError, match="only be called inside a @terrazzo.jit"):
        tl.arange(0, 16)


def test_launch_argument_errors(monkeypatch):
    monkeypatch.setenv("TERRAZZO_INTERPRET", "1")
    with pytest.raises(TypeError, match="missing a required argument"):
        k_static_assert[(1,)](f32())
    with pytest.raises(CompilationError, match="cannot pass a dict"):
        k_returns_value[(1,)]({})


# ---------------------------------------------------------------------------
# Interpreter faults
# ---------------------------------------------------------------------------

@triton.jit
def k_oob_load(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)  # <-
    tl.store(out_ptr + offs, x, mask=offs < n)


@triton.jit
def k_oob_store(x_ptr, n):
    offs = tl.arange(0, 16) - 1
    tl.store(x_ptr + offs, 1.0, mask=offs < n)  # <-


@triton.jit
def k_assert(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 8))
    tl.device_assert(x < 5, "x must be small")  # <-


def test_out_of_bounds_accesses_name_the_line(monkeypatch):
    monkeypatch.setenv("TERRAZZO_INTERPRET", "1")
    x = np.arange(100, dtype=np.float32)
    out = np.zeros(100, np.float32)
    with pytest.raises(InterpreterError) as ei:
        k_oob_load[(4,)](x, out, 100, BLOCK=32)
    e = check(ei, k_oob_load, r"out-of-bounds load in program \(3, 0, 0\): element 127 of "
                              r"'x_ptr' is past its end \(a fp32 buffer of 100 elements; 28 "
                              r"lanes out of bounds\)", InterpreterError)
    with pytest.raises(InterpreterError) as ei:
        k_oob_store[(1,)](np.zeros(16, np.float32), 16)
    check(ei, k_oob_store, r"out-of-bounds store .* element -1 of 'x_ptr' is before its start",
          InterpreterError)


def test_masked_lanes_are_not_accessed(monkeypatch):
    monkeypatch.setenv("TERRAZZO_INTERPRET", "1")

    @triton.jit
    def k(x_ptr, out_ptr, n):
        offs = tl.arange(0, 128) - 10
        m = (offs >= 0) & (offs < n)
        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m, other=-1.0) + 1, mask=m)

    x = np.arange(50, dtype=np.float32)
    out = np.zeros(50, np.float32)
    k[(1,)](x, out, 50)
    np.testing.assert_array_equal(out, x + 1)


def test_device_assert_in_the_interpreter(monkeypatch):
    monkeypatch.setenv("TERRAZZO_INTERPRET", "1")
    k_assert[(1,)](np.zeros(8, np.float32))
    with pytest.raises(InterpreterError) as ei:
        k_assert[(1,)](np.arange(8, dtype=np.float32))
    check(ei, k_assert, r"device_assert failed in program \(0, 0, 0\) at index \(5,\): "
                        r"x must be small", InterpreterError)


# ---------------------------------------------------------------------------
# Compiler diagnostics mapped back to the user's line
# ---------------------------------------------------------------------------

@triton.jit
def k_cross_thread(x_ptr, out_ptr):
    # The transpose of a 256 x 256 tile moves 65536 floats between threads
    # through shared memory: 256 KiB, more than an H100 has, and no rounds
    # (the lanes of one layout span the other's rows).
    r = tl.arange(0, 256)
    x = tl.load(x_ptr + r[:, None] * 256 + r[None, :])
    tl.store(out_ptr + r[:, None] * 256 + r[None, :], tl.trans(x))  # <-


def _diagnostics_from_stderr(stderr: str):
    diags = []
    for line in stderr.splitlines():
        m = re.match(r"(.+?):(\d+):(\d+): (error|warning|note|remark): (.*)", line)
        if m:
            diags.append(types.SimpleNamespace(file=m.group(1), line=int(m.group(2)),
                                               column=int(m.group(3)), severity=m.group(4),
                                               message=m.group(5)))
    return diags


def test_compiler_diagnostics_point_at_the_users_line(check_ir):
    kir = k_cross_thread.ir_for_key(k_cross_thread.key_for(f32(32), f32(512)))
    check_ir.opt(kir.text)  # valid IR ...
    stderr = check_ir.compile_fails(kir.text)  # ... that the backend rejects
    diags = _diagnostics_from_stderr(stderr)
    assert diags, stderr
    err = compile_error(diags, kir, k_cross_thread, "cuda:90")

    class Info:
        value = err
    e = check(Info, k_cross_thread, r"needs 262144 bytes of shared memory")
    assert "while compiling kernel 'k_cross_thread' for cuda:90" in str(e)
    # Triton raises OutOfResources for this (autotuners skip the config).
    assert isinstance(e, triton.OutOfResources) and isinstance(e, triton.TritonError)
    assert e.required == 262144 and e.limit == 232448 and e.name == "shared memory"


@triton.jit
def k_rings_together(a_ptr, b_ptr, c_ptr, K):
    rows = tl.arange(0, 256)
    ks = tl.arange(0, 128)
    acc = tl.zeros((256, 256), dtype=tl.float32)
    for k in range(0, K, 128):  # <-
        a = tl.load(a_ptr + rows[:, None] * K + (k + ks)[None, :])
        b = tl.load(b_ptr + (k + ks)[:, None] * 256 + rows[None, :])
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rows[:, None] * 256 + rows[None, :], acc)


def test_shared_memory_overflow_names_the_buffers():
    # Two rings of 3 x 256 x 128 float16 (192 KiB each) fit one by one, not
    # together: the error is on the kernel, and a note at the loop's line
    # for each ring says what it holds.
    a = np.zeros((256, 1024), np.float16)
    with pytest.raises(triton.OutOfResources) as info:
        k_rings_together.compile(a, a, np.zeros((256, 256), np.float32), 1024,
                                 stage="ptx", target="cuda:90", num_warps=8, num_stages=3)
    text = str(info.value)
    assert "for buffers live at the same time" in text, text
    line = marked_line(k_rings_together)
    notes = re.findall(rf":{line}:\d+: note: 196608 bytes live here: a buffer of "
                       rf"3x(?:256x128|128x256)xf16", text)
    assert len(notes) == 2, text


def test_shared_memory_diagnostics_are_out_of_resources():
    import pickle
    kir = KernelIR("func.func @k() {\n  return\n}\n", "k", "")
    line = marked_line(k_cross_thread)
    diag = types.SimpleNamespace(
        file=k_cross_thread.parsed.file, line=line, column=5, severity="error",
        message="'tilegpu.convert_layout' op needs 300000 bytes of shared memory to move its "
                "data between threads, more than target 'cuda:90' allows in one program "
                "instance (232448 bytes); use smaller blocks")
    e = compile_error([diag], kir, k_cross_thread, "cuda:90")
    assert isinstance(e, CompilationError) and isinstance(e, triton.OutOfResources)
    assert (e.required, e.limit, e.name) == (300000, 232448, "shared memory")
    assert e.line == line and "needs 300000 bytes" in str(e)
    back = pickle.loads(pickle.dumps(e))
    assert type(back) is type(e) and back.required == 300000 and str(back) == str(e)
    other = types.SimpleNamespace(file="k.mlir", line=2, column=3, severity="error",
                                  message="something else")
    assert not isinstance(compile_error([other], kir, None, "cuda:90"), triton.OutOfResources)


def test_diagnostics_on_generated_ir_are_reported_as_internal_errors():
    kir = KernelIR("func.func @k() {\n  return\n}\n", "k", "")
    diag = types.SimpleNamespace(file="k.mlir", line=2, column=3, severity="error",
                                 message="something is wrong")
    e = compile_error([diag], kir, None, "cuda:90")
    assert "internal error" in str(e) and "tile IR line 2: return" in str(e)


@triton.jit
def _recursive(x, N: tl.constexpr):
    return _recursive(x + 1, N)  # <-


@triton.jit
def k_recursive(x_ptr):
    tl.store(x_ptr, _recursive(tl.load(x_ptr), 3))


def test_recursion_is_reported():
    with pytest.raises(UnsupportedError) as ei:
        k_recursive.ir(f32())
    check(ei, _recursive, r"recursive call of _recursive is not supported", UnsupportedError)


# ---------------------------------------------------------------------------
# Triton's exception hierarchy and messages
# ---------------------------------------------------------------------------

def test_triton_error_hierarchy_and_module_paths():
    import terrazzo.compiler
    import terrazzo.compiler.errors as cerrors
    import terrazzo.errors as errors
    import terrazzo.runtime.errors as rerrors
    assert triton.TritonError is errors.TritonError
    for cls in (cerrors.CompilationError, cerrors.CompileTimeAssertionFailure,
                cerrors.UnsupportedLanguageConstruct, rerrors.InterpreterError,
                rerrors.OutOfResources, rerrors.PTXASError, UnsupportedError):
        assert issubclass(cls, triton.TritonError), cls
    assert cerrors.CompilationError is triton.CompilationError is terrazzo.compiler.CompilationError
    assert rerrors.InterpreterError is triton.InterpreterError
    assert rerrors.OutOfResources is triton.OutOfResources
    assert issubclass(cerrors.CompileTimeAssertionFailure, CompilationError)
    assert cerrors.UnsupportedLanguageConstruct is UnsupportedError
    assert issubclass(errors.InterpretedCompilationError, CompilationError)
    assert issubclass(errors.InterpretedCompilationError, InterpreterError)
    e = rerrors.OutOfResources(300000, 232448, "shared memory")
    assert "out of resource: shared memory" in str(e) and isinstance(e, RuntimeError)
    import pickle
    back = pickle.loads(pickle.dumps(e))
    assert (back.required, back.limit, back.name) == (300000, 232448, "shared memory")


@triton.jit
def k_big_constant():
    huge: tl.constexpr = 0xFFFFFFFFFFFFFF
    x = tl.full((), 32, dtype=tl.int32)
    y = x + huge  # <-


@triton.jit
def k_mixed_signedness_div(x_ptr, y_ptr, OP: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    y = tl.load(y_ptr + tl.arange(0, 16))
    z = x / y if OP == 0 else x % y  # <-


@triton.jit
def k_float_xor(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    z = x ^ x  # <-


@triton.jit
def k_bad_slice(x_ptr):
    x_ptr[10:]  # <-


@triton.jit
def k_expand_dims_axis(x_ptr, AXIS: tl.constexpr):
    r = tl.arange(0, 16)
    t = tl.expand_dims(r, AXIS)  # <-


@triton.jit
def k_expand_dims_scalar(x_ptr):
    s = tl.sum(tl.arange(0, 16))
    t = tl.expand_dims(s, 1)  # <-


@triton.jit
def k_reduce_axis(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 8)[:, None] * 8 + tl.arange(0, 8)[None, :])
    s = tl.sum(x, axis=2)  # <-


@triton.jit
def k_small_descriptor_block(x_ptr):
    desc = tl.make_tensor_descriptor(x_ptr, [64, 64], [64, 1], [4, 2])  # <-
    desc.load([0, 0])


# What Triton's tests match in the error (or in its `__cause__`), for each
# mistake: the compile path raises a CompilationError, the interpreter an
# error that is both a CompilationError and an InterpreterError; both are
# TritonErrors whose cause is the semantic layer's error.
TRITON_MESSAGES = [
    (k_big_constant, (), {}, "out of range"),
    (k_mixed_signedness_div, (np.zeros(16, np.int32), np.ones(16, np.uint32)), {"OP": 0},
     "Cannot use .* because they have different signedness"),
    (k_mixed_signedness_div, (np.zeros(16, np.uint8), np.ones(16, np.int16)), {"OP": 1},
     "Cannot use .* because they have different signedness"),
    (k_float_xor, (f32(16),), {}, "invalid operands of type"),
    (k_bad_slice, (f32(128),), {}, "unsupported tensor index"),
    (k_expand_dims_axis, (f32(),), {"AXIS": -3}, "invalid axis -3"),
    (k_expand_dims_axis, (f32(),), {"AXIS": 2}, "invalid axis 2"),
    (k_expand_dims_axis, (f32(),), {"AXIS": (0, 0)}, r"duplicate axes, normalized axes = \[0, 0\]"),
    (k_expand_dims_axis, (f32(),), {"AXIS": (0, -3)}, r"duplicate axes, normalized axes = \[0, 0\]"),
    (k_expand_dims_scalar, (f32(),), {}, "invalid axis 1"),
    (k_program_id_axis, (f32(),), {}, r"program_id axis must be 0, 1, or 2 but got 3"),
    (k_reduce_axis, (f32(),), {}, "axis 2 is out of range"),
    (k_small_descriptor_block, (np.zeros(64 * 64, np.int32),), {},
     "Descriptor block shape must have at least 16 bytes"),
]


@pytest.mark.parametrize("kernel,args,kwargs,pattern", TRITON_MESSAGES,
                         ids=[f"{c[0].__name__}-{i}" for i, c in enumerate(TRITON_MESSAGES)])
def test_errors_are_triton_errors_with_the_message_in_the_cause(kernel, args, kwargs, pattern):
    e = ir_error(kernel, *args, pattern=pattern, **kwargs)
    assert isinstance(e, triton.TritonError)
    assert re.search(pattern, str(e.__cause__)), repr(e.__cause__)
    assert re.search(pattern, e.error_message)
    assert not isinstance(e, InterpreterError)
    with pytest.raises(InterpreterError) as ei:
        triton.jit(kernel.fn, interpret=True)[(1,)](*args, **kwargs)
    e = check(ei, kernel, pattern, InterpreterError)
    assert isinstance(e, CompilationError) and isinstance(e, triton.TritonError)
    assert re.search(pattern, str(e.__cause__)), repr(e.__cause__)


def test_static_assert_is_a_compile_time_assertion_failure():
    from terrazzo.compiler.errors import CompileTimeAssertionFailure
    e = ir_error(k_static_assert, f32(), BLOCK=32, pattern="BLOCK too small",
                 cls=CompileTimeAssertionFailure)
    assert "static_assert failed: BLOCK too small" in str(e.__cause__)
    assert k_static_assert.ir(f32(), BLOCK=64)  # a true assertion compiles


def test_interpreter_faults_are_triton_errors(monkeypatch):
    monkeypatch.setenv("TERRAZZO_INTERPRET", "1")
    with pytest.raises(triton.TritonError) as ei:
        k_oob_load[(1,)](f32(8), f32(8), 8, BLOCK=16)
    assert isinstance(ei.value, InterpreterError)
    assert not isinstance(ei.value, CompilationError)
