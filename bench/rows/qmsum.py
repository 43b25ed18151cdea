"""Summaries of real meetings nobody here wrote: QMSum's 35 test meetings
(AMI, ICSI and parliamentary committees; MIT licence). Our summary, cut to
150 words, is scored with ROUGE-1/2/L F (the `rouge-score` package,
stemmed) against the people's answer to "Summarize the whole meeting.",
beside two baselines measured in the same run on the same text: the first
150 words of the transcript, and 150 words of random turns.

The text is what the baselines of the copy's README were measured on: each
turn's words without the disfluency tags ({disfmarker}, {vocalsound}, ...),
punctuation joined to the word before it, empty turns dropped, the turns
joined as one transcript without speaker names (as speech to text gives
it). The first-150 baseline reproduces the README's figures exactly.

The test meetings are committed in bench/data/qmsum; $DEBRIEF_QMSUM, or
shared/data/qmsum in the nearest folder above the repository that has
one, points at a full copy instead.
A quick pass scores every sixth meeting (sorted by name), a full run all."""

import json
import os
import random
import re
import statistics

from lib import Row, import_models, summarise_batch

ROWS = ["QMSum summaries"]
WORDS = 150
MARGIN = 5.0
MEASURES = ("rouge1", "rouge2", "rougeL")


def folder(ctx):
    if os.environ.get("DEBRIEF_QMSUM"):
        return os.environ["DEBRIEF_QMSUM"]
    here = os.path.dirname(os.path.abspath(ctx.repo))
    while os.path.dirname(here) != here:
        candidate = os.path.join(here, "shared", "data", "qmsum")
        if os.path.isdir(candidate):
            return candidate
        here = os.path.dirname(here)
    return os.path.join(ctx.repo, "bench", "data", "qmsum")


def clean(content):
    content = re.sub(r"\{[^}]*\}", "", content)
    content = re.sub(r"\s+([.,?!;:])", r"\1", content)
    return " ".join(content.split())


def turns(meeting):
    return [t for t in (clean(turn["content"]) for turn in meeting["meeting_transcripts"]) if t]


def first_words(text, n=WORDS):
    return " ".join(text.split()[:n])


def random_turns(said, seed=0):
    """Whole turns drawn at random (a fixed seed per meeting) until they
    hold 150 words, put back in the order they were said."""
    order = list(range(len(said)))
    random.Random(seed).shuffle(order)
    picked, words = [], 0
    for i in order:
        picked.append(i)
        words += len(said[i].split())
        if words >= WORDS:
            break
    return first_words(" ".join(said[i] for i in sorted(picked)))


def reference(meeting):
    """The people's summary: the answer to the first general query, "Summarize
    the whole meeting." (ICSI words it "Summarize the meeting" and alike)."""
    return meeting["general_query_list"][0]["answer"]


def mean_rouge(scorer, pairs):
    """Mean F of each measure over (reference, candidate) pairs, in points."""
    scores = [scorer.score(ref, candidate) for ref, candidate in pairs]
    return {m: 100 * statistics.mean(s[m].fmeasure for s in scores) for m in MEASURES}


def show(scores):
    return "/".join(f"{scores[m]:.1f}" for m in MEASURES)


def measure(ctx):
    # Imported here: a missing package fails this row, not the whole table.
    from rouge_score import rouge_scorer

    test = os.path.join(folder(ctx), "test")
    names = sorted(n[:-5] for n in os.listdir(test) if n.endswith(".json"))
    if ctx.quick:
        names = names[::6]
    meetings = {}
    for name in names:
        with open(os.path.join(test, name + ".json")) as f:
            meetings[name] = json.load(f)
    refs = {name: reference(m) for name, m in meetings.items()}
    transcripts = {}
    for name, meeting in meetings.items():
        transcripts[name] = os.path.join(ctx.tmp, f"qmsum-{name}.txt")
        with open(transcripts[name], "w") as f:
            f.write(" ".join(turns(meeting)) + "\n")

    models_dir = os.path.join(ctx.tmp, "qmsum-models")
    import_models(ctx, ["all-minilm-l6-v2"], models_dir)
    answers, cpu, wall, _ = summarise_batch(ctx, list(transcripts.values()), models_dir, "embedding")

    scorer = rouge_scorer.RougeScorer(list(MEASURES), use_stemmer=True)
    ours = mean_rouge(scorer, [(refs[n], first_words(answers[transcripts[n]]["summary"])) for n in names])
    first = mean_rouge(scorer, [(refs[n], first_words(" ".join(turns(meetings[n])))) for n in names])
    rand = mean_rouge(scorer, [(refs[n], random_turns(turns(meetings[n]))) for n in names])
    best = max(first["rouge1"], rand["rouge1"])
    return [Row(
        ROWS[0], f"R-1/2/L {show(ours)} ({len(names)} test meetings, CPU {cpu:.0f} s)",
        f"R-1 ≥ best baseline + {MARGIN:.0f} ({best + MARGIN:.1f})", ours["rouge1"] >= best + MARGIN,
        peer=f"first {WORDS} words {show(first)}; random turns {show(rand)}",
        # The budget holds over the 35 meetings of a full run, which fails
        # under it; a quick pass's six swing by a point or two either way
        # (25.0 against 26.4 when the full set gave 27.6), so they print.
        ratio=ours["rouge1"] / best if best else None, quality=False,
        values={"ours": ours, "firstWords": first, "randomTurns": rand, "meetings": names, "cpuS": cpu,
                "wallS": wall},
    )]
