"""The documentation keeps up with the code (docs/USER-GUIDE.md, DESIGN.md).

* Every environment variable the project reads (`TERRAZZO_*`, and the
  `TRITON_*` ones it honours) has a row in the user guide's table, and every
  row names a variable something still reads.
* Every "DESIGN.md §N" reference in the sources names a section DESIGN.md
  has.

Read from the files, so nothing is built or imported to check it.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from typing import Dict, Iterator, List, Set, Tuple

REPO = Path(__file__).resolve().parents[2]
GUIDE = REPO / "docs" / "USER-GUIDE.md"
DESIGN = REPO / "docs" / "DESIGN.md"

#: Folders that are not the project's sources (builds, caches, results).
SKIPPED_TOP = re.compile(r"^(build[^/]*|dist|\.git|\.cache|\.peer|\.snap|bench-results)$")
CODE_SUFFIXES = (".py", ".cpp", ".h", ".c", ".sh", ".cmake", ".mlir", ".test", ".in")

_NAME = r"TERRAZZO_[A-Z0-9_]*[A-Z0-9]"
#: C and C++: a string literal that is the variable's name (getenv("X"),
#: the runtime's library-path variables, the tests' ScopedEnvironment).
_C_LITERAL = re.compile(rf'"({_NAME})"')
#: Python: a string literal that is the name (os.environ.get("X"),
#: monkeypatch.setenv("X", ...), env_flag("X")), or a keyword / assignment
#: `X=` (dict(os.environ, X=...), "X=1" in a message) that is not a CMake
#: definition (-DX=).
_PY_LITERAL = re.compile(rf'''b?["']({_NAME})["']''')
_ASSIGNMENT = re.compile(rf"(?<![-\w])({_NAME})=")
#: Shell: any use ($X, ${{X:-default}}, X=value command) but of an array.
_SHELL_USE = re.compile(rf"(?<![-\w])({_NAME})\b")
_SHELL_ARRAY = re.compile(rf"(?<![-\w])({_NAME})=\(")
#: CMake reads the environment only through $ENV{{X}}.
_CMAKE_ENV = re.compile(rf"\$ENV\{{({_NAME})\}}")
#: CMake cache variables, which setup.py reads from CMakeCache.txt.
_CMAKE_VARIABLE = re.compile(rf"\b(?:option|set|find_program|find_library)\(\s*({_NAME})\b")
#: Triton's variables, where Python reads the environment.
_TRITON_READ = re.compile(r"""(?:env_flag|environ\.get|environ\[|getenv|_ENV_DATA\.get)\(?\s*"""
                          r"""b?["'](TRITON_[A-Z0-9_]*[A-Z0-9])["']""")


def _source_files() -> List[Path]:
    """The repository's files (tracked or new, not ignored), else a walk."""
    try:
        listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                                cwd=REPO, capture_output=True, text=True, check=True).stdout
        paths = [REPO / line for line in listed.splitlines() if line]
    except (OSError, subprocess.CalledProcessError):
        paths = []
        for root, dirs, files in os.walk(REPO):
            if Path(root) == REPO:
                dirs[:] = [d for d in dirs if not SKIPPED_TOP.match(d)]
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            paths += [Path(root) / f for f in files]
    return [p for p in paths if p.is_file() and not SKIPPED_TOP.match(p.relative_to(REPO).parts[0])]


def _is_shell(path: Path) -> bool:
    if path.suffix == ".sh":
        return True
    if path.suffix:
        return False
    with open(path, "rb") as f:
        first = f.readline()
    return first.startswith(b"#!") and b"sh" in first


def _is_cmake(path: Path) -> bool:
    return path.name == "CMakeLists.txt" or path.suffix == ".cmake"


def _lines(path: Path) -> Iterator[Tuple[int, str]]:
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return iter(())
    return enumerate(text.splitlines(), 1)


def variables_read() -> Dict[str, List[str]]:
    """Each environment variable the sources read -> where ("file:line")."""
    found: Dict[str, List[str]] = {}
    cmake_variables: Set[str] = set()
    python_literals: List[Tuple[str, str]] = []

    def add(name: str, path: Path, line: int):
        found.setdefault(name, []).append(f"{path.relative_to(REPO)}:{line}")

    for path in _source_files():
        if path == Path(__file__).resolve():
            continue
        shell, cmake = _is_shell(path), _is_cmake(path)
        if not (shell or cmake or path.suffix in CODE_SUFFIXES):
            continue
        # Shell arrays are the script's own variables.
        arrays = set(_SHELL_ARRAY.findall(path.read_text(errors="replace"))) if shell else set()
        for number, line in _lines(path):
            if "TERRAZZO_" not in line and "TRITON_" not in line:
                continue
            if cmake:
                cmake_variables.update(_CMAKE_VARIABLE.findall(line))
                for name in _CMAKE_ENV.findall(line):
                    add(name, path, number)
            elif shell:
                for name in _SHELL_USE.findall(line):
                    if name not in arrays:
                        add(name, path, number)
            elif path.suffix in (".cpp", ".h", ".c"):
                for name in _C_LITERAL.findall(line):
                    add(name, path, number)
            elif path.suffix == ".py":
                for name in _PY_LITERAL.findall(line) + _ASSIGNMENT.findall(line):
                    python_literals.append((name, f"{path.relative_to(REPO)}:{number}"))
                for name in _TRITON_READ.findall(line):
                    add(name, path, number)
            elif "RUN:" in line:  # lit: `env X=value tool ...`
                for name in _ASSIGNMENT.findall(line):
                    add(name, path, number)
    for name, where in python_literals:
        if name not in cmake_variables:
            found.setdefault(name, []).append(where)
    return found


def documented() -> Dict[str, str]:
    """The variables of the guide's table (rows starting "| `NAME`"), each
    with its row."""
    rows = {}
    in_table = False
    for line in GUIDE.read_text().splitlines():
        if line.startswith("## "):
            in_table = line.strip() == "## Environment variables"
        elif in_table:
            m = re.match(r"\|\s*`((?:TERRAZZO|TRITON)_[A-Z0-9_]+)`", line)
            if m:
                rows[m.group(1)] = line
    return rows


def test_every_environment_variable_read_is_documented():
    read, table = variables_read(), documented()
    # The scan itself finds what it must: one variable of each kind of file.
    for name in ("TERRAZZO_TMA", "TERRAZZO_INTERPRET", "TERRAZZO_PYTHON", "TRITON_INTERPRET",
                 "TERRAZZO_FAKE_HIP_FAIL"):
        assert name in read, name
    assert "TERRAZZO_PORTABLE" not in read  # a CMake option, not the environment
    missing = {name: where[:3] for name, where in read.items() if name not in table}
    assert not missing, ("environment variables read but not in the table of "
                         f"docs/USER-GUIDE.md (## Environment variables): {missing}")


def test_every_documented_variable_is_read():
    read, table = variables_read(), documented()
    assert len(table) >= 30, table  # the table was found
    stale = sorted(set(table) - set(read))
    assert not stale, f"docs/USER-GUIDE.md documents variables nothing reads: {stale}"


def test_every_row_gives_a_default_and_an_effect():
    for name, row in documented().items():
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        assert len(cells) == 4 and all(cells), (name, row)  # variable, read by, default, effect


def design_sections() -> Set[int]:
    return {int(m.group(1)) for m in re.finditer(r"^## (\d+)\.", DESIGN.read_text(), re.M)}


def test_design_references_name_existing_sections():
    sections = design_sections()
    assert len(sections) >= 10, sections
    reference = re.compile(r"DESIGN(?:\.md)?\)?\s*((?:§\s*\d+(?:\s*[-–,/]\s*§?\s*\d+)*))")
    bad = []
    for path in _source_files():
        if path.suffix not in CODE_SUFFIXES + (".md", ".td", ".txt") and not _is_shell(path):
            continue
        for number, line in _lines(path):
            for m in reference.finditer(line):
                for n in map(int, re.findall(r"\d+", m.group(1))):
                    if n not in sections:
                        bad.append(f"{path.relative_to(REPO)}:{number}: §{n}")
    assert not bad, f"references to sections DESIGN.md does not have: {bad}"
