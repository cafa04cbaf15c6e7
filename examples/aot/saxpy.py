"""A kernel written in Python for the ahead-of-time example: out = a * x + y.

Its tile IR comes from the build (examples/aot/CMakeLists.txt):

    python3 -m terrazzo.tools.export saxpy.py:saxpy_kernel \\
        --signature "*fp32:16, *fp32:16, *fp32:16, fp32, i32" --constexpr BLOCK=512
"""
import terrazzo as triton
import terrazzo.language as tl


@triton.jit
def saxpy_kernel(x_ptr, y_ptr, out_ptr, a, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, a * x + y, mask=mask)
