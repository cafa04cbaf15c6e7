"""The Python package is a set of rooms without import circles (DESIGN §8):
no module of python/terrazzo imports, at module level, a module that
imports it back through any chain of module-level imports; and deferring an
import into a function (run when called) does not hide one either. Imports
under `if TYPE_CHECKING:` are for type checkers only. Read from the source
files with `ast`, so nothing is imported to check it.

What a module imports is what Python runs for it: importing `a.b.c` runs the
packages `a` and `a.b` (their `__init__`) before `a.b.c`, so a module that
imports `terrazzo.language.core` depends on the `terrazzo.language` package
and everything its `__init__` imports. The one allowed edge direction
between a package and its own modules is downwards: a package's `__init__`
imports its submodules (to re-export their names); a module does not depend
on the packages that contain it merely by being in them (they are already
running when it is imported), but naming its own package's attributes
(`from .. import cdiv`) is an edge back up, and so a circle.
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


def _packages_run(target: str, importer: str, modules) -> Set[str]:
    """The packages that importing `target` from `importer` runs first:
    those containing `target`, less those containing `importer` itself."""
    own = importer.split(".")
    parts = target.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts))
            if ".".join(parts[:i]) in modules and parts[:i] != own[:i]}


def import_graph(modules, deferred: bool = False) -> Dict[str, Set[str]]:
    """Module -> the package's modules it imports at module level (with
    `deferred`, anywhere), with the packages that contain them (see the
    module's docstring). `from .x import name` imports the module x.name
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
    for name, targets in graph.items():
        for target in list(targets):
            targets |= _packages_run(target, name, modules)
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


def shortest_cycle(graph: Dict[str, Set[str]], component: List[str]) -> List[str]:
    """A shortest circle of imports through the component's first module,
    as the modules along it, the first again at the end."""
    start, inside = component[0], set(component)
    came_from = {start: None}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(graph[v] & inside):
                if w == start:
                    path = [v]
                    while came_from[path[-1]] is not None:
                        path.append(came_from[path[-1]])
                    return path[::-1] + [start]
                if w not in came_from:
                    came_from[w] = v
                    nxt.append(w)
        frontier = nxt
    raise AssertionError("not a strongly connected component")


def describe(graph: Dict[str, Set[str]]) -> str:
    """The circles of the graph, each named by one of its shortest cycles and
    the count and names of the modules it ties together."""
    return "\n".join(
        f"{' -> '.join(shortest_cycle(graph, c))}  ({len(c)} modules in this circle: "
        f"{', '.join(c)})" for c in cycles(graph))


def test_no_module_level_import_cycles():
    modules = _modules()
    assert "terrazzo.compiler.codegen" in modules and len(modules) > 40
    graph = import_graph(modules)
    assert not cycles(graph), "modules that import each other at module level:\n" + describe(graph)


def test_no_import_cycles_through_deferred_imports():
    """An import moved into a function still makes a circle of rooms (it
    only hides it from the import system)."""
    graph = import_graph(_modules(), deferred=True)
    assert not cycles(graph), ("modules that import each other (some in functions):\n"
                               + describe(graph))


#: The rooms of the package in the order they may import each other (DESIGN
#: §8): a module imports modules of its own room or of rooms before it. The
#: longest matching prefix names a module's room; `testing.py` benchmarks
#: over the runtime's driver and the autotuner times with it, so it shares
#: the runtime's room.
ROOMS = (
    ("terrazzo.errors", "terrazzo._C"),
    ("terrazzo.core",),
    ("terrazzo.compiler",),
    ("terrazzo.runtime", "terrazzo.testing"),
    ("terrazzo.language",),
    ("terrazzo.tools",),
    ("terrazzo",),
)


def room_of(module: str) -> int:
    best, rank = -1, None
    for i, prefixes in enumerate(ROOMS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, rank = len(prefix), i
    return rank


def test_rooms_import_only_the_rooms_before_them():
    """The compiler never imports the runtime or the language's public
    namespace, the runtime never the language, and so on."""
    graph = import_graph(_modules(), deferred=True)
    upwards = sorted(f"{a} -> {b}" for a, targets in graph.items() for b in targets
                     if room_of(b) > room_of(a))
    assert not upwards, "imports of a later room (DESIGN §8):\n" + "\n".join(upwards)


def test_every_module_has_a_room():
    assert room_of("terrazzo.compiler.errors") == 2 and room_of("terrazzo.errors") == 0
    assert room_of("terrazzo.language.core") == 4 and room_of("terrazzo.core.lang") == 1
    assert all(room_of(m) is not None for m in _modules())


def test_the_checker_finds_a_cycle():
    """The checker itself: a cycle through three modules and a self-import
    are found, a chain is not, and a circle is named by one of its cycles."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert shortest_cycle(graph, ["a", "b", "c"]) == ["a", "b", "c", "a"]
    assert cycles({"a": {"a"}}) == [["a"]]
    assert shortest_cycle({"a": {"a"}}, ["a"]) == ["a", "a"]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_importing_a_module_runs_its_packages():
    """`import p.q.m` from outside p runs p and p.q first; from inside p.q it
    runs neither (they are running already), and p's __init__ importing its
    own submodules is no edge back up."""
    modules = {n: (None, False) for n in ("p", "p.q", "p.q.m", "p.r", "x")}
    assert _packages_run("p.q.m", "x", modules) == {"p", "p.q"}
    assert _packages_run("p.q.m", "p.r", modules) == {"p.q"}
    assert _packages_run("p.q.m", "p.q", modules) == set()
    assert _packages_run("p.q.m", "p", modules) == {"p.q"}


def test_the_graph_reads_relative_imports():
    graph = import_graph(_modules())
    assert "terrazzo.compiler.parsed_function" in graph["terrazzo.compiler.codegen"]
    # `from . import standard` in the language package names the submodule.
    assert "terrazzo.language.standard" in graph["terrazzo.language"]
    # A module in another package runs that package's __init__ too.
    assert {"terrazzo.runtime.jit", "terrazzo.runtime"} <= graph["terrazzo.language.standard"]
    assert "terrazzo.language" not in graph["terrazzo.language.standard"]
    # An import in a function body counts where deferred imports are asked for.
    deferred = import_graph(_modules(), deferred=True)
    assert "terrazzo._C" in deferred["terrazzo.testing"]
    assert "terrazzo._C" not in graph["terrazzo.testing"]
