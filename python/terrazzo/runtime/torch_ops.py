"""Terrazzo kernels inside `torch.compile`: `terrazzo.torch_op`.

torch.compile cannot look into a Terrazzo launch (it goes through the C++
dispatcher with raw device pointers), so a function that launches kernels is
made a torch custom operator, which the compiler keeps whole in its graph
(no graph break):

    @terrazzo.torch_op("mylib::add", mutates_args=())
    def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(x)
        add_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, out, x.numel(), BLOCK=1024)
        return out

    torch.compile(lambda x, y: add(x, y) * 2, fullgraph=True)

The operator also needs a fake (meta) implementation, which the compiler runs
on fake tensors to learn the outputs' shapes, dtypes and strides. torch_op
registers the function itself for that, run with kernel launches skipped
(jit.skipping_launches): right for a function that allocates its outputs
from its inputs' shapes and reads no tensor data on the host. Otherwise give
`fake=` (a function with the same signature returning empty outputs), or call
`register_fake` on the result, as for any torch custom operator.

torch is imported when an operator is made, never by `import terrazzo`.
"""

from __future__ import annotations

import functools
from typing import Callable, Iterable, Optional, Sequence, Union

from .jit import skipping_launches


def _shapes_only(fn: Callable) -> Callable:
    """`fn` as its own fake implementation: launches skipped."""
    @functools.wraps(fn)
    def fake(*args, **kwargs):
        with skipping_launches():
            return fn(*args, **kwargs)
    return fake


def torch_op(name: str, fn: Optional[Callable] = None, *,
             mutates_args: Union[str, Iterable[str]],
             device_types: Union[None, str, Sequence[str]] = None,
             schema: Optional[str] = None, fake: Optional[Callable] = None):
    """Decorator: `fn`, a function with type hints that launches Terrazzo
    kernels on torch tensors, as the torch custom operator `name`
    ("namespace::name"), with a fake implementation (see the module's
    documentation). `mutates_args` names the arguments the kernels write
    (required, as by torch.library.custom_op: () for none); `device_types`
    and `schema` are custom_op's. Returns torch's operator (a CustomOpDef:
    call it, or `register_autograd`, `register_fake` on it)."""
    def register(f: Callable):
        try:
            import torch
            import torch.library  # noqa: F401 (not always imported by torch)
        except ImportError as e:
            raise ImportError(f"terrazzo.torch_op({name!r}) needs PyTorch") from e
        custom_op = getattr(torch.library, "custom_op", None)
        if custom_op is None:
            raise ImportError(f"terrazzo.torch_op({name!r}) needs torch.library.custom_op "
                              f"(torch 2.4 or newer), not torch "
                              f"{getattr(torch, '__version__', '?')}")
        options = {"mutates_args": mutates_args, "device_types": device_types}
        if schema is not None:
            options["schema"] = schema
        op = custom_op(name, **options)(f)
        op.register_fake(fake if fake is not None else _shapes_only(f))
        return op
    return register(fn) if fn is not None else register
