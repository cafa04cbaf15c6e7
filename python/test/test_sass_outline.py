"""bench/sass_outline.py: its opcode classes, read off ptxas's output
rather than documented, checked against the installed ptxas (its
--self-test assembles PTX whose instructions are known), and its outline
of a kernel whose instructions can be counted in the PTX."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def outline(monkeypatch):
    spec = importlib.util.spec_from_file_location("sass_outline", REPO / "bench" / "sass_outline.py")
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)
    spec.loader.exec_module(module)
    from conftest import PTXAS as ptxas
    objcopy = module.find_tool(module.OBJCOPY_CANDIDATES, "OBJCOPY")
    if not ptxas or not objcopy:
        pytest.skip("needs ptxas (the CUDA toolkit) and llvm-objcopy")
    return module, ptxas, objcopy


def test_self_test(outline):
    module, ptxas, objcopy = outline
    assert module.self_test(ptxas, objcopy) == []


def test_outline_of_a_loop(outline, tmp_path):
    # A loop (not unrolled) of eight exponentials and one max.
    module, ptxas, objcopy = outline
    ex2 = " ".join(f"ex2.approx.ftz.f32 %f{i}, %f{i};" for i in range(1, 9))
    ptx = tmp_path / "loop.ptx"
    ptx.write_text(f""".version 8.3
.target sm_90a
.address_size 64
.visible .entry loop(.param .u64 p, .param .u32 n)
{{
.reg .b32 %r<4>; .reg .f32 %f<10>; .reg .b64 %rd<2>; .reg .pred %q<2>;
ld.param.u64 %rd1, [p];
ld.param.u32 %r1, [n];
ld.global.v4.f32 {{%f1, %f2, %f3, %f4}}, [%rd1];
ld.global.v4.f32 {{%f5, %f6, %f7, %f8}}, [%rd1+16];
mov.u32 %r2, 0;
LOOP:
.pragma "nounroll";
{ex2}
max.f32 %f9, %f1, %f8;
mov.f32 %f1, %f9;
add.s32 %r2, %r2, 1;
setp.lt.s32 %q1, %r2, %r1;
@%q1 bra LOOP;
st.global.v4.f32 [%rd1], {{%f1, %f2, %f3, %f4}};
st.global.v4.f32 [%rd1+16], {{%f5, %f6, %f7, %f8}};
ret;
}}
""")
    kernel, classes, loops = module.kernel_outline(ptx, None, "sm_90a", ptxas, objcopy)
    assert kernel == "loop"
    assert classes.count("E") == 8 and classes.count("m") == 1
    # One loop: from its first instruction to the branch back, holding all
    # of the exponentials and the max, and nothing of the code around it
    # (the loads before, the stores after).
    assert len(loops) == 1
    first, last = loops[0]
    body = classes[first:last + 1]
    assert body[-1] == "|" and body.count("E") == 8 and body.count("m") == 1
    assert last - first + 1 < len(classes) // 2
