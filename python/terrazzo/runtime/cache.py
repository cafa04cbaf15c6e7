"""The on-disk cache of compiled kernels.

Entries live in `$TERRAZZO_CACHE_DIR` (default `~/.cache/terrazzo`), one
folder per key: `<key[:2]>/<key>/kernel.bin` and `kernel.json`. Both files are
written to a temporary name and renamed (atomic on POSIX), the binary first;
the metadata records the binary's size and SHA-256, and an entry whose files
are missing, unreadable, truncated or inconsistent is ignored (and then
overwritten by a fresh compilation), never trusted.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any, Dict, Optional, Tuple

FORMAT = 1


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
