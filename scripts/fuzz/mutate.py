"""Mutations of MLIR text for the IR fuzzer (see README.md in this folder).

A seed is one module of a lit input (a `// -----` chunk) without its
comment lines. A mutant is a seed with one to three mutations applied, each
drawn from a `random.Random` so that a seed number gives the same mutants on
every machine:

* token mutations: an integer or float literal replaced by an interesting
  value or nudged; an element type by another; a tensor shape's dimension
  changed, added or dropped; a quoted string, a keyword or a boolean of an
  attribute by another of its kind; an entry added to or dropped from a
  bracketed list (layout bases, `sizePerThread`, orders, dense arrays);
* structural mutations: an op (a line) deleted, duplicated, moved or
  swapped with another; an operand (a `%name` use) replaced by another value
  of the module.
"""

from __future__ import annotations

import random
import re
from typing import Callable, List, Optional, Sequence

INTERESTING_INTS = [0, 1, -1, 2, 3, 5, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 100, 127, 128,
                    255, 256, 1023, 1024, 4096, 65535, 65536, 1 << 20, (1 << 20) + 1,
                    (1 << 31) - 1, 1 << 31, -(1 << 31), (1 << 32) - 1, 1 << 32,
                    (1 << 63) - 1, 1 << 63, -(1 << 63), 1 << 64]
INTERESTING_FLOATS = ["0.0", "-0.0", "1.0", "-1.0", "0.5", "1.0e+38", "3.4e+39", "1.0e-45",
                      "0x7FC00000", "0x7F800000", "0xFF800000", "65504.0", "65505.0"]
TYPES = ["i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64", "index",
         "f8E4M3FN", "f8E5M2", "tf32", "i128", "f80", "ui32", "si32", "none"]
STRINGS = ['"cuda:90"', '"cuda:80"', '"cuda:75"', '"cuda:89"', '"hip:gfx942"', '""',
           '"tf32"', '"ieee"', '"tf32x3"', '"bogus"', '"zero"', '"nan"', '"x"']
KEYWORDS = ["x", "y", "z", "add", "max", "min", "umax", "umin", "fadd", "and", "or", "xor",
            "xchg", "relaxed", "acquire", "release", "acq_rel", "gpu", "cta", "sys",
            "evict_first", "evict_last", "evict_normal", "ca", "cg", "cs", "wb",
            "slt", "sle", "sgt", "ult", "eq", "ne", "olt", "oge", "une", "true", "false",
            "zero", "nan"]

_INT = re.compile(r"(?<![\w.%#@^!])-?\d+(?![\w.])")
_FLOAT = re.compile(r"(?<![\w%#@^!])-?\d+\.\d*(?:[eE][-+]?\d+)?|0x[0-9A-Fa-f]{4,16}")
_TYPE = re.compile(r"\b(?:i1|i8|i16|i32|i64|f16|bf16|f32|f64|index|f8E4M3FN|f8E5M2)\b")
_SHAPE = re.compile(r"tensor<((?:\d+x)+)")
_STRING = re.compile(r'"[^"\n]*"')
_KEYWORD = re.compile(r"\b(?:" + "|".join(KEYWORDS) + r")\b")
_LIST = re.compile(r"\[([^\[\]\n]*)\]")
_VALUE = re.compile(r"%[A-Za-z_][\w$.]*|%\d+(?:#\d+)?")


def seed_modules(text: str) -> List[str]:
    """The modules of a lit input: its `// -----` chunks, comments dropped."""
    out = []
    for chunk in re.split(r"^// -----.*$", text, flags=re.M):
        lines = [l for l in chunk.splitlines() if not l.lstrip().startswith("//")]
        body = "\n".join(lines).strip()
        if body:
            out.append(body + "\n")
    return out


def _replace_match(text: str, matches: Sequence[re.Match], rng: random.Random,
                   make: Callable[[str], Optional[str]]) -> Optional[str]:
    if not matches:
        return None
    m = rng.choice(matches)
    new = make(m.group(0))
    if new is None or new == m.group(0):
        return None
    return text[:m.start()] + new + text[m.end():]


def _int_value(rng: random.Random, old: str) -> str:
    choice = rng.random()
    if choice < 0.6:
        return str(rng.choice(INTERESTING_INTS))
    v = int(old)
    if choice < 0.8:
        return str(v + rng.choice([-1, 1]))
    return str(rng.choice([v * 2, v // 2, -v, v * 3]))


def mutate_int(text, rng):
    return _replace_match(text, list(_INT.finditer(text)), rng,
                          lambda old: _int_value(rng, old))


def mutate_float(text, rng):
    return _replace_match(text, list(_FLOAT.finditer(text)), rng,
                          lambda old: rng.choice(INTERESTING_FLOATS))


def mutate_type(text, rng):
    ms = list(_TYPE.finditer(text))
    if not ms:
        return None
    if rng.random() < 0.5:  # every occurrence of one type: keeps the module consistent
        old = rng.choice(ms).group(0)
        new = rng.choice(TYPES)
        return re.sub(r"\b%s\b" % re.escape(old), new, text)
    return _replace_match(text, ms, rng, lambda old: rng.choice(TYPES))


def mutate_shape(text, rng):
    ms = list(_SHAPE.finditer(text))
    if not ms:
        return None
    m = rng.choice(ms)
    dims = m.group(1).split("x")[:-1]
    r = rng.random()
    if r < 0.5:
        i = rng.randrange(len(dims))
        dims[i] = str(rng.choice([0, 1, 2, 3, 4, 6, 8, 16, 32, 64, 128, 256, 1024, 4096,
                                  1 << 20, 1 << 21, 1 << 26]))
    elif r < 0.75:
        dims.insert(rng.randrange(len(dims) + 1), str(rng.choice([1, 2, 4, 16])))
    elif len(dims) > 0:
        del dims[rng.randrange(len(dims))]
    new = "tensor<" + "".join(d + "x" for d in dims)
    if rng.random() < 0.5:  # every occurrence of this shape
        return text.replace(m.group(0), new)
    return text[:m.start()] + new + text[m.end():]


def mutate_string(text, rng):
    return _replace_match(text, list(_STRING.finditer(text)), rng,
                          lambda old: rng.choice(STRINGS))


def mutate_keyword(text, rng):
    return _replace_match(text, list(_KEYWORD.finditer(text)), rng,
                          lambda old: rng.choice(KEYWORDS))


def mutate_list(text, rng):
    def change(old: str) -> Optional[str]:
        inner = old[1:-1]
        items = [s.strip() for s in inner.split(",")] if inner.strip() else []
        r = rng.random()
        if r < 0.4 or not items:
            items.insert(rng.randrange(len(items) + 1),
                         str(rng.choice([0, 1, 2, 3, 4, 8, 32, -1])) if not items or
                         not items[0].startswith("[") else "[0, 1]")
        elif r < 0.7:
            del items[rng.randrange(len(items))]
        else:
            rng.shuffle(items)
        return "[" + ", ".join(items) + "]"
    return _replace_match(text, list(_LIST.finditer(text)), rng, change)


def _op_lines(lines: List[str]) -> List[int]:
    """Lines that are ops inside a body (not the module's first or last)."""
    return [i for i, l in enumerate(lines)
            if l.strip() and not l.strip().startswith(("func.func", "module", "}", "//"))
            and 0 < i < len(lines) - 1]


def delete_op(text, rng):
    lines = text.splitlines()
    ops = _op_lines(lines)
    if not ops:
        return None
    del lines[rng.choice(ops)]
    return "\n".join(lines) + "\n"


def duplicate_op(text, rng):
    lines = text.splitlines()
    ops = _op_lines(lines)
    if not ops:
        return None
    i = rng.choice(ops)
    lines.insert(rng.choice(ops) + 1, lines[i])
    return "\n".join(lines) + "\n"


def move_op(text, rng):
    lines = text.splitlines()
    ops = _op_lines(lines)
    if len(ops) < 2:
        return None
    i, j = rng.sample(ops, 2)
    if rng.random() < 0.5:
        lines[i], lines[j] = lines[j], lines[i]
    else:
        lines.insert(j, lines.pop(i))
    return "\n".join(lines) + "\n"


def change_operand(text, rng):
    uses = list(_VALUE.finditer(text))
    names = sorted({m.group(0) for m in uses})
    if len(names) < 2:
        return None
    return _replace_match(text, uses, rng, lambda old: rng.choice(names))


TOKEN_MUTATIONS = [mutate_int, mutate_float, mutate_type, mutate_shape, mutate_string,
                   mutate_keyword, mutate_list]
STRUCTURAL_MUTATIONS = [delete_op, duplicate_op, move_op, change_operand]
# Weights: numbers, types and shapes are where the verifiers' gaps were.
_ALL = [(mutate_int, 5), (mutate_float, 1), (mutate_type, 3), (mutate_shape, 3),
        (mutate_string, 1), (mutate_keyword, 1), (mutate_list, 3), (delete_op, 2),
        (duplicate_op, 1), (move_op, 1), (change_operand, 2)]
_FUNCS = [f for f, _ in _ALL]
_WEIGHTS = [w for _, w in _ALL]


def mutate(seed: str, rng: random.Random, max_mutations: int = 3) -> str:
    """A mutant of `seed` (one to max_mutations mutations that changed it)."""
    text = seed
    # Mostly one mutation: a mutant the verifier accepts reaches the passes.
    wanted = min(max_mutations, rng.choices([1, 2, 3], [6, 3, 1])[0])
    done = tries = 0
    while done < wanted and tries < 20:
        tries += 1
        f = rng.choices(_FUNCS, _WEIGHTS)[0]
        new = f(text, rng)
        if new is not None and new != text:
            text, done = new, done + 1
    return text
