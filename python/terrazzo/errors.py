"""Errors raised by Terrazzo for mistakes in kernels.

Every error that comes from a kernel's source carries the position it points
at (file, 1-based line, 0-based column) and the text of that line, and prints
like a compiler diagnostic:

    /home/me/add.py:12:18: error: arange's length must be a power of two, got 1000
        offsets = tl.arange(0, 1000)
                  ^
"""

from __future__ import annotations

from typing import List, Optional, Sequence


class SourceLocation:
    """A position in a kernel's Python source."""

    __slots__ = ("file", "line", "col", "text")

    def __init__(self, file: str, line: int, col: int = 0, text: Optional[str] = None):
        self.file = file
        self.line = line
        self.col = col
        self.text = text

    def __repr__(self) -> str:
        return f"{self.file}:{self.line}:{self.col + 1}"


def _format(message: str, loc: Optional[SourceLocation], kind: str,
            notes: Sequence[str]) -> str:
    lines: List[str] = []
    if loc is not None:
        lines.append(f"{loc.file}:{loc.line}:{loc.col + 1}: {kind}: {message}")
        if loc.text is not None:
            text = loc.text.rstrip("\n")
            stripped = text.lstrip()
            indent = len(text) - len(stripped)
            lines.append("    " + stripped)
            caret = max(loc.col - indent, 0)
            lines.append("    " + " " * caret + "^")
    else:
        lines.append(f"{kind}: {message}")
    lines.extend(notes)
    return "\n".join(lines)


class KernelError(Exception):
    """Base of the errors that point at a line of a kernel."""

    kind = "error"

    def __init__(self, message: str, loc: Optional[SourceLocation] = None,
                 notes: Sequence[str] = (), kernel: Optional[str] = None):
        self.message = message
        self.loc = loc
        self.notes = list(notes)
        self.kernel = kernel
        super().__init__(message)

    # The position, for callers and tests.
    @property
    def file(self) -> Optional[str]:
        return self.loc.file if self.loc else None

    @property
    def line(self) -> Optional[int]:
        return self.loc.line if self.loc else None

    @property
    def col(self) -> Optional[int]:
        return self.loc.col if self.loc else None

    @property
    def source_line(self) -> Optional[str]:
        return self.loc.text if self.loc else None

    def add_note(self, note: str) -> None:  # noqa: D401 (also on BaseException in 3.11)
        self.notes.append(note)

    def __str__(self) -> str:
        return _format(self.message, self.loc, self.kind, self.notes)


class CompilationError(KernelError):
    """A mistake in a kernel, found while compiling (or interpreting) it."""


class UnsupportedError(CompilationError):
    """A construct or operation that Terrazzo does not support (yet)."""


class InterpreterError(KernelError, RuntimeError):
    """A fault while running a kernel in the interpreter (for example an
    out-of-bounds access or a failed device_assert)."""

    kind = "runtime error"


class OutOfResources(RuntimeError):
    """A launch needs more of a resource (shared memory, registers) than the
    device has; autotuners skip such configurations."""

    def __init__(self, required, limit, name):
        self.required, self.limit, self.name = required, limit, name
        super().__init__(f"out of resource: {name}, required {required}, limit {limit}")


class SemanticError(Exception):
    """Raised by the semantic layer without a position; the code generator adds
    the position of the node being compiled and turns it into a
    CompilationError."""


class SemanticUnsupported(SemanticError):
    """Like SemanticError, for operations that are not supported yet."""
