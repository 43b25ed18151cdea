"""Summary and next steps of a 30-minute client meeting, by the embedding
summariser and by the small LLM: `debrief summarise --json`, its load plus
summarise time against the budget, as a user's machine runs it (the
binary's own thread settings). The CPU time is reported beside it: on a
shared machine the wall time is mostly waiting for a core.

The meeting is bench/data/meeting-30min.txt: a consultant and two clients,
4,500 words (30 minutes at 150 a minute), punctuated as Whisper writes it,
with seven commitments said along the way. The rows also count how many of
them the next steps keep, so a fast but empty answer shows, and keep each
LLM call's prompt and answer sizes and times."""

import json
import os
import re
import resource
import subprocess
import time

from lib import Row, median

EMBEDDING = "summary + next steps, 30-min meeting, embedding"
LLM = "summary + next steps, 30-min meeting, small LLM"
ROWS = [EMBEDDING, LLM]

MEETING = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "meeting-30min.txt")
BUDGET_S = {"embedding": 10, "llm": 90}
MODELS = ["all-minilm-l6-v2", "smollm2"]
LLM_RUNS = 3

# Each commitment of the meeting by what a next step for it must name
# ("a|b": either).
COMMITMENTS = [
    ["revised proposal"],
    ["demo"],
    ["sample"],
    ["product list|names"],
    ["stock count"],
    ["agenda|board meeting"],
    ["internet provider|connection details|broadband"],
]


def import_models(ctx, into):
    for name in MODELS:
        subprocess.run([ctx.bin, "models", "import", os.path.join(ctx.models, name), "--models-dir", into,
                        "--data-dir", os.path.join(into, "data")], check=True, capture_output=True)


def kept(next_steps):
    steps = [s.lower() for s in next_steps]
    named = lambda step, term: any(t in step for t in term.split("|"))  # noqa: E731
    return sum(any(all(named(s, term) for term in terms) for s in steps) for terms in COMMITMENTS)


def summarise(ctx, models_dir, summariser):
    """One `debrief summarise` run: its own load and summarise times, the
    process's wall time, and what it wrote."""
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    out = subprocess.run([ctx.bin, "summarise", MEETING, "--summariser", summariser, "--json", "--models-dir", models_dir,
                          "--log-level", "debug"], capture_output=True, text=True)
    wall = time.perf_counter() - started
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode != 0:
        raise RuntimeError(f"debrief summarise --summariser {summariser} failed:\n{out.stderr}")
    result = json.loads(out.stdout)
    return {
        "load": result["timings"]["loadMs"] / 1000,
        "summarise": result["timings"]["summariseMs"] / 1000,
        "wall": wall,
        "cpu": (cpu_after.ru_utime - cpu_before.ru_utime) + (cpu_after.ru_stime - cpu_before.ru_stime),
        "kept": kept(result["nextSteps"]),
        "steps": len(result["nextSteps"]),
        # The LLM's answer off the format: the default summariser wrote it;
        # cut before its next steps: the default summariser found them.
        "fellBack": "off the format" in out.stderr,
        "stepsFilled": "ended before its next steps" in out.stderr,
        # Each LLM call logs its prompt and answer sizes and times.
        "calls": [dict(re.findall(r"(\w+)=(\d+)", line)) for line in out.stderr.splitlines() if "LLM call" in line],
    }


def row(measure, summariser, runs):
    load = median([r["load"] for r in runs])
    work = median([r["summarise"] for r in runs])
    total = median([r["load"] + r["summarise"] for r in runs])
    cpu = median([r["cpu"] for r in runs])
    # The summariser is deterministic: every run writes the same.
    last = runs[-1]
    note = ", fell back" if last["fellBack"] else ", steps filled in" if last["stepsFilled"] else ""
    return Row(
        measure,
        f"{total:.1f} s (load {load:.1f} s, CPU {cpu:.0f} s, {last['kept']}/{len(COMMITMENTS)} commitments{note})",
        f"≤ {BUDGET_S[summariser]} s",
        total <= BUDGET_S[summariser],
        values={
            "totalS": total, "loadS": load, "summariseS": work, "wallS": median([r["wall"] for r in runs]),
            "cpuS": cpu,
            "totalsS": [r["load"] + r["summarise"] for r in runs],
            "nextSteps": last["steps"], "commitmentsKept": last["kept"], "commitments": len(COMMITMENTS),
            "fellBack": last["fellBack"], "stepsFilled": last["stepsFilled"], "words": len(open(MEETING).read().split()),
            "llmCalls": [{k: int(v) for k, v in call.items()} for call in last["calls"]],
        },
    )


def measure(ctx):
    models_dir = os.path.join(ctx.tmp, "summary-models")
    import_models(ctx, models_dir)
    runs = {"embedding": [], "llm": []}
    # Interleaved, so a busy moment of the shared machine hurts both alike.
    # The LLM, at half a minute a run and with little spread between runs,
    # runs at most three times: the whole bench stays within 20 minutes.
    for i in range(ctx.runs):
        for summariser in runs:
            if summariser == "llm" and i >= LLM_RUNS:
                continue
            runs[summariser].append(summarise(ctx, models_dir, summariser))
    return [row(EMBEDDING, "embedding", runs["embedding"]), row(LLM, "llm", runs["llm"])]
