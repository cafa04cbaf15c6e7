"""Kernels compiled for AMD CDNA (hip:gfx90a, hip:gfx942, hip:gfx950),
compile-only: no AMD GPU is lent here (the HIP runtime that would launch
them is tested against a fake library, test_hip_runtime.py). The tutorials'
kernels (elementwise, reductions, Philox, atomics and a lock, libdevice
math, tl.dot on the matrix cores) compile to code objects for each chip: ELF
shared objects for AMDGPU with the kernel's descriptor and no undefined
symbol (the ROCm device libraries are linked in). `kernel.compile` takes
the target and the stages amdgcn and hsaco, as does TERRAZZO_TARGET; the
layouts use wavefronts of 64."""

from __future__ import annotations

import importlib.util
import struct
from pathlib import Path

import numpy as np
import pytest

from terrazzo.runtime import driver

pytest.importorskip("terrazzo._C")

REPO = Path(__file__).resolve().parents[2]
TARGETS = ("hip:gfx90a", "hip:gfx942", "hip:gfx950")
EM_AMDGPU = 224
ET_DYN = 3


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, REPO / path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def elf_symbols(image: bytes):
    """(e_type, e_machine, [(name, section index)]) of an ELF64 file's
    symbol tables (.symtab and .dynsym)."""
    assert image[:4] == b"\x7fELF" and image[4] == 2, "not an ELF64 file"
    e_type, e_machine = struct.unpack_from("<HH", image, 16)
    shoff, = struct.unpack_from("<Q", image, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", image, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", image, shoff + i * shentsize)
                for i in range(shnum)]
    symbols = []
    for _, sh_type, _, _, offset, size, link, _, _, entsize in sections:
        if sh_type not in (2, 11):  # SHT_SYMTAB, SHT_DYNSYM
            continue
        strings = sections[link][4]
        for at in range(offset + entsize, offset + size, entsize):  # entry 0 is null
            name_offset, _, _, shndx = struct.unpack_from("<IBBH", image, at)
            end = image.index(b"\0", strings + name_offset)
            symbols.append((image[strings + name_offset:end].decode(), shndx))
    return e_type, e_machine, symbols


def check_code_object(image: bytes, kernel: str):
    e_type, e_machine, symbols = elf_symbols(image)
    assert (e_type, e_machine) == (ET_DYN, EM_AMDGPU)
    names = {name for name, _ in symbols}
    # The kernel's code and its descriptor, which the loader looks up.
    assert kernel in names and f"{kernel}.kd" in names
    undefined = sorted(name for name, shndx in symbols if shndx == 0 and name)
    assert undefined == []


def _cases():
    """(id, module path, kernel attribute, args, keywords)."""
    x = np.zeros(4096, np.float32)
    rows = np.zeros((4, 781), np.float32)
    ln = np.zeros((4, 300), np.float32)
    w = np.zeros(300, np.float32)
    lock = np.zeros(64, np.int32)
    a = np.zeros((128, 128), np.float16)
    return [
        ("vector-add", "tutorials/01-vector-add.py", "add_kernel", (x, x, x, 4096),
         dict(BLOCK_SIZE=1024)),
        ("softmax", "tutorials/02-fused-softmax.py", "softmax_kernel",
         (rows, rows, 781, 781, 4, 781), dict(BLOCK_SIZE=1024, num_stages=2)),
        ("dropout", "tutorials/04-low-memory-dropout.py", "_seeded_dropout",
         (x, x, 4096, 0.5, 123), dict(BLOCK_SIZE=1024)),
        ("layer-norm-fwd", "tutorials/05-layer-norm.py", "_layer_norm_fwd_fused",
         (ln, ln, w, w, w[:4], w[:4], 300, 300, 1e-5), dict(BLOCK_SIZE=512)),
        ("layer-norm-bwd-lock", "tutorials/05-layer-norm.py", "_layer_norm_bwd_dx_fused",
         (ln, ln, ln, ln, ln, w, w[:4], w[:4], lock, 300, 300),
         dict(GROUP_SIZE_M=32, BLOCK_SIZE_N=512, num_warps=8)),
        ("libdevice-asin", "tutorials/07-extern-functions.py", "asin_kernel", (x, x, 4096),
         dict(BLOCK_SIZE=1024)),
        # An autotuned kernel's `.fn`; tl.dot on MFMA.
        ("matmul-mfma-dot", "tutorials/03-matrix-multiplication.py", "matmul_kernel.fn",
         (a, a, a, 128, 128, 128, 128, 1, 128, 1, 128, 1),
         dict(BLOCK_SIZE_M=32, BLOCK_SIZE_N=32, BLOCK_SIZE_K=32, GROUP_SIZE_M=8,
              ACTIVATION="leaky_relu", num_warps=4)),
    ]


_MODULES = {}


def _kernel(path, attribute):
    if path not in _MODULES:
        _MODULES[path] = load(path, Path(path).stem.replace("-", "_"))
    kernel = _MODULES[path]
    for part in attribute.split("."):
        kernel = getattr(kernel, part)
    return kernel


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("case", _cases(), ids=lambda c: c[0])
def test_tutorial_kernels_compile_to_code_objects(case, target):
    _, path, attribute, args, kwargs = case
    kernel = _kernel(path, attribute)
    hsaco = kernel.compile(*args, target=target, stage="hsaco", **kwargs)
    assert isinstance(hsaco, bytes)
    name = attribute.split(".")[0]
    check_code_object(hsaco, name)


# The matrix-core instruction each chip computes the tutorial's float16
# matmul with (32 x 32 tiles: 4 k per lane on CDNA2/3, 8 on CDNA4).
MFMA_F16 = {"hip:gfx90a": "v_mfma_f32_32x32x8f16", "hip:gfx942": "v_mfma_f32_32x32x8_f16",
            "hip:gfx950": "v_mfma_f32_32x32x16_f16"}


@pytest.mark.parametrize("target", TARGETS)
def test_tl_dot_runs_on_mfma(target):
    # 64 x 64 x 32 blocks at 4 warps: 2 x 2 warps of one 32 x 32 tile, each
    # K / k instructions per iteration of the K loop; no fused multiply-add
    # computes the products.
    _, path, attribute, args, kwargs = [c for c in _cases() if c[0] == "matmul-mfma-dot"][0]
    kwargs = dict(kwargs, BLOCK_SIZE_M=64, BLOCK_SIZE_N=64, BLOCK_SIZE_K=32)
    asm = _kernel(path, attribute).compile(*args, target=target, stage="amdgcn", **kwargs)
    instructions = [line.split()[0] for line in asm.splitlines()
                    if line.strip().startswith("v_mfma")]
    k_per_instruction = 16 if target == "hip:gfx950" else 8
    assert instructions == [MFMA_F16[target]] * (32 // k_per_instruction)
    assert "v_fma_f32" not in asm and "v_fmac_f32" not in asm


def loop_body(asm: str) -> list:
    """The instructions of the outermost loop of an AMDGCN function: from
    the label that the farthest backward branch goes to, to the last branch
    back to it."""
    lines = [line.strip() for line in asm.splitlines()]
    labels = {line[:-1]: i for i, line in enumerate(lines)
              if line.startswith(".LBB") and line.endswith(":")}
    best = None
    for i, line in enumerate(lines):
        words = line.split()
        if words and words[0].startswith(("s_branch", "s_cbranch")) and len(words) > 1:
            start = labels.get(words[1])
            if start is not None and start < i and (best is None or start <= best[0]):
                best = (start, i)
    assert best is not None, "no loop"
    return lines[best[0]:best[1] + 1]


def _matmul_asm(stride_am):
    _, path, attribute, args, kwargs = [c for c in _cases() if c[0] == "matmul-mfma-dot"][0]
    a, b, c, m, n, k, _, *strides = args
    kwargs = dict(kwargs, BLOCK_SIZE_M=64, BLOCK_SIZE_N=64, BLOCK_SIZE_K=32)
    return _kernel(path, attribute).compile(a, b, c, m, n, k, stride_am, *strides,
                                           target="hip:gfx942", stage="amdgcn", **kwargs)


def test_matmul_loop_loads_a_through_buffer_loads():
    # a_ptrs advance by BLOCK_SIZE_K each iteration: carried as a base and
    # i32 offsets (terrazzo-amd-buffer-addresses), A's loads in the loop are
    # buffer loads (stride_am = 128 is specialised as not negative). B's
    # offsets are pid_n * BLOCK_SIZE_N + ..., and pid_n divides by
    # min(num_pid_m - first_pid_m, GROUP_SIZE_M), a difference whose sign
    # nothing proves: B's loads stay global loads.
    body = loop_body(_matmul_asm(128))
    assert any(line.startswith("v_mfma") for line in body)
    assert sum(line.startswith("buffer_load_dwordx4") for line in body) == 1
    assert sum(line.startswith("global_load_dwordx4") for line in body) == 1
    # Must not: a stride that may be negative (not specialised: -128) keeps
    # A's loads global too.
    body = loop_body(_matmul_asm(-128))
    assert not any(line.startswith("buffer_load") for line in body)
    assert sum(line.startswith("global_load_dwordx4") for line in body) == 2


@pytest.mark.parametrize("causal", [False, True])
def test_attention_forward_keeps_p_in_registers(causal):
    # Tutorial 06's forward at 4 warps of 128 x 64 blocks on gfx942: both
    # dots in the transposed MFMA layout, whose registers are P V's A
    # operand, so P is not written to LDS. Per iteration (the loop's 32
    # MFMAs) the only LDS writes are the prefetched K (4 ds_write_b64) and V
    # (16 ds_write_b16, stored K-major), behind one s_barrier; P's buffer
    # added 32 writes of 16 bits and a second barrier. K and V arrive by
    # buffer loads.
    path = "tutorials/06-fused-attention.py"
    q = np.zeros((1, 2, 1024, 64), np.float16)
    lse = np.zeros((1, 2, 1024), np.float32)
    s = _kernel(path, "_strides")(q)
    asm = _kernel(path, "_attn_fwd").compile(
        q, q, q, 0.125, lse, q, *s, *s, *s, *s, 2, 1024, target="hip:gfx942",
        stage="amdgcn", HEAD_DIM=64, CAUSAL=causal, EVEN_N=True, BLOCK_M=128,
        BLOCK_N=64, num_warps=4, num_stages=3, WARP_SPECIALIZE=False)
    body = loop_body(asm)
    count = lambda prefix: sum(line.startswith(prefix) for line in body)
    assert count("v_mfma_f32_32x32x8_f16") == 32
    assert (count("ds_write"), count("ds_write_b64"), count("ds_write_b16")) == (20, 4, 16)
    assert count("s_barrier") == 1
    assert count("buffer_load_dwordx4") == 4 and count("global_load") == 0


def test_amdgcn_is_the_default_stage_of_a_hip_target():
    _, path, attribute, args, kwargs = _cases()[0]
    text = _kernel(path, attribute).compile(*args, target="hip:gfx942", **kwargs)
    assert '.amdgcn_target "amdgcn-amd-amdhsa--gfx942"' in text
    # Four consecutive floats per work-item: 128-bit accesses, buffer loads
    # and stores (offsets pid * BLOCK + arange: i32, not negative).
    assert "buffer_load_dwordx4" in text and "buffer_store_dwordx4" in text
    assert "global_load" not in text and "global_store" not in text
    # Triton's `arch` spelling of an AMD processor names the same target.
    assert _kernel(path, attribute).compile(*args, target="gfx942", **kwargs) == text


def test_terrazzo_target_selects_hip_and_wavefronts_of_64(monkeypatch):
    _, path, attribute, args, kwargs = _cases()[0]
    kernel = _kernel(path, attribute)
    monkeypatch.setenv("TERRAZZO_TARGET", "hip:gfx90a")
    assert '.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"' in kernel.compile(*args, **kwargs)
    tilegpu = kernel.compile(*args, stage="tilegpu", **kwargs)
    assert '"tilegpu.threads-per-warp" = 64' in tilegpu
    # 1024 elements over 4 wavefronts of 64: four per work-item.
    assert "sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4]" in tilegpu


def test_vendor_stages_are_checked():
    _, path, attribute, args, kwargs = _cases()[0]
    kernel = _kernel(path, attribute)
    with pytest.raises(Exception, match="stage 'ptx' does not exist for hip:gfx942, which "
                                        "compiles to amdgcn and hsaco"):
        kernel.compile(*args, target="hip:gfx942", stage="ptx", **kwargs)
    with pytest.raises(Exception, match="stage 'hsaco' does not exist for cuda:90"):
        kernel.compile(*args, target="cuda:90", stage="hsaco", **kwargs)


def test_too_many_warps_for_wavefronts_of_64():
    _, path, attribute, args, kwargs = _cases()[0]
    kernel = _kernel(path, attribute)
    with pytest.raises(Exception, match="num-warps 32 of 64 threads is more than the 1024 "
                                        "threads a program instance may have on hip:gfx942"):
        kernel.compile(*args, target="hip:gfx942", **dict(kwargs, num_warps=32))
