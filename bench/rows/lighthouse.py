"""Lighthouse's mobile performance score of the three pages a consultant
opens most: /login signed out, and / (New Client) and /history signed in,
on an account with thirty clients, a third of them with a photo.

Lighthouse 12.2 (npm, bench/lighthouse/) in Debian's Chromium, its default
mobile run: a phone's screen, a slow 4G network and a 4x slower CPU, all
simulated from one unthrottled load. The CPU is simulated by multiplying
what each task took here, so a machine busy with other work scores lower:
the row keeps the load average, and shows beside each score the same load
scored on CPU time alone (what the tasks took with the cores to
themselves). The budget holds the score itself. The pages take turns run
after run, so a busy moment hurts all three alike."""

import base64
import json
import os
import shutil
import subprocess
import tempfile

from lib import Row, median, signed_in

PAGES = ["/login", "/", "/history"]
ROWS = [f"Lighthouse mobile performance of {page}" for page in PAGES]

SCORE_BUDGET = 90
TBT_BUDGET_MS = 200
FULL_RUNS = 3
CLIENTS = 30
WITH_PHOTO = 10
ATTEMPTS = 3
CONVERT = "/usr/bin/convert"


def lighthouse_cli():
    """Where bench/run installed Lighthouse (DEBRIEF_BENCH_LIGHTHOUSE)."""
    root = os.environ.get("DEBRIEF_BENCH_LIGHTHOUSE")
    cli = os.path.join(root or "", "node_modules", "lighthouse", "cli", "index.js")
    if not root or not os.path.exists(cli):
        raise RuntimeError("Lighthouse is not installed: bench/run installs it into DEBRIEF_BENCH_LIGHTHOUSE")
    return cli


def photo_data_url(tmp):
    """A phone-sized portrait stand-in: a JPEG of seeded noise, as the app uploads it."""
    path = os.path.join(tmp, "client.jpg")
    subprocess.run([CONVERT, "-seed", "7", "-size", "800x800", "plasma:fractal", "-quality", "85", path],
                   check=True, capture_output=True)
    with open(path, "rb") as f:
        return "data:image/jpeg;base64," + base64.b64encode(f.read()).decode()


def seed(server, tmp):
    """A consultant's account with CLIENTS clients; returns its session cookie."""
    http = signed_in(server, email="lighthouse@example.com")
    photo = photo_data_url(tmp)
    letters = "abcdefghijklmnopqrstuvwxyz"
    for i in range(CLIENTS):
        name = f"Client {letters[i % 26].upper()}{letters[i // 26]}son"
        created = http.call("POST", "/api/clients", {"clientData": {
            "name": name, "email": f"client{i}@client.example", "phone": "+1 555 010 2030",
            "company": f"Company {letters[i % 26].upper()}", "position": "Director"}})
        if i < WITH_PHOTO:
            http.call("POST", f"/api/clients/{created['id']}/photo", {"photo": photo})
    return http.cookie



def gather(cli, url, cookie, folder):
    """One page load, its trace and network log saved in `folder` (lighthouse -G).
    Lighthouse 12.2 on a newer Chromium now and then records a trace without its
    navigation start (NO_NAVSTART): such a load is made again."""
    headers = ["--extra-headers", json.dumps({"Cookie": cookie})] if cookie else []
    for attempt in range(1, ATTEMPTS + 1):
        shutil.rmtree(folder, ignore_errors=True)
        out = subprocess.run(
            ["node", cli, url, "--quiet", "--only-categories=performance", f"-G={folder}",
             "--chrome-flags=--headless=new --no-sandbox", *headers],
            capture_output=True, text=True, timeout=240, env={**os.environ, "CHROME_PATH": "/usr/bin/chromium"},
        )
        if out.returncode == 0:
            try:
                return scored(cli, folder, headers)
            except RuntimeError:
                if attempt == ATTEMPTS:
                    raise
        elif attempt == ATTEMPTS:
            raise RuntimeError(f"lighthouse {url} failed:\n{out.stderr[-2000:]}")


def scored(cli, folder, headers):
    """Lighthouse's mobile score of a gathered load (lighthouse -A): (score, TBT ms, LCP s, warnings)."""
    out = subprocess.run(
        ["node", cli, f"-A={folder}", "--quiet", "--only-categories=performance", "--output=json",
         "--output-path=stdout", "--chrome-flags=--headless=new --no-sandbox", *headers],
        capture_output=True, text=True, timeout=240,
    )
    report = json.loads(out.stdout) if out.returncode == 0 else {}
    performance = report.get("categories", {}).get("performance", {}).get("score")
    if performance is None or report.get("runtimeError"):
        raise RuntimeError(f"lighthouse gave no score: {report.get('runtimeError') or out.stderr[-2000:]}")
    audits = report["audits"]
    return (performance * 100, audits["total-blocking-time"]["numericValue"],
            audits["largest-contentful-paint"]["numericValue"] / 1000, report.get("runWarnings", []))


def on_cpu_time(cli, folder, cookie):
    """The same load scored as if each task had lasted only its CPU time: what it would
    have taken with the cores to itself, without the waits for other work on a shared
    machine. Shown beside the score, never instead of it."""
    quiet = folder + "-cpu-time"
    shutil.copytree(folder, quiet, dirs_exist_ok=True)
    trace_path = os.path.join(quiet, "defaultPass.trace.json")
    with open(trace_path) as f:
        trace = json.load(f)
    for event in trace["traceEvents"] if isinstance(trace, dict) else trace:
        if event.get("ph") == "X" and "dur" in event and "tdur" in event:
            event["dur"] = min(event["dur"], event["tdur"])
    with open(trace_path, "w") as f:
        json.dump(trace, f)
    headers = ["--extra-headers", json.dumps({"Cookie": cookie})] if cookie else []
    return scored(cli, quiet, headers)


def measure(ctx):
    cli = lighthouse_cli()
    runs = ctx.runs if ctx.quick else max(ctx.runs, FULL_RUNS)
    results = {page: [] for page in PAGES}
    quiet = {page: [] for page in PAGES}
    warnings = set()
    load = []
    with ctx.serve() as server, tempfile.TemporaryDirectory(dir=ctx.tmp) as tmp:
        cookie = seed(server, tmp)
        for run in range(runs):
            for n, page in enumerate(PAGES):
                load.append(os.getloadavg()[0])
                sent = None if page == "/login" else cookie
                folder = os.path.join(tmp, f"run{run}-page{n}")
                score, tbt, lcp, warned = gather(cli, server.url + page, sent, folder)
                results[page].append((score, tbt, lcp))
                quiet[page].append(on_cpu_time(cli, folder, sent)[:3])
                warnings.update(warned)

    rows = []
    for page, measure_name in zip(PAGES, ROWS):
        score, tbt, lcp = (median([r[i] for r in results[page]]) for i in range(3))
        quiet_score, quiet_tbt, _ = (median([r[i] for r in quiet[page]]) for i in range(3))
        rows.append(Row(
            measure_name,
            f"{score:.0f} (TBT {tbt:.0f} ms, LCP {lcp:.1f} s; on CPU time alone {quiet_score:.0f}, TBT {quiet_tbt:.0f} ms)",
            f"≥ {SCORE_BUDGET}, TBT ≤ {TBT_BUDGET_MS} ms", score >= SCORE_BUDGET and tbt <= TBT_BUDGET_MS,
            values={"scores": [r[0] for r in results[page]], "tbtMs": [r[1] for r in results[page]],
                    "lcpS": [r[2] for r in results[page]], "cpuTimeScores": [r[0] for r in quiet[page]],
                    "cpuTimeTbtMs": [r[1] for r in quiet[page]], "loadAverage1m": load,
                    "warnings": sorted(warnings)}))
    return rows
