"""Runs every benchmark of bench/rows/ and prints one table: measure, ours,
peer, ratio, budget, pass. Called by bench/run; the raw numbers go to a
JSON file for tracking.

A benchmark that raises still gets its rows, marked "not measured" and
failed, so a broken measurement can never pass silently."""

import argparse
import importlib
import json
import os
import platform
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(__file__))
from lib import Context, Row  # noqa: E402

# In table order. Each module has ROWS (the measures it reports, so a
# failure can name them) and measure(ctx) -> list[Row].
BENCHMARKS = ["speech", "names", "storage", "summary", "meetings", "qmsum", "ami", "http", "cards", "footprint",
              "browser", "lighthouse"]


# The vector instructions speed rows depend on: a figure says where it was
# measured (x86: AVX2 and FMA, AVX-512, VNNI; ARM: the dot product, asimddp).
SPEED_FLAGS = ["avx2", "fma", "avx512f", "avx512bw", "avx512_vnni", "avx_vnni", "asimd", "asimddp"]


def machine():
    cpu, flags = "unknown CPU", []
    try:
        with open("/proc/cpuinfo") as f:
            info = [line.split(":", 1) for line in f if ":" in line]
        fields = {key.strip(): value.strip() for key, value in reversed(info)}
        cpu = fields.get("model name") or fields.get("Model") or cpu
        have = set((fields.get("flags") or fields.get("Features") or "").split())
        flags = [flag for flag in SPEED_FLAGS if flag in have]
    except OSError:
        pass
    mem_gb = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return (f"{os.cpu_count()} cores ({cpu}; {' '.join(flags) or 'no AVX2 or NEON'}), {mem_gb:.0f} GB, "
            f"{platform.system()} {platform.machine()}")


def run_benchmark(name, ctx):
    module = importlib.import_module(f"rows.{name}")
    started = time.monotonic()
    try:
        rows = module.measure(ctx)
    except Exception:  # noqa: BLE001 - any failure becomes a failed row
        traceback.print_exc()
        rows = [Row(measure, "not measured", "—", False) for measure in module.ROWS]
    print(f"  {name}: {time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
    return rows


def table(rows):
    header = ["measure", "ours", "peer", "ratio", "budget", "pass"]
    cells = [[r.measure, r.ours, r.peer, f"{r.ratio:.2f}" if r.ratio is not None else "—", r.budget,
              "pass" if r.passed else "FAIL"] for r in rows]
    widths = [max(len(str(c[i])) for c in [header, *cells]) for i in range(len(header))]
    line = lambda c: "| " + " | ".join(str(x).ljust(w) for x, w in zip(c, widths)) + " |"  # noqa: E731
    return "\n".join([line(header), "|" + "|".join("-" * (w + 2) for w in widths) + "|", *map(line, cells)])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--models", required=True)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="one short run of everything: proves each row is produced")
    parser.add_argument("--json", required=True, help="where to write the results")
    parser.add_argument("--only", help="comma-separated benchmark names")
    args = parser.parse_args()

    names = args.only.split(",") if args.only else BENCHMARKS
    ctx = Context(args.bin, args.models, 1 if args.quick else args.runs, args.quick, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    started = time.monotonic()
    rows = []
    try:
        print("measuring:", file=sys.stderr, flush=True)
        for name in names:
            rows += run_benchmark(name, ctx)
    finally:
        ctx.close()

    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    print(f"\n{when}, {machine()}, {ctx.runs} run(s) per measure, medians{' (quick pass)' if args.quick else ''}\n")
    print(table(rows))
    print(f"\n{sum(r.passed for r in rows)}/{len(rows)} within budget, {time.monotonic() - started:.0f} s")
    with open(args.json, "w") as f:
        json.dump({"date": when, "machine": machine(), "runs": ctx.runs, "quick": args.quick,
                   "rows": [r.__dict__ for r in rows]}, f, indent=2)

    measured = all(r.ours != "not measured" for r in rows)
    failed_requests = {r.measure: r.errors for r in rows if r.errors}
    for measure, count in failed_requests.items():
        print(f"{measure}: {count} request(s) failed under load", file=sys.stderr)
    # A quick pass proves every row is produced without a failed request and
    # holds the quality budgets; a full run holds every budget.
    held = all(r.passed for r in rows if r.quality or not args.quick)
    sys.exit(0 if measured and not failed_requests and held else 1)


if __name__ == "__main__":
    main()
