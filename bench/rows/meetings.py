"""Next steps and summaries on the meeting development set
(bench/data/meetings/, see its README): every meeting in both forms, the
Whisper-style punctuated one and the Vosk-style spelled-out one, through
`debrief summarise --batch`, with the meeting's date, consultant and client
given as a user's recording would give them.

- next steps: recall of the expected action items and precision of the
  produced steps (one-to-one matching on key words, bench/devset.py), and
  the due dates of matched items that say one;
- summary facts: the expected key facts held by the first 200 words of the
  summary.

Every row prints the held-out part (held-out.txt: meetings nobody tunes
on) and the tuning part side by side; the held-out figure is the one
judged. The default summariser and the instruct LLM (Qwen2.5-Coder-1.5B,
Q4_K_M) each get both rows. The default scores every meeting in every
pass: the whole set costs it under a minute of CPU; a full run holds it to
the held-out budget, a quick pass (CI) to a floor at today's held-out
figures (FLOOR) until that budget is met. The LLM, at
one to two minutes of CPU a meeting, scores only the shortest held-out
meeting in a quick pass, where it must find at least the items and keep at
least the key facts the default does on that meeting (a meeting's own
ratios say little); in a full run it scores all of them and holds the
set's budgets too. The figures do not vary from run to run."""

import os
import resource
from concurrent.futures import ThreadPoolExecutor

import devset
from lib import Row, import_models, summarise_batch

SUMMARISERS = {"embedding": "embedding", "llm": "instruct LLM"}
ROWS = [f"{row}, dev set, {label}" for label in SUMMARISERS.values() for row in ("next steps", "summary facts")]
MODELS = ["all-minilm-l6-v2", "qwen-coder-1.5b"]
# Judged on the held-out part (held-out.txt): the path without an LLM, and
# the LLM. The path without one must also score within GAP of the tuning
# part: a wider gap is rules learned from the set, not from meetings.
BUDGET = {"embedding": {"recall": 0.80, "precision": 0.75, "coverage": 0.80},
          "llm": {"recall": 0.85, "precision": 0.80, "coverage": 0.85, "owners": 0.90}}
GAP = 0.05
DATES = 1.0
# What a quick pass (CI) holds the path without an LLM to on the held-out
# part while the budget above is not met: no lower than it scores today
# (2026-11-30, 43 held-out meetings: R 0.80, P 0.69, facts 0.72), so a
# change that loses ground on meetings nobody tuned on does not land. It
# was P 0.65 and facts 0.77 on the first 27; the eight added after the
# classifier last learned score R 0.84, P 0.60, facts 0.66 on their own,
# and the eight added after them R 0.79, P 0.59, facts 0.59. The full run
# judges BUDGET.
FLOOR = {"recall": 0.80, "precision": 0.68, "coverage": 0.71}
LLM_QUICK = 1


def chosen(ctx, summariser):
    """The meetings a pass scores: all of them, but for the LLM in a quick
    pass the shortest held-out one (both forms, about three minutes on 2
    cores), so that even the quick pass prints a held-out figure."""
    if not ctx.quick or summariser != "llm":
        return devset.load()
    return sorted(devset.load(devset.held_out()), key=lambda m: len(m.text("whisper").split()))[:LLM_QUICK]


def answers(ctx, meetings, models_dir, summariser):
    """Per meeting, its answer in each form; and the CPU seconds spent. One
    batch per meeting: the flags differ from meeting to meeting. The
    embedding path's batches run two at a time, as a box's two cores allow
    (each is mostly one thread); the LLM's one at a time, as it takes every
    core."""
    def one(meeting):
        files = [meeting.transcript(form) for form in devset.FORMS]
        batch, _, _, _ = summarise_batch(ctx, files, models_dir, summariser, meeting.date,
                                         meeting.me["name"], meeting.client["name"])
        return meeting.name, {form: batch[meeting.transcript(form)] for form in devset.FORMS}

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with ThreadPoolExecutor(max_workers=2 if summariser == "embedding" else 1) as pool:
        out = dict(pool.map(one, meetings))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return out, cpu


def scores(meetings, answered):
    steps = {(m.name, form): devset.score_steps(m, form, answered[m.name][form]) for m in meetings for form in devset.FORMS}
    facts = {(m.name, form): devset.score_facts(m, answered[m.name][form]["summary"])
             for m in meetings for form in devset.FORMS}
    return steps, facts


def parts(scored):
    """The totals of the held-out part and of the tuning part."""
    held = set(devset.held_out())
    pick = lambda keep: devset.totals([s for (name, _), s in scored.items() if keep(name in held)])  # noqa: E731
    return pick(lambda h: h), pick(lambda h: not h)


def by_form(scored):
    return {form: devset.totals([s for (_, f), s in scored.items() if f == form]) for form in devset.FORMS}


def ratio(x):
    return "—" if x is None else f"{x:.2f}"


def steps_text(t):
    return (f"R {ratio(t.get('recall'))} P {ratio(t.get('precision'))} ({t.get('matched', 0)}/{t.get('items', 0)} items, "
            f"{t.get('steps', 0)} steps, due dates {t.get('datesRight', 0)}/{t.get('datedMatched', 0)}, "
            f"who {ratio(t.get('who'))}, owner where the transcript names it {ratio(t.get('ownerNamed'))} "
            f"of {t.get('ownerNamedJudged', 0)})")


def steps_row(summariser, meetings, steps, cpu, baseline=None, sample=False, quick=False):
    """Held-out and tuning figures side by side; the held-out one is judged.
    `baseline`: the default's matched items on the same meetings, which the
    LLM must reach; on a `sample` of a meeting or two only that is held."""
    held, tuning = parts(steps)
    budget = BUDGET[summariser]
    dates = held.get("datesResolved") or 0.0
    holds = ((held.get("recall") or 0) >= budget["recall"] and (held.get("precision") or 0) >= budget["precision"]
             and dates >= DATES)
    text = f"R ≥ {budget['recall']}, P ≥ {budget['precision']}, due dates {DATES:.0%} (held-out)"
    if "owners" in budget:
        # Owners are judged where the transcript says them: labelled turns,
        # "we", a named third party. Who said "I'll…" in an unlabelled
        # transcript is the speakers' labels' to say.
        holds = holds and (held.get("ownerNamed") or 0) >= budget["owners"]
        text += f", owner where the transcript names it ≥ {budget['owners']:.0%}"
    if summariser == "embedding":
        gap = max(abs((held.get(k) or 0) - (tuning.get(k) or 0)) for k in ("recall", "precision"))
        holds = holds and gap <= GAP
        text += f", within {GAP} of tuning"
        if quick:
            holds = (held.get("recall") or 0) >= FLOOR["recall"] and (held.get("precision") or 0) >= FLOOR["precision"]
            text = f"quick: held-out R ≥ {FLOOR['recall']}, P ≥ {FLOOR['precision']} (full run: {text})"
    if baseline is not None:
        total = devset.totals(list(steps.values()))
        text = f"≥ {baseline} items (embedding)" if sample else f"{text}, ≥ {baseline} items (embedding)"
        holds = (sample or holds) and total["matched"] >= baseline
    forms = by_form(steps)
    per_form = ", ".join(f"{form} R {ratio(t['recall'])} P {ratio(t['precision'])}" for form, t in forms.items())
    return Row(
        f"next steps, dev set, {SUMMARISERS[summariser]}",
        f"held-out {steps_text(held)}; tuning {steps_text(tuning)}; all forms: {per_form}; "
        f"{len(meetings)} meetings × 2 forms, CPU {cpu:.0f} s",
        text, holds, quality=True,
        values={"heldOut": held, "tuning": tuning, "forms": forms, "meetings": [m.name for m in meetings],
                "cpuS": cpu, "perMeeting": {f"{name}/{form}": s for (name, form), s in steps.items()}},
    )


def facts_row(summariser, meetings, facts, baseline=None, sample=False, quick=False, written=None):
    """`baseline`, `sample`: as for `steps_row`, in key facts held;
    `written`: how many of the summaries the LLM wrote."""
    held, tuning = parts(facts)
    need = BUDGET[summariser]["coverage"]
    holds = (held.get("coverage") or 0) >= need
    budget = f"≥ {need} (held-out)"
    if quick and summariser == "embedding":
        holds = (held.get("coverage") or 0) >= FLOOR["coverage"]
        budget = f"quick: held-out ≥ {FLOOR['coverage']} (full run: {budget})"
    if sample:
        budget = f"≥ {baseline} facts (embedding)"
        holds = devset.totals(list(facts.values()))["held"] >= baseline
    forms = by_form(facts)
    per_form = ", ".join(f"{form} {ratio(t['coverage'])}" for form, t in forms.items())
    show = lambda t: f"{ratio(t.get('coverage'))} ({t.get('held', 0)}/{t.get('facts', 0)})"  # noqa: E731
    return Row(
        f"summary facts, dev set, {SUMMARISERS[summariser]}",
        f"held-out {show(held)}; tuning {show(tuning)} of key facts in the first {devset.SUMMARY_WORDS} words; "
        f"all forms: {per_form}; {len(meetings)} meetings × 2 forms"
        + ("" if written is None else f"; the LLM's paragraph in {written} of {len(facts)} summaries"),
        budget, holds, quality=True,
        values={"heldOut": held, "tuning": tuning, "forms": forms, "meetings": [m.name for m in meetings],
                "perMeeting": {f"{name}/{form}": s for (name, form), s in facts.items()}, "llmSummaries": written},
    )


def measure(ctx):
    models_dir = os.path.join(ctx.tmp, "meetings-models")
    import_models(ctx, MODELS, models_dir)
    rows = []
    default = {}
    for summariser in SUMMARISERS:
        meetings = chosen(ctx, summariser)
        answered, cpu = answers(ctx, meetings, models_dir, summariser)
        steps, facts = scores(meetings, answered)
        if summariser == "embedding":
            default = {key: (s["matched"], facts[key]["held"]) for key, s in steps.items()}
            rows += [steps_row(summariser, meetings, steps, cpu, quick=ctx.quick),
                     facts_row(summariser, meetings, facts, quick=ctx.quick)]
            continue
        sample = ctx.quick
        items = sum(default[key][0] for key in steps)
        held = sum(default[key][1] for key in facts)
        # How many summaries are the LLM's paragraph rather than the extracted
        # sentences it falls back to when the paragraph fails its check.
        written = sum(answer.get("summarySource") == "llm" for forms in answered.values() for answer in forms.values())
        rows += [steps_row(summariser, meetings, steps, cpu, items, sample),
                 facts_row(summariser, meetings, facts, held, sample, written=written)]
    return rows
