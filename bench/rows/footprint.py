"""What the box pays before any work: start-up time, idle memory and the
size of the binary."""

import os
import ssl
import subprocess
import tempfile
import time
import urllib.request

from lib import Row, median, rss_kb

ROWS = ["cold start to first 200 on /api/health", "idle memory (RSS) after start, no model loaded",
        "stripped release binary (no models)"]


def unchecked_tls():
    """Certificates are not checked: the local CA is not in this machine's
    trust store. Made before the clock starts (loading the system's CA
    store takes Python ~80 ms)."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def first_health(url, unchecked):
    """Polls /api/health until it answers 200."""
    while True:
        try:
            with urllib.request.urlopen(url + "/api/health", timeout=2, context=unchecked) as res:
                if res.status == 200:
                    return
        except OSError:
            time.sleep(0.001)


def cold_starts(ctx, runs):
    """Starts the server the way a user does (HTTPS with the local CA) on a
    data folder made by an earlier start, and times process start to the
    first 200 — the ready line comes before the first request can. Returns
    start times and the idle resident memory of each run."""
    data_dir = tempfile.mkdtemp(prefix="debrief-bench-footprint-", dir=ctx.tmp)
    with ctx.serve(data_dir=data_dir, tls=True):
        pass  # the first start creates the store and the certificate authority
    starts, idle = [], []
    unchecked = unchecked_tls()
    for _ in range(runs):
        started = time.perf_counter()
        with ctx.serve(data_dir=data_dir, tls=True) as server:
            first_health(server.url, unchecked)
            starts.append(time.perf_counter() - started)
            time.sleep(1)  # settled: what an idle box keeps resident
            idle.append(rss_kb(server.pid))
    return starts, idle


def stripped_size(ctx):
    stripped = os.path.join(ctx.tmp, "debrief-stripped")
    subprocess.run(["strip", "-o", stripped, ctx.bin], check=True)
    return os.path.getsize(stripped)


def measure(ctx):
    starts, idle = cold_starts(ctx, max(ctx.runs, 3))
    start_ms, idle_kb, size = median(starts) * 1000, median(idle), stripped_size(ctx)
    return [
        Row(ROWS[0], f"{start_ms:.0f} ms", "≤ 100 ms", start_ms <= 100, values={"start_ms": [s * 1000 for s in starts]}),
        Row(ROWS[1], f"{idle_kb / 1024:.1f} MB", "≤ 40 MB", idle_kb <= 40 * 1024, values={"rss_kb": idle}),
        Row(ROWS[2], f"{size / 2**20:.1f} MB", "≤ 40 MB", size <= 40 * 2**20, values={"bytes": size}),
    ]
