"""The on-disk caches: compiled kernels and autotuning results.

Both live in `$TERRAZZO_CACHE_DIR` (default `~/.cache/terrazzo`).

Kernels: one folder per key, `<key[:2]>/<key>/kernel.bin` and `kernel.json`.
Both files are written to a temporary name and renamed (atomic on POSIX), the
binary first; the metadata records the binary's size and one SHA-256 over the
metadata and the binary together (`checksum`). An entry is never trusted
unless every check passes: files present and readable, the checksum, the
key, the kernel's name (in the metadata and in the binary, where every
loadable format names its entry point) and the fields' types; any exception
while reading it (a RecursionError from deeply nested JSON included) counts
as a miss, and the entry is then overwritten by a fresh compilation.

Processes compiling the same kernel take turns (`DiskCache.compiling`): a
lock file beside the entry, `<key[:2]>/<key>.lock`, held while one of them
compiles, so that the others find its entry when they get the lock. Where
the lock cannot be had (no fcntl, a read-only folder, a holder that takes
longer than LOCK_WAIT seconds) each compiles on its own, as before.

Autotuning results (TuningCache): one JSON file per kernel, device and tuning
key, `autotune/<key[:2]>/<key>.json`, holding the time of every configuration
measured so far, so that a configuration added later is the only one timed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Tuple

try:
    import fcntl
except ImportError:  # not POSIX: no lock between processes
    fcntl = None

FORMAT = 2
# The longest a process waits for another's compile of the same kernel.
LOCK_WAIT = 600.0
TUNING_FORMAT = 2
# The longest a process waits for another's compile of the same kernel.
LOCK_WAIT = 600.0


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


def checksum(meta: Dict[str, Any], binary: bytes) -> str:
    """The SHA-256 of an entry: its metadata (every field but this one, in a
    canonical form) and its binary."""
    fields = {k: v for k, v in meta.items() if k != "sha256"}
    digest = hashlib.sha256(json.dumps(fields, sort_keys=True, default=str).encode())
    digest.update(b"\0")
    digest.update(binary)
    return digest.hexdigest()


# The metadata fields a launch reads, and their types.
_FIELDS = (("name", str), ("threads_per_block", int), ("shared_memory_bytes", int),
           ("signature", str))


class DiskCache:
    def __init__(self, root: Optional[Path] = None):
        self.root = Path(root) if root is not None else cache_dir()

    def entry_dir(self, key: str) -> Path:
        return self.root / key[:2] / key

    def load(self, key: str, name: Optional[str] = None) -> Optional[Tuple[bytes, Dict[str, Any]]]:
        """(binary, metadata) of a valid entry for the kernel called `name`
        (any name when None), or None."""
        try:
            return self._load(key, name)
        except Exception:  # whatever a bad entry raises, it is a miss
            return None

    def _load(self, key: str, name: Optional[str]):
        d = self.entry_dir(key)
        meta = json.loads((d / "kernel.json").read_text())
        if not isinstance(meta, dict) or meta.get("format") != FORMAT or \
                meta.get("key") != key:
            return None
        binary = (d / "kernel.bin").read_bytes()
        if len(binary) != meta.get("binary_size") or meta.get("sha256") != checksum(meta, binary):
            return None
        for field, kind in _FIELDS:
            if not isinstance(meta.get(field), kind) or isinstance(meta.get(field), bool):
                return None
        if name is not None and meta["name"] != name:
            return None
        if not meta["name"] or meta["name"].encode() not in binary:
            return None
        return binary, meta

    @contextlib.contextmanager
    def compiling(self, key: str) -> Iterator[None]:
        """Held while this process compiles `key`: other processes wait in
        here meanwhile (up to LOCK_WAIT seconds), then find the entry."""
        path = self.root / key[:2] / f"{key}.lock"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
        except OSError:
            fd = None
        try:
            if fd is not None and fcntl is not None:
                deadline = time.monotonic() + LOCK_WAIT
                while True:
                    try:
                        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                        break
                    except BlockingIOError:
                        if time.monotonic() > deadline:
                            break
                        time.sleep(0.02)
                    except OSError:  # a file system without locks
                        break
            yield
        finally:
            if fd is not None:
                os.close(fd)  # releases the lock

    def store(self, key: str, binary: bytes, metadata: Dict[str, Any]) -> None:
        """Best effort: a cache that cannot be written is not an error."""
        meta = dict(metadata)
        meta.update(format=FORMAT, key=key, binary_size=len(binary))
        meta.pop("sha256", None)
        # The checksum of what a reader will see (a JSON round trip).
        meta = json.loads(json.dumps(meta, default=str))
        meta["sha256"] = checksum(meta, binary)
        d = self.entry_dir(key)
        try:
            _atomic_write(d / "kernel.bin", binary)
            _atomic_write(d / "kernel.json", json.dumps(meta, indent=1).encode())
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
            return self._load(key)
        except Exception:  # as DiskCache.load: a bad file is an empty one
            return {}

    def _load(self, key: str) -> Dict[str, Optional[List[float]]]:
        data = json.loads(self.path(key).read_text())
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
