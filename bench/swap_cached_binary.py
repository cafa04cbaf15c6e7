"""A kernel cache with one kernel's binary replaced by another build of
it, to time an edited kernel under any benchmark of the project without
changing the compiler: the kernel's tilegpu IR (`kernel.compile(...,
stage="tilegpu")`, or TERRAZZO_DUMP_IR) edited by hand and compiled from
there (`terrazzo-compile edited.mlir --target=cuda:90 --emit=cubin -o
k.cubin`, which writes k.cubin.json beside it), then on the GPU machine:

    TERRAZZO_CACHE_DIR=/tmp/a python3 bench/attention_configs.py ...  # fills /tmp/a
    python3 bench/swap_cached_binary.py /tmp/a /tmp/b k.cubin
    TERRAZZO_CACHE_DIR=/tmp/b python3 bench/attention_configs.py ...  # runs k.cubin

The copy's entries of the kernel that the binary's JSON names (every
specialization of it that the first run compiled, unless --key picks
some) get the binary, its shared-memory size and threads per block; the
launch must be the same otherwise: an entry whose tensor-map parameters
differ from the JSON's is an error, not a swap. The benchmark's own
checks of the results are the edited kernel's test."""
import argparse
import json
import shutil
import sys
from pathlib import Path

from terrazzo.runtime.cache import checksum


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", type=Path, help="a kernel cache a run filled")
    parser.add_argument("copy", type=Path, help="where the copy goes (replaced)")
    parser.add_argument("binary", type=Path,
                        help="terrazzo-compile's output (cubin or PTX), its JSON beside it")
    parser.add_argument("--key", nargs="+", default=[],
                        help="entries (key prefixes) to replace; default: all of the kernel's")
    args = parser.parse_args()
    described = json.loads(Path(str(args.binary) + ".json").read_text())
    binary = args.binary.read_bytes()
    if not (args.source.is_dir() and any(args.source.glob("*/*/kernel.json"))):
        sys.exit(f"error: {args.source} holds no cached kernels")
    shutil.rmtree(args.copy, ignore_errors=True)
    shutil.copytree(args.source, args.copy)
    swapped = 0
    for path in sorted(args.copy.glob("*/*/kernel.json")):
        meta = json.loads(path.read_text())
        key = path.parent.name
        if meta.get("name") != described["name"]:
            continue
        if args.key and not any(key.startswith(k) for k in args.key):
            continue
        maps = [m["parameter"] for m in meta.get("host_tensormaps") or []]
        if maps != [m["parameter"] for m in described.get("host_tensormaps") or []]:
            sys.exit(f"error: entry {key[:12]} passes tensor maps as parameters {maps}, "
                     f"the binary as {described.get('host_tensormaps')}")
        print(f"{key[:12]} {meta.get('signature')}: shared memory "
              f"{meta['shared_memory_bytes']} -> {described['shared_memory_bytes']}, "
              f"threads {meta['threads_per_block']} -> {described['threads_per_block']}")
        meta.update(binary_size=len(binary),
                    shared_memory_bytes=int(described["shared_memory_bytes"]),
                    threads_per_block=int(described["threads_per_block"]))
        meta["sha256"] = checksum(meta, binary)
        (path.parent / "kernel.bin").write_bytes(binary)
        path.write_text(json.dumps(meta))
        swapped += 1
    if not swapped:
        sys.exit(f"error: no entry of {described['name']} in {args.source}")
    print(f"replaced {swapped} entr{'y' if swapped == 1 else 'ies'} of {described['name']}")


if __name__ == "__main__":
    main()
