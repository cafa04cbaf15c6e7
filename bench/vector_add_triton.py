"""Vector add with Triton 3.6 and torch.add, and a copy, on the same sizes
as bench/VectorAddBandwidth.cpp, for the side-by-side table.

    python3 bench/vector_add_triton.py [log2 n = 26]

Median of do_bench (CUDA events) after warm-up, on fresh random data; every
result is checked against torch.
"""
import os
import sys
import tempfile
import time

import torch

os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="triton-cache-"))
import triton  # noqa: E402
import triton.language as tl  # noqa: E402


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + y, mask=mask)


def main():
    log2n = int(sys.argv[1]) if len(sys.argv) > 1 else 26
    n = 1 << log2n
    x = torch.rand(n, device="cuda", dtype=torch.float32) * 2 - 1
    y = torch.rand(n, device="cuda", dtype=torch.float32) * 2 - 1
    out = torch.empty_like(x)
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)  # noqa: E731

    start = time.perf_counter()
    add_kernel[grid](x, y, out, n, BLOCK_SIZE=1024)
    torch.cuda.synchronize()
    first_call_ms = (time.perf_counter() - start) * 1e3
    assert torch.equal(out, x + y), "triton result differs from torch"

    def gbs(ms, bytes_moved):
        return bytes_moved / ms / 1e6

    copy_ms = triton.testing.do_bench(lambda: out.copy_(x), return_mode="median")
    rows = [("device-to-device copy (torch)", copy_ms, gbs(copy_ms, 8 * n))]
    for block in (1024, 2048, 4096):
        ms = triton.testing.do_bench(
            lambda: add_kernel[grid](x, y, out, n, BLOCK_SIZE=block),
            return_mode="median")
        assert torch.equal(out, x + y)
        rows.append((f"triton add BLOCK_SIZE={block}", ms, gbs(ms, 12 * n)))
    torch_ms = triton.testing.do_bench(lambda: torch.add(x, y, out=out),
                                       return_mode="median")
    rows.append(("torch.add", torch_ms, gbs(torch_ms, 12 * n)))

    print(f"device: {torch.cuda.get_device_name()}, n = 2^{log2n} float32, "
          f"triton {triton.__version__}, torch {torch.__version__}")
    for name, ms, rate in rows:
        print(f"{name:34s} {ms:9.3f} ms {rate:8.0f} GB/s")
    print(f"triton first call (compile + launch, empty cache): {first_call_ms:.0f} ms")


if __name__ == "__main__":
    main()
