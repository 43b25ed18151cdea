"""A signed-out visitor's first page in Chromium: the JavaScript it is sent,
weighed as the server really sends it, and how soon /login paints on a
phone-class CPU (Chromium's 4× throttling)."""

import json
import os
import subprocess
import urllib.request

from lib import Row, median

JS_SENT = "JS sent to the browser for the first page, gzip"
FCP = "first contentful paint of /login in Chromium, 4× CPU throttling"
ROWS = [JS_SENT, FCP]

JS_BUDGET_KB = 60
FCP_BUDGET_S = 1.0
THROTTLE = 4
# A median of fewer cold loads than this swings with whatever else the machine does.
FULL_RUNS = 5


def wire_bytes(url):
    """What the server puts on the wire for a gzip-capable client, and how it encoded it.
    urllib does not decompress, so the body read is the bytes sent."""
    req = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(req, timeout=30) as res:
        return len(res.read()), res.headers.get("Content-Encoding", "identity")


def first_visits(ctx, url, runs):
    script = os.path.join(ctx.repo, "bench", "browser.mjs")
    out = subprocess.run(
        ["node", script, "--url", url, "--runs", str(runs), "--throttle", str(THROTTLE)],
        capture_output=True, text=True, timeout=120 + 60 * runs,
    )
    if out.returncode != 0:
        raise RuntimeError(f"bench/browser.mjs failed:\n{out.stderr}")
    return json.loads(out.stdout)


def measure(ctx):
    runs = ctx.runs if ctx.quick else max(ctx.runs, FULL_RUNS)
    with ctx.serve() as server:
        visits = first_visits(ctx, server.url, runs)
        # Paint times stretch with whatever else the machine runs; kept to read them by.
        load = os.getloadavg()[0]
        sent = {url: wire_bytes(url) for url in visits["scripts"]}

    js_bytes = sum(size for size, _ in sent.values())
    js_kb = js_bytes / 1024
    throttled_s = median(visits["throttledFcpMs"]) / 1000
    unthrottled_s = median(visits["fcpMs"]) / 1000
    # The first paint is index.html's launch screen; the form itself comes with the largest.
    largest_s = median(visits["throttledLcpMs"]) / 1000
    return [
        Row(JS_SENT, f"{js_kb:.1f} KB in {len(sent)} files", f"≤ {JS_BUDGET_KB} KB",
            js_kb <= JS_BUDGET_KB,
            values={"bytes": js_bytes, "files": {url.rsplit("/", 1)[-1]: {"bytes": size, "encoding": enc}
                                                 for url, (size, enc) in sorted(sent.items())}}),
        Row(FCP, f"{throttled_s:.2f} s (form {largest_s:.2f} s; {unthrottled_s:.2f} s unthrottled)", f"≤ {FCP_BUDGET_S:.1f} s",
            throttled_s <= FCP_BUDGET_S,
            values={"throttle": THROTTLE, "medianS": throttled_s, "unthrottledMedianS": unthrottled_s,
                    "loadAverage1m": load,
                    "largestPaintMedianS": largest_s, "largestPaintRunsMs": visits["throttledLcpMs"],
                    "runsMs": visits["throttledFcpMs"], "unthrottledRunsMs": visits["fcpMs"]}),
    ]
