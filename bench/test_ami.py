"""How the AMI row traces a step to the dialogue acts it was said in, and
the committed AMI meetings against what the row expects of them.

    python3 -m unittest discover -s bench -p 'test_*.py'
"""

import json
import os
import unittest

from rows import ami

ACTS = [
    ["Project Manager", "Okay, so for the next meeting,"],
    ["Project Manager", "the Industrial Designer will look at the working design."],
    ["Industrial Designer", "Right, I'll look into the materials as well."],
    ["Marketing Expert", "I'd like to introduce myself first."],
]
MEETING = {"date": "2005-01-19", "acts": ACTS,
           "actions": [{"text": "The Industrial Designer will work on the working design.", "acts": [1]},
                       {"text": "The Marketing Expert will do the trend watching.", "acts": []}]}


class Tracing(unittest.TestCase):
    def test_a_step_is_traced_to_the_act_of_its_turn_that_holds_its_words(self):
        said = ami.said_words(ACTS)
        self.assertEqual(ami.traced("Look at the working design", ACTS, said), {1})

    def test_a_step_whose_words_the_meeting_never_said_together_is_traced_nowhere(self):
        said = ami.said_words(ACTS)
        self.assertEqual(ami.traced("Introduce the working materials budget", ACTS, said), set())

    def test_consecutive_acts_of_one_speaker_are_one_labelled_turn(self):
        self.assertEqual(ami.transcript(ACTS).splitlines()[0],
                         "Project Manager: Okay, so for the next meeting, the Industrial Designer will look at the "
                         "working design.")
        self.assertEqual(len(ami.transcript(ACTS).splitlines()), 3)

    def test_an_action_counts_once_found_and_a_step_on_no_action_costs_precision(self):
        found, actions, on_action, steps, both, predicted, linked = ami.score(
            MEETING, ["Look at the working design", "Introduce myself first"])
        # The action nobody linked an act to cannot be found, so it is not counted.
        self.assertEqual((found, actions), (1, 1))
        self.assertEqual((on_action, steps), (1, 2))
        self.assertEqual((both, predicted, linked), (1, 2, 1))


class CommittedMeetings(unittest.TestCase):
    def test_each_split_holds_its_twenty_meetings_each_action_linked_to_acts_it_holds(self):
        for split, series in (("test", {"ES2004", "ES2014", "IS1009", "TS3003", "TS3007"}),
                              ("dev", {"ES2003", "ES2011", "IS1008", "TS3004", "TS3006"})):
            self.meetings_are_whole(split, series)

    def meetings_are_whole(self, split, series):
        folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "ami", split)
        names = sorted(n[:-5] for n in os.listdir(folder) if n.endswith(".json"))
        self.assertEqual({n[:6] for n in names}, series)
        self.assertEqual(len(names), 20)
        for name in names:
            with open(os.path.join(folder, name + ".json")) as f:
                meeting = json.load(f)
            self.assertRegex(meeting["date"], r"^20\d\d-\d\d-\d\d$")
            self.assertGreater(len(meeting["acts"]), 100, name)
            for action in meeting["actions"]:
                self.assertNotIn(action["text"].strip(" *."), ("NA", ""), name)
                self.assertTrue(all(0 <= i < len(meeting["acts"]) for i in action["acts"]), name)


if __name__ == "__main__":
    unittest.main()
