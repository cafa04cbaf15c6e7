"""Summarises Nsight Compute's source page of one kernel (ncu --import
REPORT --page source --csv --print-source sass > kernel.csv): warp-level
instructions executed by opcode, the stall samples by reason, and the runs
of consecutive instructions executed equally often (a loop body, a
prologue) with their share of the samples. With --lines FIRST-LAST, the
instructions of those lines (numbered as in the runs) with the most
samples, each with its two largest stall reasons.

    python3 bench/ncu_sass_summary.py kernel.csv [kernel2.csv ...] [--lines 191-921 [--top 30]]
"""
import argparse
import collections
import csv


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


def top_lines(path, first, last, top):
    """The `top` lines of [first, last] with the most samples."""
    ix, rows = rows_of(path)
    samples = lambda r: int(r[ix["Warp Stall Sampling (All Samples)"]] or 0)  # noqa: E731
    total = sum(samples(r) for r in rows) or 1
    chosen = list(enumerate(rows))[first:last + 1]
    share = sum(samples(r) for _, r in chosen)
    print(f"   lines {first}-{last}: {100 * share / total:.1f}% of samples; most sampled:")
    reasons = [(name[len("stall_"):], i) for name, i in ix.items()
               if name.startswith("stall_") and "Not Issued" not in name]
    for n, r in sorted(sorted(chosen, key=lambda e: -samples(e[1]))[:top]):
        stalls = sorted(((int(r[i] or 0), name) for name, i in reasons), reverse=True)[:2]
        print(f"   {n:5d} {100 * samples(r) / total:5.2f}%  x{r[ix['Instructions Executed']]:>8s}  "
              f"{r[ix['Source']].strip()[:64]:64s} "
              + ", ".join(f"{name} {v}" for v, name in stalls if v))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("csv", nargs="+")
    parser.add_argument("--lines", help="FIRST-LAST: the most sampled instructions there")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    for path in args.csv:
        summarise(path)
        if args.lines:
            first, last = (int(x) for x in args.lines.split("-"))
            top_lines(path, first, last, args.top)


if __name__ == "__main__":
    main()
