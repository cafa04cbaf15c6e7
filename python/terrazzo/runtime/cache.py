"""The on-disk caches: compiled kernels and autotuning results.

Both live in `$TERRAZZO_CACHE_DIR` (default `~/.cache/terrazzo`).

Kernels: one folder per key, `<key[:2]>/<key>/kernel.bin` and `kernel.json`.
Both files are written to a temporary name and renamed (atomic on POSIX), the
binary first; the metadata records the binary's size and SHA-256, and an entry
whose files are missing, unreadable, truncated or inconsistent is ignored (and
then overwritten by a fresh compilation), never trusted.

Autotuning results (TuningCache): one JSON file per kernel, device and tuning
key, `autotune/<key[:2]>/<key>.json`, holding the time of every configuration
measured so far, so that a configuration added later is the only one timed.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

FORMAT = 1
TUNING_FORMAT = 1


def cache_dir() -> Path:
    d = os.environ.get("TERRAZZO_CACHE_DIR")
    if d:
        return Path(d).expanduser()
    return Path.home() / ".cache" / "terrazzo"


def _atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=str(path.parent), prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


class DiskCache:
    def __init__(self, root: Optional[Path] = None):
        self.root = Path(root) if root is not None else cache_dir()

    def entry_dir(self, key: str) -> Path:
        return self.root / key[:2] / key

    def load(self, key: str) -> Optional[Tuple[bytes, Dict[str, Any]]]:
        """(binary, metadata) of a valid entry, or None."""
        d = self.entry_dir(key)
        try:
            meta = json.loads((d / "kernel.json").read_text())
            if not isinstance(meta, dict) or meta.get("format") != FORMAT or \
                    meta.get("key") != key:
                return None
            binary = (d / "kernel.bin").read_bytes()
            if len(binary) != meta.get("binary_size") or \
                    hashlib.sha256(binary).hexdigest() != meta.get("binary_sha256"):
                return None
            for field, kind in (("name", str), ("threads_per_block", int),
                                ("shared_memory_bytes", int), ("signature", str)):
                if not isinstance(meta.get(field), kind):
                    return None
            return binary, meta
        except (OSError, ValueError, UnicodeDecodeError):
            return None

    def store(self, key: str, binary: bytes, metadata: Dict[str, Any]) -> None:
        """Best effort: a cache that cannot be written is not an error."""
        meta = dict(metadata)
        meta.update(format=FORMAT, key=key, binary_size=len(binary),
                    binary_sha256=hashlib.sha256(binary).hexdigest())
        d = self.entry_dir(key)
        try:
            _atomic_write(d / "kernel.bin", binary)
            _atomic_write(d / "kernel.json", json.dumps(meta, indent=1, default=str).encode())
        except OSError:
            pass


class TuningCache:
    """The measured times of an autotuner's configurations, per tuning key
    (a digest of the kernel, the device, the compiler and the key's values).
    A time is a list of milliseconds (median first, as do_bench's quantiles
    return) or None for a configuration that could not run (too many
    resources). A file that is unreadable or malformed counts as empty."""

    def __init__(self, root: Optional[Path] = None):
        self.root = (Path(root) if root is not None else cache_dir()) / "autotune"

    def path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def load(self, key: str) -> Dict[str, Optional[List[float]]]:
        """{configuration: time} of a valid file, else {}."""
        try:
            data = json.loads(self.path(key).read_text())
        except (OSError, ValueError, UnicodeDecodeError):
            return {}
        if not isinstance(data, dict) or data.get("format") != TUNING_FORMAT or \
                data.get("key") != key or not isinstance(data.get("timings"), dict):
            return {}
        timings = {}
        for config, time in data["timings"].items():
            if time is None or (isinstance(time, list) and time and
                                all(isinstance(t, (int, float)) and not isinstance(t, bool)
                                    for t in time)):
                timings[config] = time
            else:
                return {}
        return timings

    def store(self, key: str, timings: Dict[str, Optional[List[float]]],
              about: Dict[str, Any]) -> None:
        """Adds `timings` to the file's (another process may have tuned other
        configurations meanwhile); `about` is kept for people reading the
        file. Best effort, as DiskCache.store."""
        merged = self.load(key)
        merged.update(timings)
        data = dict(about, format=TUNING_FORMAT, key=key, timings=merged)
        try:
            _atomic_write(self.path(key), json.dumps(data, indent=1, default=str).encode())
        except OSError:
            pass
