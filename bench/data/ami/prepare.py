"""Writes the AMI meetings the "AMI action items" row scores, from the AMI
manual annotations 1.6.2 (CC BY 4.0), into one JSON file a meeting.

    python3 bench/data/ami/prepare.py AMI_DIR SPLIT

AMI_DIR is the `ami_public_manual_1.6.2` folder; SPLIT is `test`, `dev`
or `train` (the corpus's standard scenario split, so that nothing tuned or
trained on AMI ever sees a test meeting; only `test` is committed). A meeting's file holds:

- `date`: the day it was held;
- `acts`: its dialogue acts in the order they were said, each
  `[speaker, text]`, the speaker named by role;
- `actions`: the "actions" section of the people's abstractive summary,
  each `{"text": ..., "acts": [indices into acts]}`: the dialogue acts the
  annotators linked to that sentence (the extractive summary's links).

Meetings whose summary has no actions ("NA.", "*NA*") are kept: a step found in
them is a step nobody agreed."""

import json
import os
import re
import sys
import xml.etree.ElementTree as ET

NITE = "{http://nite.sourceforge.net/}"
# The corpus's standard split of its scenario meetings (series of four).
SPLITS = {
    "test": ["ES2004", "ES2014", "IS1009", "TS3003", "TS3007"],
    "dev": ["ES2003", "ES2011", "IS1008", "TS3004", "TS3006"],
}


def in_split(meeting, split):
    """Whether a scenario meeting is in `split`: "train" is every scenario
    series in neither of the others."""
    if split == "train":
        return meeting[:2] in ("ES", "IS", "TS") and not any(meeting[:6] in s for s in SPLITS.values())
    return meeting[:6] in SPLITS[split]
ROLES = {"PM": "Project Manager", "ME": "Marketing Expert", "ID": "Industrial Designer",
         "UI": "Interface Designer"}
HREF = re.compile(r"#id\(([^)]*)\)(?:\.\.id\(([^)]*)\))?")


def parse(path):
    return ET.parse(path).getroot()


def meetings(ami):
    """Each meeting's date and its speakers' roles, by agent letter."""
    found = {}
    for m in parse(os.path.join(ami, "corpusResources", "meetings.xml")):
        day, month, year = m.get("dateOnly").split("-")
        roles = {s.get("nxt_agent"): ROLES[s.get("role")] for s in m if s.get("role") in ROLES}
        # Written "19-01-05" or "13-12-2004".
        found[m.get("observation")] = {"date": f"{'20' + year if len(year) == 2 else year}-{month}-{day}", "roles": roles}
    return found


def words(ami, meeting, agent):
    """The agent's words in order, with where each id sits, so a dialogue act's
    range of ids reads as text; punctuation joins the word before it."""
    tokens, where = [], {}
    for w in parse(os.path.join(ami, "words", f"{meeting}.{agent}.words.xml")):
        where[w.get(NITE + "id")] = len(tokens)
        if w.tag == "w":
            tokens.append((w.text or "", w.get("punc") == "true", float(w.get("starttime") or 0)))
        else:
            tokens.append(None)  # a vocal sound, a gap: no words
    return tokens, where


def text_of(tokens):
    out = ""
    for word, punc, _ in (t for t in tokens if t):
        out += word if punc or not out else " " + word
    return out


def acts(ami, meeting, roles):
    """Every dialogue act of the meeting, by start time: (id, speaker, start, text)."""
    found = []
    for agent, role in roles.items():
        path = os.path.join(ami, "dialogueActs", f"{meeting}.{agent}.dialog-act.xml")
        if not os.path.exists(path):
            continue
        tokens, where = words(ami, meeting, agent)
        for act in parse(path):
            child = act.find(NITE + "child")
            first, last = HREF.search(child.get("href")).groups()
            span = tokens[where[first]:where[last or first] + 1]
            text = text_of(span)
            starts = [t[2] for t in span if t and not t[1]]
            if text and starts:
                found.append((act.get(NITE + "id"), role, min(starts), text))
    return sorted(found, key=lambda a: a[2])


def actions(ami, meeting):
    """The summary's action sentences and the dialogue-act ids linked to each."""
    root = parse(os.path.join(ami, "abstractive", f"{meeting}.abssumm.xml"))
    sentences = {s.get(NITE + "id"): " ".join(s.text.split()) for part in root.findall("actions")
                 for s in part.iter("sentence") if s.text and s.text.strip(" *.") not in ("NA", "")}
    links = {sid: [] for sid in sentences}
    path = os.path.join(ami, "extractive", f"{meeting}.summlink.xml")
    if os.path.exists(path):
        for link in parse(path):
            pointers = {p.get("role"): HREF.search(p.get("href")).group(1) for p in link.findall(NITE + "pointer")}
            if pointers.get("abstractive") in links:
                links[pointers["abstractive"]].append(pointers["extractive"])
    return [(text, links[sid]) for sid, text in sentences.items()]


def main(ami, split):
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), split)
    os.makedirs(out, exist_ok=True)
    info = meetings(ami)
    for name in sorted(info):
        if not in_split(name, split) or not os.path.exists(os.path.join(ami, "abstractive", f"{name}.abssumm.xml")):
            continue
        said = acts(ami, name, info[name]["roles"])
        index = {act_id: i for i, (act_id, *_) in enumerate(said)}
        meeting = {
            "date": info[name]["date"],
            "acts": [[role, text] for _, role, _, text in said],
            "actions": [{"text": text, "acts": sorted(index[a] for a in linked if a in index)}
                        for text, linked in actions(ami, name)],
        }
        with open(os.path.join(out, f"{name}.json"), "w") as f:
            json.dump(meeting, f, ensure_ascii=False, separators=(",", ":"))
            f.write("\n")
        print(name, len(said), "acts,", len(meeting["actions"]), "actions")


if __name__ == "__main__":
    main(*sys.argv[1:3])
