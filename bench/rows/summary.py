"""Summary and next steps of a 30-minute client meeting, by the default
(embedding) summariser and by the instruct LLM (Qwen2.5-Coder-1.5B, Q4_K_M,
the one a registry carries; its peak memory is a budget too): `debrief summarise --batch
--json`, its load plus summarise time against the budget, as a user's
machine runs it (the binary's own thread settings). The CPU time is
reported beside it: on a shared machine the wall time is mostly waiting for
a core.

The meeting is bench/data/meeting-30min.txt: a consultant and two clients,
4,500 words (30 minutes at 150 a minute), punctuated as Whisper writes it,
with seven commitments said along the way. How many of them the next steps
keep is a row of its own: it does not vary from run to run, so it holds in
a quick pass too (the LLM's half in a full run only: a quick pass spends
its LLM minutes on a held-out meeting of the development set). A last row feeds a 90-minute transcript (the same meeting
followed by meetings of the development set) and asks for a non-empty
answer. The LLM rows also keep each LLM call's prompt and answer sizes and
times."""

import os
import re

import devset
from lib import Row, import_models, median, summarise_batch

EMBEDDING = "summary + next steps, 30-min meeting, embedding"
LLM = "summary + next steps, 30-min meeting, instruct LLM"
KEPT = "commitments kept, 30-min meeting"
LONG = "summary + next steps, 90-min meeting, embedding"
ROWS = [EMBEDDING, LLM, KEPT, LONG]

MEETING = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "meeting-30min.txt")
BUDGET_S = {"embedding": 5, "llm": 300}
# The instruct LLM is the one users get where memory allows, run quantised:
# its peak is held to what a 2 GB machine can give it.
BUDGET_MB = {"llm": 2048}
MODELS = ["all-minilm-l6-v2", "qwen-coder-1.5b"]
LLM_RUNS = 3
KEPT_BUDGET = 6
LONG_WORDS = 90 * 150

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


def kept(next_steps):
    return sum(any(devset.holds(step, terms) for step in next_steps) for terms in COMMITMENTS)


def summarise(ctx, models_dir, summariser, transcript=MEETING):
    """One `debrief summarise` run on one transcript: its own load and
    summarise times, the process's wall and CPU time, and what it wrote."""
    answers, cpu, wall, stderr = summarise_batch(ctx, [transcript], models_dir, summariser,
                                                 extra=("--log-level", "debug"))
    answer = answers[transcript]
    return {
        "load": answer["loadMs"] / 1000,
        "summarise": answer["summariseMs"] / 1000,
        "wall": wall,
        "cpu": cpu,
        "kept": kept(answer["nextSteps"]),
        "peakMb": answer.get("peakMemoryKb", 0) / 1024,
        "steps": len(answer["nextSteps"]),
        "summaryWords": len(answer["summary"].split()),
        # The LLM's answer off the format: the default summariser wrote it;
        # cut before its next steps: the default summariser found them.
        "fellBack": "off the format" in stderr,
        "stepsFilled": "ended before its next steps" in stderr,
        # Each LLM call logs its prompt and answer sizes and times.
        "calls": [dict(re.findall(r"(\w+)=(\d+)", line)) for line in stderr.splitlines() if "LLM call" in line],
    }


def row(measure, summariser, runs):
    load = median([r["load"] for r in runs])
    work = median([r["summarise"] for r in runs])
    total = median([r["load"] + r["summarise"] for r in runs])
    cpu = median([r["cpu"] for r in runs])
    # The summariser is deterministic: every run writes the same.
    last = runs[-1]
    note = ", fell back" if last["fellBack"] else ", steps filled in" if last["stepsFilled"] else ""
    peak = max(r["peakMb"] for r in runs)
    memory = BUDGET_MB.get(summariser)
    return Row(
        measure,
        f"{total:.1f} s (load {load:.1f} s, CPU {cpu:.0f} s, peak {peak:.0f} MB, "
        f"{last['kept']}/{len(COMMITMENTS)} commitments{note})",
        f"≤ {BUDGET_S[summariser]} s" + (f", peak ≤ {memory} MB" if memory else ""),
        total <= BUDGET_S[summariser] and (memory is None or peak <= memory),
        values={
            "totalS": total, "loadS": load, "summariseS": work, "wallS": median([r["wall"] for r in runs]),
            "cpuS": cpu, "peakMb": peak,
            "totalsS": [r["load"] + r["summarise"] for r in runs],
            "nextSteps": last["steps"], "commitmentsKept": last["kept"], "commitments": len(COMMITMENTS),
            "fellBack": last["fellBack"], "stepsFilled": last["stepsFilled"], "words": len(open(MEETING).read().split()),
            "llmCalls": [{k: int(v) for k, v in call.items()} for call in last["calls"]],
        },
    )


def kept_row(embedding, llm):
    """`llm` is None in a quick pass, which leaves the LLM out."""
    said = "full run only" if llm is None else f"{llm}/{len(COMMITMENTS)}"
    return Row(
        KEPT, f"embedding {embedding}/{len(COMMITMENTS)}, instruct LLM {said}",
        f"embedding ≥ {KEPT_BUDGET}/{len(COMMITMENTS)}, LLM ≥ embedding",
        embedding >= KEPT_BUDGET and (llm is None or llm >= embedding),
        values={"embedding": embedding, "llm": llm, "commitments": len(COMMITMENTS)}, quality=True,
    )


def llm_row(runs):
    if runs:
        return row(LLM, "llm", runs)
    return Row(LLM, "full run only: the quick pass's LLM minutes go to the held-out meeting",
               f"≤ {BUDGET_S['llm']} s, peak ≤ {BUDGET_MB['llm']} MB", True)


def ninety_minutes(ctx):
    """The 30-minute meeting followed by the development set's meetings,
    in name order, until it holds 90 minutes of speech."""
    parts = [open(MEETING).read()]
    for meeting in devset.load():
        if sum(len(p.split()) for p in parts) >= LONG_WORDS:
            break
        parts.append(meeting.text("whisper"))
    path = os.path.join(ctx.tmp, "meeting-90min.txt")
    with open(path, "w") as f:
        f.write("\n\n".join(parts))
    return path


def long_row(run, words):
    return Row(
        LONG, f"{run['summaryWords']} summary words, {run['steps']} next steps in {run['load'] + run['summarise']:.1f} s "
              f"(CPU {run['cpu']:.0f} s)",
        "a summary and next steps", run["summaryWords"] > 0 and run["steps"] > 0,
        values={"words": words, "summaryWords": run["summaryWords"], "nextSteps": run["steps"],
                "totalS": run["load"] + run["summarise"], "cpuS": run["cpu"]},
        quality=True,
    )


def measure(ctx):
    models_dir = os.path.join(ctx.tmp, "summary-models")
    import_models(ctx, MODELS, models_dir)
    runs = {"embedding": [], "llm": []}
    # Interleaved, so a busy moment of the shared machine hurts both alike.
    # The LLM, at two minutes a run and with little spread between runs,
    # runs at most three times, and not in a quick pass: there the next
    # steps row's held-out meeting takes the LLM's few minutes.
    llm_runs = 0 if ctx.quick else LLM_RUNS
    for i in range(ctx.runs):
        for summariser in runs:
            if summariser == "llm" and i >= llm_runs:
                continue
            runs[summariser].append(summarise(ctx, models_dir, summariser))
    long = ninety_minutes(ctx)
    return [
        row(EMBEDDING, "embedding", runs["embedding"]),
        llm_row(runs["llm"]),
        kept_row(runs["embedding"][-1]["kept"], runs["llm"][-1]["kept"] if runs["llm"] else None),
        long_row(summarise(ctx, models_dir, "embedding", long), len(open(long).read().split())),
    ]
