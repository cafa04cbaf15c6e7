#!/usr/bin/env python3
"""Records the random streams of an implementation of Triton's language on
the GPU, for comparison bit for bit with another.

    python3 scripts/philox-reference.py triton   out.json   # real Triton
    python3 scripts/philox-reference.py terrazzo out.json   # Terrazzo

For every case (seed, offset type, first offset) it runs one kernel that
stores tl.randint, the four streams of tl.randint4x, tl.rand, tl.randn and
the four streams of tl.rand4x and tl.randn4x at BLOCK consecutive offsets,
and writes their bits (uint32 words, hex, one string per stream) as JSON. The file that real
Triton 3.6 wrote on an H100/H200 is python/test/data/philox-triton.json;
test_random.py compares the interpreter and Terrazzo's compiled kernels with
it.
"""

import importlib
import json
import sys

NAMES = ("randint", "randint4x_0", "randint4x_1", "randint4x_2", "randint4x_3",
         "rand", "randn", "rand4x_0", "rand4x_1", "rand4x_2", "rand4x_3",
         "randn4x_0", "randn4x_1", "randn4x_2", "randn4x_3")
BLOCK = 128
# (seed, offset dtype, first offset): int32 and int64 seeds, int64 offsets
# with a non-zero high half.
CASES = [
    (0, "int32", 0),
    (1, "int32", 1000),
    (42, "int32", 123456),
    (0x7FFFFFFF, "int32", 7),
    (0x0000000FCAFEB0BA, "int32", 0),
    (0x0000000FCAFEB0BA, "int64", (3 << 32) + 5),
    (12345, "int64", (1 << 40) + 17),
]


def build(impl):
    triton = importlib.import_module(impl)
    tl = importlib.import_module(impl + ".language")

    @triton.jit
    def store4(out, first, r, BLOCK: tl.constexpr, a, b, c, d):
        tl.store(out + first * BLOCK + r, a.to(tl.uint32, bitcast=True))
        tl.store(out + (first + 1) * BLOCK + r, b.to(tl.uint32, bitcast=True))
        tl.store(out + (first + 2) * BLOCK + r, c.to(tl.uint32, bitcast=True))
        tl.store(out + (first + 3) * BLOCK + r, d.to(tl.uint32, bitcast=True))

    @triton.jit
    def streams(out, seed, base, BLOCK: tl.constexpr, OFFSET_DTYPE: tl.constexpr):
        offs = (base + tl.arange(0, BLOCK)).to(OFFSET_DTYPE)
        r = tl.arange(0, BLOCK)
        tl.store(out + r, tl.randint(seed, offs).to(tl.uint32, bitcast=True))
        a, b, c, d = tl.randint4x(seed, offs)
        store4(out, 1, r, BLOCK, a, b, c, d)
        tl.store(out + 5 * BLOCK + r, tl.rand(seed, offs).to(tl.uint32, bitcast=True))
        tl.store(out + 6 * BLOCK + r, tl.randn(seed, offs).to(tl.uint32, bitcast=True))
        a, b, c, d = tl.rand4x(seed, offs)
        store4(out, 7, r, BLOCK, a, b, c, d)
        a, b, c, d = tl.randn4x(seed, offs)
        store4(out, 11, r, BLOCK, a, b, c, d)

    return tl, streams


def record(impl):
    import torch

    tl, streams = build(impl)
    cases = []
    for seed, offset_dtype, base in CASES:
        out = torch.zeros(len(NAMES) * BLOCK, dtype=torch.int32, device="cuda")
        streams[(1,)](out, seed, base, BLOCK=BLOCK, OFFSET_DTYPE=getattr(tl, offset_dtype))
        torch.cuda.synchronize()
        words = out.cpu().numpy().view("uint32").reshape(len(NAMES), BLOCK)
        cases.append({"seed": seed, "offset_dtype": offset_dtype, "base": base,
                      "streams": {n: " ".join(f"{int(w):08x}" for w in words[i])
                                  for i, n in enumerate(NAMES)}})
    return {"implementation": impl, "version": sys.modules[impl].__version__,
            "device": torch.cuda.get_device_name(), "block": BLOCK, "cases": cases}


if __name__ == "__main__":
    impl, path = sys.argv[1], sys.argv[2]
    with open(path, "w") as fh:
        json.dump(record(impl), fh, indent=1)
    print(f"{impl}: {len(CASES)} cases x {len(NAMES)} streams x {BLOCK} values -> {path}")
