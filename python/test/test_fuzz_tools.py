"""The fuzzer's runs (scripts/fuzz/tools.py) and their memory limit: an
address-space limit (RLIMIT_AS) for ordinary builds, ASan's own limit for a
build instrumented with AddressSanitizer (fuzz.py --asan, which
scripts/sanitizer-build.sh passes): ASan reserves terabytes of address space
for its shadow memory and aborts at start under RLIMIT_AS, which made every
run of the sanitizer build's fuzz stage a "crash"."""

from __future__ import annotations

import importlib.util
import os
import resource
import stat
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def tools(monkeypatch):
    spec = importlib.util.spec_from_file_location("fuzz_tools", REPO / "scripts" / "fuzz" / "tools.py")
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # for its dataclasses
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def fake_tool(tmp_path):
    """A terrazzo-opt that prints its address-space limit (KiB or
    "unlimited") and ASAN_OPTIONS."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    tool = bindir / "terrazzo-opt"
    tool.write_text('#!/bin/sh\necho "limit=$(ulimit -v)"\necho "asan=$ASAN_OPTIONS"\n')
    tool.chmod(tool.stat().st_mode | stat.S_IEXEC)
    source = tmp_path / "input.mlir"
    source.write_text("module {}\n")
    return bindir, source


def _run(tools, fake_tool):
    bindir, source = fake_tool
    outcome = tools.run(bindir, tools.Target("terrazzo-opt", []), source)
    assert outcome.kind == "ok", outcome.output
    fields = dict(line.split("=", 1) for line in outcome.output.splitlines() if "=" in line)
    return fields["limit"], fields["asan"]


def test_ordinary_runs_limit_address_space(tools, fake_tool, monkeypatch):
    monkeypatch.delenv("ASAN_OPTIONS", raising=False)
    limit, asan = _run(tools, fake_tool)
    assert limit == str(tools.MEMORY_LIMIT >> 10)
    assert asan == ""


def test_asan_runs_limit_resident_memory_through_asan(tools, fake_tool, monkeypatch):
    monkeypatch.setenv("ASAN_OPTIONS", "allow_user_poisoning=0:detect_leaks=0")
    tools.ASAN = True
    limit, asan = _run(tools, fake_tool)
    inherited = resource.getrlimit(resource.RLIMIT_AS)[0]
    assert limit == ("unlimited" if inherited == resource.RLIM_INFINITY else str(inherited >> 10))
    assert asan == f"allow_user_poisoning=0:detect_leaks=0:hard_rss_limit_mb={tools.MEMORY_LIMIT >> 20}"
    # The fuzzer's own environment is left as it was.
    assert os.environ["ASAN_OPTIONS"] == "allow_user_poisoning=0:detect_leaks=0"
