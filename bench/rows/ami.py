"""Next steps on real meetings nobody here wrote: the AMI corpus's scenario
test and dev meetings (bench/data/ami, CC BY 4.0), whose people's summaries list
what the meeting agreed to do ("The Industrial Designer will work on the
working design"), each linked by the annotators to the dialogue acts that
said it.

Each meeting goes through `debrief summarise --batch` as a transcript of
turns labelled with the speaker's role. A produced step is
traced to where it was said: the turn holding most of its content words
(at least TRACED of them), and in it the dialogue acts holding any. Then:

- recall: the summary's actions whose linked acts include a step's;
- precision: the steps traced to an act linked to any action;
- act F1: the same at the level of dialogue acts, the measure of published
  action-item detectors on AMI (an utterance-level F1 of 38-43 for trained
  detectors, alibaba-damo-academy/SpokenNLP's action-item-detection), for
  scale only: their item set and split differ.

The meetings are role-played design meetings whose actions are the next
phase's assignments, often said by the project manager for others, and a
fifth of them carry none: a relative row, printed, not held to a budget
(the development set's held-out rows are the bar). Rules may be chosen on
the dev split (tuning), never on the test split (held-out, the figure
that counts); both print. A quick pass scores one meeting of each series
of four, a different one of the four in each (the kick-off, functional,
conceptual and detailed design meetings differ most)."""

import json
import os
import re

from lib import Row, import_models, summarise_batch

ROWS = ["next steps, AMI meetings (public), embedding"]
# The corpus's standard scenario split: rules may be chosen on dev, never on test.
SPLITS = ("test", "dev")
# A step is traced to a turn holding at least this share of its content words.
TRACED = 0.6
WORD = re.compile(r"[a-z0-9']+")
# Words too common to say where a step came from.
COMMON = set("""a an the and or but so to of in on at for with by from as is are be been was were will would shall
should can could may might must do does did done have has had i you he she it we they me us them my your our their
this that these those there here then than just also um uh yeah okay ok well like gonna going get got go""".split())


def folder(ctx, split):
    return os.path.join(ctx.repo, "bench", "data", "ami", split)


def content(text):
    return [w for w in WORD.findall(text.lower()) if w not in COMMON and len(w) > 2]


def turns(acts):
    """Consecutive acts of one speaker as one turn: (speaker, [act indices])."""
    found = []
    for i, (speaker, _) in enumerate(acts):
        if found and found[-1][0] == speaker:
            found[-1][1].append(i)
        else:
            found.append((speaker, [i]))
    return found


def transcript(acts):
    return "".join(f"{speaker}: {' '.join(acts[i][1] for i in ids)}\n" for speaker, ids in turns(acts))


def said_words(acts):
    """Each turn's act indices with the content words of the whole turn, read
    once a meeting for every step traced in it."""
    return [(ids, set(content(" ".join(acts[i][1] for i in ids)))) for _, ids in turns(acts)]


def traced(step, acts, said):
    """The acts a step was taken from: in the turn (of `said_words`) holding
    the largest share of its content words (at least TRACED), those holding
    any of them."""
    words = set(content(step))
    if not words:
        return set()
    best, share = None, 0.0
    for ids, turn_words in said:
        held = words & turn_words
        if len(held) / len(words) > share:
            best, share = ids, len(held) / len(words)
    if share < TRACED:
        return set()
    return {i for i in best if words & set(content(acts[i][1]))}


def score(meeting, steps):
    """(actions found, actions, steps on an action, steps, acts both, acts
    predicted, acts linked) for one meeting."""
    acts, said = meeting["acts"], said_words(meeting["acts"])
    actions = [set(a["acts"]) for a in meeting["actions"] if a["acts"]]
    linked = set().union(*actions) if actions else set()
    sources = [traced(step, acts, said) for step in steps]
    found = sum(1 for a in actions if any(a & s for s in sources))
    on_action = sum(1 for s in sources if s & linked)
    predicted = set().union(*sources) if sources else set()
    return found, len(actions), on_action, len(steps), len(predicted & linked), len(predicted), len(linked)


def chosen(ctx, split):
    names = sorted(n[:-5] for n in os.listdir(folder(ctx, split)) if n.endswith(".json"))
    if ctx.quick:
        names = [n for i, n in enumerate(names) if i % 4 == (i // 4) % 4]
    return names


def scored(ctx, models_dir):
    """Per split, per meeting the pass takes, the counts of `score`; and the
    summariser's CPU seconds. One batch for all (the model loads once);
    deadlines are not scored here, so the meetings' own dates are not given."""
    meetings, files = {}, {}
    for split in SPLITS:
        for name in chosen(ctx, split):
            with open(os.path.join(folder(ctx, split), name + ".json")) as f:
                meetings[name] = (split, json.load(f))
            files[name] = os.path.join(ctx.tmp, f"ami-{name}.txt")
            with open(files[name], "w") as f:
                f.write(transcript(meetings[name][1]["acts"]))
    answers, cpu, _, _ = summarise_batch(ctx, list(files.values()), models_dir, "embedding")
    per = {split: {} for split in SPLITS}
    for name, (split, meeting) in meetings.items():
        # The action without its owner: the owner is said elsewhere, or not at all.
        per[split][name] = score(meeting, [item["action"] for item in answers[files[name]]["actionItems"]])
    return per, cpu


def figures(per):
    found, actions, on_action, steps, both, predicted, linked = (sum(x) for x in zip(*per.values()))
    act_p = both / predicted if predicted else 0.0
    act_r = both / linked if linked else 0.0
    return {"recall": found / actions if actions else 0.0, "precision": on_action / steps if steps else 0.0,
            "actF1": 2 * act_p * act_r / (act_p + act_r) if act_p + act_r else 0.0, "found": found,
            "actions": actions, "onAction": on_action, "steps": steps, "meetings": len(per)}


def show(f):
    return (f"R {f['recall']:.2f} ({f['found']}/{f['actions']}) P {f['precision']:.2f} ({f['onAction']}/{f['steps']} "
            f"steps), act F1 {100 * f['actF1']:.0f}")


def measure(ctx):
    models_dir = os.path.join(ctx.tmp, "ami-models")
    import_models(ctx, ["all-minilm-l6-v2"], models_dir)
    per, cpu = scored(ctx, models_dir)
    held, tuning = figures(per["test"]), figures(per["dev"])
    return [Row(
        ROWS[0],
        f"held-out (test) {show(held)}; tuning (dev) {show(tuning)} ({held['meetings']} + {tuning['meetings']} "
        f"meetings, CPU {cpu:.0f} s)",
        "printed (relative row)", True,
        peer="trained detectors' act F1 38-43 (other split)",
        values={"heldOut": held, "tuning": tuning, "perMeeting": per, "cpuS": cpu},
    )]
