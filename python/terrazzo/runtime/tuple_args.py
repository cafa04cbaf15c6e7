"""Launching a kernel with tuple or aggregate arguments.

The C++ dispatcher binds, keys and packs parameters that take one value
each, and refuses a tuple (TypeError). A launch that passes a tuple (a
list, a NamedTuple, tl.tuple) or an aggregate instance to a runtime
parameter comes here: each such argument is flattened into its runtime
members (numbers and pointers, nested ones included, in order), and a
dispatcher of its own binds them as parameters of their own. There is one
such dispatcher per *template* of the arguments (which parameters hold
tuples, their classes, their compile-time members: compiler/kernel.py's
tuple_template); its keys convert back to the kernel's key (tuple_entry),
so a member is specialised as a parameter of its own would be (pointer
alignment, integers equal to 1 or divisible by 16; do_not_specialize and
do_not_specialize_on_alignment name members by their paths) and the kernel compiled
and cached is the one `compute_key` names. The flattening costs a few
microseconds of Python per launch, for these launches only.
"""

from __future__ import annotations

from typing import Any, Dict, List, Sequence

from ..compiler.kernel import (member_mode, runtime_members, split_key, tuple_entry,
                               tuple_template)
from ..core.structures import is_structure
from . import driver


def has_structures(args: Sequence[Any], kwargs: Dict[str, Any]) -> bool:
    """Whether a launch passes a tuple or aggregate (the dispatcher's
    TypeError for it sends the launch here)."""
    return any(is_structure(a) for a in args) or any(is_structure(v) for v in kwargs.values())


def _member_names(name: str, template: tuple, out: List[str], paths: List[tuple],
                  path: tuple = ()) -> None:
    """The names of the runtime members of a tuple parameter, for the
    dispatcher's messages (values[0], values[1][2], p.x: an aggregate's
    field), and their paths (positions at each level)."""
    _, cls, members = template
    fields = getattr(cls, "_terrazzo_fields", None) or getattr(cls, "_fields", None)
    for i, m in enumerate(members):
        sub = f"{name}.{fields[i]}" if fields else f"{name}[{i}]"
        if m == "arg":
            out.append(sub)
            paths.append(path + (i,))
        elif m[0] == "tuple":
            _member_names(sub, m, out, paths, path + (i,))


class TupleLaunches:
    """The dispatchers of one JITFunction's launches with tuple arguments,
    by template."""

    def __init__(self, fn):
        self.fn = fn
        self.dispatchers: Dict[tuple, Any] = {}

    def _flatten(self, args, kwargs):
        """(the bound arguments, the template of each parameter (None: not
        a tuple), the flat arguments, the launch options)."""
        fn = self.fn
        meta = fn._bind(args, kwargs)
        templates, flat = [], []
        for name, is_cx in zip(fn.arg_names, fn.constexprs):
            value = meta[name]
            if not is_cx and is_structure(value):
                templates.append(tuple_template(value))
                flat.extend(runtime_members(value))
            else:
                templates.append(None)
                flat.append(value)
        options = {k: v for k, v in kwargs.items() if k not in fn.arg_names}
        return meta, tuple(templates), flat, options

    def _dispatcher(self, templates: tuple):
        dispatcher = self.dispatchers.get(templates)
        if dispatcher is not None:
            return dispatcher
        fn = self.fn
        names, constexprs, dns = [], [], []
        for i, t in enumerate(templates):
            if t is None:
                names.append(fn._dispatcher_names[i])
                constexprs.append(fn.constexprs[i])
                dns.append(member_mode(fn.do_not_specialize[i]))
            else:
                paths: List[tuple] = []
                _member_names(fn.arg_names[i], t, names, paths)
                constexprs.extend([False] * len(paths))
                dns.extend(member_mode(fn.do_not_specialize[i], p) for p in paths)
        C = driver.get_C()

        def compile_for_key(flat_key, bound_args=None):
            entries, num_warps, num_stages = split_key(flat_key, len(names))
            it = iter(entries)
            key = [next(it) if t is None else tuple_entry(t, it) for t in templates]
            return fn._compile_for_key(tuple(key) + ((num_warps, num_stages),))

        dispatcher = C.Dispatcher(names, constexprs, dns, [C.NO_DEFAULT] * len(names),
                                  compile_for_key, fn.__name__,
                                  current_stream=driver.current_stream)
        self.dispatchers[templates] = dispatcher
        return dispatcher

    def key(self, args, kwargs) -> tuple:
        """The kernel's key of a launch (warmup)."""
        return self.fn.key_for(*args, **kwargs)

    def run(self, grid, args, kwargs):
        meta, templates, flat, options = self._flatten(args, kwargs)
        if callable(grid):  # called with the arguments as given, tuples included
            user_grid = grid

            def grid(_flat_meta):
                return user_grid(meta)
        return self._dispatcher(templates).run(grid, flat, options)
