"""The meeting development set (bench/data/meetings/, see its README) and
how a summariser's answers are scored against it.

A produced step matches an expected action item when it holds every key
word of the item (each a set of alternatives, "15,000|fifteen thousand"),
case-folded, each alternative starting at a word boundary. Matching is one
to one (a maximum matching): an item is matched at most once and a step
counts for at most one item, so a step listed twice, or a recap listed
beside its commitment, lowers precision."""

import calendar
import datetime
import importlib.util
import json
import os
import re
from dataclasses import dataclass

MEETINGS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "meetings")
# The punctuated form as Whisper writes it, and the same speech as Vosk writes it.
FORMS = ("whisper", "vosk")
WHO = {"me", "client", "we", "unattributed"}
WEEKDAYS = [d.lower() for d in calendar.day_name]
MONTHS = [m.lower() for m in calendar.month_name if m]
# Only the start of a summary counts for its facts, so length cannot buy them.
SUMMARY_WORDS = 200


@dataclass
class Meeting:
    name: str
    date: str
    me: dict
    client: dict
    labelled: bool
    items: list
    facts: list
    covers: list
    folder: str = MEETINGS

    def transcript(self, form):
        return os.path.join(self.folder, form, self.name + ".txt")

    def text(self, form):
        with open(self.transcript(form)) as f:
            return f.read()


def names(folder=MEETINGS):
    return sorted(n[:-5] for n in os.listdir(os.path.join(folder, "expected")) if n.endswith(".json"))


def held_out(folder=MEETINGS):
    """The meetings nobody tunes on (held-out.txt): the figures the budget is
    judged on."""
    with open(os.path.join(folder, "held-out.txt")) as f:
        return [line.split("#")[0].strip() for line in f if line.split("#")[0].strip()]


def tuning(folder=MEETINGS):
    """Every meeting not held out."""
    out = set(held_out(folder))
    return [n for n in names(folder) if n not in out]


def load(only=None, folder=MEETINGS):
    """The meetings (all, or the names in `only`), each checked against its
    transcripts: a broken expectation stops the measure instead of skewing it."""
    meetings = []
    for name in only or names(folder):
        with open(os.path.join(folder, "expected", name + ".json")) as f:
            raw = json.load(f)
        meeting = Meeting(name, raw["date"], raw["me"], raw["client"], raw["labelled"], raw["actionItems"],
                          raw["facts"], raw["covers"], folder)
        problems = check(meeting)
        if problems:
            raise ValueError(f"{name}: " + "; ".join(problems))
        meetings.append(meeting)
    stale = stale_vosk_forms(meetings)
    if stale:
        raise ValueError("the Vosk form is out of date for " + ", ".join(stale) +
                         ": run python3 bench/data/meetings/vosk_form.py")
    return meetings


def vosk_form_module():
    """bench/data/meetings/vosk_form.py, which writes the Vosk forms."""
    spec = importlib.util.spec_from_file_location("vosk_form", os.path.join(MEETINGS, "vosk_form.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def stale_vosk_forms(meetings):
    """The meetings whose Vosk form is not what vosk_form.py writes from
    their punctuated form."""
    derive = vosk_form_module().vosk_form
    return [m.name for m in meetings if m.text("vosk") != derive(m.text("whisper"))]


def normalise(text):
    """Case-folded, straight apostrophes, hyphens and dashes as spaces,
    thousands commas dropped ("15,000" is "15000"), single spaces."""
    text = text.casefold().replace("\u2019", "'").replace("\u2018", "'")
    text = re.sub(r"(?<=\d),(?=\d{3}\b)", "", text)
    text = re.sub(r"[-\u2013\u2014]", " ", text)
    return " ".join(text.split())


def alternatives(keyword):
    return [normalise(alt) for alt in keyword.split("|")]


def has(text, keyword):
    """`text` (normalised) holds one of the keyword's alternatives, starting a
    word; an alternative ending in a digit must end the number too."""
    for alt in alternatives(keyword):
        tail = r"(?!\d)" if alt[-1].isdigit() else ""
        if re.search(r"(?<!\w)" + re.escape(alt) + tail, text):
            return True
    return False


def holds(text, keywords):
    text = normalise(text)
    return all(has(text, k) for k in keywords)


def maximum_matching(expected, produced):
    """Pairs (expected index, produced index), as many as possible, where
    produced step j holds every key word of expected item i."""
    fits = [[j for j, step in enumerate(produced) if holds(step, item["keywords"])] for item in expected]
    owner = {}

    def claim(i, seen):
        for j in fits[i]:
            if j not in seen:
                seen.add(j)
                if j not in owner or claim(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    for i in range(len(expected)):
        claim(i, set())
    return sorted((i, j) for j, i in owner.items())


def produced_steps(answer):
    """The steps of one answer line: its structured action items when it has
    them (text: the action and its deadline as said), else its nextSteps."""
    items = answer.get("actionItems") or []
    if items:
        return [{"text": f"{it['action']} {it.get('dueText') or ''}".strip(), "who": it.get("who"),
                 "dueDate": it.get("dueDate")} for it in items]
    return [{"text": step, "who": None, "dueDate": None} for step in answer.get("nextSteps") or []]


def same_person(meeting, expected, produced):
    expected, produced = expected.casefold(), (produced or "").casefold()
    if expected == produced:
        return True
    full = {"me": meeting.me["name"], "client": meeting.client["name"]}.get(expected)
    if full:
        return produced in (full.casefold(), full.split()[0].casefold())
    return expected not in WHO and produced.startswith(expected)


def score_steps(meeting, form, answer):
    """Counts for one meeting in one form: items, steps, matches, due dates
    and who, summed over the set by `totals`."""
    steps = produced_steps(answer)
    pairs = maximum_matching(meeting.items, [s["text"] for s in steps])
    dated = [i for i, item in enumerate(meeting.items) if item["dueDate"]]
    dated_matched = [(i, j) for i, j in pairs if meeting.items[i]["dueDate"]]
    with_who = [(i, j) for i, j in pairs if steps[j]["who"] is not None]
    right = lambda i, j: same_person(meeting, who_for(meeting.items[i], form), steps[j]["who"])  # noqa: E731
    who_right = sum(right(i, j) for i, j in with_who)
    named = [(i, j) for i, j in pairs if names_owner(meeting, form, meeting.items[i])]
    return {
        "items": len(meeting.items), "steps": len(steps), "matched": len(pairs),
        "dated": len(dated), "datedMatched": len(dated_matched),
        "datesRight": sum(steps[j]["dueDate"] == meeting.items[i]["dueDate"] for i, j in dated_matched),
        "whoJudged": len(with_who), "whoRight": who_right,
        "ownerNamedJudged": len(named), "ownerNamedRight": sum(right(i, j) for i, j in named),
        # What matched what, and what did not: for reading a run, not for scoring.
        "matches": [[meeting.items[i]["said"], steps[j]["text"]] for i, j in pairs],
        "missed": [meeting.items[i]["said"] for i in range(len(meeting.items)) if i not in {p[0] for p in pairs}],
        "unmatched": [steps[j]["text"] for j in range(len(steps)) if j not in {p[1] for p in pairs}],
    }


def names_owner(meeting, form, item):
    """Whether the transcript in this form says who the item is for: every
    item where the turns are labelled with their speakers; else only the
    items of "we" and of a named third party ("Our engineer, Tomasz, will
    look at it"). Who said "I'll send it" in an unlabelled transcript is in
    the audio, not the text: the speakers' labels say it."""
    who = who_for(item, form)
    return (meeting.labelled and form == "whisper") or who not in {"me", "client", "unattributed"}


def who_for(item, form):
    """Who the item is for in this form: the Vosk form has no speaker labels."""
    return item.get("whoUnlabelled", item["who"]) if form == "vosk" else item["who"]


def score_facts(meeting, summary):
    """Key facts held by the first 200 words of the summary."""
    head = " ".join(summary.split()[:SUMMARY_WORDS])
    held = [fact for fact in meeting.facts if holds(head, fact["keywords"])]
    return {"facts": len(meeting.facts), "held": len(held),
            "missing": [f["fact"] for f in meeting.facts if f not in held]}


def totals(scores):
    """Sums the counts of several meeting scores, with their ratios (None
    where nothing divides)."""
    keys = [k for k in scores[0] if isinstance(scores[0][k], int)] if scores else []
    total = {k: sum(s[k] for s in scores) for k in keys}
    ratio = lambda a, b: total[a] / total[b] if total.get(b) else None  # noqa: E731
    total.update({"recall": ratio("matched", "items"), "precision": ratio("matched", "steps"),
                  "datesResolved": ratio("datesRight", "datedMatched"), "datesOfAll": ratio("datesRight", "dated"),
                  "who": ratio("whoRight", "whoJudged"), "ownerNamed": ratio("ownerNamedRight", "ownerNamedJudged"),
                  "coverage": ratio("held", "facts")})
    return total


def check(meeting):
    """What is wrong with a meeting's expectations, read against its
    transcripts (empty when nothing is)."""
    problems = []
    texts = {form: normalise(meeting.text(form)) for form in FORMS}
    date = datetime.date.fromisoformat(meeting.date)
    for item in meeting.items:
        said = item["said"]
        if normalise(said) not in texts["whisper"]:
            problems.append(f"not in the transcript: {said!r}")
        problems += missing_keywords(item["keywords"], texts, said)
        for key in ("who", "whoUnlabelled"):
            who = item.get(key)
            if key in item and who not in WHO and normalise(who) not in texts["whisper"]:
                problems.append(f"{key} {who!r} is neither {sorted(WHO)} nor a name said in the meeting")
        problems += due_problems(item, date, texts["whisper"])
    for fact in meeting.facts:
        problems += missing_keywords(fact["keywords"], texts, fact["fact"])
    if meeting.labelled != bool(re.search(r"(?m)^[A-Z][\w.'-]*(?: [A-Z][\w.'-]*){0,3}: ", meeting.text("whisper"))):
        problems.append("speaker labels and `labelled` disagree")
    return problems


def missing_keywords(keywords, texts, what):
    return [f"key word {k!r} of {what!r} not in the {form} form" for k in keywords for form, text in texts.items()
            if not has(text, k)]


def next_day_of_month(date, day):
    """The first date on or after `date` that is that day of its month."""
    while date.day != day:
        date += datetime.timedelta(days=1)
    return date


def due_problems(item, date, text):
    """A due date that contradicts the words it was resolved from."""
    due_text, due = item["dueText"], item["dueDate"]
    if due_text is None:
        return ["a due date without the words that say it"] if due else []
    problems = [] if normalise(due_text) in text else [f"due text {due_text!r} is not in the transcript"]
    if due is None:
        return problems
    due = datetime.date.fromisoformat(due)
    words = normalise(due_text).split()
    said = set(words)
    if not date <= due <= date + datetime.timedelta(days=400):
        problems.append(f"due date {due} is not in the year after the meeting")
    for day in said & set(WEEKDAYS):
        if WEEKDAYS.index(day) != due.weekday():
            problems.append(f"{due_text!r} is not a {due:%A}")
    for month in said & set(MONTHS):
        if MONTHS.index(month) + 1 != due.month:
            problems.append(f"{due_text!r} is not in {due:%B}")
    for word in words:
        day = re.fullmatch(r"(\d+)(st|nd|rd|th)", word)
        if day and int(day.group(1)) != due.day:
            problems.append(f"{due_text!r} is not day {due.day}")
        elif day and not said & set(MONTHS) and due != next_day_of_month(date, due.day):
            problems.append(f"{due_text!r} with no month is the next {word}, not {due}")
    if "tomorrow" in said and due != date + datetime.timedelta(days=1):
        problems.append(f"{due_text!r} is not the day after {date}")
    if said & {"today", "tonight", "afternoon"} and due != date:
        problems.append(f"{due_text!r} is not the meeting's day")
    return problems
