"""Errors raised by Terrazzo, in Triton's hierarchy.

Every error Terrazzo raises for a kernel derives from `TritonError`, as in
Triton, so that `except triton.TritonError` catches them all:

    TritonError
    ├── KernelError                 (an error that points at a kernel's line)
    │   ├── CompilationError        (terrazzo.compiler.errors)
    │   │   ├── CompileTimeAssertionFailure   (a failed tl.static_assert)
    │   │   └── UnsupportedError    (Triton's UnsupportedLanguageConstruct)
    │   └── InterpreterError        (terrazzo.runtime.errors)
    │       └── InterpretedCompilationError   (also a CompilationError)
    ├── OutOfResources              (terrazzo.runtime.errors)
    │   └── OutOfResourcesCompilationError    (also a CompilationError)
    └── PTXASError                  (terrazzo.runtime.errors)

Every error that comes from a kernel's source carries the position it points
at (file, 1-based line, 0-based column) and the text of that line, and prints
like a compiler diagnostic:

    /home/me/add.py:12:18: error: arange's length must be a power of two, got 1000
        offsets = tl.arange(0, 1000)
                  ^

When the error was found by the semantic layer, the `SemanticError` it
raised is the error's `__cause__` (Triton's tests read the message there).
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


class TritonError(Exception):
    """Base of every error Terrazzo raises for a kernel: its compilation, its
    launch or its run in the interpreter (Triton's `triton.TritonError`)."""

    @property
    def error_message(self) -> str:
        """The message without position or notes (Triton's attribute)."""
        return str(self.args[0]) if self.args else ""


class KernelError(TritonError):
    """Base of the errors that point at a line of a kernel."""

    kind = "error"

    def __init__(self, message: str, loc: Optional[SourceLocation] = None,
                 notes: Sequence[str] = (), kernel: Optional[str] = None):
        self.message = message
        self.loc = loc
        self.notes = list(notes)
        self.kernel = kernel
        # Exception's, not the next class's: subclasses also derive from
        # OutOfResources, whose constructor takes other arguments.
        Exception.__init__(self, message)

    @property
    def error_message(self) -> str:
        return self.message

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


class CompileTimeAssertionFailure(CompilationError):
    """A `tl.static_assert` whose condition is false."""


class UnsupportedError(CompilationError):
    """A construct or operation that Terrazzo does not support (yet)."""


class InterpreterError(KernelError, RuntimeError):
    """A fault while running a kernel in the interpreter (for example an
    out-of-bounds access or a failed device_assert)."""

    kind = "runtime error"


class InterpretedCompilationError(CompilationError, InterpreterError):
    """A mistake in a kernel's source found while the interpreter runs it.

    It is a CompilationError, as the same mistake is when compiling, and an
    InterpreterError, which is what Triton's interpreter raises for every
    error of an interpreted kernel."""

    kind = "error"

    @classmethod
    def from_error(cls, e: CompilationError) -> "InterpretedCompilationError":
        """The same error (message, position and notes), as raised by the
        interpreter; raise it `from e.__cause__`."""
        return cls(e.message, e.loc, e.notes, e.kernel)


class OutOfResources(TritonError, RuntimeError):
    """A launch needs more of a resource (shared memory, registers) than the
    device has; autotuners skip such configurations."""

    def __init__(self, required, limit, name):
        self.required, self.limit, self.name = required, limit, name
        super().__init__(f"out of resource: {name}, required {required}, limit {limit}")

    def __reduce__(self):
        return type(self), (self.required, self.limit, self.name)


class OutOfResourcesCompilationError(CompilationError, OutOfResources):
    """A kernel needing more of a resource than its target has (shared
    memory), found while compiling: a CompilationError pointing at the line
    that needs it, and the OutOfResources Triton raises for it (autotuners
    skip such configurations)."""

    def __init__(self, message: str, loc: Optional[SourceLocation] = None,
                 notes: Sequence[str] = (), kernel: Optional[str] = None, *,
                 required=None, limit=None, name: str = "shared memory"):
        CompilationError.__init__(self, message, loc, notes, kernel)
        self.required, self.limit, self.name = required, limit, name

    def __reduce__(self):
        return _rebuild_out_of_resources, (type(self), self.message, self.loc, self.notes,
                                           self.kernel, self.required, self.limit, self.name)


def _rebuild_out_of_resources(cls, message, loc, notes, kernel, required, limit, name):
    return cls(message, loc, notes, kernel, required=required, limit=limit, name=name)


class PTXASError(TritonError, RuntimeError):
    """ptxas rejected the PTX generated for a kernel."""


class SemanticError(Exception):
    """Raised by the semantic layer without a position; the code generator adds
    the position of the node being compiled and turns it into the
    `compilation_error` class, with this error as its `__cause__`."""

    compilation_error = CompilationError


class SemanticUnsupported(SemanticError):
    """Like SemanticError, for operations that are not supported yet."""

    compilation_error = UnsupportedError


class SemanticAssertionFailure(SemanticError):
    """Like SemanticError, for a `tl.static_assert` whose condition is false."""

    compilation_error = CompileTimeAssertionFailure
