"""Compiling kernels in the background: `triton.AsyncCompileMode` and
`triton.FutureKernel`, as Triton 3.6 has them.

    with triton.AsyncCompileMode(ThreadPoolExecutor(8)):
        for block in (64, 128, 256):
            kernel.warmup(x, y, n, BLOCK=block, grid=(1,))   # returns at once
    # leaving the block waited for every compile (and raised the first error)

Within the block, `warmup` computes the launch's specialisation key in the
calling thread and submits the compile to the executor, returning a
FutureKernel: `result()` waits for the compiled kernel (a CompiledKernel) and
any other attribute is the compiled kernel's (`fk.metadata` waits too). Two
warmups of one key share one compile. A launch inside the block compiles as
usual (it needs the kernel), sharing a compile already running for its key.
Terrazzo's compiler releases the GIL, so threads compile in parallel.
"""

from __future__ import annotations

from concurrent.futures import Executor, Future, as_completed
from contextvars import ContextVar
from typing import Any, Callable, Dict, List, Optional

_active: ContextVar[Optional["AsyncCompileMode"]] = ContextVar("terrazzo_async_compile",
                                                               default=None)


def active_mode() -> Optional["AsyncCompileMode"]:
    """The AsyncCompileMode whose block is running here, or None."""
    return _active.get()


class FutureKernel:
    """A kernel being compiled: `result()` is the compiled kernel once
    `future` is done, after `finalize_compile(kernel)` has run once (in
    the thread that asks first); other attributes are the compiled
    kernel's."""

    def __init__(self, finalize_compile: Callable[[Any], None], future: Future):
        self.finalize_compile = finalize_compile
        self.future = future
        self.kernel = None

    def result(self, ignore_errors: bool = False):
        """The compiled kernel (waiting for it); its compile's exception is
        raised, or None returned with `ignore_errors`."""
        if self.kernel is not None:
            return self.kernel
        try:
            kernel = self.future.result()
        except Exception:
            if ignore_errors:
                return None
            raise
        self.finalize_compile(kernel)
        self.kernel = kernel
        return kernel

    def __getattr__(self, name):
        # Only attributes this object lacks get here (`_init_handles` goes
        # to the kernel too). Special names are not forwarded, nor is
        # anything on an instance made without __init__ (copy, pickle): it
        # has no `future` to wait on.
        if (name.startswith("__") and name.endswith("__")) or "future" not in self.__dict__:
            raise AttributeError(name)
        return getattr(self.result(), name)

    def __getitem__(self, grid):
        """`fk[grid](*args)`: the compiled kernel's launch."""
        return self.result()[grid]

    def __repr__(self):
        state = "compiled" if self.kernel is not None else (
            "done" if self.future.done() else "compiling")
        return f"FutureKernel({state})"


class AsyncCompileMode:
    """A `with` block in which kernels' warmups compile on `executor` (a
    concurrent.futures executor) and return FutureKernels. Leaving the block
    waits for every compile submitted in it and raises the first failure
    (none with `ignore_errors`). One block at a time per thread (context)."""

    def __init__(self, executor: Executor, *, ignore_errors: bool = False):
        self.executor = executor
        self.ignore_errors = ignore_errors
        self.raw_futures: List[Future] = []
        self.future_kernels: Dict[Any, FutureKernel] = {}

    def submit(self, key, compile_fn: Callable[[], Any],
               finalize_fn: Callable[[Any], None]) -> FutureKernel:
        """The FutureKernel of `key`: `compile_fn()` submitted to the
        executor the first time the key is asked for, the same FutureKernel
        after."""
        future_kernel = self.future_kernels.get(key)
        if future_kernel is not None:
            return future_kernel
        future = self.executor.submit(compile_fn)
        future._terrazzo_key = key
        self.raw_futures.append(future)
        future_kernel = self.future_kernels[key] = FutureKernel(finalize_fn, future)
        return future_kernel

    def __enter__(self):
        if _active.get() is not None:
            raise RuntimeError("Another AsyncCompileMode is already active")
        self._token = _active.set(self)
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        _active.reset(self._token)
        # An exception leaving the block is the one raised: the compiles'
        # own are then ignored.
        ignore = self.ignore_errors or exc_type is not None
        for future in as_completed(self.raw_futures):
            self.future_kernels[future._terrazzo_key].result(ignore)
        return False
