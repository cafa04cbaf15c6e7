"""A @jit function as the compiler reads it: its source, AST, parameters
(which are tl.constexpr, which tl.const) and environment, prepared once;
source locations of its nodes."""

from __future__ import annotations

import ast
import builtins
import hashlib
import inspect
import os
import textwrap
from typing import Dict

from ..errors import CompilationError, SourceLocation
from ..core.lang import is_constexpr_annotation


def _is_const_annotation(ann) -> bool:
    """Whether a parameter's annotation is `tl.const` (a pointer the kernel
    only reads)."""
    if getattr(ann, "_terrazzo_const_annotation", False):
        return True
    return isinstance(ann, str) and ann.strip() in ("const", "tl.const",
                                                    "triton.language.const")


class ParsedFunction:
    """A @jit function's source, AST and environment, prepared once."""

    def __init__(self, fn):
        self.fn = fn
        self.name = fn.__name__
        code = fn.__code__
        try:
            file = inspect.getsourcefile(fn) or code.co_filename
        except TypeError:
            file = code.co_filename
        self.file = os.path.abspath(file) if not file.startswith("<") else file
        try:
            lines, start = inspect.getsourcelines(fn)
        except (OSError, TypeError) as e:
            raise CompilationError(f"cannot read the source of {self.name}: {e}; @jit "
                                   "functions must be defined in a file") from None
        self.source = "".join(lines)
        self.src_lines = {start + i: line for i, line in enumerate(lines)}
        self.line_offset = start - 1
        first = lines[0]
        indent = len(first) - len(first.lstrip())
        stripped = []
        for line in lines:
            if line[:indent].strip() == "":
                stripped.append(line[indent:])
            else:
                stripped.append(line.lstrip())
        self.col_offset = indent
        try:
            tree = ast.parse("".join(stripped))
        except SyntaxError:
            tree = ast.parse(textwrap.dedent(self.source))
        defs = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        if not defs or isinstance(defs[0], ast.AsyncFunctionDef):
            raise CompilationError(f"@jit needs a plain `def` function, not {self.name!r}")
        self.tree: ast.FunctionDef = defs[0]
        self.globals = fn.__globals__
        self.freevars = code.co_freevars
        self.closure = fn.__closure__ or ()
        self.signature = inspect.signature(fn)
        self.params = list(self.signature.parameters.values())
        self.arg_names = [p.name for p in self.params]
        for p in self.params:
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                raise CompilationError(f"@jit functions cannot take *args or **kwargs "
                                       f"({self.name})", self.loc(self.tree))
        self.constexprs = [is_constexpr_annotation(p.annotation) for p in self.params]
        self.consts = [_is_const_annotation(p.annotation) for p in self.params]
        self.src_hash = hashlib.sha256(self.source.encode()).hexdigest()
        self._return_cache: Dict[int, bool] = {}

    def loc(self, node) -> SourceLocation:
        line = getattr(node, "lineno", 1) + self.line_offset
        col = getattr(node, "col_offset", 0) + self.col_offset
        return SourceLocation(self.file, line, col, self.src_lines.get(line))

    def lookup_global(self, name: str):
        """(found, value) for a name outside the function's locals."""
        if name in self.freevars:
            cell = self.closure[self.freevars.index(name)]
            try:
                return True, cell.cell_contents
            except ValueError:
                pass
        if name in self.globals:
            return True, self.globals[name]
        b = self.globals.get("__builtins__", builtins)
        b = b if isinstance(b, dict) else vars(b)
        if name in b:
            return True, b[name]
        return False, None
