"""Runtime control flow in the function of `tl.map_elementwise`.

Triton calls that function once per element, so its `if`, early `return`,
`for` and `while` may depend on the element's values. Terrazzo calls it
once on whole blocks (the frontend has no per-element region), so such a
condition is a block of booleans, one per element, and the code generator
hands the control flow to `ElementwiseFlow`, which runs it element-wise
(if-conversion):

* `if c:` visits both branches, each on its own copy of the names; a name
  both branches leave set becomes where(c, then-value, else-value). The
  function is element-wise code without effects, so running both branches
  is not observable.
* An `if` holding a `return` visits each branch followed by the rest of
  the function (the code generator's usual move) and returns
  where(c, then-result, else-result); the elements of a path that falls
  off the end take the other path's result.
* `for i in range(a, b, s)` with per-element bounds (and a compile-time
  step) runs to the largest trip count among the elements taking part; at
  iteration k an element takes part while k is below its own count.
* `while c:` runs while c holds for some element taking part; an element
  takes part in an iteration while c holds for it.

In loops, a name the body sets keeps its value for the elements not taking
part. The code generator's `lanes` is the block of elements the code being
visited runs for (the conditions of the enclosing branches and loops); it
bounds the trip counts of nested loops.
"""

from __future__ import annotations

import math
from typing import Callable, Iterable, Sequence, Tuple

from ..errors import SemanticError, UnsupportedError
from ..core import lang as tl
from ..core.lang import _unwrap, tensor
from .type_rules import _is_py_number


class ElementwiseFlow:
    """Element-wise control flow for one code generator (`gen`) visiting a
    tl.map_elementwise function called on blocks of shape `shape`."""

    def __init__(self, gen, shape: Sequence[int]):
        self.gen = gen
        self.shape = list(shape)

    @property
    def sem(self):
        return self.gen.sem

    # ------------------------------------------------------------------
    # Helpers
    # ------------------------------------------------------------------
    def _bool(self, cond: tensor) -> tensor:
        return cond if cond.type.scalar.is_bool() else self.sem.cast(cond, tl.int1)

    def _within(self, cond: tensor) -> tensor:
        """The elements of the boolean block `cond` among those taking
        part."""
        lanes = self.gen.lanes
        return cond if lanes is None else self.sem.and_(lanes, cond)

    def _any(self, cond: tensor) -> tensor:
        """Whether an element of the boolean block `cond` is true (an i1
        scalar)."""
        sem = self.sem
        flat = sem.reshape(sem.cast(cond, tl.int32), [math.prod(cond.shape)])
        return sem.compare("ne", sem.minmax_reduce("max", flat, 0), 0)

    def _run(self, stmts, lanes: tensor):
        """Visits `stmts` for the elements `lanes` on a copy of the names:
        (the names after, the return that ended the statements or None)."""
        gen = self.gen
        scope, saved_lanes = gen.scope, gen.lanes
        gen.scope, gen.lanes = dict(scope), lanes
        try:
            r = gen.visit_block(list(stmts))
            return gen.scope, r
        finally:
            gen.scope, gen.lanes = scope, saved_lanes

    def select(self, what: str, cond: tensor, tv, ev):
        """where(cond, tv, ev) for the two values of `what` (a quoted name,
        or a description): tuples element by element, a number taking the
        other value's type; a value both paths share stays as it is."""
        tu, eu = _unwrap(tv), _unwrap(ev)
        if isinstance(tu, (tuple, list)) or isinstance(eu, (tuple, list)):
            if not (isinstance(tu, (tuple, list)) and isinstance(eu, (tuple, list))) or \
                    len(tu) != len(eu):
                raise SemanticError(f"{what} is {tu!r} on one path of an element-wise if "
                                    f"but {eu!r} on the other")
            return tuple(self.select(what, cond, a, b) for a, b in zip(tu, eu))
        t_is, e_is = isinstance(tu, tensor), isinstance(eu, tensor)
        if not t_is and not e_is:
            if type(tu) is type(eu) and tu == eu:
                return tv
            if not (_is_py_number(tu) and _is_py_number(eu)):
                raise SemanticError(f"{what} has different compile-time values on the two "
                                    f"paths of an element-wise if ({tu!r} and {eu!r})")
        if not t_is:
            tu = self.gen._number_like(tu, eu)
        if not e_is:
            eu = self.gen._number_like(eu, tu)
        if tu.type.scalar != eu.type.scalar:
            raise SemanticError(f"{what} has type {tu.type.scalar} on one path of an "
                                f"element-wise if but {eu.type.scalar} on the other; convert "
                                "one of them so that they agree")
        return self.sem.where(self._bool(cond), tu, eu)

    # ------------------------------------------------------------------
    # if
    # ------------------------------------------------------------------
    def if_(self, cond: tensor, node) -> None:
        cond = self._bool(cond)
        then_scope, _ = self._run(node.body, self._within(cond))
        else_scope, _ = self._run(node.orelse, self._within(self.sem.logical_not(cond)))
        scope = self.gen.scope
        for name, tv in then_scope.items():
            if name in else_scope:  # a name set in one branch only is not seen after
                ev = else_scope[name]
                scope[name] = tv if tv is ev else self.select(repr(name), cond, tv, ev)
        return None

    def if_with_return(self, cond: tensor, node, rest: list):
        """An if holding a return, followed by `rest` (the statements after
        it): the return (the code generator's _Return) of the function."""
        cond = self._bool(cond)
        _, t = self._run(list(node.body) + rest, self._within(cond))
        _, e = self._run(list(node.orelse) + rest, self._within(self.sem.logical_not(cond)))
        tv = None if t is None else _unwrap(t.value)
        ev = None if e is None else _unwrap(e.value)
        if ev is None:
            return t if t is not None else e
        if tv is None:
            return e
        t.value = self.select("the returned value", cond, tv, ev)
        return t

    # ------------------------------------------------------------------
    # Loops
    # ------------------------------------------------------------------
    def widen(self, names: Iterable[str]) -> None:
        """The scalar tensors among `names` (those a loop body sets) as
        blocks of the elements' shape: `acc = 0` before a loop that sets it
        per element keeps one type."""
        gen = self.gen
        for name in names:
            v = _unwrap(gen.scope.get(name))
            if isinstance(v, tensor) and not v.type.is_block() and self.shape:
                gen.scope[name] = self.sem.broadcast_to(v, self.shape)

    def _update(self, stmts, active: tensor) -> None:
        """Runs `stmts` for the elements `active`; the names they set keep
        their values for the other elements."""
        gen = self.gen
        before = gen.scope
        after, _ = self._run(stmts, active)
        for name, v in after.items():
            if name in before and v is not before[name]:
                before[name] = self.select(repr(name), active, v, before[name])

    def for_(self, node, start, end, step) -> None:
        """`for` over range(start, end, step) with per-element bounds."""
        gen, sem = self.gen, self.sem
        if isinstance(step, tensor) or not isinstance(step, int) or isinstance(step, bool) \
                or step == 0:
            raise gen.error(node.iter, "a loop with per-element bounds in a "
                            "tl.map_elementwise function needs a nonzero compile-time step",
                            UnsupportedError)
        for name, v in (("start", start), ("end", end)):
            bad = not v.type.scalar.is_int() if isinstance(v, tensor) else \
                not isinstance(v, int) or isinstance(v, bool)
            if bad:
                raise gen.error(node.iter, f"the {name} of a range must be an integer, "
                                f"got {v.type.scalar if isinstance(v, tensor) else v!r}")
        iv_ty = gen._iv_type(start, end, step)
        first = sem.cast(sem.to_tensor(start), iv_ty)
        last = sem.cast(sem.to_tensor(end), iv_ty)
        span = sem.sub(last, first) if step > 0 else sem.sub(first, last)
        trips = sem.minmax("max", sem.floordiv(sem.add(span, abs(step) - 1), abs(step)), 0)
        trips = sem.broadcast_to(trips, self.shape)
        if gen.lanes is not None:
            trips = sem.where(gen.lanes, trips, 0)
        most = sem.minmax_reduce("max", sem.reshape(trips, [math.prod(self.shape)]), 0)

        def iteration(k: tensor) -> None:
            gen._assign(node.target, sem.add(first, sem.mul(k, step)), node)
            self._update(node.body, sem.compare("lt", k, trips))

        if gen.builder.concrete:
            return gen._interpreted_for(node, 0, most, 1, iteration)
        return gen._emit_for(node, 0, most, 1, iteration)

    def while_parts(self, node) -> Tuple[Callable[[], tensor], Callable[[], None]]:
        """(condition, body) of a `while` on a per-element condition, for
        the code generator's loop: it runs while an element takes part."""
        gen = self.gen

        def active() -> tensor:
            return self._within(self._bool(_unwrap(gen.visit(node.test))))

        def test() -> tensor:
            return self._any(active())

        def body() -> None:
            self._update(node.body, active())

        return test, body
