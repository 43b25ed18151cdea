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

The default summariser and the small LLM each get both rows. The default
scores every meeting in every pass: the whole set costs it under a minute
of CPU, and a quick pass (CI) then holds it to the same bar as a full run,
on the same meetings. The LLM, at about half a minute of CPU a meeting,
scores only the shortest of the meetings listed in quick.txt in a quick
pass (the 30-minute meeting's row runs it too), where it must find at
least the items and keep at least the key facts the default does on the
same meeting (a meeting's own ratios say little); in a full run it scores
all of them and holds the set's budgets too. The figures do not vary from
run to run."""

import os

import devset
from lib import Row, import_models, summarise_batch

SUMMARISERS = {"embedding": "embedding", "llm": "small LLM"}
ROWS = [f"{row}, dev set, {label}" for label in SUMMARISERS.values() for row in ("next steps", "summary facts")]
MODELS = ["all-minilm-l6-v2", "smollm2"]
RECALL, PRECISION, DATES, COVERAGE = 0.85, 0.75, 1.0, 0.8
LLM_QUICK = 1


def chosen(ctx, summariser):
    """The meetings a pass scores: all of them, but for the LLM in a quick
    pass, the shortest few of the quick subset."""
    if not ctx.quick or summariser != "llm":
        return devset.load()
    quick = devset.load(devset.quick_subset())
    return sorted(quick, key=lambda m: len(m.text("whisper").split()))[:LLM_QUICK]


def answers(ctx, meetings, models_dir, summariser):
    """Per meeting, its answer in each form; and the CPU and wall seconds
    spent. One batch per meeting: the flags differ from meeting to meeting."""
    out, cpu, wall = {}, 0.0, 0.0
    for meeting in meetings:
        files = [meeting.transcript(form) for form in devset.FORMS]
        batch, batch_cpu, batch_wall, _ = summarise_batch(ctx, files, models_dir, summariser, meeting.date,
                                                          meeting.me["name"], meeting.client["name"])
        out[meeting.name] = {form: batch[meeting.transcript(form)] for form in devset.FORMS}
        cpu, wall = cpu + batch_cpu, wall + batch_wall
    return out, cpu, wall


def scores(meetings, answered):
    steps = {(m.name, form): devset.score_steps(m, form, answered[m.name][form]) for m in meetings for form in devset.FORMS}
    facts = {(m.name, form): devset.score_facts(m, answered[m.name][form]["summary"])
             for m in meetings for form in devset.FORMS}
    return steps, facts


def by_form(scored):
    return {form: devset.totals([s for (_, f), s in scored.items() if f == form]) for form in devset.FORMS}


def ratio(x):
    return "—" if x is None else f"{x:.2f}"


def steps_row(summariser, meetings, steps, cpu, baseline=None, sample=False):
    """`baseline`: the default's matched items on the same meetings, which
    the LLM must reach. On a `sample` of a meeting or two the set's ratios
    mean little, so it holds only that."""
    total = devset.totals(list(steps.values()))
    forms = by_form(steps)
    dates = total.get("datesResolved") or 0.0
    holds = (total["recall"] or 0) >= RECALL and (total["precision"] or 0) >= PRECISION and dates >= DATES
    budget = f"R ≥ {RECALL}, P ≥ {PRECISION}, due dates {DATES:.0%}"
    if baseline is not None:
        budget = f"≥ {baseline} items (embedding)" if sample else f"{budget}, ≥ {baseline} items (embedding)"
        holds = (sample or holds) and total["matched"] >= baseline
    per_form = ", ".join(f"{form} R {ratio(t['recall'])} P {ratio(t['precision'])}" for form, t in forms.items())
    who = f", who {ratio(total.get('who'))}" if total.get("whoJudged") else ""
    return Row(
        f"next steps, dev set, {SUMMARISERS[summariser]}",
        f"R {ratio(total['recall'])} P {ratio(total['precision'])} ({total['matched']}/{total['items']} items, "
        f"{total['steps']} steps), due dates {total['datesRight']}/{total['datedMatched']}; {per_form}{who}; "
        f"{len(meetings)} meetings × 2 forms, CPU {cpu:.0f} s",
        budget, holds, quality=True,
        values={"total": total, "forms": forms, "meetings": [m.name for m in meetings], "cpuS": cpu,
                "perMeeting": {f"{name}/{form}": s for (name, form), s in steps.items()}},
    )


def facts_row(summariser, meetings, facts, baseline=None, sample=False):
    """`baseline`, `sample`: as for `steps_row`, in key facts held."""
    total = devset.totals(list(facts.values()))
    forms = by_form(facts)
    per_form = ", ".join(f"{form} {ratio(t['coverage'])}" for form, t in forms.items())
    holds = (total["coverage"] or 0) >= COVERAGE
    budget = f"≥ {COVERAGE}"
    if sample:
        budget = f"≥ {baseline} facts (embedding)"
        holds = total["held"] >= baseline
    return Row(
        f"summary facts, dev set, {SUMMARISERS[summariser]}",
        f"{ratio(total['coverage'])} of key facts ({total['held']}/{total['facts']}) in the first "
        f"{devset.SUMMARY_WORDS} words; {per_form}; {len(meetings)} meetings × 2 forms",
        budget, holds, quality=True,
        values={"total": total, "forms": forms, "meetings": [m.name for m in meetings],
                "perMeeting": {f"{name}/{form}": s for (name, form), s in facts.items()}},
    )


def measure(ctx):
    models_dir = os.path.join(ctx.tmp, "meetings-models")
    import_models(ctx, MODELS, models_dir)
    rows = []
    default = {}
    for summariser in SUMMARISERS:
        meetings = chosen(ctx, summariser)
        answered, cpu, _ = answers(ctx, meetings, models_dir, summariser)
        steps, facts = scores(meetings, answered)
        if summariser == "embedding":
            default = {key: (s["matched"], facts[key]["held"]) for key, s in steps.items()}
            rows += [steps_row(summariser, meetings, steps, cpu), facts_row(summariser, meetings, facts)]
            continue
        sample = ctx.quick
        items = sum(default[key][0] for key in steps)
        held = sum(default[key][1] for key in facts)
        rows += [steps_row(summariser, meetings, steps, cpu, items, sample),
                 facts_row(summariser, meetings, facts, held, sample)]
    return rows
