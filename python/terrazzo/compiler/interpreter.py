"""Builder 2: the interpreter, running kernels with NumPy on the CPU.

The same code generator and semantic layer that emit tile IR drive this
builder, so a kernel means the same thing in both. Values are NumPy arrays
(0-d for scalars) of the storage type of their language type: bfloat16 is
kept in float32 and rounded to bfloat16 after every operation, float16 is
computed by NumPy in its own precision, and the fp8 types are float32
holding exactly an fp8 value (bytes in memory; see fp8.py for the
conversions, bit-exact with the GPU's).

Memory: each pointer argument's underlying allocation is registered as a
byte buffer; a pointer is a (buffer, byte offset) pair encoded in an int64 as
`(buffer + 1) << 40 | offset`, so pointer arithmetic is integer arithmetic
and `tl.where` on pointers works. Every access is checked: an address outside
its buffer (or misaligned) raises `InterpreterError` naming the kernel's file
and line, the argument and the offending element.
"""

from __future__ import annotations

import math
import time
from typing import List, Optional, Tuple

import numpy as np

from ..errors import (CompilationError, InterpretedCompilationError, InterpreterError,
                      SemanticError)
from ..core import lang as tl
from ..core.lang import constexpr, dtype, pointer_type, tensor
from . import fp8, interpreter_atomics
from .builder import Builder
from .numerics import (MEMORY_DTYPES, bf16_from_bits, bf16_to_bits, round_to_bf16,
                       storage_dtype)

_SHIFT = 40
# An address belongs to the argument whose base is within 2^39 bytes of it
# (below or above), so a pointer is judged against the argument it was
# derived from even when it is far out of bounds.
_HALF = 1 << (_SHIFT - 1)


class _Root:
    """Memory that arguments' views share (a NumPy array's base, a torch
    storage), as bytes."""

    def __init__(self, data: np.ndarray, key, write_back=None):
        self.data = data  # 1-D uint8
        self.key = key
        self.write_back = write_back
        self.dirty = False
        # Per byte, the program (linear id) that last stored to it in this
        # launch; allocated by the first store when races are checked.
        self.writers: Optional[np.ndarray] = None


class _Buffer:
    """One pointer argument: the bytes its view spans in its root. A pointer
    into it is encoded relative to the first of them."""

    def __init__(self, root: _Root, start: int, nbytes: int, name: str, elt: Optional[dtype]):
        self.root, self.start = root, start
        self.data = root.data[start:start + nbytes]  # shares the root's memory
        self.name = name
        self.elt = elt

    @property
    def write_back(self):
        return self.root.write_back

    @property
    def dirty(self):
        return self.root.dirty

    @dirty.setter
    def dirty(self, value):
        self.root.dirty = value


def _root_array(a: np.ndarray) -> Tuple[np.ndarray, int]:
    """The array owning `a`'s memory as bytes, and `a`'s byte offset in it."""
    root = a
    while isinstance(root.base, np.ndarray):
        root = root.base
    if not (root.flags.c_contiguous or root.flags.f_contiguous):
        root = a
        if not (a.flags.c_contiguous or a.flags.f_contiguous):
            raise CompilationError("the interpreter needs arrays whose memory is "
                                   "contiguous (or views of such arrays)")
    flat = root.reshape(-1, order="A") if root.ndim else root.reshape(1)
    u8 = flat.view(np.uint8)
    offset = a.__array_interface__["data"][0] - root.__array_interface__["data"][0]
    return u8, offset


def _span(shape, strides, itemsize: int) -> Tuple[int, int]:
    """The bytes a view spans around its first element: (lowest, end), the
    lowest negative with negative strides."""
    if any(n == 0 for n in shape):
        return 0, 0
    low = sum(min(0, (n - 1) * s) for n, s in zip(shape, strides))
    high = sum(max(0, (n - 1) * s) for n, s in zip(shape, strides))
    return low, high + itemsize


class Memory:
    def __init__(self, check_races: bool = False):
        self.buffers: List[_Buffer] = []
        self.roots: List[_Root] = []
        self.check_races = check_races

    def _root(self, key, make) -> _Root:
        for r in self.roots:
            if r.key == key:
                return r
        r = make()
        self.roots.append(r)
        return r

    def _add(self, root: _Root, first: int, low: int, end: int, name: str,
             elt: Optional[dtype]) -> int:
        """The encoded pointer to byte `first` of `root`, in the argument
        spanning bytes [first + low, first + end) (clipped to the root)."""
        start = max(0, first + low)
        stop = min(root.data.nbytes, first + end)
        nbytes = max(0, stop - start)
        for i, b in enumerate(self.buffers):
            if b.root is root and b.start == start and b.data.nbytes == nbytes:
                return ((i + 1) << _SHIFT) + first - start
        self.buffers.append(_Buffer(root, start, nbytes, name, elt))
        return (len(self.buffers) << _SHIFT) + first - start

    def add_array(self, a: np.ndarray, name: str, elt: Optional[dtype]) -> int:
        u8, offset = _root_array(a)
        key = (u8.__array_interface__["data"][0], u8.nbytes)
        root = self._root(key, lambda: _Root(u8, key))
        low, end = _span(a.shape, a.strides, a.itemsize)
        return self._add(root, offset, low, end, name, elt)

    def add_torch(self, t, name: str, elt: Optional[dtype]) -> int:
        import torch
        storage = t.untyped_storage()
        nbytes = storage.nbytes()
        key = (storage.data_ptr(), nbytes)

        def make():
            whole = torch.empty(0, dtype=torch.uint8, device=t.device)
            whole.set_(storage, 0, (nbytes,), (1,))
            if whole.device.type == "cpu":
                return _Root(whole.numpy(), key)
            data = whole.cpu().numpy().copy()

            def write_back(arr, whole=whole):
                whole.copy_(torch.from_numpy(arr).to(whole.device))
            return _Root(data, key, write_back)
        root = self._root(key, make)
        size = t.element_size()
        low, end = _span(tuple(t.shape), [s * size for s in t.stride()], size)
        return self._add(root, t.storage_offset() * size, low, end, name, elt)

    def finish(self):
        for r in self.roots:
            if r.write_back is not None and r.dirty:
                r.write_back(r.data)

    # -- access -----------------------------------------------------------
    def _locate(self, addrs: np.ndarray, itemsize: int, what: str, elt: dtype, loc, pid):
        """[(argument, lanes (None: all), byte offsets in the argument)] of
        the addresses, each checked against the argument it points into."""
        ids = ((addrs + _HALF) >> _SHIFT) - 1
        offs = addrs - ((ids + 1) << _SHIFT)
        first, last = int(ids.min()), int(ids.max())
        if first == last and 0 <= first < len(self.buffers):
            buf = self.buffers[first]
            bad = (offs < 0) | (offs + itemsize > buf.data.nbytes) | (offs % itemsize != 0)
            if not bad.any():
                return [(first, None, offs)]
        # General case (several buffers, or an error to describe).
        result = []
        for bid in np.unique(ids):
            sel = ids == bid
            o = offs[sel]
            self._check(int(bid), o, itemsize, what, elt, loc, pid)
            result.append((int(bid), sel, o))
        return result

    def _check(self, bid, offs, itemsize, what, elt, loc, pid):
        def fail(msg):
            raise InterpreterError(f"out-of-bounds {what} in program {pid}: {msg}", loc)
        if bid < 0 or bid >= len(self.buffers):
            if bid == -1 and 0 <= int(offs.min()) and int(offs.max()) < (1 << 20):
                fail("the pointer is null (an argument passed as None?)")
            fail("the address belongs to no argument")
        buf = self.buffers[bid]
        low = int(offs.min())
        if low < 0:
            fail(f"element {low // itemsize} of {buf.name!r} is before its start "
                 f"(a {self._describe(buf, itemsize)})")
        big = offs + itemsize > buf.data.nbytes
        if big.any():
            o = int(offs[big].max())
            n = int(big.sum())
            fail(f"element {o // itemsize} of {buf.name!r} is past its end (a "
                 f"{self._describe(buf, itemsize)}; {n} lane{'s' if n > 1 else ''} out "
                 "of bounds)")
        if (offs % itemsize != 0).any():
            fail(f"a {itemsize}-byte access to {buf.name!r} is misaligned")

    def record_stores(self, bid: int, offs: np.ndarray, changes: np.ndarray, program: int,
                      pid, loc):
        """Remembers that `program` stored to these bytes of argument `bid`;
        raises when it changes one that another program of the launch stored
        to (the result would depend on their order; the same value stored
        twice does not). The stores are those made without an atomic: see
        InterpreterBuilder.start_program."""
        buf = self.buffers[bid]
        root = buf.root
        if root.writers is None:
            root.writers = np.full(root.data.nbytes, -1, dtype=np.int64)
        where = buf.start + offs
        before = root.writers[where]
        clash = (before >= 0) & (before != program) & changes
        if clash.any():
            i = int(np.flatnonzero(clash)[0])
            other = int(before[i])
            gx, gy = self.grid[0], self.grid[1]
            other_pid = (other % gx, other // gx % gy, other // (gx * gy))
            size = buf.elt.itemsize if buf.elt is not None else 1
            raise InterpreterError(
                f"data race in program {pid}: it stores to element {int(offs[i]) // size} of "
                f"{buf.name!r} another value than program {other_pid} stored there in this "
                "launch, without an atomic (set TERRAZZO_INTERPRET_CHECK_RACES=0 if the "
                "programs are ordered otherwise)", loc)
        root.writers[where] = program

    @staticmethod
    def _describe(buf: _Buffer, itemsize: int) -> str:
        name = f"{buf.elt} " if buf.elt is not None else ""
        return f"{name}buffer of {buf.data.nbytes // itemsize} elements"

    def load(self, addrs: np.ndarray, mask: Optional[np.ndarray], elt: dtype, loc, pid):
        shape = addrs.shape
        flat = np.asarray(addrs, dtype=np.int64).reshape(-1)
        mem_dt = np.dtype(MEMORY_DTYPES[elt.name]) if not elt.is_ptr() else np.dtype(np.int64)
        out = np.zeros(flat.shape, dtype=mem_dt)
        active = None
        if mask is not None:
            active = np.broadcast_to(mask, shape).reshape(-1)
            sel_addrs = flat[active]
        else:
            sel_addrs = flat
        if sel_addrs.size:
            vals = np.empty(sel_addrs.shape, dtype=mem_dt)
            for bid, sel, offs in self._locate(sel_addrs, mem_dt.itemsize, "load", elt, loc,
                                               pid):
                data = self.buffers[bid].data
                n = data.nbytes // mem_dt.itemsize
                typed = data[:n * mem_dt.itemsize].view(mem_dt)
                got = typed[offs // mem_dt.itemsize]
                if sel is None:
                    vals = got
                else:
                    vals[sel] = got
            if active is None:
                out = vals
            else:
                out[active] = vals
        out = out.reshape(shape)
        if elt.is_bf16():
            return bf16_from_bits(out).reshape(shape)
        if elt.is_fp8():
            return fp8.decode(out, elt.name)
        return out

    def store(self, addrs, values, mask, elt: dtype, loc, pid, program: Optional[int] = None):
        """Stores `values`; with `program` (the linear id of the program
        storing), checks for a store by another program to the same bytes
        (record_stores)."""
        shape = addrs.shape
        flat = np.asarray(addrs, dtype=np.int64).reshape(-1)
        if elt.is_bf16():
            values = bf16_to_bits(np.asarray(values, dtype=np.float32))
        elif elt.is_fp8():
            # An fp8 value is an infinity only when it was loaded as one
            # (conversions saturate): storing it writes the same bytes.
            values = fp8.encode(np.asarray(values, dtype=np.float32), elt.name,
                                keep_infinities=True)
        mem_dt = np.dtype(MEMORY_DTYPES[elt.name]) if not elt.is_ptr() else np.dtype(np.int64)
        vals = np.broadcast_to(np.asarray(values).astype(mem_dt, copy=False), shape).reshape(-1)
        if mask is not None:
            active = np.broadcast_to(mask, shape).reshape(-1)
            flat, vals = flat[active], vals[active]
        if not flat.size:
            return
        for bid, sel, offs in self._locate(flat, mem_dt.itemsize, "store", elt, loc, pid):
            buf = self.buffers[bid]
            data = buf.data
            n = data.nbytes // mem_dt.itemsize
            typed = data[:n * mem_dt.itemsize].view(mem_dt)
            index = offs // mem_dt.itemsize
            new = vals if sel is None else vals[sel]
            if program is not None:
                bits = np.dtype(f"u{mem_dt.itemsize}")
                changes = typed[index].view(bits) != np.ascontiguousarray(new).view(bits)
                self.record_stores(bid, offs, changes, program, pid, loc)
            typed[index] = new
            buf.dirty = True


# ---------------------------------------------------------------------------
# The builder
# ---------------------------------------------------------------------------

def _vectorize(f):
    uf = np.frompyfunc(f, 1, 1)

    def g(x):
        return uf(x).astype(x.dtype)
    return g


def _round_half_away(x):
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


_UNARY = {
    "exp": np.exp, "exp2": np.exp2, "log": np.log, "log2": np.log2, "sqrt": np.sqrt,
    "sqrt_rn": np.sqrt, "rsqrt": lambda x: 1 / np.sqrt(x), "sin": np.sin, "cos": np.cos,
    "floor": np.floor, "ceil": np.ceil, "erf": _vectorize(math.erf), "tanh": np.tanh,
    "fast_tanh": lambda x: np.tanh(x.astype(np.float64)),
    "log1p": np.log1p, "expm1": np.expm1, "log10": np.log10, "tan": np.tan, "trunc": np.trunc,
    "round": _round_half_away, "negf": np.negative, "absf": np.abs, "absi": np.abs,
}

_FLOAT_BINARY = {
    "addf": np.add, "subf": np.subtract, "mulf": np.multiply, "divf": np.divide, "divf_approx": np.divide,
    "divf_fast": np.divide,
    "remf": np.fmod, "powf": np.power, "minnumf": np.fmin, "maxnumf": np.fmax,
    "minimumf": np.minimum, "maximumf": np.maximum,
}

_COMPARE = {
    "olt": np.less, "ole": np.less_equal, "ogt": np.greater, "oge": np.greater_equal,
    "oeq": np.equal, "une": np.not_equal, "slt": np.less, "sle": np.less_equal,
    "sgt": np.greater, "sge": np.greater_equal, "ult": np.less, "ule": np.less_equal,
    "ugt": np.greater, "uge": np.greater_equal, "eq": np.equal, "ne": np.not_equal,
}


#: Unary ops on the sign bit alone, which keep a NaN's sign as they find it.
_SIGN_OPS = frozenset({"negf", "absf"})


def _positive_nan(r: np.ndarray) -> np.ndarray:
    """`r` with its NaNs positive, as the GPU's float arithmetic gives them
    (x86 gives a negative NaN for an invalid operation such as 0 / 0 or
    sqrt(-1)): the sign is what a conversion to float8e4b15, which
    saturates NaNs to +-1.75, keeps. For the results of float arithmetic:
    binary, unary (but the sign ops) and fused multiply-add."""
    nan = np.isnan(r)
    return np.where(nan, np.array(np.nan, r.dtype), r) if nan.any() else r


def _c_div(a, b):
    """Integer division truncating toward zero (C, and the GPU); x / 0 is 0."""
    zero = b == 0
    bs = np.where(zero, 1, b).astype(b.dtype)
    q = np.floor_divide(a, bs)
    if np.issubdtype(a.dtype, np.signedinteger):
        r = a - q * bs
        q = q + ((r != 0) & ((a < 0) != (bs < 0)))
    return np.where(zero, 0, q)


def _c_rem(a, b):
    zero = b == 0
    bs = np.where(zero, 1, b).astype(b.dtype)
    return np.where(zero, a, np.fmod(a, bs))


def _round_to_tf32(x: np.ndarray) -> np.ndarray:
    """float32 values rounded to tf32 (10 mantissa bits, to nearest even),
    as tensor cores read them with input_precision="tf32"."""
    bits = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    finite = np.isfinite(x)
    lsb = (bits >> 13) & 1
    rounded = ((bits + 0xFFF + lsb) & ~np.uint64(0x1FFF)).astype(np.uint32)
    return np.where(finite, rounded.view(np.float32), x)


def _round_operands(x: np.ndarray, precision: str) -> np.ndarray:
    """What the product sees of float32 operands: tf32 rounds each operand;
    tf32x3 (three tf32 products recovering nearly all of float32) is taken
    as float32 itself."""
    if precision == "tf32":
        return _round_to_tf32(x)
    return x  # tf32x3: within float32 rounding of the exact product


class _Descriptor:
    """A tensor descriptor in the interpreter: the base address (as encoded
    pointers are), the shape and strides (in elements) and the element type."""

    def __init__(self, base: int, shape, strides, elt: dtype):
        self.base, self.shape, self.strides, self.elt = base, shape, strides, elt


class InterpreterBuilder(Builder):
    concrete = True

    def __init__(self, memory: Memory, grid: Tuple[int, int, int]):
        self.memory = memory
        self.grid = grid
        memory.grid = grid
        self.loc = None
        self.start_program((0, 0, 0))

    def start_program(self, pid: Tuple[int, int, int]):
        self.pid = pid
        # This program's linear id while its stores are checked for races:
        # with the check on, until its first atomic (programs that take a
        # lock, or count arrivals, order their plain stores themselves).
        self.storing_program = (pid[0] + self.grid[0] * (pid[1] + self.grid[1] * pid[2])
                                if self.memory.check_races else None)

    def to_python(self, h):
        return np.asarray(h).item()

    def _finish(self, x, ty):
        x = np.asarray(x)
        sca = ty.scalar
        if sca.is_bf16():
            return round_to_bf16(x)
        if sca.is_fp8():  # values that are fp8 already (selected, not computed)
            return fp8.quantize(x, sca.name, keep_infinities=True)
        dt = storage_dtype(ty)
        if x.dtype != dt:
            x = x.astype(dt)
        return x

    # -- values ---------------------------------------------------------------
    def constant(self, value, ty):
        shape = ty.shape if ty.is_block() else ()
        sca = ty.scalar
        if sca.is_bf16():
            return np.broadcast_to(round_to_bf16(np.array(value, dtype=np.float64)), shape)
        if sca.is_fp8():
            return np.broadcast_to(fp8.quantize(np.array(value, dtype=np.float64), sca.name),
                                   shape)
        with np.errstate(all="ignore"):  # out-of-range floats become infinities
            return np.full(shape, value, dtype=storage_dtype(sca))

    def program_id(self, axis):
        return np.array(self.pid[axis], dtype=np.int32)

    def num_programs(self, axis):
        return np.array(self.grid[axis], dtype=np.int32)

    def make_range(self, start, end, ty):
        return np.arange(start, end, dtype=np.int32)

    def splat(self, h, src_ty, dst_ty):
        return np.broadcast_to(np.asarray(h), dst_ty.shape)

    def broadcast(self, h, src_ty, dst_ty):
        return np.broadcast_to(h, dst_ty.shape)

    def expand_dims(self, h, axis, src_ty, dst_ty):
        return np.expand_dims(h, axis)

    def trans(self, h, order, src_ty, dst_ty):
        return np.ascontiguousarray(np.transpose(np.asarray(h), order))

    def reshape(self, h, allow_reorder, src_ty, dst_ty):
        # Row-major order, also when reordering is allowed.
        return np.ascontiguousarray(np.asarray(h)).reshape(dst_ty.shape)

    def join(self, a, b, src_ty, dst_ty):
        shape = src_ty.shape
        return np.stack([np.broadcast_to(a, shape), np.broadcast_to(b, shape)], axis=-1)

    def split(self, h, src_ty, dst_ty):
        h = np.asarray(h)
        return np.ascontiguousarray(h[..., 0]), np.ascontiguousarray(h[..., 1])

    # -- arithmetic -------------------------------------------------------------
    def binary(self, op, a, b, ty):
        a, b = np.asarray(a), np.asarray(b)
        sca = ty.scalar
        if op in _FLOAT_BINARY:
            return self._finish(_positive_nan(np.asarray(_FLOAT_BINARY[op](a, b))), ty)
        dt = storage_dtype(ty)
        if sca.is_bool():
            a8, b8 = a.astype(np.uint8), b.astype(np.uint8)
            r = self._int_binary(op, a8, b8, 1, np.dtype(np.uint8))
            return (r & 1).astype(np.bool_)
        return self._int_binary(op, a, b, sca.int_bitwidth, dt).astype(dt, copy=False)

    def _int_binary(self, op, a, b, bits, dt):
        if op == "addi":
            return np.add(a, b, dtype=dt)
        if op == "subi":
            return np.subtract(a, b, dtype=dt)
        if op == "muli":
            return np.multiply(a, b, dtype=dt)
        if op in ("divsi", "divui"):
            return _c_div(a, b)
        if op in ("remsi", "remui"):
            return _c_rem(a, b)
        if op == "andi":
            return np.bitwise_and(a, b)
        if op == "ori":
            return np.bitwise_or(a, b)
        if op == "xori":
            return np.bitwise_xor(a, b)
        if op in ("shli", "shrsi", "shrui"):
            big = (b < 0) | (b >= bits) if np.issubdtype(b.dtype, np.signedinteger) \
                else (b >= bits)
            s = np.where(big, 0, b).astype(a.dtype)
            if op == "shli":
                return np.where(big, 0, np.left_shift(a, s))
            if op == "shrsi":
                # Arithmetic: on the bits as a signed value, whatever the
                # type (Triton shifts int8 >> uint8 so, in uint8).
                signed = a.dtype.str.replace("u", "i")
                sa = a.view(signed) if a.dtype.kind == "u" else a
                r = np.right_shift(sa, s.astype(sa.dtype))
                return np.where(big, np.where(sa < 0, -1, 0), r).astype(sa.dtype).view(a.dtype)
            r = np.right_shift(a, s)
            return np.where(big, 0, r)
        if op in ("minsi", "minui"):
            return np.minimum(a, b)
        if op in ("maxsi", "maxui"):
            return np.maximum(a, b)
        raise AssertionError(f"the interpreter has no binary op {op!r}")

    def compare(self, pred, a, b, operand_ty, result_ty):
        return np.asarray(_COMPARE[pred](a, b))

    def unary(self, op, x, ty):
        r = np.asarray(_UNARY[op](np.asarray(x)))
        if op not in _SIGN_OPS and r.dtype.kind == "f":
            r = _positive_nan(r)
        return self._finish(r, ty)

    def fma(self, a, b, c, ty):
        sca = ty.scalar
        if sca.is_fp64():
            return self._finish(_positive_nan(np.asarray(np.asarray(a) * b + c)), ty)
        r = _positive_nan(np.asarray(np.asarray(a, dtype=np.float64) *
                                     np.asarray(b, dtype=np.float64) +
                                     np.asarray(c, dtype=np.float64)))
        if sca.is_bf16():
            return round_to_bf16(r)
        return self._finish(r, ty)

    def extern_elementwise(self, symbol, libname, libpath, args, result_ty, pure,
                           reference=None):
        if reference is None:
            raise InterpreterError(f"the interpreter cannot call the device function "
                                   f"{symbol!r} (library {libname or libpath or 'unnamed'}): "
                                   f"it has no NumPy implementation", self.loc)
        arrays = [np.asarray(h) for h, _ in args]
        with np.errstate(all="ignore"):
            r = np.asarray(reference(storage_dtype(result_ty), *arrays))
        if result_ty.is_block():
            r = np.broadcast_to(r, result_ty.shape)
        return self._finish(r, result_ty)

    def inline_asm(self, asm, constraints, args, result_types, pure, pack, reference=None):
        if reference is None:
            raise InterpreterError("the interpreter cannot run inline assembly "
                                   "(tl.inline_asm_elementwise): run the kernel compiled "
                                   f"on a GPU instead; the assembly was {asm.strip()!r}",
                                   self.loc)
        arrays = [np.asarray(h) for h, _ in args]
        with np.errstate(all="ignore"):
            results = reference([storage_dtype(t) for t in result_types], *arrays)
        out = []
        for r, ty in zip(results, result_types):
            r = np.asarray(r)
            if ty.is_block():
                r = np.broadcast_to(r, ty.shape)
            out.append(self._finish(r, ty))
        return out

    def select(self, cond, a, b, cond_ty, ty):
        return self._finish(np.where(cond, a, b), ty)

    def cast(self, op, x, src_ty, dst_ty, rounding=None):
        x = np.asarray(x)
        src, dst = src_ty.scalar, dst_ty.scalar
        if op in ("ptr_to_int", "int_to_ptr"):
            return x.astype(np.int64)
        if op == "bitcast":
            if src.is_ptr():
                return x
            return self._bitcast(x, src, dst)
        if op == "fp_to_fp":
            if src.is_fp8():
                # An fp8 NaN converts to a plain NaN (its code is not kept).
                x = np.where(np.isnan(x), np.float32("nan"), x).astype(np.float32)
            if dst.is_fp8():
                # Every source value is exact in float64: one rounding.
                return fp8.quantize(x, dst.name)
            if dst.is_bf16():
                return round_to_bf16(x)
            return x.astype(storage_dtype(dst))
        if op in ("fptosi", "fptoui"):
            info = np.iinfo(storage_dtype(dst))
            t = np.trunc(np.where(np.isnan(x), 0, x).astype(np.float64))
            t = np.clip(t, info.min, info.max)
            return t.astype(storage_dtype(dst))
        if op in ("sitofp", "uitofp"):
            return self._finish(x, dst_ty) if not dst.is_bf16() else \
                round_to_bf16(x.astype(np.float64))
        # extf truncf extsi extui trunci int_sign
        return x.astype(storage_dtype(dst))

    @staticmethod
    def _bitcast(x, src, dst):
        x = np.ascontiguousarray(x)
        if src.is_fp8():
            codes = fp8.encode(x, src.name, keep_infinities=True)
            return codes.view(storage_dtype(dst)) if not dst.is_fp8() else \
                fp8.decode(codes, dst.name)
        if dst.is_fp8():
            return fp8.decode(x.view(np.uint8), dst.name).reshape(x.shape)
        if src.is_bf16():
            bits = bf16_to_bits(x)
            return bits.view(storage_dtype(dst)) if not dst.is_bf16() else x
        if dst.is_bf16():
            return bf16_from_bits(x.view(np.uint16)).reshape(x.shape)
        return x.view(storage_dtype(dst)).reshape(x.shape)

    # -- memory -----------------------------------------------------------------
    def reduce(self, operands, axis, result_types, combine):
        # A tree over halves (lower indices stay in the accumulator), then the
        # leftover elements of odd lengths folded in from the left.
        loc = self.loc
        parts = [np.asarray(h) for h, _ in operands]
        leftovers = []
        while parts[0].shape[axis] > 1:
            n = parts[0].shape[axis]
            if n % 2:
                leftovers.append([np.take(p, [n - 1], axis=axis) for p in parts])
                parts = [np.take(p, np.arange(n - 1), axis=axis) for p in parts]
                n -= 1
            half = n // 2
            lo = [np.take(p, np.arange(half), axis=axis) for p in parts]
            hi = [np.take(p, np.arange(half, n), axis=axis) for p in parts]
            try:
                parts = [np.asarray(x) for x in combine(lo, hi)]
            finally:
                self.loc = loc
            parts = [np.broadcast_to(x, lo[0].shape) for x in parts]
        for extra in reversed(leftovers):
            try:
                parts = [np.broadcast_to(np.asarray(x), extra[0].shape)
                         for x in combine(parts, extra)]
            finally:
                self.loc = loc
        return [self._finish(np.take(p, 0, axis=axis), t)
                for p, t in zip(parts, result_types)]

    def scan(self, operands, axis, reverse, result_types, combine):
        # Sequentially in axis order (from the end with reverse): the
        # accumulator, holding the positions before, combined with each
        # position's slice.
        loc = self.loc
        parts = [np.asarray(h) for h, _ in operands]
        length = parts[0].shape[axis]
        positions = range(length - 1, -1, -1) if reverse else range(length)
        slices = [[None] * length for _ in parts]
        acc = None
        for i in positions:
            current = [np.take(p, i, axis=axis) for p in parts]
            if acc is None:
                acc = current
            else:
                try:
                    acc = [np.broadcast_to(np.asarray(x), current[0].shape)
                           for x in combine(acc, current)]
                finally:
                    self.loc = loc
            for out, value in zip(slices, acc):
                out[i] = value
        return [self._finish(np.stack(out, axis=axis), t)
                for out, t in zip(slices, result_types)]

    def addptr(self, ptr, offset, ptr_ty, offset_ty):
        size = ptr_ty.scalar.element_ty.itemsize
        return np.asarray(ptr, dtype=np.int64) + np.asarray(offset).astype(np.int64) * size

    def load(self, ptr, mask, other, ptr_ty, result_ty, cache, evict, volatile):
        elt = ptr_ty.scalar.element_ty
        if elt.is_ptr():
            raise InterpreterError("the interpreter cannot load pointers from memory",
                                   self.loc)
        addrs = np.asarray(ptr, dtype=np.int64)
        vals = self.memory.load(addrs, None if mask is None else np.asarray(mask), elt,
                                self.loc, self.pid)
        vals = vals.astype(storage_dtype(result_ty), copy=False)
        if mask is not None:
            fill = other if other is not None else np.zeros((), storage_dtype(result_ty))
            vals = np.where(mask, vals, fill).astype(storage_dtype(result_ty), copy=False)
        return vals

    def store(self, ptr, value, mask, ptr_ty, cache, evict):
        elt = ptr_ty.scalar.element_ty
        self.memory.store(np.asarray(ptr, dtype=np.int64), np.asarray(value),
                          None if mask is None else np.asarray(mask), elt, self.loc,
                          self.pid, self.storing_program)

    def atomic_rmw(self, op, ptr, val, mask, ptr_ty, result_ty, sem, scope):
        self.storing_program = None
        return interpreter_atomics.atomic_rmw(
            self.memory, op, np.asarray(ptr, dtype=np.int64), np.asarray(val),
            None if mask is None else np.asarray(mask), ptr_ty, result_ty, self.loc,
            self.pid)

    def atomic_cas(self, ptr, cmp, val, ptr_ty, result_ty, sem, scope):
        self.storing_program = None
        return interpreter_atomics.atomic_cas(
            self.memory, np.asarray(ptr, dtype=np.int64), np.asarray(cmp),
            np.asarray(val), ptr_ty, result_ty, self.loc, self.pid)

    # Programs run one after another, so plain accesses are atomic ones of
    # any ordering.
    def atomic_load(self, ptr, mask, ptr_ty, result_ty, sem, scope):
        self.storing_program = None
        return self.load(ptr, mask, None, ptr_ty, result_ty, None, None, False)

    def atomic_store(self, ptr, val, mask, ptr_ty, sem, scope):
        self.storing_program = None
        self.store(ptr, val, mask, ptr_ty, None, None)

    def atomic_poll(self, ptr, expected, timeout, ptr_ty, result_ty, sem, scope):
        self.storing_program = None
        return interpreter_atomics.atomic_poll(
            self.memory, np.asarray(ptr, dtype=np.int64), np.asarray(expected),
            timeout is not None, ptr_ty, self.loc, self.pid)

    # -- tensor descriptors ---------------------------------------------------------
    def make_tensor_desc(self, base, shape, strides, base_ty, block_ty):
        addr = int(np.asarray(base))
        bid = ((addr + _HALF) >> _SHIFT) - 1
        offset = addr - ((bid + 1) << _SHIFT)
        if 0 <= bid < len(self.memory.buffers):
            buf = self.memory.buffers[bid]
            real = buf.start + offset if buf.write_back is not None else \
                buf.data.__array_interface__["data"][0] + offset
            if real % 16:
                raise InterpreterError(
                    f"make_tensor_descriptor in program {self.pid}: the base address "
                    f"(element {offset // base_ty.element_ty.itemsize} of {buf.name!r}) is "
                    f"not 16-byte aligned", self.loc)
        strides = [int(np.asarray(s)) for s in strides]
        if strides[-1] != 1:
            raise InterpreterError(f"make_tensor_descriptor: the last stride must be 1, got "
                                   f"{strides[-1]}", self.loc)
        return _Descriptor(addr, [int(np.asarray(s)) for s in shape], strides,
                           base_ty.element_ty)

    def _desc_block(self, desc, offsets, block_ty):
        """Addresses of the block at `offsets` and which are inside."""
        shape = block_ty.shape
        rank = len(shape)
        addrs = np.full(shape, desc.base, dtype=np.int64)
        inside = np.ones(shape, dtype=np.bool_)
        size = desc.elt.itemsize
        for d in range(rank):
            idx = int(np.asarray(offsets[d])) + np.arange(shape[d], dtype=np.int64)
            view = [1] * rank
            view[d] = shape[d]
            idx = idx.reshape(view)
            inside &= (idx >= 0) & (idx < desc.shape[d])
            addrs += idx * desc.strides[d] * size
        return addrs, inside

    def desc_load(self, desc, offsets, block_ty, result_ty):
        addrs, inside = self._desc_block(desc, offsets, block_ty)
        vals = self.memory.load(addrs, inside, desc.elt, self.loc, self.pid)
        vals = vals.astype(storage_dtype(result_ty), copy=False)
        return np.where(inside, vals, np.zeros((), vals.dtype)).astype(vals.dtype)

    def desc_store(self, desc, offsets, value, block_ty):
        addrs, inside = self._desc_block(desc, offsets, block_ty)
        self.memory.store(addrs, np.asarray(value), inside, desc.elt, self.loc, self.pid,
                          self.storing_program)

    # -- debugging ----------------------------------------------------------------
    def dot(self, a, b, acc, input_precision, max_num_imprecise_acc, a_ty, b_ty,
            result_ty):
        a, b, acc = np.asarray(a), np.asarray(b), np.asarray(acc)
        if np.issubdtype(a.dtype, np.integer):
            product = np.matmul(a.astype(np.int64), b.astype(np.int64))
            return self._finish((acc.astype(np.int64) + product).astype(np.int32), result_ty)
        if a_ty.scalar == tl.float32 and input_precision != "ieee":
            a, b = _round_operands(a, input_precision), _round_operands(b, input_precision)
        # Products and sums in float64, rounded once to the result type: at
        # least as accurate as the tensor cores' float32 accumulation.
        product = np.matmul(a.astype(np.float64), b.astype(np.float64))
        return self._finish(acc.astype(np.float64) + product, result_ty)

    def hint(self, h, kind, values):
        """Hints only guide the compiler's vectorisation."""

    def barrier(self):
        # A program instance runs as one: its accesses are already ordered.
        return None

    def grid_dependency_wait(self):
        # Grids run one after the other: nothing is left to wait for.
        return None

    def grid_dependency_launch(self):
        return None

    def global_timer(self):
        return np.array(time.time_ns(), dtype=np.int64)

    def processor_id(self):
        return np.array(0, dtype=np.int32)

    def print(self, prefix, hex, args):
        parts = []
        for h, t in args:
            v = np.asarray(h)
            if hex and v.dtype.kind in "iub":
                parts.append(np.array2string(v, formatter={"int": lambda i: hex_(i)})
                             if v.ndim else hex_(int(v)))
            else:
                parts.append(str(v) if v.ndim else str(v.item()))
        print(f"pid ({self.pid[0]}, {self.pid[1]}, {self.pid[2]}) {prefix}{' '.join(parts)}")

    def assert_(self, cond, cond_ty, message):
        c = np.asarray(cond)
        if not c.all():
            where = ""
            if c.ndim:
                idx = np.argwhere(~c)[0]
                where = f" at index {tuple(int(i) for i in idx)}"
            raise InterpreterError(f"device_assert failed in program {self.pid}{where}: "
                                   f"{message}", self.loc)


def hex_(i: int) -> str:
    return hex(int(i))


# ---------------------------------------------------------------------------
# Launching
# ---------------------------------------------------------------------------

def _is_torch_tensor(x) -> bool:
    t = type(x)
    return t.__module__.startswith("torch") and hasattr(x, "untyped_storage")


def _array_dtype(x) -> Optional[dtype]:
    if isinstance(x, np.ndarray):
        return tl.dtype_from_name(x.dtype.name)
    return tl.dtype_from_name(str(getattr(x, "dtype", "")))


def argument_value(memory: Memory, builder: InterpreterBuilder, name: str, value):
    """The interpreter's value of one (non-constexpr) kernel argument."""
    if value is None:
        return constexpr(None)
    if isinstance(value, constexpr) or isinstance(value, tl.dtype):
        return constexpr(value)
    if getattr(type(value), "_terrazzo_tensor_wrapper", False) is True:  # triton.reinterpret
        # The base's memory, accessed as the wrapper's element type.
        base = value.base
        if not isinstance(base, np.ndarray) and not _is_torch_tensor(base):
            base = np.asarray(base)
        add = memory.add_array if isinstance(base, np.ndarray) else memory.add_torch
        addr = add(base, name, value.dtype)
        return tensor(np.array(addr, dtype=np.int64), pointer_type(value.dtype))
    if isinstance(value, np.ndarray) and value.ndim >= 0 and not np.isscalar(value):
        if value.ndim == 0 and value.dtype.kind in "biuf":
            return _scalar_argument(value.item())
        elt = _array_dtype(value)
        if elt is None:
            raise CompilationError(f"argument {name!r}: arrays of {value.dtype} are not "
                                   "supported")
        addr = memory.add_array(value, name, elt)
        return tensor(np.array(addr, dtype=np.int64), pointer_type(elt))
    if _is_torch_tensor(value):
        elt = _array_dtype(value)
        if elt is None:
            raise CompilationError(f"argument {name!r}: tensors of {value.dtype} are not "
                                   "supported")
        addr = memory.add_torch(value, name, elt)
        return tensor(np.array(addr, dtype=np.int64), pointer_type(elt))
    if hasattr(value, "__array_interface__"):
        arr = np.asarray(value)
        return argument_value(memory, builder, name, arr)
    if hasattr(value, "data_ptr") or hasattr(value, "__cuda_array_interface__"):
        raise CompilationError(f"argument {name!r}: the interpreter accepts NumPy arrays "
                               f"and torch tensors, not {type(value).__name__}")
    if isinstance(value, (bool, int, float, np.generic)):
        return _scalar_argument(value)
    raise CompilationError(f"argument {name!r}: cannot pass a {type(value).__name__} to a "
                           "kernel (mark the parameter tl.constexpr for compile-time "
                           "values)")


def host_descriptor_value(memory: Memory, builder: InterpreterBuilder, sem, parsed, name: str,
                          desc):
    """The kernel's descriptor for `desc`, a host TensorDescriptor passed as
    argument `name`: the one tl.make_tensor_descriptor makes of its base,
    shape and strides, as in the compiled kernel."""
    base = argument_value(memory, builder, name, desc.base)
    shape = [_scalar_argument(int(v)) for v in desc.shape]
    strides = [_scalar_argument(int(v)) for v in desc.strides]
    try:
        if not isinstance(base, tensor) or not base.type.is_ptr():
            raise SemanticError(f"argument {name!r} (a TensorDescriptor): the base must be "
                                f"a tensor, got {type(desc.base).__name__}")
        return sem.host_tensor_descriptor(name, base, shape, strides, desc.block_shape,
                                          desc.padding)
    except SemanticError as e:
        nodes = {a.arg: a for a in parsed.tree.args.args + parsed.tree.args.kwonlyargs}
        loc = parsed.loc(nodes[name]) if name in nodes else parsed.loc(parsed.tree)
        raise InterpretedCompilationError(str(e), loc) from e


def _scalar_argument(value):
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, bool):
        return tensor(np.array(value, dtype=np.bool_), tl.int1)
    if isinstance(value, int):
        if -(1 << 31) <= value < (1 << 31):
            return tensor(np.array(value, dtype=np.int32), tl.int32)
        if -(1 << 63) <= value < (1 << 63):
            return tensor(np.array(value, dtype=np.int64), tl.int64)
        if 0 <= value < (1 << 64):
            return tensor(np.array(value, dtype=np.uint64), tl.uint64)
        raise CompilationError(f"integer argument {value} does not fit in 64 bits")
    return tensor(np.array(value, dtype=np.float32), tl.float32)
