"""bench/tc_mufu_overlap.py without a GPU: its kernels assemble with ptxas
(no wgmma serialised) and, in the SASS, each warp group's loop holds what
its mode says: the wgmmas and their wait, the exponentials, both, or the
chain of attention's steps in order."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def load(name, monkeypatch):
    spec = importlib.util.spec_from_file_location(name, REPO / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, name, module)
    spec.loader.exec_module(module)
    return module


def test_kernels_hold_their_mode(tmp_path, monkeypatch):
    from conftest import PTXAS
    overlap = load("tc_mufu_overlap", monkeypatch)
    outline = load("sass_outline", monkeypatch)
    objcopy = outline.find_tool(outline.OBJCOPY_CANDIDATES, "OBJCOPY")
    if not PTXAS or not objcopy:
        pytest.skip("needs ptxas (the CUDA toolkit) and llvm-objcopy")
    ptx = tmp_path / "probe.ptx"
    ptx.write_text(overlap.module_ptx())
    run = subprocess.run([PTXAS, "-arch=sm_90a", str(ptx), "-o", str(tmp_path / "probe.cubin")],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "C75" not in run.stderr  # no "wgmma serialized" warning
    for i, (name, mode) in enumerate(overlap.MODES.items()):
        _, classes, loops = outline.kernel_outline(ptx, f"probe{i}", "sm_90a", PTXAS, objcopy)
        bodies = ["".join(classes[first:last + 1]) for first, last in loops]
        for share in mode:
            if share == "-":
                continue
            want_h = share in ("mma", "both") or share.startswith("chain")
            want_e = share in ("ex2", "both") or share.startswith("chain")
            assert any(("H" in b) == want_h and ("E" in b) == want_e for b in bodies), (name, bodies)
        if mode[0].startswith("chain"):
            # Q K^T and its wait, (the row maximum,) the exponentials, then
            # P V and its wait.
            chain = next(b for b in bodies if "H" in b and "E" in b)
            rotated = mode[0] == "chainrot"
            if rotated:
                # Q K^T and the previous P V issued together, Q K^T waited for.
                first_wait = chain.index("D1")
                assert chain[:first_wait].count("H") == 12 and "E" not in chain[:first_wait]
                assert chain.rindex("E") > chain.index("D0") and chain.count("H") == 12
                continue
            first_wait = chain.index("D0")
            assert chain[:first_wait].count("H") == 4 and "E" not in chain[:first_wait]
            # (With the running maximum, the row scales' two exponentials.)
            assert chain[first_wait:].count("E") == overlap.EX2_PER_ITERATION + 2 * (
                mode[0] in overlap.FULL_SOFTMAX)
            assert ("m" in chain) == (mode[0] not in ("chain", "chainadd"))
            if mode[0] == "chainturn":
                # Every exponential between the turn's barrier and its arrive.
                assert chain.count("B") == chain.count("b") == 1, chain
                assert chain.index("B") < chain.index("E") and chain.rindex("E") < chain.index("b")
            assert chain[chain.rindex("E"):].count("H") == 8
        if "both" in mode:
            both = next(b for b in bodies if "H" in b and "E" in b)
            # The exponentials run while the wgmmas are in flight: (nearly)
            # all between the first wgmma and the wait.
            inside = both[both.index("H"):both.index("D0")].count("E")
            assert inside >= overlap.EX2_PER_ITERATION - 4, both
