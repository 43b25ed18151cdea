"""Lighthouse's mobile performance score of the three pages a consultant
opens most: /login signed out, and / (New Client) and /history signed in,
on an account with thirty clients, a third of them with a photo.

Lighthouse 12.2 (npm, bench/lighthouse/) in Debian's Chromium, its default
mobile run: a phone's screen, a slow 4G network and a 4x slower CPU, all
simulated from one unthrottled load. The CPU is simulated by multiplying
what each task took here, so a machine busy with other work scores lower:
the row keeps the load average beside the numbers. The pages take turns
run after run, so a busy moment hurts all three alike."""

import base64
import json
import os
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


def audit(cli, url, cookie):
    """One Lighthouse run: (score, TBT ms, LCP s, its warnings)."""
    headers = ["--extra-headers", json.dumps({"Cookie": cookie})] if cookie else []
    out = subprocess.run(
        ["node", cli, url, "--output=json", "--output-path=stdout", "--only-categories=performance", "--quiet",
         "--chrome-flags=--headless=new --no-sandbox", *headers],
        capture_output=True, text=True, timeout=240, env={**os.environ, "CHROME_PATH": "/usr/bin/chromium"},
    )
    if out.returncode != 0:
        raise RuntimeError(f"lighthouse {url} failed:\n{out.stderr[-2000:]}")
    report = json.loads(out.stdout)
    if report.get("runtimeError"):
        raise RuntimeError(f"lighthouse {url}: {report['runtimeError']}")
    score = report["categories"]["performance"]["score"]
    if score is None:
        raise RuntimeError(f"lighthouse {url} gave no score: {report.get('runWarnings')}")
    audits = report["audits"]
    return (score * 100, audits["total-blocking-time"]["numericValue"],
            audits["largest-contentful-paint"]["numericValue"] / 1000, report.get("runWarnings", []))


def measure(ctx):
    cli = lighthouse_cli()
    runs = ctx.runs if ctx.quick else max(ctx.runs, FULL_RUNS)
    results = {page: [] for page in PAGES}
    warnings = set()
    with ctx.serve() as server, tempfile.TemporaryDirectory(dir=ctx.tmp) as tmp:
        cookie = seed(server, tmp)
        load = []
        for _ in range(runs):
            for page in PAGES:
                load.append(os.getloadavg()[0])
                score, tbt, lcp, warned = audit(cli, server.url + page, None if page == "/login" else cookie)
                results[page].append((score, tbt, lcp))
                warnings.update(warned)

    rows = []
    for page, measure_name in zip(PAGES, ROWS):
        score = median([r[0] for r in results[page]])
        tbt = median([r[1] for r in results[page]])
        lcp = median([r[2] for r in results[page]])
        rows.append(Row(
            measure_name, f"{score:.0f} (TBT {tbt:.0f} ms, LCP {lcp:.1f} s)",
            f"≥ {SCORE_BUDGET}, TBT ≤ {TBT_BUDGET_MS} ms", score >= SCORE_BUDGET and tbt <= TBT_BUDGET_MS,
            values={"scores": [r[0] for r in results[page]], "tbtMs": [r[1] for r in results[page]],
                    "lcpS": [r[2] for r in results[page]], "loadAverage1m": load, "warnings": sorted(warnings)}))
    return rows
