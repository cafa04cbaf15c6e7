"""bench/stream_probe.py without a GPU: each default configuration compiles
for sm_90, the descriptor form to one TMA copy per box in its loop
(`cp.async.bulk.tensor`, 64-column boxes: a 256-column block takes four)
and the pointer form to 16-byte global loads (no TMA), and a malformed
configuration is refused by name."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def probe():
    spec = importlib.util.spec_from_file_location("stream_probe",
                                                  REPO / "bench" / "stream_probe.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["stream_probe"] = module
    spec.loader.exec_module(module)
    yield module
    del sys.modules["stream_probe"]


def test_default_configurations_compile(probe):
    for text in probe.DEFAULT_CONFIGS:
        config = probe.parse(text)
        ptx = probe.compile_for_sm90(config)
        form, bn = config[0], config[1]
        copies = ptx.count("cp.async.bulk.tensor")
        if form == "tma":
            assert copies == bn // 64, (text, copies)
        else:
            assert copies == 0 and re.search(r"ld\.global[.\w]*\.v4", ptx), text


def test_malformed_configuration_is_refused(probe):
    with pytest.raises(AssertionError, match="tma-ws"):
        probe.parse("tma-ws,64,128,1,4")
    with pytest.raises(ValueError):
        probe.parse("tma,64,128,1")
