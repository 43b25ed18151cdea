"""Names from the card: Whisper tiny.en transcribes short meetings spoken by
espeak-ng (several voices and speeds) that name people and companies it
cannot know, once as it is and once with the hint the server gives it, built
from the client's card and the user's profile ("Meeting with Ana Silva,
Head of Procurement at Banco Azul, and Tom Reid of Northwind Advisory.").
A name counts once per mention, only when spelled exactly (accents and case
too). Beside it the row prints the names the hint made up: a name of the
card or the profile written more often than it was said. The meetings are in
bench/data/names/meetings.json: hand-written, names from many languages,
hints holding names that are never said."""

import json
import os
import subprocess

from lib import Row, import_models

ROWS = ["names spelled as on the card (Whisper tiny.en)"]
MEETINGS = os.path.join(os.path.dirname(__file__), "..", "data", "names", "meetings.json")
# At least this share of the mentions, with the hint, and more than without.
BUDGET = 0.8


def hint(meeting):
    """The line the server builds for a job (src/jobs/stages.rs)."""
    card, me = meeting["card"], meeting["me"]
    them = f"{card['name']}, {card['position']} at {card['company']}"
    return f"Meeting with {them}, and {me['name']} of {me['company']}."


def transcribe(ctx, models_dir, wav, with_hint):
    args = [ctx.bin, "transcribe", wav, "--asr", "whisper", "--json", "--models-dir", models_dir]
    out = subprocess.run(args + ["--hint", with_hint], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)["text"]


def spelled(meeting, text):
    """Mentions of the meeting's names spelled exactly in `text`, and how many there are."""
    said = {name: meeting["text"].count(name) for name in meeting["names"]}
    return sum(min(n, text.count(name)) for name, n in said.items()), sum(said.values())


def made_up(meeting, text):
    """Names of the card and the profile written more often than said."""
    hinted = {meeting["card"]["name"], meeting["card"]["company"], meeting["me"]["name"], meeting["me"]["company"]}
    return sum(max(0, text.count(name) - meeting["text"].count(name)) for name in hinted)


def measure(ctx):
    with open(MEETINGS, encoding="utf-8") as f:
        meetings = json.load(f)
    models_dir = os.path.join(ctx.tmp, "names-models")
    import_models(ctx, ["whisper-tiny.en-ct2"], models_dir)
    plain = hinted = total = extra = 0
    missed = []
    for n, meeting in enumerate(meetings):
        wav = os.path.join(ctx.tmp, f"names-{n}.wav")
        subprocess.run(["espeak-ng", "-v", meeting["voice"], "-s", str(meeting["speed"]), "-w", wav, meeting["text"]],
                       check=True, capture_output=True)
        without, _ = spelled(meeting, transcribe(ctx, models_dir, wav, ""))
        text = transcribe(ctx, models_dir, wav, hint(meeting))
        with_hint, mentions = spelled(meeting, text)
        plain, hinted, total = plain + without, hinted + with_hint, total + mentions
        extra += made_up(meeting, text)
        missed += [name for name in meeting["names"] if text.count(name) < meeting["text"].count(name)]
    names = sum(len(m["names"]) for m in meetings)
    share = hinted / total
    ok = share >= BUDGET and hinted > plain and names >= 10
    ours = (f"{hinted}/{total} ({share:.0%}) with the hint, {plain}/{total} without; "
            f"{extra} made up; {names} names, {len(meetings)} meetings")
    return [Row(ROWS[0], ours, f"≥ {BUDGET:.0%} with, more than without", ok, quality=True,
                values={"with": hinted, "without": plain, "mentions": total, "made_up": extra, "names": names,
                        "missed": missed})]
