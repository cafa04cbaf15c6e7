"""Summarises Nsight Compute's source page of one kernel (ncu --import
REPORT --page source --csv --print-source sass > kernel.csv): warp-level
instructions executed by opcode, the stall samples by reason, and the runs
of consecutive instructions executed equally often (a loop body, a
prologue) with their share of the samples.

    python3 bench/ncu_sass_summary.py kernel.csv [kernel2.csv ...]
"""
import collections
import csv
import sys


def rows_of(path):
    rows = list(csv.reader(open(path)))
    header = rows[1]
    return {h: i for i, h in enumerate(header)}, [r for r in rows[2:] if len(r) >= len(header)]


def opcode(source):
    words = source.split()
    word = words[1] if words and words[0].startswith("@") and len(words) > 1 else words[0]
    return word.split(".")[0]


def summarise(path):
    ix, rows = rows_of(path)
    executed = lambda r: int(r[ix["Instructions Executed"]] or 0)  # noqa: E731
    samples = lambda r: int(r[ix["Warp Stall Sampling (All Samples)"]] or 0)  # noqa: E731
    ops, stalls = collections.Counter(), collections.Counter()
    for r in rows:
        ops[opcode(r[ix["Source"]].strip() or "?")] += executed(r)
        for name, i in ix.items():
            if name.startswith("stall_") and "Not Issued" not in name and r[i]:
                stalls[name[len("stall_"):]] += int(r[i])
    total_samples = sum(samples(r) for r in rows) or 1
    print(f"== {path}: {sum(ops.values()):,} warp-level instructions, {len(rows)} SASS lines")
    print("   by opcode:", ", ".join(f"{k} {v / 1e6:.1f}M" for k, v in ops.most_common(24)))
    all_stalls = sum(stalls.values()) or 1
    print("   stalls:", ", ".join(f"{k} {100 * v / all_stalls:.1f}%"
                                  for k, v in stalls.most_common(10)))
    runs = []
    for n, r in enumerate(rows):
        c = executed(r)
        if runs and abs(runs[-1][2] - c) <= 0.05 * max(c, 1):
            runs[-1][1] = n
            runs[-1][3] += samples(r)
        else:
            runs.append([n, n, c, samples(r)])
    for first, last, count, s in runs:
        if s > 0.003 * total_samples or last - first > 20:
            print(f"   lines {first:5d}-{last:5d}: executed {count / 1e6:8.3f}M times each, "
                  f"{100 * s / total_samples:5.1f}% of samples  "
                  f"({rows[first][ix['Source']].strip()[:40]})")


for path in sys.argv[1:]:
    summarise(path)
