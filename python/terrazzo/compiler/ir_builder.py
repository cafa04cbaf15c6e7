"""Builder 1: tile IR as MLIR text.

Every op carries `loc("file.py":line:col)` of the Python expression that
produced it, so that the compiler's diagnostics point at the user's line.
Functions are kept as trees of lines and region ops and rendered at the end,
which lets an `scf.if` learn its result types after both branches were
built.
"""

from __future__ import annotations

import contextlib
import math
import struct
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..core.lang import block_type, dtype, pointer_type
from .builder import Builder
from .numerics import round_to_bf16

_SCALAR_IR = {"int1": "i1", "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
              "uint8": "i8", "uint16": "i16", "uint32": "i32", "uint64": "i64",
              "fp16": "f16", "bf16": "bf16", "fp32": "f32", "fp64": "f64",
              "fp8e4nv": "f8E4M3FN", "fp8e5": "f8E5M2",
              # Formats no instruction converts are their bytes; the semantic
              # layer converts them with integer operations (fp8.py).
              "fp8e4b15": "i8", "fp8e4b8": "i8", "fp8e5b16": "i8"}

_MATH_OPS = {"exp": "math.exp", "exp2": "math.exp2", "log": "math.log", "log2": "math.log2",
             # tl.sqrt may approximate (afn); tl.sqrt_rn is IEEE-rounded.
             "sqrt": "math.sqrt", "sqrt_rn": "math.sqrt", "rsqrt": "math.rsqrt", "sin": "math.sin", "cos": "math.cos",
             "floor": "math.floor", "ceil": "math.ceil", "erf": "math.erf",
             "tanh": "math.tanh", "fast_tanh": "math.tanh", "log1p": "math.log1p", "expm1": "math.expm1",
             "log10": "math.log10", "tan": "math.tan", "trunc": "math.trunc",
             "round": "math.round", "absf": "math.absf", "absi": "math.absi",
             "negf": "arith.negf"}

#: Functions the language computes fast rather than correctly rounded
#: (libdevice.fast_tanhf is "fast_tanh").
_APPROXIMATE_MATH = frozenset({"sqrt", "fast_tanh"})

_BINARY_OPS = {"powf": "math.powf"}


def ir_type(ty) -> str:
    """The MLIR spelling of a language type."""
    if isinstance(ty, block_type):
        return f"tensor<{'x'.join(str(d) for d in ty.shape)}x{ir_type(ty.element_ty)}>"
    if isinstance(ty, pointer_type):
        elt = ir_type(ty.element_ty)
        if ty.address_space != 1:
            return f"!tile.ptr<{elt}, {ty.address_space}>"
        return f"!tile.ptr<{elt}>"
    try:
        return _SCALAR_IR[ty.name]
    except KeyError:
        raise ValueError(f"type {ty} has no tile IR equivalent") from None


def mlir_string(s: str) -> str:
    """A quoted MLIR string literal."""
    out = ['"']
    for byte in s.encode("utf-8"):
        c = chr(byte)
        if c in ('"', "\\") or byte < 0x20 or byte >= 0x7F:
            out.append("\\%02X" % byte)
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def _round_bf16(v: float) -> float:
    """v rounded to the nearest bfloat16 (ties to even), as a Python float."""
    return float(round_to_bf16(np.array([v], dtype=np.float64))[0])


def format_float(v: float, ty: dtype) -> str:
    """A float literal that MLIR parses back to exactly v rounded to ty."""
    name = ty.name
    with np.errstate(all="ignore"):  # out-of-range values become infinities
        if name == "fp16":
            v = float(np.float16(v))
        elif name == "bf16":
            v = _round_bf16(v)
        elif name == "fp32":
            v = float(np.float32(v))
    if math.isfinite(v):
        s = repr(float(v))
        if "e" in s:
            mant, exp = s.split("e")
            if "." not in mant:
                mant += ".0"
            return f"{mant}e{exp}"
        return s if "." in s else s + ".0"
    # inf and nan: the bit pattern.
    if name == "fp16":
        bits = int(np.array([v], dtype=np.float16).view(np.uint16)[0])
        return "0x%04X" % bits
    if name == "bf16":
        bits = struct.unpack("<I", struct.pack("<f", v))[0] >> 16
        if v != v:
            bits = 0x7FC0
        return "0x%04X" % bits
    if name == "fp32":
        return "0x%08X" % struct.unpack("<I", struct.pack("<f", v))[0]
    return "0x%016X" % struct.unpack("<Q", struct.pack("<d", v))[0]


def format_int(v: int, ty: dtype) -> str:
    if ty.is_bool():
        return "true" if v else "false"
    bits = ty.int_bitwidth
    v &= (1 << bits) - 1
    if v >= 1 << (bits - 1):
        v -= 1 << bits
    return str(v)


def format_loc(loc) -> str:
    if loc is None:
        return "loc(unknown)"
    return f"loc({mlir_string(loc.file)}:{loc.line}:{loc.col + 1})"


class _RegionOp:
    """An op with regions, rendered when the module is printed."""

    def __init__(self, loc):
        self.loc = loc
        self.render = None  # callable(indent) -> list of lines


class IRFunction:
    def __init__(self, name: str, private: bool, loc):
        self.name = name
        self.private = private
        self.loc = loc
        self.args: List[Tuple[str, str, str, object]] = []  # (ssa, type, attrs, loc)
        self.result_types: List[str] = []
        self.body: List = []


def _symbol(name: str) -> str:
    import re
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_$.]*", name):
        return "@" + name
    return "@" + mlir_string(name)


class IRBuilder(Builder):
    concrete = False

    def __init__(self):
        self.loc = None
        self._counter = 0
        self.functions: List[IRFunction] = []
        self.block: Optional[List] = None
        # Where each single-result op's line is (block, index), and the
        # hints attached to it (see hint).
        self._definitions: Dict[str, Tuple[List, int]] = {}
        self._axis_hints: Dict[str, Dict[str, List[int]]] = {}

    # ------------------------------------------------------------------
    # Plumbing
    # ------------------------------------------------------------------
    def _fresh(self) -> str:
        name = f"%{self._counter}"
        self._counter += 1
        return name

    def _emit(self, text: str) -> None:
        self.block.append(f"{text} {format_loc(self.loc)}")

    def _op(self, text: str) -> str:
        r = self._fresh()
        self._emit(f"{r} = {text}")
        self._definitions[r] = (self.block, len(self.block) - 1)
        return r

    def hint(self, h, kind, values):
        """Attaches `tile.<kind> = array<i64: values>` (AxisInfo's hints) to
        the op that defines `h`, before its attr-dict's place (right before
        the ` : ` of its type; every op the frontend hints has that form).
        Values no single-result op defines here (arguments, results of
        regions) and constants, whose properties are known, are left
        alone."""
        where = self._definitions.get(h)
        if where is None:
            return
        block, index = where
        hints = self._axis_hints.setdefault(h, {})
        if not hints:
            hints[""] = block[index]  # the line as emitted
        hints[kind] = list(values)
        line = hints[""]
        head, sep, tail = line.partition(" : ")
        if not sep or head.split(" = ", 1)[1].startswith(("arith.constant", "scf.")) \
                or head.rstrip().endswith("}"):
            return
        attrs = ", ".join(f"tile.{k} = array<i64: {', '.join(str(v) for v in vs)}>"
                          for k, vs in sorted(hints.items()) if k)
        block[index] = f"{head} {{{attrs}}}{sep}{tail}"

    def placeholder(self) -> str:
        """A handle for a value that is never emitted (dry runs)."""
        return f"%undef{self._fresh()[1:]}"

    def new_block(self) -> List:
        return []

    @contextlib.contextmanager
    def insert_into(self, block: List):
        saved = self.block
        self.block = block
        try:
            yield block
        finally:
            self.block = saved

    # ------------------------------------------------------------------
    # Functions
    # ------------------------------------------------------------------
    def begin_function(self, name: str, args: Sequence[Tuple[object, str, object]],
                       private: bool, loc) -> Tuple[IRFunction, List[str]]:
        """args: (type, attributes text or "", loc) per argument."""
        fn = IRFunction(name, private, loc)
        handles = []
        for i, (ty, attrs, aloc) in enumerate(args):
            h = f"%arg{i}"
            fn.args.append((h, ir_type(ty), attrs, aloc))
            handles.append(h)
        self.functions.append(fn)
        return fn, handles

    def function_return(self, values: Sequence[Tuple[str, object]]) -> None:
        if values:
            self._emit("return " + ", ".join(h for h, _ in values) + " : " +
                       ", ".join(ir_type(t) for _, t in values))
        else:
            self._emit("return")

    def call(self, name: str, args: Sequence[Tuple[str, object]], result_types) -> List[str]:
        arg_list = ", ".join(h for h, _ in args)
        sig = f"({', '.join(ir_type(t) for _, t in args)}) -> "
        res = [ir_type(t) for t in result_types]
        sig += res[0] if len(res) == 1 else f"({', '.join(res)})"
        text = f"func.call {_symbol(name)}({arg_list}) : {sig}"
        if not result_types:
            self._emit(text)
            return []
        return self._results(text, len(result_types))

    def _results(self, text: str, n: int) -> List[str]:
        r = self._fresh()
        if n == 1:
            self._emit(f"{r} = {text}")
            return [r]
        self._emit(f"{r}:{n} = {text}")
        return [f"{r}#{i}" for i in range(n)]

    # ------------------------------------------------------------------
    # Structured control flow
    # ------------------------------------------------------------------
    def emit_if(self, cond: str, then_block: List, else_block: List,
                then_values: Sequence[str], else_values: Sequence[str],
                types: Sequence[object], loc) -> List[str]:
        tys = [ir_type(t) for t in types]
        if tys:
            then_block.append(f"scf.yield {', '.join(then_values)} : {', '.join(tys)} "
                              f"{format_loc(loc)}")
            else_block.append(f"scf.yield {', '.join(else_values)} : {', '.join(tys)} "
                              f"{format_loc(loc)}")
        op = _RegionOp(loc)
        results: List[str] = []
        head = ""
        if tys:
            r = self._fresh()
            head = f"{r}:{len(tys)} = " if len(tys) > 1 else f"{r} = "
            results = [f"{r}#{i}" for i in range(len(tys))] if len(tys) > 1 else [r]
        ret = f" -> ({', '.join(tys)})" if tys else ""

        def render(indent, head=head, ret=ret):
            lines = [f"{head}scf.if {cond}{ret} {{"]
            lines += _render_block(then_block, indent + 1)
            if else_block:
                lines.append("} else {")
                lines += _render_block(else_block, indent + 1)
            lines.append(f"}} {format_loc(loc)}")
            return lines
        op.render = render
        self.block.append(op)
        return results

    def begin_for(self, lb: str, ub: str, step: str, iv_ty, inits: Sequence[Tuple[str, object]],
                  loc, options: Optional[Dict[str, int]] = None):
        """Returns (op, induction variable, iteration arguments, body block);
        `options` (tl.range's num_stages, loop_unroll_factor) become the
        loop's tile.* attributes."""
        op = _RegionOp(loc)
        op.options = dict(options or {})
        op.iv = self._fresh()
        op.args = [self._fresh() for _ in inits]
        op.inits = list(inits)
        op.body = []
        op.header = (lb, ub, step, ir_type(iv_ty))
        self.block.append(op)
        return op, op.iv, list(op.args), op.body

    def end_for(self, op, yields: Sequence[str]) -> List[str]:
        tys = [ir_type(t) for _, t in op.inits]
        if tys:
            op.body.append(f"scf.yield {', '.join(yields)} : {', '.join(tys)} "
                           f"{format_loc(op.loc)}")
        results: List[str] = []
        head = ""
        if tys:
            r = self._fresh()
            head = f"{r}:{len(tys)} = " if len(tys) > 1 else f"{r} = "
            results = [f"{r}#{i}" for i in range(len(tys))] if len(tys) > 1 else [r]
        lb, ub, step, ivt = op.header
        iter_args = ""
        if tys:
            pairs = ", ".join(f"{a} = {h}" for a, (h, _) in zip(op.args, op.inits))
            iter_args = f" iter_args({pairs}) -> ({', '.join(tys)})"

        attrs = ""
        if op.options:
            # Integers as i32 attributes, True as a unit attribute.
            attrs = " {" + ", ".join(f"tile.{name}" if value is True
                                     else f"tile.{name} = {value} : i32"
                                     for name, value in sorted(op.options.items())) + "}"

        def render(indent):
            lines = [f"{head}scf.for {op.iv} = {lb} to {ub} step {step}{iter_args} : {ivt} {{"]
            lines += _render_block(op.body, indent + 1)
            lines.append(f"}}{attrs} {format_loc(op.loc)}")
            return lines
        op.render = render
        return results

    def begin_while(self, inits: Sequence[Tuple[str, object]], loc):
        """Returns (op, arguments of the condition region, its block)."""
        op = _RegionOp(loc)
        op.inits = list(inits)
        op.before_args = [self._fresh() for _ in inits]
        op.after_args = [self._fresh() for _ in inits]
        op.before = []
        op.after = []
        self.block.append(op)
        return op, list(op.before_args), op.before

    def while_condition(self, op, cond: str, loc) -> Tuple[List[str], List]:
        """Ends the condition region; returns the body's arguments and block."""
        tys = [ir_type(t) for _, t in op.inits]
        args = f" {', '.join(op.before_args)} : {', '.join(tys)}" if tys else ""
        op.before.append(f"scf.condition({cond}){args} {format_loc(loc)}")
        return list(op.after_args), op.after

    def end_while(self, op, yields: Sequence[str]) -> List[str]:
        tys = [ir_type(t) for _, t in op.inits]
        op.after.append((f"scf.yield {', '.join(yields)} : {', '.join(tys)} " if tys
                         else "scf.yield ") + format_loc(op.loc))
        results: List[str] = []
        head = ""
        if tys:
            r = self._fresh()
            head = f"{r}:{len(tys)} = " if len(tys) > 1 else f"{r} = "
            results = [f"{r}#{i}" for i in range(len(tys))] if len(tys) > 1 else [r]
        pairs = ", ".join(f"{a} = {h}" for a, (h, _) in zip(op.before_args, op.inits))
        sig = f"({', '.join(tys)}) -> ({', '.join(tys)})"

        def render(indent):
            lines = [f"{head}scf.while ({pairs}) : {sig} {{"]
            lines += _render_block(op.before, indent + 1)
            lines.append("} do {")
            block_args = ", ".join(f"{a}: {t}" for a, t in zip(op.after_args, tys))
            lines.append(f"^bb0({block_args}):")
            lines += _render_block(op.after, indent + 1)
            lines.append(f"}} {format_loc(op.loc)}")
            return lines
        op.render = render
        return results

    # ------------------------------------------------------------------
    # Output
    # ------------------------------------------------------------------
    def module_text(self, header_comment: str = "") -> str:
        lines: List[str] = []
        if header_comment:
            lines += [f"// {c}" for c in header_comment.splitlines()]
        # Helpers first, kernels last, as a reader expects.
        for fn in sorted(self.functions, key=lambda f: not f.private):
            args = []
            for h, t, attrs, aloc in fn.args:
                a = f"{h}: {t}"
                if attrs:
                    a += f" {attrs}"
                if aloc is not None:
                    a += f" {format_loc(aloc)}"
                args.append(a)
            res = ""
            if fn.result_types:
                tys = [ir_type(t) for t in fn.result_types]
                res = f" -> {tys[0]}" if len(tys) == 1 else f" -> ({', '.join(tys)})"
            vis = "private " if fn.private else ""
            lines.append(f"func.func {vis}{_symbol(fn.name)}({', '.join(args)}){res} {{")
            lines += _render_block(fn.body, 1)
            lines.append(f"}} {format_loc(fn.loc)}")
        return "\n".join(lines) + "\n"

    # ------------------------------------------------------------------
    # Builder interface
    # ------------------------------------------------------------------
    def constant(self, value, ty):
        sca = ty.scalar
        if sca.is_floating():
            lit = format_float(value, sca)
        else:
            lit = format_int(int(value), sca)
        if ty.is_block():
            return self._op(f"arith.constant dense<{lit}> : {ir_type(ty)}")
        if sca.is_bool():
            return self._op(f"arith.constant {lit}")
        return self._op(f"arith.constant {lit} : {ir_type(ty)}")

    def poison(self, ty):
        """An undefined value of `ty` (the result of a path that returns
        nothing where others return a value)."""
        return self._op(f"ub.poison : {ir_type(ty)}")

    def program_id(self, axis):
        return self._op(f"tile.program_id {'xyz'[axis]} : i32")

    def num_programs(self, axis):
        return self._op(f"tile.num_programs {'xyz'[axis]} : i32")

    def make_range(self, start, end, ty):
        return self._op(f"tile.make_range {start} to {end} : {ir_type(ty)}")

    def splat(self, h, src_ty, dst_ty):
        return self._op(f"tile.splat {h} : {ir_type(src_ty)} -> {ir_type(dst_ty)}")

    def broadcast(self, h, src_ty, dst_ty):
        return self._op(f"tile.broadcast {h} : {ir_type(src_ty)} -> {ir_type(dst_ty)}")

    def expand_dims(self, h, axis, src_ty, dst_ty):
        return self._op(f"tile.expand_dims {h} axis = {axis} : {ir_type(src_ty)} -> "
                        f"{ir_type(dst_ty)}")

    def trans(self, h, order, src_ty, dst_ty):
        dims = ", ".join(str(d) for d in order)
        return self._op(f"tile.trans {h} [{dims}] : {ir_type(src_ty)} -> "
                        f"{ir_type(dst_ty)}")

    def reshape(self, h, allow_reorder, src_ty, dst_ty):
        reorder = " allow_reorder" if allow_reorder else ""
        return self._op(f"tile.reshape {h}{reorder} : {ir_type(src_ty)} -> "
                        f"{ir_type(dst_ty)}")

    def join(self, a, b, src_ty, dst_ty):
        return self._op(f"tile.join {a}, {b} : {ir_type(src_ty)} -> {ir_type(dst_ty)}")

    def split(self, h, src_ty, dst_ty):
        lo, hi = self._results(f"tile.split {h} : {ir_type(src_ty)} -> "
                               f"{ir_type(dst_ty)}", 2)
        return lo, hi

    def binary(self, op, a, b, ty):
        if op == "divf_approx":
            return self._op(f"arith.divf {a}, {b} fastmath<afn> : {ir_type(ty)}")
        if op == "divf_fast":
            return self._op(f"arith.divf {a}, {b} fastmath<arcp,afn> : {ir_type(ty)}")
        name = _BINARY_OPS.get(op, f"arith.{op}")
        return self._op(f"{name} {a}, {b} : {ir_type(ty)}")

    def compare(self, pred, a, b, operand_ty, result_ty):
        kind = "cmpf" if operand_ty.scalar.is_floating() else "cmpi"
        return self._op(f"arith.{kind} {pred}, {a}, {b} : {ir_type(operand_ty)}")

    def unary(self, op, x, ty):
        flags = " fastmath<afn>" if op in _APPROXIMATE_MATH else ""
        return self._op(f"{_MATH_OPS[op]} {x}{flags} : {ir_type(ty)}")

    def fma(self, a, b, c, ty):
        return self._op(f"math.fma {a}, {b}, {c} : {ir_type(ty)}")

    def extern_elementwise(self, symbol, libname, libpath, args, result_ty, pure,
                           reference=None):
        """`symbol` of a device library called element by element
        (tile.extern_elementwise); `reference` serves the interpreter only."""
        operands = ", ".join(h for h, _ in args)
        types = ", ".join(ir_type(t) for _, t in args)
        attrs = (f"{{libname = {mlir_string(libname)}, libpath = {mlir_string(libpath)}, "
                 f"pure = {'true' if pure else 'false'}}}")
        return self._op(f"tile.extern_elementwise {mlir_string(symbol)}({operands}) {attrs} "
                        f": ({types}) -> {ir_type(result_ty)}")

    def inline_asm(self, asm, constraints, args, result_types, pure, pack, reference=None):
        """`asm` on the elements of `args`, `pack` at a time (tile.inline_asm);
        one handle per result type. `reference` serves the interpreter only."""
        operands = ", ".join(h for h, _ in args)
        types = ", ".join(ir_type(t) for _, t in args)
        results = ", ".join(ir_type(t) for t in result_types)
        text = (f"tile.inline_asm {mlir_string(asm)} constraints {mlir_string(constraints)} "
                f"({operands}) {{pack = {int(pack)} : i32, pure = {'true' if pure else 'false'}}} "
                f": ({types}) -> ({results})")
        return self._results(text, len(result_types))

    def select(self, cond, a, b, cond_ty, ty):
        if cond_ty.is_block():
            return self._op(f"arith.select {cond}, {a}, {b} : {ir_type(cond_ty)}, {ir_type(ty)}")
        return self._op(f"arith.select {cond}, {a}, {b} : {ir_type(ty)}")

    def cast(self, op, x, src_ty, dst_ty, rounding=None):
        s, d = ir_type(src_ty), ir_type(dst_ty)
        if op == "int_sign" or s == d:
            return x
        if op == "fp_to_fp":
            r = f" rounding = {rounding}" if rounding else ""
            return self._op(f"tile.fp_to_fp {x}{r} : {s} -> {d}")
        if op in ("ptr_to_int", "int_to_ptr"):
            return self._op(f"tile.{op} {x} : {s} -> {d}")
        if op == "bitcast":
            if src_ty.scalar.is_ptr():
                return self._op(f"tile.bitcast {x} : {s} -> {d}")
            return self._op(f"arith.bitcast {x} : {s} to {d}")
        return self._op(f"arith.{op} {x} : {s} to {d}")

    def reduce(self, operands, axis, result_types, combine):
        return self._combining_op("tile.reduce", f"axis = {axis}", operands,
                                  result_types, combine)

    def scan(self, operands, axis, reverse, result_types, combine):
        attrs = f"axis = {axis}" + (" reverse" if reverse else "")
        return self._combining_op("tile.scan", attrs, operands, result_types, combine)

    def _combining_op(self, name, attrs, operands, result_types, combine):
        """`name` (tile.reduce, tile.scan) of `operands` with a combine
        region that `combine` emits on fresh scalar block arguments (the
        accumulators, then the new values), ended by `name`.return."""
        loc = self.loc
        elts = [ir_type(t.scalar) for _, t in operands]
        accs = [self._fresh() for _ in operands]
        news = [self._fresh() for _ in operands]
        body: List = []
        with self.insert_into(body):
            try:
                outs = combine(list(accs), list(news))
            finally:
                self.loc = loc
            body.append(f"{name}.return {', '.join(outs)} : {', '.join(elts)} "
                        f"{format_loc(loc)}")
        srcs = ", ".join(h for h, _ in operands)
        src_tys = ", ".join(ir_type(t) for _, t in operands)
        res = [ir_type(t) for t in result_types]
        res_text = res[0] if len(res) == 1 else f"({', '.join(res)})"
        r = self._fresh()
        n = len(operands)
        head = f"{r} = " if n == 1 else f"{r}:{n} = "
        results = [r] if n == 1 else [f"{r}#{i}" for i in range(n)]
        block_args = ", ".join(f"{a}: {t}" for a, t in zip(accs + news, elts + elts))
        op = _RegionOp(loc)

        def render(indent):
            lines = [f"{head}{name}({srcs}) {attrs} : ({src_tys}) -> {res_text} {{",
                     f"^bb0({block_args}):"]
            lines += _render_block(body, indent + 1)
            lines.append(f"}} {format_loc(loc)}")
            return lines
        op.render = render
        self.block.append(op)
        return results

    def addptr(self, ptr, offset, ptr_ty, offset_ty):
        return self._op(f"tile.addptr {ptr}, {offset} : {ir_type(ptr_ty)}, "
                        f"{ir_type(offset_ty)}")

    @staticmethod
    def _hints(cache, evict):
        s = ""
        if cache:
            s += f" cache = {cache}"
        if evict:
            s += f" evict = {evict}"
        return s

    def load(self, ptr, mask, other, ptr_ty, result_ty, cache, evict, volatile):
        operands = ptr
        if mask is not None:
            operands += f", {mask}"
            if other is not None:
                operands += f", {other}"
        v = " volatile" if volatile else ""
        return self._op(f"tile.load {operands}{self._hints(cache, evict)}{v} : "
                        f"{ir_type(ptr_ty)}")

    def store(self, ptr, value, mask, ptr_ty, cache, evict):
        operands = f"{ptr}, {value}"
        if mask is not None:
            operands += f", {mask}"
        self._emit(f"tile.store {operands}{self._hints(cache, evict)} : {ir_type(ptr_ty)}")

    def make_tensor_desc(self, base, shape, strides, base_ty, block_ty):
        return self._op(f"tile.make_tensor_desc {base}, [{', '.join(shape)}], "
                        f"[{', '.join(strides)}] : {ir_type(base_ty)} -> "
                        f"!tile.tensordesc<{ir_type(block_ty)}>")

    def desc_load(self, desc, offsets, block_ty, result_ty):
        return self._op(f"tile.desc_load {desc}[{', '.join(offsets)}] : "
                        f"!tile.tensordesc<{ir_type(block_ty)}> -> {ir_type(result_ty)}")

    def desc_store(self, desc, offsets, value, block_ty):
        self._emit(f"tile.desc_store {desc}[{', '.join(offsets)}], {value} : "
                   f"!tile.tensordesc<{ir_type(block_ty)}>, {ir_type(block_ty)}")

    def dot(self, a, b, acc, input_precision, max_num_imprecise_acc, a_ty, b_ty,
            result_ty):
        attrs = f" precision = {input_precision}" if input_precision != "ieee" else ""
        if max_num_imprecise_acc:
            attrs += f" {{maxNumImpreciseAcc = {max_num_imprecise_acc} : i32}}"
        return self._op(f"tile.dot {a}, {b}, {acc}{attrs} : {ir_type(a_ty)} * "
                        f"{ir_type(b_ty)} -> {ir_type(result_ty)}")

    def barrier(self):
        self._emit("tilegpu.barrier")

    def grid_dependency_wait(self):
        self._emit("tilegpu.grid_dependency_wait")

    def grid_dependency_launch(self):
        self._emit("tilegpu.grid_dependency_launch")

    def global_timer(self):
        return self._op("tilegpu.global_timer : i64")

    def processor_id(self):
        return self._op("tilegpu.processor_id : i32")

    def atomic_rmw(self, op, ptr, val, mask, ptr_ty, result_ty, sem, scope):
        operands = f"{ptr}, {val}" + (f", {mask}" if mask is not None else "")
        return self._op(f"tile.atomic_rmw {op}, {sem}, {scope}, {operands} : "
                        f"{ir_type(ptr_ty)}")

    def atomic_cas(self, ptr, cmp, val, ptr_ty, result_ty, sem, scope):
        return self._op(f"tile.atomic_cas {sem}, {scope}, {ptr}, {cmp}, {val} : "
                        f"{ir_type(ptr_ty)}")

    def atomic_load(self, ptr, mask, ptr_ty, result_ty, sem, scope):
        operands = ptr + (f", {mask}" if mask is not None else "")
        return self._op(f"tile.atomic_load {sem}, {scope}, {operands} : {ir_type(ptr_ty)}")

    def atomic_store(self, ptr, val, mask, ptr_ty, sem, scope):
        operands = f"{ptr}, {val}" + (f", {mask}" if mask is not None else "")
        self._emit(f"tile.atomic_store {sem}, {scope}, {operands} : {ir_type(ptr_ty)}")

    def atomic_poll(self, ptr, expected, timeout, ptr_ty, result_ty, sem, scope):
        limit = f" timeout {timeout}" if timeout is not None else ""
        return self._op(f"tile.atomic_poll {sem}, {scope}, {ptr}, {expected}{limit} : "
                        f"{ir_type(ptr_ty)}")

    def print(self, prefix, hex, args):
        text = f"tile.print {mlir_string(prefix)}"
        if hex:
            text += " hex"
        if args:
            signed = [1 if (t.scalar.is_int_signed()) else 0 for _, t in args]
            if any(s == 0 for s in signed):
                text += " {isSigned = array<i32: " + ", ".join(map(str, signed)) + ">}"
            text += " : " + ", ".join(h for h, _ in args) + " : " + \
                ", ".join(ir_type(t) for _, t in args)
        self._emit(text)

    def assert_(self, cond, cond_ty, message):
        self._emit(f"tile.assert {cond}, {mlir_string(message)} : {ir_type(cond_ty)}")


def _render_block(block: List, indent: int) -> List[str]:
    pad = "  " * indent
    lines: List[str] = []
    for item in block:
        if isinstance(item, str):
            lines.append(pad + item)
        else:
            for i, line in enumerate(item.render(indent)):
                # Block labels are indented one level less than the ops.
                if line.startswith("^"):
                    lines.append("  " * (indent) + line)
                elif line.startswith("  "):
                    lines.append(line)
                else:
                    lines.append(pad + line)
    return lines
