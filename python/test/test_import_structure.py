"""The Python package is a set of rooms without import circles (DESIGN §8):
no module of python/terrazzo imports, at module level, a module that
imports it back through any chain of module-level imports; and deferring an
import into a function (run when called) does not hide one either. Imports
under `if TYPE_CHECKING:` are for type checkers only. Read from the source
files with `ast`, so nothing is imported to check it.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Dict, List, Set

PACKAGE = Path(__file__).resolve().parents[1] / "terrazzo"
#: Compiled modules of the package (built, not in the source tree).
EXTENSIONS = ("terrazzo._C",)


def _modules() -> Dict[str, tuple]:
    """Dotted name -> (path, is a package's __init__); (None, False) for
    the compiled extension."""
    out = {name: (None, False) for name in EXTENSIONS}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        out[".".join(parts)] = (path, is_package)
    return out


def _imports(tree: ast.Module, deferred: bool) -> List[ast.stmt]:
    """The import statements that run when the module is imported: at top
    level, and in top-level if/else and try blocks (not `if TYPE_CHECKING`);
    with `deferred`, those inside functions and classes too."""
    found = []

    def walk(stmts):
        for st in stmts:
            if isinstance(st, (ast.Import, ast.ImportFrom)):
                found.append(st)
            elif deferred and isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef,
                                              ast.ClassDef)):
                walk(st.body)
            elif deferred and isinstance(st, (ast.For, ast.While, ast.With)):
                walk(st.body)
                walk(getattr(st, "orelse", []))
            elif isinstance(st, ast.If):
                if isinstance(st.test, ast.Name) and st.test.id == "TYPE_CHECKING":
                    continue
                walk(st.body)
                walk(st.orelse)
            elif isinstance(st, ast.Try):
                walk(st.body)
                walk(st.orelse)
                walk(st.finalbody)
                for handler in st.handlers:
                    walk(handler.body)
    walk(tree.body)
    return found


def import_graph(modules, deferred: bool = False) -> Dict[str, Set[str]]:
    """Module -> the package's modules it imports at module level (with
    `deferred`, anywhere). `from .x import name` imports the module x.name
    when there is one, else x."""
    graph = {name: set() for name in modules}
    for name, (path, is_package) in modules.items():
        if path is None:
            continue
        for st in _imports(ast.parse(path.read_text()), deferred):
            if isinstance(st, ast.Import):
                graph[name].update(a.name for a in st.names if a.name in modules)
                continue
            if st.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[:len(base) - (st.level - 1)]
                target = ".".join(base + ([st.module] if st.module else []))
            else:
                target = st.module or ""
            for a in st.names:
                sub = f"{target}.{a.name}"
                if sub in modules:
                    graph[name].add(sub)
                elif target in modules:
                    graph[name].add(target)
    return graph


def cycles(graph: Dict[str, Set[str]]) -> List[List[str]]:
    """The strongly connected components of more than one module, and the
    modules that import themselves (Tarjan's algorithm)."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on_stack: Set[str] = set()
    found: List[List[str]] = []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in graph[v]:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_module_level_import_cycles():
    modules = _modules()
    assert "terrazzo.compiler.codegen" in modules and len(modules) > 40
    found = cycles(import_graph(modules))
    assert not found, "modules that import each other at module level: " + "; ".join(
        " <-> ".join(c) for c in found)


def test_no_import_cycles_through_deferred_imports():
    """An import moved into a function still makes a circle of rooms (it
    only hides it from the import system)."""
    found = cycles(import_graph(_modules(), deferred=True))
    assert not found, "modules that import each other (some in functions): " + "; ".join(
        " <-> ".join(c) for c in found)


def test_the_checker_finds_a_cycle():
    """The checker itself: a cycle through three modules and a self-import
    are found, a chain is not."""
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"a"}}) == [["a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_reads_relative_imports():
    graph = import_graph(_modules())
    assert "terrazzo.language.core" in graph["terrazzo.compiler.semantic"]
    assert "terrazzo.compiler.parsed_function" in graph["terrazzo.compiler.codegen"]
    # `from . import standard` in the language package names the submodule.
    assert "terrazzo.language.standard" in graph["terrazzo.language"]
    # An import in a function body counts where deferred imports are asked for.
    deferred = import_graph(_modules(), deferred=True)
    assert "terrazzo.testing" in deferred["terrazzo.runtime.autotuner"]
    assert "terrazzo.testing" not in graph["terrazzo.runtime.autotuner"]
