"""Writes a Python kernel's tile IR for ahead-of-time compilation (DESIGN.md §9).

    python3 -m terrazzo.tools.export kernels.py:saxpy_kernel \\
        --signature "*fp32:16, *fp32:16, fp32, i32" --constexpr BLOCK=1024 \\
        --num-warps 4 -o saxpy.mlir

The file is then compiled like any tile IR kernel: by terrazzo-compile, or at
a C++ project's build time by terrazzo_add_kernels() (the CMake package),
which embeds the binary so that the program launches it with no compiler.

`--signature` lists the kernel's parameters that are not `tl.constexpr`, in
order, with comma between them:

    *fp32, *fp16, *bf16, *i32, ...   a pointer to elements of that type
    *fp32:16                         ... whose address is a multiple of 16
    i32, i64                         an integer (no assumption on its value)
    i32:16, i64:16                   an integer that is a multiple of 16
    fp32, fp64, i1                   a float32/float64 scalar, a bool

Every `tl.constexpr` parameter needs `--constexpr NAME=VALUE` (a Python
literal). Needs no GPU and no compiled extension. The sizes of the tensors
are not known ahead of time, so no pointer carries tile.pointer_range:
offsets that may pass 2^31 are computed in 64 bits where they address
memory (TERRAZZO_PROMOTE_OFFSETS=0 at compile time keeps Triton's i32).
"""

import argparse
import ast
import importlib.util
import sys
from pathlib import Path
from typing import Dict, List

from ..compiler.kernel import DEFAULT_NUM_STAGES, DEFAULT_NUM_WARPS
from ..errors import CompilationError
from ..core.lang import dtype_from_name


def key_entry(spec: str) -> tuple:
    """The specialisation-key entry of one `--signature` item."""
    text = spec.strip()
    name, _, hint = text.partition(":")
    if hint not in ("", "16"):
        raise CompilationError(f"signature item {text!r}: the only hint is ':16' "
                               "(a multiple of 16)")
    aligned = hint == "16"
    if name.startswith("*"):
        if dtype_from_name(name[1:]) is None:
            raise CompilationError(f"signature item {text!r}: unknown element type "
                                   f"{name[1:]!r}")
        return ("p", name[1:], aligned)
    if name in ("i32", "i64"):
        tag = "i" if name == "i32" else "l"
        # (tag, equal to 1, multiple of 16, not negative)
        return (tag, False, True, False) if aligned else (tag,)
    if aligned:
        raise CompilationError(f"signature item {text!r}: ':16' applies to pointers "
                               "and integers")
    scalars = {"fp32": ("f",), "f32": ("f",), "fp64": ("d",), "f64": ("d",),
               "i1": ("b",), "bool": ("b",)}
    if name not in scalars:
        raise CompilationError(f"signature item {text!r}: expected *<type>, i32, i64, "
                               "fp32, fp64 or i1")
    return scalars[name]


def build_key(arg_names: List[str], constexprs: List[bool], signature: List[str],
              constants: Dict[str, object], num_warps: int, num_stages: int) -> tuple:
    """The key of a launch with these parameter types and constants."""
    runtime_names = [n for n, cx in zip(arg_names, constexprs) if not cx]
    if len(signature) != len(runtime_names):
        raise CompilationError(
            f"the signature has {len(signature)} item(s) but the kernel has "
            f"{len(runtime_names)} parameter(s) that are not tl.constexpr: "
            f"{', '.join(runtime_names)}")
    unknown = set(constants) - {n for n, cx in zip(arg_names, constexprs) if cx}
    if unknown:
        raise CompilationError(f"--constexpr {', '.join(sorted(unknown))}: not a "
                               "tl.constexpr parameter of the kernel")
    items = iter(signature)
    entries = []
    for name, is_cx in zip(arg_names, constexprs):
        if is_cx:
            if name not in constants:
                raise CompilationError(f"tl.constexpr parameter {name!r} needs "
                                       f"--constexpr {name}=VALUE")
            entries.append(constants[name])
        else:
            entries.append(key_entry(next(items)))
    return tuple(entries) + ((int(num_warps), int(num_stages)),)


def load_kernel(target: str):
    """The JITFunction named by "file.py:name"."""
    path, _, name = target.rpartition(":")
    if not path or not name:
        raise CompilationError(f"{target!r}: expected <file.py>:<kernel name>")
    spec = importlib.util.spec_from_file_location(Path(path).stem, path)
    if spec is None or not Path(path).is_file():
        raise CompilationError(f"cannot read {path!r}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    kernel = getattr(module, name, None)
    while kernel is not None and not hasattr(kernel, "ir_for_key") and hasattr(kernel, "fn"):
        kernel = kernel.fn  # autotune/heuristics wrappers
    if kernel is None or not hasattr(kernel, "ir_for_key"):
        raise CompilationError(f"{path} has no @jit kernel named {name!r}")
    return kernel


def export(target: str, signature: str, constants: Dict[str, object],
           num_warps: int = DEFAULT_NUM_WARPS, num_stages: int = DEFAULT_NUM_STAGES) -> str:
    """The tile IR text of kernel `target` ("file.py:name") for `signature`."""
    kernel = load_kernel(target)
    items = [s for s in signature.split(",") if s.strip()]
    key = build_key(kernel.arg_names, kernel.constexprs, items, constants,
                    num_warps, num_stages)
    return kernel.ir_for_key(key).text


def _constant(text: str):
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"{text!r}: expected NAME=VALUE")
    try:
        return name.strip(), ast.literal_eval(value.strip())
    except (ValueError, SyntaxError):
        raise argparse.ArgumentTypeError(f"{text!r}: the value is not a Python literal")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python3 -m terrazzo.tools.export",
        description="Write a Python kernel's tile IR, for terrazzo-compile.")
    parser.add_argument("kernel", help="<file.py>:<kernel name>")
    parser.add_argument("--signature", required=True,
                        help='the parameters that are not tl.constexpr, e.g. "*fp32:16, i32"')
    parser.add_argument("--constexpr", type=_constant, action="append", default=[],
                        metavar="NAME=VALUE", help="a tl.constexpr parameter's value")
    parser.add_argument("--num-warps", type=int, default=DEFAULT_NUM_WARPS)
    parser.add_argument("--num-stages", type=int, default=DEFAULT_NUM_STAGES)
    parser.add_argument("-o", "--output", default="-", help="the .mlir file (default: stdout)")
    args = parser.parse_args(argv)
    try:
        text = export(args.kernel, args.signature, dict(args.constexpr),
                      args.num_warps, args.num_stages)
    except CompilationError as error:
        print(f"terrazzo.tools.export: {error}", file=sys.stderr)
        return 1
    if args.output == "-":
        sys.stdout.write(text)
    else:
        Path(args.output).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
