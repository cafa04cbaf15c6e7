"""From a kernel's Python AST to semantic-layer calls.

`CodeGenerator` walks the AST of a @jit function once per compilation (or,
in the interpreter, once per program instance). Expressions on compile-time
values (Python numbers, constexprs, dtypes, tuples) are folded by Python;
expressions involving runtime values (`tl.tensor`) go through `Semantic`,
which emits through the builder.

Control flow:

* `if` / `while` / conditional expressions on compile-time values are
  resolved while compiling; `for` over `tl.static_range` or a tuple is
  unrolled.
* On runtime values, with the IR builder, `if` becomes `scf.if` (names
  reassigned in a branch become results), `for ... in range()` becomes
  `scf.for` and `while` becomes `scf.while` (names reassigned in the body
  become loop-carried values, found by a dry run of the body). A `return`
  inside a runtime `if` is handled by moving the statements that follow it
  into the other branch.
* With the interpreter (`builder.concrete`), conditions are evaluated and
  loops run in Python, with the same typing rules for loop-carried values.
"""

from __future__ import annotations

import ast
import builtins
import hashlib
import inspect
import operator
import re
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..errors import CompilationError, KernelError, SemanticError, UnsupportedError
from ..core import lang as tl
from ..core.lang import _unwrap, constexpr, is_constexpr_annotation, tensor
from ..core.structures import flatten, is_aggregate_instance, is_tuple, unflatten
from ..core.structures import structure as structure_of
from .elementwise_flow import ElementwiseFlow
from .parsed_function import ParsedFunction
from .semantic import Semantic
from .type_rules import _is_py_number


#: Python built-ins that kernels may apply to runtime values: they inspect
#: the values at compile time.
_INTROSPECTION = (builtins.isinstance, builtins.type, builtins.hasattr, builtins.getattr,
                  builtins.callable)


def _is_jit_function(x) -> bool:
    return getattr(x, "_terrazzo_jit_function", False)


#: What _operator_method returns when no aggregate method applies.
_NO_METHOD = object()


class _BoundJitMethod:
    """`x.method` where the tensor method is a @jit function: calling it
    calls the function with `x` first."""

    __slots__ = ("fn", "receiver")

    def __init__(self, fn, receiver):
        self.fn = fn
        self.receiver = receiver


def _is_aggregate(v) -> bool:
    """Whether `v` is a frontend value made of tensors: a block pointer or
    tensor descriptor (it has `_flatten()`, `_unflatten(tensors)` and
    `_structure()`), an aggregate instance or a tuple holding tensors
    (core/structures.py). Loops, runtime ifs and calls carry it as its
    component tensors (structures.flatten), two values being one value of a
    loop or branch when their structures agree."""
    if isinstance(v, tensor):
        return False
    return hasattr(v, "_flatten") or (is_tuple(v) and bool(flatten(v)))


def _changed_components(a, b) -> Optional[List[Tuple[int, tensor, tensor]]]:
    """(index, a's, b's) of the components in which two values of one
    aggregate structure differ (what an if or loop must carry), or None when
    they are not aggregates of one structure."""
    if not (_is_aggregate(a) and _is_aggregate(b)) or structure_of(a) != structure_of(b):
        return None
    return [(i, x, y) for i, (x, y) in enumerate(zip(flatten(a), flatten(b))) if x is not y]


def _get_slot(scope: Dict[str, Any], key):
    """The tensor a loop or branch carries for `key`: a name, or (name, i)
    for component i of the aggregate value of a name (None if the name
    holds no aggregate)."""
    if isinstance(key, tuple):
        name, i = key
        v = _unwrap(scope.get(name))
        return flatten(v)[i] if _is_aggregate(v) else None
    return scope.get(key)


def _set_slot(scope: Dict[str, Any], key, value: tensor) -> None:
    """Binds the tensor for `key` (see _get_slot) in `scope`."""
    if isinstance(key, tuple):
        name, i = key
        parts = flatten(scope[name])
        parts[i] = value
        scope[name] = unflatten(scope[name], iter(parts))
    else:
        scope[key] = value


# ---------------------------------------------------------------------------
# Static helpers over the AST
# ---------------------------------------------------------------------------

def _walk_no_defs(node):
    """ast.walk that does not enter nested functions or lambdas."""
    todo = [node]
    while todo:
        n = todo.pop()
        yield n
        for child in ast.iter_child_nodes(n):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                todo.append(child)


def _contains_return(node_or_list) -> bool:
    nodes = node_or_list if isinstance(node_or_list, list) else [node_or_list]
    return any(isinstance(n, ast.Return) for node in nodes for n in _walk_no_defs(node))


def _assigned_names(stmts: Sequence[ast.stmt]) -> set:
    names = set()
    for s in stmts:
        for n in _walk_no_defs(s):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                names.add(n.id)
    return names


def _is_number_literal(node: ast.expr) -> bool:
    """`0`, `1.5`, `True`, `-1`, `float("inf")`: a number written in the
    source (the last the only spelling Python has for infinities and NaNs)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in ("float", "int") and not node.keywords
            and len(node.args) == 1 and isinstance(node.args[0], ast.Constant)):
        return True
    return isinstance(node, ast.Constant) and isinstance(node.value, (bool, int, float))


class _Return:
    """The value of a `return` statement that ended a block, and the
    statement (the first of them, when the branches of an if returned)."""

    __slots__ = ("value", "node")

    def __init__(self, value, node=None):
        self.value = value
        self.node = node


class _Like:
    """A value a function returns made of tensors (a tuple, an aggregate, a
    block pointer), kept to rebuild it; two compare equal when their
    structures do (the branches of an if return one kind of value)."""

    __slots__ = ("value", "key")

    def __init__(self, value):
        self.value = value
        self.key = structure_of(value)

    def __eq__(self, other):
        return isinstance(other, _Like) and self.key == other.key

    def __hash__(self):
        return hash(self.key)


_BINOPS = {
    ast.Add: ("add", operator.add), ast.Sub: ("sub", operator.sub),
    ast.Mult: ("mul", operator.mul), ast.Div: ("truediv", operator.truediv),
    ast.FloorDiv: ("floordiv", operator.floordiv), ast.Mod: ("mod", operator.mod),
    ast.BitAnd: ("and_", operator.and_), ast.BitOr: ("or_", operator.or_),
    ast.BitXor: ("xor_", operator.xor), ast.LShift: ("shl", operator.lshift),
    ast.RShift: ("shr", operator.rshift), ast.Pow: (None, operator.pow),
    ast.MatMult: ("dot", operator.matmul),
}

_CMPOPS = {
    ast.Lt: ("lt", operator.lt), ast.LtE: ("le", operator.le), ast.Gt: ("gt", operator.gt),
    ast.GtE: ("ge", operator.ge), ast.Eq: ("eq", operator.eq), ast.NotEq: ("ne", operator.ne),
}

#: The methods an aggregate class may define (as @jit functions) for an
#: operator, and their reflected forms (the right operand's, tried when the
#: left one is no aggregate defining the first).
_OPERATOR_METHODS = {
    ast.Add: ("__add__", "__radd__"), ast.Sub: ("__sub__", "__rsub__"),
    ast.Mult: ("__mul__", "__rmul__"), ast.Div: ("__truediv__", "__rtruediv__"),
    ast.FloorDiv: ("__floordiv__", "__rfloordiv__"), ast.Mod: ("__mod__", "__rmod__"),
    ast.BitAnd: ("__and__", "__rand__"), ast.BitOr: ("__or__", "__ror__"),
    ast.BitXor: ("__xor__", "__rxor__"), ast.LShift: ("__lshift__", "__rlshift__"),
    ast.RShift: ("__rshift__", "__rrshift__"), ast.Pow: ("__pow__", "__rpow__"),
    ast.MatMult: ("__matmul__", "__rmatmul__"),
    ast.Lt: ("__lt__", "__gt__"), ast.LtE: ("__le__", "__ge__"),
    ast.Gt: ("__gt__", "__lt__"), ast.GtE: ("__ge__", "__le__"),
    ast.Eq: ("__eq__", "__eq__"), ast.NotEq: ("__ne__", "__ne__"),
    ast.USub: ("__neg__", None), ast.UAdd: ("__pos__", None),
    ast.Invert: ("__invert__", None),
}

_UNSUPPORTED_STMTS = {
    "With": "`with` statements", "AsyncWith": "`async with` statements",
    "Try": "`try` statements", "TryStar": "`try` statements", "Raise": "`raise`",
    "Global": "`global` declarations", "Nonlocal": "`nonlocal` declarations",
    "Delete": "`del`", "Import": "imports", "ImportFrom": "imports",
    "FunctionDef": "nested function definitions", "AsyncFunctionDef": "async functions",
    "ClassDef": "class definitions", "Break": "`break`", "Continue": "`continue`",
    "Match": "`match` statements", "AsyncFor": "`async for`",
}

_UNSUPPORTED_EXPRS = {
    "Lambda": "lambda expressions",
    "SetComp": "set comprehensions", "DictComp": "dict comprehensions",
    "Await": "`await`", "Yield": "`yield`",
    "YieldFrom": "`yield from`", "NamedExpr": "`:=` assignments", "Set": "sets",
    "Dict": "dict displays",
}


# ---------------------------------------------------------------------------
# Compilation context (one per kernel compilation or interpreter launch)
# ---------------------------------------------------------------------------

class CompileContext:
    def __init__(self, builder, semantic: Semantic):
        self.builder = builder
        self.sem = semantic
        # Specialisations of called @jit functions: key -> (symbol, result
        # types, result structure).
        self.functions: Dict[Any, Tuple[str, list, Any]] = {}
        self.symbols: set = set()
        self.in_progress: List[Any] = []
        semantic.inline_jit = self.inline_jit

    def inline_jit(self, callee, args, elementwise: bool = False):
        """Visits the body of the @jit function `callee` with the tensors
        `args` at the builder's insertion point (the combine region of a
        reduction) and returns what it returns. With `elementwise` (the
        function of tl.map_elementwise, called on blocks), runtime control
        flow on blocks of conditions runs element-wise."""
        parsed = callee.parsed
        if len(args) != len(parsed.arg_names):
            caller = "tl.map_elementwise" if elementwise else "the reduction"
            raise SemanticError(f"the {'' if elementwise else 'combine '}function "
                                f"{parsed.name}() takes {len(parsed.arg_names)} arguments, "
                                f"but {caller} passes {len(args)}")
        scope = {}
        for name, v, is_cx in zip(parsed.arg_names, args, parsed.constexprs):
            if is_cx:
                raise SemanticError(f"argument {name!r} of the combine function "
                                    f"{parsed.name}() cannot be a tl.constexpr")
            scope[name] = v
        if len(self.in_progress) > 64:
            raise SemanticError(f"recursive use of {parsed.name} is not supported")
        self.in_progress.append(callee)
        refused = self.sem.writes_refused_in
        try:
            gen = CodeGenerator(self, parsed, scope)
            if elementwise:
                shape = _unwrap(args[0]).shape if args else []
                gen.elementwise = ElementwiseFlow(gen, shape)
                self.sem.writes_refused_in = (f"the function {parsed.name}() of "
                                              "tl.map_elementwise (element-wise code "
                                              "without effects)")
            r = gen.visit_block(parsed.tree.body)
        finally:
            self.in_progress.pop()
            self.sem.writes_refused_in = refused
        return None if r is None else r.value


def _mangle(name: str, parts: Sequence[str]) -> str:
    text = "_".join(parts)
    clean = re.sub(r"[^A-Za-z0-9_]", "_", text)
    if len(clean) > 48 or clean != text:
        clean = clean[:32] + "_" + hashlib.sha1(text.encode()).hexdigest()[:8]
    return f"{name}__{clean}" if clean else name


def _value_key(v):
    """A hashable description of a compile-time argument."""
    v = _unwrap(v)
    if isinstance(v, (int, float, bool, str, type(None))):
        return (type(v).__name__, v)
    if isinstance(v, tl.dtype):
        return ("dtype", repr(v))
    if isinstance(v, (tuple, list)):
        return (type(v).__name__, tuple(_value_key(x) for x in v))
    try:
        hash(v)
        return ("obj", id(v))
    except TypeError:
        return ("obj", id(v))


def _value_code(v) -> str:
    v = _unwrap(v)
    if isinstance(v, bool):
        return "T" if v else "F"
    if isinstance(v, int):
        return f"c{v}".replace("-", "m")
    if isinstance(v, float):
        return "f" + repr(v).replace("-", "m").replace(".", "p").replace("+", "")
    if v is None:
        return "None"
    if isinstance(v, tl.dtype):
        return str(v)
    return "x"


class CodeGenerator:
    """Visits one function's AST with a scope of values."""

    def __init__(self, ctx: CompileContext, fn: ParsedFunction, scope: Dict[str, Any]):
        self.ctx = ctx
        self.fn = fn
        self.scope = scope
        self.loop_depth = 0
        self.unused_call = None  # the call of the statement being compiled, if any
        # The body of a tl.map_elementwise function: runtime control flow on
        # blocks runs element-wise (elementwise_flow.py), `lanes` being the
        # elements the code being visited runs for (None: all of them).
        self.elementwise: Optional[ElementwiseFlow] = None
        self.lanes: Optional[tensor] = None

    # ------------------------------------------------------------------
    # Dispatch and errors
    # ------------------------------------------------------------------
    @property
    def builder(self):
        return self.ctx.builder

    @property
    def sem(self) -> Semantic:
        return self.ctx.sem

    def error(self, node, message: str, cls=CompilationError):
        return cls(message, self.fn.loc(node))

    def visit(self, node):
        kind = type(node).__name__
        method = getattr(self, "visit_" + kind, None)
        if method is None:
            what = _UNSUPPORTED_STMTS.get(kind) or _UNSUPPORTED_EXPRS.get(kind) or \
                f"`{kind}` nodes"
            raise self.error(node, f"{what} are not supported in kernels"
                             if not what.startswith("`") or what.endswith("s")
                             else f"{what} is not supported in kernels", UnsupportedError)
        b = self.ctx.builder
        prev = b.loc
        loc = self.fn.loc(node) if hasattr(node, "lineno") else prev
        b.loc = loc
        try:
            return method(node)
        except KernelError:
            raise
        except SemanticError as e:  # the cause keeps the bare message
            raise e.compilation_error(str(e), loc) from e
        except RecursionError:
            raise
        except Exception as e:  # a Python error in the user's compile-time code
            msg = str(e) if isinstance(e, (TypeError, ValueError, AttributeError,
                                           IndexError, KeyError, ZeroDivisionError,
                                           NameError)) else f"{type(e).__name__}: {e}"
            if isinstance(e, KeyError):
                msg = f"key {e} not found"
            raise CompilationError(msg, loc) from e
        finally:
            b.loc = prev

    # ------------------------------------------------------------------
    # Blocks and functions
    # ------------------------------------------------------------------
    def visit_block(self, stmts: Sequence[ast.stmt]) -> Optional[_Return]:
        for i, stmt in enumerate(stmts):
            if isinstance(stmt, ast.If) and _contains_return(stmt):
                b = self.ctx.builder
                prev = b.loc
                b.loc = self.fn.loc(stmt)
                try:
                    return self._if_with_return(stmt, list(stmts[i + 1:]))
                except KernelError:
                    raise
                except SemanticError as e:
                    raise e.compilation_error(str(e), self.fn.loc(stmt)) from e
                finally:
                    b.loc = prev
            r = self.visit(stmt)
            if isinstance(r, _Return):
                return r
        return None

    def return_values(self, r: Optional[_Return], keep_constants: bool = False
                      ) -> Tuple[List[tensor], Any]:
        """The tensors a function returns and the structure to rebuild its
        value: None, ("single", slot) or ("tuple", [slot, ...]), a slot being
        ("t", index of the tensor) or, with `keep_constants`, ("c", a
        compile-time value returned as is)."""
        value = None if r is None else r.value
        value = _unwrap(value)
        if value is None:
            return [], None
        vals: List[tensor] = []

        def slot(v):
            u = _unwrap(v)
            if _is_aggregate(u):
                parts = flatten(u)
                vals.extend(parts)
                return ("a", (len(vals) - len(parts), len(parts), _Like(u)))
            if keep_constants and not isinstance(u, tensor):
                if isinstance(u, (tuple, list)) or not (
                        _is_py_number(u) or isinstance(u, (str, tl.dtype, type(None)))):
                    raise SemanticError(f"a function called from a kernel can return "
                                        f"tensors and compile-time values, not {u!r}")
                return ("c", u)
            vals.append(self._as_return_tensor(u))
            return ("t", len(vals) - 1)
        if isinstance(value, (tuple, list)) and not hasattr(type(value), "_fields"):
            return vals, ("tuple", [slot(v) for v in value])
        return vals, ("single", slot(value))  # a NamedTuple keeps its class

    @staticmethod
    def rebuild(structure, results: Sequence[tensor]):
        """The value of a call from its result tensors (see return_values)."""
        if structure is None:
            return None

        def value(slot):
            kind, x = slot
            if kind == "a":
                start, count, like = x
                return unflatten(like.value, iter(results[start:start + count]))
            return results[x] if kind == "t" else x
        if structure[0] == "single":
            return value(structure[1])
        return tuple(value(sl) for sl in structure[1])

    def _as_return_tensor(self, v) -> tensor:
        v = _unwrap(v)
        if isinstance(v, tensor):
            return v
        if _is_py_number(v):
            return self.sem.to_tensor(v)
        raise SemanticError(f"a function called from a kernel can return tensors and "
                            f"numbers, not {v!r}")

    # ------------------------------------------------------------------
    # Statements
    # ------------------------------------------------------------------
    def visit_Pass(self, node):
        return None

    def visit_Expr(self, node):
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return None  # docstring
        self.unused_call = node.value  # a call whose result is dropped
        self.visit(node.value)
        return None

    def visit_Return(self, node):
        if self.loop_depth:
            raise self.error(node, "`return` inside a loop is not supported",
                             UnsupportedError)
        return _Return(self.visit(node.value) if node.value is not None else None, node)

    def _assign(self, target, value, node):
        if isinstance(target, ast.Name):
            self.scope[target.id] = value
            return
        if isinstance(target, (ast.Tuple, ast.List)):
            value = _unwrap(value)
            if isinstance(value, tensor):
                raise self.error(node, "cannot unpack a tensor; unpack tuples only")
            try:
                values = list(value)
            except TypeError:
                raise self.error(node, f"cannot unpack {value!r}") from None
            if any(isinstance(t, ast.Starred) for t in target.elts):
                raise self.error(node, "starred assignment is not supported",
                                 UnsupportedError)
            if len(values) != len(target.elts):
                raise self.error(node, f"cannot unpack {len(values)} values into "
                                 f"{len(target.elts)} names")
            for t, v in zip(target.elts, values):
                self._assign(t, v, node)
            return
        what = {"Subscript": "an element of a tensor or tuple (x[i] = ...)",
                "Attribute": "an attribute (x.a = ...)"}.get(type(target).__name__,
                                                             type(target).__name__)
        raise self.error(node, f"assigning to {what} is not supported", UnsupportedError)

    def visit_Assign(self, node):
        value = self.visit(node.value)
        # As in Triton, a number literal assigned to a name is a tensor of
        # its type (`acc = 0` is an int32 scalar with `.to` and `.dtype`).
        # Other compile-time values (`rank = len(x.shape)`, constexprs,
        # `x: tl.constexpr = 0`, a helper's compile-time results) stay
        # compile-time.
        if _is_number_literal(node.value) and _is_py_number(value):
            value = self.sem.to_tensor(value)
        for t in node.targets:
            self._assign(t, value, node)

    def visit_AnnAssign(self, node):
        if node.value is None:
            return None
        value = self.visit(node.value)
        ann = self.visit(node.annotation) if not isinstance(node.annotation, ast.Constant) \
            else node.annotation.value
        if is_constexpr_annotation(ann):
            if isinstance(_unwrap(value), tensor):
                raise self.error(node, f"{ast.unparse(node.target)} is annotated "
                                 "tl.constexpr but its value is only known at run time")
            value = constexpr(value)
        self._assign(node.target, value, node)

    def visit_AugAssign(self, node):
        if not isinstance(node.target, ast.Name):
            raise self.error(node, "augmented assignment to anything but a name is not "
                             "supported", UnsupportedError)
        current = self.visit_Name(ast.Name(id=node.target.id, ctx=ast.Load(),
                                           lineno=node.lineno, col_offset=node.col_offset))
        value = self._binop(node.op, current, self.visit(node.value), node)
        self.scope[node.target.id] = value

    def visit_Assert(self, node):
        test = self.visit(node.test)
        msg = self.visit(node.msg) if node.msg is not None else ""
        msg = _unwrap(msg)
        if not isinstance(_unwrap(test), tensor):
            if not _unwrap(test):
                raise self.error(node, f"assertion failed: {msg}" if msg else
                                 f"assertion failed: {ast.unparse(node.test)}")
            return None
        text = str(msg) if msg else f"assertion failed: {ast.unparse(node.test)}"
        self.sem.device_assert(test, text)
        return None

    # -- if ----------------------------------------------------------------
    def _runtime_cond(self, cond, node, what="if") -> tensor:
        cond = _unwrap(cond)
        if cond.type.is_block():
            raise self.error(node, f"the condition of an `{what}` must be a scalar, not a "
                             f"block of shape {cond.shape}")
        if not cond.type.scalar.is_bool():
            cond = self.sem.cast(cond, tl.int1)
        return cond

    def _truthy(self, v) -> bool:
        v = _unwrap(v)
        if isinstance(v, tensor):
            return bool(self.ctx.builder.to_python(v.handle))
        return bool(v)

    def visit_If(self, node):
        cond = _unwrap(self.visit(node.test))
        if not isinstance(cond, tensor):
            return self.visit_block(node.body if cond else node.orelse)
        if self.elementwise and cond.type.is_block():
            return self.elementwise.if_(cond, node)
        cond = self._runtime_cond(cond, node.test)
        if self.builder.concrete:
            taken, other = (node.body, node.orelse) if self._truthy(cond) else \
                (node.orelse, node.body)
            before = self.scope
            self.scope = dict(before)
            r = self.visit_block(taken)
            after = self.scope
            self.scope = before
            other_names = _assigned_names(other)
            for name, v in after.items():
                if name in before or name in other_names:
                    before[name] = v
            return r
        return self._emit_if(cond, node, node.body, node.orelse)

    def _merge_values(self, name, tv, ev, then_block, else_block):
        """Make the values of `name` at the end of both branches agree."""
        b = self.builder
        t_is, e_is = isinstance(_unwrap(tv), tensor), isinstance(_unwrap(ev), tensor)
        tv, ev = _unwrap(tv), _unwrap(ev)
        if not t_is and not e_is:
            if type(tv) is type(ev) and tv == ev:
                return None
            if not (_is_py_number(tv) and _is_py_number(ev)):
                raise SemanticError(f"{name!r} has different compile-time values in the "
                                    f"two branches of an if on a runtime condition "
                                    f"({tv!r} and {ev!r})")
        if not t_is:
            with b.insert_into(then_block):
                tv = self._number_like(tv, ev)
        if not e_is:
            with b.insert_into(else_block):
                ev = self._number_like(ev, tv)
        if tv.type != ev.type:
            raise SemanticError(
                ("Ternary expression with dynamic condition has inconsistent type: "
                 if name == "the conditional expression" else f"Mismatched type for {name}: ")
                + f"{name!r} has type {tv.type} at the end of the `if` branch but "
                f"{ev.type} at the end of the `else` branch; convert one of them "
                "so that they agree")
        return tv, ev

    def _number_like(self, number, like) -> tensor:
        """A Python number as a tensor of the type of `like` (a tensor) or,
        when `like` is a number too, of its own default type."""
        like = _unwrap(like)
        if isinstance(like, tensor):
            sca = like.type.scalar
            if sca.is_ptr():
                raise SemanticError(f"cannot merge the number {number!r} with a pointer")
            return self.sem.constant(number, sca, like.shape)
        return self.sem.to_tensor(number)

    def _emit_if(self, cond: tensor, node, body, orelse):
        b = self.builder
        before = self.scope
        then_block, else_block = b.new_block(), b.new_block()
        self.scope = dict(before)
        with b.insert_into(then_block):
            self.visit_block(body)
        then_scope = self.scope
        self.scope = dict(before)
        with b.insert_into(else_block):
            self.visit_block(orelse)
        else_scope = self.scope
        self.scope = before
        names, then_vals, else_vals, types = [], [], [], []
        for name in list(then_scope) + [n for n in else_scope if n not in then_scope]:
            if name not in then_scope or name not in else_scope:
                continue  # defined in one branch only: not visible afterwards
            tv, ev = then_scope[name], else_scope[name]
            if tv is ev:
                before[name] = tv
                continue
            if _is_aggregate(_unwrap(tv)) or _is_aggregate(_unwrap(ev)):
                tv, ev = _unwrap(tv), _unwrap(ev)
                changes = _changed_components(tv, ev)
                if changes is None:
                    raise SemanticError(f"{name!r} is {tv!r} at the end of the `if` branch "
                                        f"but {ev!r} at the end of the `else` branch")
                before[name] = tv
                for i, tc, ec in changes:
                    names.append((name, i))
                    then_vals.append(tc.handle)
                    else_vals.append(ec.handle)
                    types.append(tc.type)
                continue
            merged = self._merge_values(name, tv, ev, then_block, else_block)
            if merged is None:
                before[name] = tv
                continue
            tv, ev = merged
            names.append(name)
            then_vals.append(tv.handle)
            else_vals.append(ev.handle)
            types.append(tv.type)
        results = b.emit_if(cond.handle, then_block, else_block, then_vals, else_vals,
                            types, b.loc)
        for name, h, t in zip(names, results, types):
            _set_slot(before, name, tensor(h, t))
        return None

    def _if_with_return(self, node: ast.If, rest: List[ast.stmt]) -> Optional[_Return]:
        if self.loop_depth:
            raise self.error(node, "`return` inside a loop is not supported",
                             UnsupportedError)
        cond = _unwrap(self.visit(node.test))
        if self.elementwise and isinstance(cond, tensor) and cond.type.is_block():
            return self.elementwise.if_with_return(cond, node, rest)
        if not isinstance(cond, tensor) or self.builder.concrete:
            if isinstance(cond, tensor):
                cond = self._runtime_cond(cond, node.test)
            # The statements after the if follow the taken branch: a
            # runtime if with an early return nested in it must see them
            # as the rest of the function (its other path runs them).
            taken = node.body if self._truthy(cond) else node.orelse
            return self.visit_block(list(taken) + list(rest))
        cond = self._runtime_cond(cond, node.test)
        b = self.builder
        before = self.scope
        results = []
        returns = []
        for stmts in (node.body + rest, node.orelse + rest):
            block = b.new_block()
            self.scope = dict(before)
            with b.insert_into(block):
                r = self.visit_block(stmts)
                vals, structure = self.return_values(r)
            results.append((block, vals, structure))
            if r is not None and r.node is not None:
                returns.append(r.node)
        self.scope = before
        (tb, tvals, tstruct), (eb, evals, estruct) = results
        # A path that returns nothing where the other returns values gives
        # undefined values of their types (ub.poison), as in Triton: the
        # caller must not use them on that path.
        if estruct is None and tstruct is not None:
            with b.insert_into(eb):
                evals, estruct = [tensor(b.poison(v.type), v.type) for v in tvals], tstruct
        elif tstruct is None and estruct is not None:
            with b.insert_into(tb):
                tvals, tstruct = [tensor(b.poison(v.type), v.type) for v in evals], estruct
        if tstruct != estruct or [v.type for v in tvals] != [v.type for v in evals]:
            def describe(vals, st):
                if st is None:
                    return "nothing"
                return ", ".join(str(v.type) for v in vals)
            raise SemanticError(
                f"Inconsistent return types: the branches of this if return different types: "
                f"{describe(tvals, tstruct)} and {describe(evals, estruct)}")
        handles = b.emit_if(cond.handle, tb, eb, [v.handle for v in tvals],
                            [v.handle for v in evals], [v.type for v in tvals], b.loc)
        outs = [tensor(h, v.type) for h, v in zip(handles, tvals)]
        return _Return(self.rebuild(tstruct, outs), returns[0] if returns else None)

    def visit_IfExp(self, node):
        cond = _unwrap(self.visit(node.test))
        if not isinstance(cond, tensor):
            return self.visit(node.body if cond else node.orelse)
        if self.elementwise and cond.type.is_block():
            return self.elementwise.select("the conditional expression", cond,
                                           self.visit(node.body), self.visit(node.orelse))
        cond = self._runtime_cond(cond, node.test, "if expression")
        if self.builder.concrete:
            return self.visit(node.body if self._truthy(cond) else node.orelse)
        b = self.builder
        tb, eb = b.new_block(), b.new_block()
        with b.insert_into(tb):
            tv = self.visit(node.body)
        with b.insert_into(eb):
            ev = self.visit(node.orelse)
        merged = self._merge_values("the conditional expression", tv, ev, tb, eb)
        if merged is None:
            # Both branches give the same compile-time value (None for calls
            # such as tl.store): the branches still run for their effects.
            b.emit_if(cond.handle, tb, eb, [], [], [], b.loc)
            return tv
        tv, ev = merged
        (h,) = b.emit_if(cond.handle, tb, eb, [tv.handle], [ev.handle], [tv.type], b.loc)
        return tensor(h, tv.type)

    # -- loops ---------------------------------------------------------------
    def _range_args(self, node) -> Optional[Tuple[str, list]]:
        """For `for` over range/tl.range/tl.static_range: (kind, [start, end,
        step]); None for any other iterable."""
        it = node.iter
        if not isinstance(it, ast.Call):
            return None
        fn = _unwrap(self.visit(it.func))
        if fn is builtins.range or fn is tl.range or fn is tl.static_range:
            args = [self.visit(a) for a in it.args]
            kwargs = {k.arg: self.visit(k.value) for k in it.keywords}
            if fn is builtins.range:
                if kwargs:
                    raise self.error(it, "range() takes no keyword arguments")
                obj = tl.range(*args)
            else:
                obj = fn(*args, **kwargs)
            a1, a2, step = obj.args
            if a2 is None:
                start, end = 0, a1
            else:
                start, end = a1, a2
            step = 1 if step is None else step
            if fn is tl.range:
                self._loop_options = self._range_options(it, obj)
            return ("static" if fn is tl.static_range else "range",
                    [_unwrap(start), _unwrap(end), _unwrap(step)])
        return None

    def _range_options(self, node, rng) -> Dict[str, int]:
        """tl.range's num_stages, loop_unroll_factor, warp_specialize and
        flatten as the loop's attributes (tile.num_stages,
        tile.loop_unroll_factor, tile.warp_specialize, tile.flatten),
        checked."""
        options = {}
        for name, least, value in (("num_stages", 0, rng.num_stages),
                                   ("loop_unroll_factor", 1, rng.loop_unroll_factor)):
            value = _unwrap(value)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int):
                raise self.error(node, f"tl.range's {name} must be a compile-time "
                                 f"integer, got {value!r}")
            if not least <= value < (1 << 31):
                raise self.error(node, f"tl.range's {name} must be at least {least}, "
                                 f"got {value}")
            options[name] = value
        for name, value in rng.hints.items():
            value = _unwrap(value)
            if not isinstance(value, bool):
                raise self.error(node, f"tl.range's {name} must be True or False, "
                                 f"got {value!r}")
        # A loop whose copies a producer warp group may issue (sm_90).
        if _unwrap(rng.hints["warp_specialize"]):
            options["warp_specialize"] = True
        # A loop over tiles fused with its inner loop (terrazzo-flatten-loops).
        if _unwrap(rng.hints["flatten"]):
            options["flatten"] = True
        return options

    def visit_For(self, node):
        if node.orelse:
            raise self.error(node, "`for ... else` is not supported", UnsupportedError)
        if _contains_return(node.body):
            ret = next(n for s in node.body for n in _walk_no_defs(s)
                       if isinstance(n, ast.Return))
            raise self.error(ret, "`return` inside a loop is not supported",
                             UnsupportedError)
        self._loop_options = {}
        rng = self._range_args(node)
        options, self._loop_options = self._loop_options, {}
        if rng is None:
            iterable = _unwrap(self.visit(node.iter))
            if isinstance(iterable, tensor):
                raise self.error(node.iter, "cannot iterate over a tensor; loop over "
                                 "range(...) instead", UnsupportedError)
            if not isinstance(iterable, (tuple, list, builtins.range)):
                raise self.error(node.iter, f"cannot iterate over {iterable!r} in a kernel; "
                                 "use range, tl.range, tl.static_range or a tuple",
                                 UnsupportedError)
            return self._unrolled(node, list(iterable))
        kind, (start, end, step) = rng
        if self.elementwise and kind != "static":
            self.elementwise.widen(_assigned_names(node.body))
            if any(isinstance(v, tensor) and v.type.is_block() for v in (start, end, step)):
                return self.elementwise.for_(node, start, end, step)
        if kind == "static":
            for name, v in (("start", start), ("end", end), ("step", step)):
                if isinstance(v, tensor) or not isinstance(v, int):
                    raise self.error(node.iter, f"static_range's {name} must be a "
                                     f"compile-time integer, got {v!r}")
            return self._unrolled(node, list(builtins.range(start, end, step)))
        for name, v in (("start", start), ("end", end), ("step", step)):
            if isinstance(v, tensor):
                if v.type.is_block() or not v.type.scalar.is_int():
                    raise self.error(node.iter, f"the {name} of a range must be an integer "
                                     f"scalar, got {v.type}")
            elif not isinstance(v, int) or isinstance(v, bool):
                raise self.error(node.iter, f"the {name} of a range must be an integer, "
                                 f"got {v!r}")
        if not isinstance(step, tensor) and step == 0:
            raise self.error(node.iter, "range() step must not be zero")
        if self.builder.concrete:
            return self._interpreted_for(node, start, end, step)
        return self._emit_for(node, start, end, step, options=options)

    def _unrolled(self, node, values):
        self.loop_depth += 1
        try:
            for v in values:
                self._assign(node.target, v, node)
                self.visit_block(node.body)
        finally:
            self.loop_depth -= 1
        return None

    def _iv_type(self, *vals):
        for v in vals:
            if isinstance(v, tensor):
                if v.type.scalar.int_bitwidth == 64:
                    return tl.int64
            elif not -(1 << 31) <= v < (1 << 31):
                return tl.int64
        return tl.int32

    def _finish_loop_scope(self, before: Dict[str, Any], body_scope: Dict[str, Any]):
        # Names first assigned inside the loop are not visible after it.
        for name in list(before):
            if name in body_scope:
                before[name] = body_scope[name]

    def _loop_body(self, node, iv: tensor) -> None:
        """One iteration of a `for` loop's body with the induction value
        `iv`."""
        self._assign(node.target, iv, node)
        self.visit_block(node.body)

    def _interpreted_for(self, node, start, end, step, body=None):
        """Interpreter: `for` over range(start, end, step); `body(iv)` runs
        an iteration (by default _loop_body)."""
        body = body or (lambda iv: self._loop_body(node, iv))
        iv_ty = self._iv_type(start, end, step)
        to_int = self._truthy_int
        start, end, step = to_int(start), to_int(end), to_int(step)
        if step == 0:
            raise self.error(node.iter, "range() step must not be zero at run time")
        def iterations():
            for i in builtins.range(start, end, step):
                yield self.sem.constant(i, iv_ty)

        return self._interpret_loop(node, iterations(), body)

    def _interpret_loop(self, node, iterations, body):
        """Interpreter: runs `body(item)` (one iteration) per item
        `iterations` yields (an induction value; a while loop's generator
        checks the condition), checking loop-carried values as the IR
        builder would type them."""
        before = self.scope
        self.scope = dict(before)
        self.loop_depth += 1
        first = True
        types: Dict[str, Any] = {}
        try:
            for item in iterations:
                entry = {n: self.scope[n] for n in before}
                body(item)
                self._check_carried(node, before, entry, types, first)
                first = False
        finally:
            self.loop_depth -= 1
        if first:
            self._zero_trip(node.body)
        body_scope = self.scope
        self.scope = before
        self._finish_loop_scope(before, body_scope)
        return None

    def _zero_trip(self, body):
        """Interpreter, loop that ran no iteration: numbers the body assigns
        become tensors, as the IR builder's loop-carried values would."""
        for name in _assigned_names(body):
            v = self.scope.get(name)
            if v is not None and not isinstance(v, (tensor, constexpr)) and _is_py_number(v):
                self.scope[name] = self.sem.to_tensor(v)

    def _truthy_int(self, v) -> int:
        v = _unwrap(v)
        if isinstance(v, tensor):
            return int(self.builder.to_python(v.handle))
        return int(v)

    def _check_carried(self, node, before, entry, types, first):
        """Interpreter: after an iteration, make loop-carried values typed
        like the IR builder does (numbers that changed become tensors) and
        check that their types stay the same."""
        for name in before:
            v = self.scope.get(name)
            if v is entry.get(name):
                continue
            u = _unwrap(v)
            if not isinstance(u, tensor):
                if _is_py_number(u) and name in types:
                    u = self._number_like(u, tensor(None, types[name]))
                elif _is_py_number(u):
                    u = self.sem.to_tensor(u)
                else:
                    continue
                self.scope[name] = u
            e = _unwrap(entry.get(name))
            if first and isinstance(e, tensor) and name not in types:
                types[name] = e.type
            if name in types:
                if u.type != types[name]:
                    raise self.error(node, self._carried_type_message(name, types[name],
                                                                      u.type))
            else:
                types[name] = u.type

    @staticmethod
    def _carried_type_message(name, before_ty, after_ty):
        return (f"loop-carried variable {name!r} has type {before_ty} when the loop "
                f"starts but {after_ty} at the end of the loop body; give it the final "
                "type before the loop (e.g. with tl.zeros(shape, dtype) or .to(dtype))")

    def _dry_run(self, fn) -> Dict[str, Any]:
        """Runs `fn` (which visits loop code) on a copy of the scope into a
        scratch block; returns the names defined before whose values changed,
        with their new values."""
        b = self.builder
        saved = self.scope
        self.scope = dict(saved)
        scratch = b.new_block()
        try:
            with b.insert_into(scratch):
                fn()
        finally:
            after = self.scope
            self.scope = saved
        return {n: after[n] for n in saved if n in after and after[n] is not saved[n]}

    def _dry_run_value(self, fn):
        """The value of `fn()` evaluated on a copy of the scope into a
        scratch block."""
        b = self.builder
        saved = self.scope
        self.scope = dict(saved)
        try:
            with b.insert_into(b.new_block()):
                return fn()
        finally:
            self.scope = saved

    def _carried_inits(self, node, changed: Dict[str, Any]) -> Tuple[List[str], List[tensor]]:
        names, inits = [], []
        for name, new in changed.items():
            init = _unwrap(self.scope[name])
            new_u = _unwrap(new)
            if _is_aggregate(init) or _is_aggregate(new_u):
                changes = _changed_components(init, new_u)
                if changes is None:
                    raise self.error(node, f"{name!r} is {init!r} before the loop but "
                                     f"{new_u!r} in it")
                for i, a, _ in changes:
                    names.append((name, i))
                    inits.append(a)
                continue
            if not isinstance(init, tensor):
                if not _is_py_number(init):
                    raise self.error(node, f"{name!r} is reassigned in the loop but its "
                                     f"value before the loop, {init!r}, is not a number "
                                     "or a tensor")
                init = self._number_like(init, new_u if isinstance(new_u, tensor) else init)
            names.append(name)
            inits.append(init)
        return names, inits

    def _yield_values(self, node, names, inits) -> List[str]:
        handles = []
        for name, init in zip(names, inits):
            v = _unwrap(_get_slot(self.scope, name))
            if isinstance(name, tuple) and v is None:
                raise self.error(node, f"{name[0]!r} must keep the kind of value it has "
                                 "before the loop")
            if not isinstance(v, tensor):
                if not _is_py_number(v):
                    raise self.error(node, f"{name!r} must stay a number or a tensor in "
                                     "the loop")
                v = self.sem.constant(v, init.type.scalar, init.shape)
            if v.type != init.type:
                raise self.error(node, self._carried_type_message(name, init.type, v.type))
            handles.append(v.handle)
        return handles

    def _emit_for(self, node, start, end, step, body=None, options=None):
        """scf.for over range(start, end, step); `body(iv)` emits an
        iteration (by default _loop_body); `options` are tl.range's loop
        options (_range_options)."""
        body = body or (lambda iv: self._loop_body(node, iv))
        b = self.builder
        sem = self.sem
        iv_ty = self._iv_type(start, end, step)
        negative = not isinstance(step, tensor) and step < 0

        def bound(v):
            if isinstance(v, tensor):
                return sem.cast(v, iv_ty)
            return sem.constant(v, iv_ty)

        if negative:
            # for i in range(a, b, -s): k in [0, ceil((a - b) / s)), i = a - k * s
            a, c, s = bound(start), bound(end), -step
            trips = sem.floordiv(sem.add(sem.sub(a, c), s - 1), s)
            lb, ub, st = sem.constant(0, iv_ty), trips, sem.constant(1, iv_ty)
        else:
            lb, ub, st = bound(start), bound(end), bound(step)

        def body_value(iv: tensor):
            if negative:
                return sem.sub(a, sem.mul(iv, -step))
            return iv

        def dry():
            self.loop_depth += 1
            try:
                body(body_value(tensor(b.placeholder(), iv_ty)))
            finally:
                self.loop_depth -= 1

        changed = self._dry_run(dry)
        names, inits = self._carried_inits(node, changed)
        op, iv, args, body_block = b.begin_for(lb.handle, ub.handle, st.handle, iv_ty,
                                         [(i.handle, i.type) for i in inits], b.loc,
                                         options=options)
        before = self.scope
        self.scope = dict(before)
        for name, h, init in zip(names, args, inits):
            _set_slot(self.scope, name, tensor(h, init.type))
        self.loop_depth += 1
        try:
            with b.insert_into(body_block):
                body(body_value(tensor(iv, iv_ty)))
                yields = self._yield_values(node, names, inits)
        finally:
            self.loop_depth -= 1
        self.scope = before
        results = b.end_for(op, yields)
        for name, h, init in zip(names, results, inits):
            _set_slot(before, name, tensor(h, init.type))
        return None

    def visit_While(self, node):
        if node.orelse:
            raise self.error(node, "`while ... else` is not supported", UnsupportedError)
        if _contains_return(node.body):
            raise self.error(node, "`return` inside a loop is not supported",
                             UnsupportedError)
        if self.elementwise:
            self.elementwise.widen(_assigned_names(node.body))
            def probe():
                return self.while_test(node)
            cond = _unwrap(probe() if self.builder.concrete else self._dry_run_value(probe))
            if isinstance(cond, tensor) and cond.type.is_block():
                return self._while(node, *self.elementwise.while_parts(node))
        return self._while(node, lambda: self.while_test(node),
                           lambda: self.visit_block(node.body))

    def while_test(self, node):
        """The value of a `while` loop's condition; `tl.condition(c, ...)`
        is `c` (its disable_licm is a hint: loop-invariant code leaves
        the loop either way)."""
        cond = _unwrap(self.visit(node.test))
        return cond.condition if isinstance(cond, tl.condition) else cond

    def _while(self, node, test, body):
        """A `while` loop whose condition `test()` evaluates and whose
        body `body()` visits."""
        if self.builder.concrete:
            def iterations():
                # A condition is an expression: it assigns no names, so the
                # carried values seen after it are those before it.
                while self._truthy(test()):
                    yield None

            return self._interpret_loop(node, iterations(), lambda _: body())
        b = self.builder

        def dry():
            cond = _unwrap(test())
            if not isinstance(cond, tensor):
                raise self.error(node.test, "a `while` loop on a compile-time condition "
                                 "would not terminate or not run; use a runtime "
                                 "condition or a for loop", UnsupportedError)
            self.loop_depth += 1
            try:
                body()
            finally:
                self.loop_depth -= 1

        cond = _unwrap(self._dry_run_value(test))
        if not isinstance(cond, tensor):
            # `k = 0; while k < n_const: ... k += 1`: the numbers the body
            # assigns become loop-carried tensors, so the condition is a
            # runtime value.
            for name in _assigned_names(node.body):
                v = self.scope.get(name)
                if v is not None and not isinstance(v, (tensor, constexpr)) and \
                        _is_py_number(v):
                    self.scope[name] = self.sem.to_tensor(v)
        changed = self._dry_run(dry)
        names, inits = self._carried_inits(node, changed)
        op, before_args, before_block = b.begin_while([(i.handle, i.type) for i in inits],
                                                      b.loc)
        before = self.scope
        self.scope = dict(before)
        for name, h, init in zip(names, before_args, inits):
            _set_slot(self.scope, name, tensor(h, init.type))
        with b.insert_into(before_block):
            cond = self._runtime_cond(test(), node.test, "while")
        after_args, after_block = b.while_condition(op, cond.handle, self.fn.loc(node.test))
        self.scope = dict(before)
        for name, h, init in zip(names, after_args, inits):
            _set_slot(self.scope, name, tensor(h, init.type))
        self.loop_depth += 1
        try:
            with b.insert_into(after_block):
                body()
                yields = self._yield_values(node, names, inits)
        finally:
            self.loop_depth -= 1
        self.scope = before
        results = b.end_while(op, yields)
        for name, h, init in zip(names, results, inits):
            _set_slot(before, name, tensor(h, init.type))
        return None

    # ------------------------------------------------------------------
    # Expressions
    # ------------------------------------------------------------------
    def visit_Constant(self, node):
        return node.value

    def visit_Name(self, node):
        name = node.id
        if name in self.scope:
            return self.scope[name]
        found, value = self.fn.lookup_global(name)
        if found:
            return value
        raise self.error(node, f"name {name!r} is not defined")

    def visit_Attribute(self, node):
        obj = self.visit(node.value)
        if isinstance(obj, constexpr) and node.attr == "value":
            return obj.value
        target = _unwrap(obj)
        try:
            value = getattr(target, node.attr)
        except AttributeError:
            if inspect.ismodule(target):
                raise self.error(node, f"module {target.__name__!r} has no attribute "
                                 f"{node.attr!r}") from None
            if isinstance(target, tensor):
                raise self.error(node, f"tensors have no attribute {node.attr!r}") from None
            raise self.error(node, f"{type(target).__name__} object has no attribute "
                             f"{node.attr!r}") from None
        if (isinstance(target, tensor) or is_aggregate_instance(target)) and \
                _is_jit_function(value):
            # A tensor method written as a @jit function (x.sort(), x.flip()),
            # or a method of an aggregate.
            return _BoundJitMethod(value, target)
        return value

    def _operator_method(self, op, operands, node):
        """The result of an aggregate's @jit method for operator `op` on
        `operands` (the left one's, else the right one's reflected form),
        or _NO_METHOD."""
        names = _OPERATOR_METHODS.get(type(op))
        if names is None:
            return _NO_METHOD
        for name, (receiver, *others) in zip(names, (operands, operands[::-1])):
            if name is None or not is_aggregate_instance(receiver):
                continue
            method = getattr(type(receiver), name, None)
            if _is_jit_function(method):
                return self._call_jit(method, [receiver, *others], {}, node)
        return _NO_METHOD

    def _binop(self, op, lhs, rhs, node):
        name, pyop = _BINOPS[type(op)]
        l, r = _unwrap(lhs), _unwrap(rhs)
        result = self._operator_method(op, (l, r), node)
        if result is not _NO_METHOD:
            return result
        if not isinstance(l, tensor) and not isinstance(r, tensor):
            return pyop(l, r)
        if name is None:
            raise self.error(node, tl.POW_ON_TENSORS, UnsupportedError)
        if self.lanes is not None and name in ("floordiv", "mod") and \
                isinstance(r, tensor) and r.type.scalar.is_int():
            # Element-wise control flow runs this for the elements not taking
            # part too, whose divisor may be zero (a `while b != 0` loop's
            # finished elements): an integer division by zero is undefined
            # behaviour that LLVM exploits (it then takes every divisor to be
            # nonzero, and the loop's exit test to fail). Those elements divide
            # by one instead; their results are not kept.
            r = self.sem.where(self.lanes, r, 1)
        return getattr(self.sem, name)(l, r)

    def visit_BinOp(self, node):
        return self._binop(node.op, self.visit(node.left), self.visit(node.right), node)

    def visit_UnaryOp(self, node):
        v = _unwrap(self.visit(node.operand))
        result = self._operator_method(node.op, (v,), node)
        if result is not _NO_METHOD:
            return result
        if not isinstance(v, tensor):
            return {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Invert: operator.invert,
                    ast.Not: operator.not_}[type(node.op)](v)
        if isinstance(node.op, ast.USub):
            return self.sem.neg(v)
        if isinstance(node.op, ast.UAdd):
            return v
        if isinstance(node.op, ast.Invert):
            return self.sem.invert(v)
        return self.sem.logical_not(v)

    def visit_BoolOp(self, node):
        is_and = isinstance(node.op, ast.And)
        result = self.visit(node.values[0])
        for value_node in node.values[1:]:
            r = _unwrap(result)
            if not isinstance(r, tensor):
                if is_and and not r:
                    return result
                if not is_and and r:
                    return result
                result = self.visit(value_node)
                continue
            other = _unwrap(self.visit(value_node))
            if not isinstance(other, tensor):
                # `t and True` / `t or False` keep t; the others are constants.
                if is_and:
                    result = self.sem.cast(r, tl.int1) if other else False
                else:
                    result = True if other else self.sem.cast(r, tl.int1)
                continue
            result = self.sem.logical_and(r, other) if is_and else \
                self.sem.logical_or(r, other)
        return result

    def _compare(self, op, l, r, node):
        l, r = _unwrap(l), _unwrap(r)
        if isinstance(op, (ast.Is, ast.IsNot)):
            res = l is r
            return res if isinstance(op, ast.Is) else not res
        if isinstance(op, (ast.In, ast.NotIn)):
            if isinstance(l, tensor) or isinstance(r, tensor):
                raise self.error(node, "`in` is not supported on tensors", UnsupportedError)
            res = l in r
            return res if isinstance(op, ast.In) else not res
        result = self._operator_method(op, (l, r), node)
        if result is not _NO_METHOD:
            return result
        name, pyop = _CMPOPS[type(op)]
        if not isinstance(l, tensor) and not isinstance(r, tensor):
            return pyop(l, r)
        return self.sem.compare(name, l, r)

    def visit_Compare(self, node):
        left = self.visit(node.left)
        result = None
        for op, comp in zip(node.ops, node.comparators):
            right = self.visit(comp)
            c = self._compare(op, left, right, node)
            if result is None:
                result = c
            else:
                rr, cc = _unwrap(result), _unwrap(c)
                if isinstance(rr, tensor) or isinstance(cc, tensor):
                    result = self.sem.logical_and(rr, cc)
                else:
                    result = rr and cc
            left = right
        return result

    def visit_Subscript(self, node):
        value = self.visit(node.value)
        index = self.visit(node.slice)
        v = _unwrap(value)
        if isinstance(v, tensor):
            if isinstance(index, tuple):
                index = tuple(_unwrap(i) for i in index)
            return self.sem.subscript(v, _unwrap(index))
        idx = _unwrap(index)
        if isinstance(idx, tensor):
            raise self.error(node, "cannot index a Python sequence with a runtime value")
        return v[idx]

    def visit_Slice(self, node):
        parts = [None if p is None else _unwrap(self.visit(p))
                 for p in (node.lower, node.upper, node.step)]
        return slice(*parts)

    def visit_Index(self, node):  # Python < 3.9
        return self.visit(node.value)

    def _elements(self, elts):
        out = []
        for e in elts:
            if isinstance(e, ast.Starred):
                v = _unwrap(self.visit(e.value))
                if isinstance(v, tensor):
                    raise self.error(e, "cannot unpack a tensor with *")
                out.extend(v)
            else:
                out.append(self.visit(e))
        return out

    def visit_ListComp(self, node):
        return self._comprehension(node)

    def visit_GeneratorExp(self, node):  # tl.tuple(f(v) for v in values)
        return builtins.tuple(self._comprehension(node))

    def _comprehension(self, node) -> list:
        """A comprehension over compile-time iterables (tuples, ranges) and
        compile-time conditions, unrolled; its names stay inside it."""
        out = []
        saved = self.scope
        self.scope = dict(saved)

        def run(i):
            if i == len(node.generators):
                out.append(self.visit(node.elt))
                return
            gen = node.generators[i]
            iterable = _unwrap(self.visit(gen.iter))
            if isinstance(iterable, tensor) or gen.is_async:
                raise self.error(gen.iter, "a comprehension in a kernel iterates over a "
                                 "tuple or range known at compile time", UnsupportedError)
            for v in iterable:
                self._assign(gen.target, v, node)
                keep = True
                for cond_node in gen.ifs:
                    c = _unwrap(self.visit(cond_node))
                    if isinstance(c, tensor):
                        raise self.error(cond_node, "the condition of a comprehension must "
                                         "be known at compile time", UnsupportedError)
                    keep = keep and bool(c)
                if keep:
                    run(i + 1)
        try:
            run(0)
        finally:
            self.scope = saved
        return out

    def visit_Tuple(self, node):
        return tuple(self._elements(node.elts))

    def visit_List(self, node):
        return list(self._elements(node.elts))

    def visit_JoinedStr(self, node):
        parts = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                parts.append(str(v.value))
            else:
                val = _unwrap(self.visit(v.value))
                if isinstance(val, tensor):
                    raise self.error(v, "f-strings can only format compile-time values; "
                                     "use tl.device_print for runtime values")
                spec = "" if v.format_spec is None else self.visit(v.format_spec)
                conv = {-1: None, 115: "s", 114: "r", 97: "a"}.get(v.conversion)
                if conv == "r":
                    val = repr(val)
                elif conv in ("s", "a"):
                    val = str(val)
                parts.append(format(val, spec))
        return "".join(parts)

    def visit_FormattedValue(self, node):
        return self.visit_JoinedStr(ast.JoinedStr(values=[node]))

    # -- calls -------------------------------------------------------------
    def visit_Call(self, node):
        unused = self.unused_call is node
        fn = self.visit(node.func)
        must_use = getattr(_unwrap(fn), "_must_use_result", False)
        if unused and must_use:
            name = getattr(_unwrap(fn), "__name__", "this function")
            why = f": {must_use}" if isinstance(must_use, str) else ""
            raise self.error(node, f"the result of {name}() must be used{why}")
        args = self._elements(node.args)
        kwargs = {}
        for k in node.keywords:
            if k.arg is None:
                d = _unwrap(self.visit(k.value))
                if not isinstance(d, dict):
                    raise self.error(k, "** needs a dict")
                kwargs.update(d)
            else:
                kwargs[k.arg] = self.visit(k.value)
        return self._call(fn, args, kwargs, node)

    def _call(self, fn, args, kwargs, node):
        f = _unwrap(fn)
        if _is_jit_function(f):
            return self._call_jit(f, args, kwargs, node)
        if isinstance(f, _BoundJitMethod):
            return self._call_jit(f.fn, [f.receiver] + list(args), kwargs, node)
        if getattr(f, "__terrazzo_builtin__", False):
            try:
                return f(*args, **kwargs)
            except TypeError as e:
                # Wrong number or names of arguments: name the builtin.
                msg = str(e)
                if "argument" in msg:
                    raise self.error(node, f"tl.{msg}") from None
                raise
        if isinstance(getattr(f, "__self__", None), tensor):
            return f(*args, **kwargs)
        has_tensor = any(isinstance(_unwrap(a), tensor) for a in list(args) +
                         list(kwargs.values()))
        if f is builtins.print:
            return self._print(args, node)
        if isinstance(f, type) and issubclass(f, builtins.tuple) and hasattr(f, "_fields"):
            return f(*args, **kwargs)  # a NamedTuple of the kernel's values
        if f is tl.condition:
            return f(*args, **kwargs)  # a while loop's condition (while_test)
        if f in _INTROSPECTION:
            # Compile-time questions about values (isinstance(x, tl.tensor)):
            # answered on the values themselves, constexprs unwrapped, as in
            # Triton.
            return f(*[_unwrap(a) for a in args], **{k: _unwrap(v) for k, v in kwargs.items()})
        if f in (builtins.min, builtins.max) and has_tensor:
            vals = list(args) if len(args) > 1 else list(_unwrap(args[0]))
            result = vals[0]
            for v in vals[1:]:
                result = self.sem.minmax("min" if f is builtins.min else "max", result, v)
            return result
        if f is builtins.abs and has_tensor:
            return self.sem.abs(_unwrap(args[0]))
        if f is builtins.len and has_tensor:
            t = _unwrap(args[0])
            if not t.type.is_block():
                raise self.error(node, "len() of a scalar tensor")
            return t.shape[0]
        if f in (builtins.range,):
            if has_tensor:
                raise self.error(node, "range() with runtime bounds can only be used as "
                                 "the iterable of a for loop")
        if f in (builtins.int, builtins.float, builtins.bool) and has_tensor:
            target = {builtins.int: "tl.int32", builtins.float: "tl.float32",
                      builtins.bool: "tl.int1"}[f]
            raise self.error(node, f"{f.__name__}() of a runtime tensor is not supported; "
                             f"use .to({target})", UnsupportedError)
        if has_tensor:
            name = getattr(f, "__name__", repr(f))
            raise self.error(node, f"cannot pass runtime tensors to the Python function "
                             f"{name!r}; decorate it with @terrazzo.jit to call it from "
                             "a kernel")
        if isinstance(f, type) and issubclass(f, (tl.range, tl.static_range, constexpr,
                                                  tl.dtype)):
            return f(*args, **kwargs)
        if not callable(f):
            raise self.error(node, f"{f!r} is not callable")
        return f(*[_unwrap(a) for a in args], **{k: _unwrap(v) for k, v in kwargs.items()})

    def _print(self, args, node):
        prefix_parts, values = [], []
        for a in args:
            u = _unwrap(a)
            if isinstance(u, tensor):
                values.append(u)
            elif not values:
                prefix_parts.append(str(u))
            else:
                raise self.error(node, "print(): put the text before the runtime values")
        prefix = " ".join(prefix_parts)
        if values and prefix and not prefix.endswith(" "):
            prefix += " "
        return self.sem.device_print(prefix, values)

    def _call_jit(self, callee, args, kwargs, node):
        parsed = callee.parsed
        try:
            bound = parsed.signature.bind(*args, **kwargs)
        except TypeError as e:
            raise self.error(node, f"{parsed.name}(): {e}") from None
        bound.apply_defaults()
        values = list(bound.arguments.values())
        call_loc = self.ctx.builder.loc
        try:
            if self.builder.concrete or self.elementwise:
                scope = {}
                for name, v, is_cx in zip(parsed.arg_names, values, parsed.constexprs):
                    # As in Triton, a called function's tl.constexpr
                    # annotation does not stop a runtime value: only a
                    # kernel's parameters must be compile-time.
                    u = _unwrap(v)
                    scope[name] = constexpr(u) if is_cx and not isinstance(u, tensor) else u
                if callee in self.ctx.in_progress and len(self.ctx.in_progress) > 64:
                    raise self.error(node, f"recursive call of {parsed.name} is not "
                                     "supported", UnsupportedError)
                self.ctx.in_progress.append(callee)
                try:
                    gen = CodeGenerator(self.ctx, parsed, scope)
                    if self.elementwise:  # inlined: its ifs run element-wise too
                        gen.elementwise = ElementwiseFlow(gen, self.elementwise.shape)
                        gen.lanes = self.lanes
                    r = gen.visit_block(parsed.tree.body)
                finally:
                    self.ctx.in_progress.pop()
                return None if r is None else r.value
            return self._emit_call(callee, parsed, values, node)
        except KernelError as e:
            if e.loc is not None and (e.loc.file, e.loc.line) != (call_loc.file,
                                                                   call_loc.line):
                e.add_note(f"  in the call of {parsed.name}() at {call_loc.file}:"
                           f"{call_loc.line}")
            raise

    def _emit_call(self, callee, parsed: ParsedFunction, values, node):
        ctx = self.ctx
        b = self.builder
        runtime, key_parts, codes = [], [], []
        for name, v, is_cx in zip(parsed.arg_names, values, parsed.constexprs):
            u = _unwrap(v)
            if isinstance(u, tensor):  # also for a tl.constexpr annotation (see _call_jit)
                runtime.append((name, u))
                key_parts.append(("t", u.type))
                codes.append(str(u.type).replace("<", "").replace(">", "")
                             .replace(",", "").replace(" ", ""))
            elif _is_aggregate(u) and not is_cx:
                runtime.extend((name, t) for t in flatten(u))
                key_parts.append(("a", structure_of(u)))
                codes.append(type(u).__name__)
            else:
                key_parts.append(("c", _value_key(u)))
                codes.append(_value_code(u))
        key = (id(callee), parsed.src_hash, tuple(key_parts))
        if key in ctx.in_progress:
            raise self.error(node, f"recursive call of {parsed.name} is not supported",
                             UnsupportedError)
        if key not in ctx.functions:
            symbol = _mangle(parsed.name, codes)
            base, n = symbol, 1
            while symbol in ctx.symbols:
                symbol = f"{base}_{n}"
                n += 1
            ctx.symbols.add(symbol)
            ctx.in_progress.append(key)
            saved_loc = b.loc
            try:
                arg_specs = []
                arg_nodes = {a.arg: a for a in parsed.tree.args.args +
                             parsed.tree.args.kwonlyargs}
                for name, t in runtime:
                    arg_specs.append((t.type, "", parsed.loc(arg_nodes[name])
                                      if name in arg_nodes else None))
                func, handles = b.begin_function(symbol, arg_specs, True,
                                                 parsed.loc(parsed.tree))
                with b.insert_into(func.body):
                    b.loc = parsed.loc(parsed.tree)
                    # In the callee's body: rebuilding an aggregate may emit
                    # ops (a tensor descriptor is made again of its parts).
                    scope = {}
                    it = iter(handles)
                    for name, v, is_cx in zip(parsed.arg_names, values, parsed.constexprs):
                        u = _unwrap(v)
                        if isinstance(u, tensor):
                            scope[name] = tensor(next(it), u.type)
                        elif _is_aggregate(u) and not is_cx:
                            scope[name] = unflatten(u, (tensor(next(it), t.type)
                                                        for t in flatten(u)))
                        else:
                            scope[name] = constexpr(u) if is_cx else u
                    gen = CodeGenerator(ctx, parsed, scope)
                    r = gen.visit_block(parsed.tree.body)
                    b.loc = parsed.loc(parsed.tree.body[-1]) if parsed.tree.body else b.loc
                    vals, structure = gen.return_values(r, keep_constants=True)
                    b.function_return([(v.handle, v.type) for v in vals])
                func.result_types = [v.type for v in vals]
                ctx.functions[key] = (symbol, [v.type for v in vals], structure)
            finally:
                ctx.in_progress.pop()
                b.loc = saved_loc
        symbol, result_types, structure = ctx.functions[key]
        outs = b.call(symbol, [(t.handle, t.type) for _, t in runtime], result_types)
        results = [tensor(h, t) for h, t in zip(outs, result_types)]
        return self.rebuild(structure, results)


# ---------------------------------------------------------------------------
# Entry points
# ---------------------------------------------------------------------------

def run_function_body(ctx: CompileContext, parsed: ParsedFunction, scope: Dict[str, Any]):
    """Visits a kernel's body with `scope`; kernels return nothing."""
    gen = CodeGenerator(ctx, parsed, scope)
    tl._push_semantic(ctx.sem)
    try:
        r = gen.visit_block(parsed.tree.body)
    finally:
        tl._pop_semantic()
    if r is not None and _unwrap(r.value) is not None:
        # Located at the `return` that returns it (the `def` line said little).
        raise CompilationError("a kernel cannot return a value; store results through "
                               "pointers", parsed.loc(r.node if r.node is not None
                                                      else parsed.tree))
    return gen
