"""The development set's scoring rules and checks, on hand-made answers
and meetings, and the committed set against its own transcripts.

    python3 -m unittest discover -s bench -p 'test_*.py'
"""

import json
import os
import shutil
import tempfile
import unittest

import devset


def item(keywords, who="me", due_text=None, due_date=None, said="x"):
    return {"keywords": keywords, "who": who, "dueText": due_text, "dueDate": due_date, "said": said}


def meeting(items=(), facts=(), folder=devset.MEETINGS):
    return devset.Meeting("hand-made", "2026-01-30", {"name": "Daniel Okafor", "company": "Brightlane"},
                          {"name": "Helen Marsh", "company": "Marsh"}, False, list(items), list(facts), [], folder)


def answer(steps=(), items=None, summary=""):
    return {"file": "x.txt", "summary": summary, "nextSteps": list(steps), "actionItems": items or [],
            "summariser": "embedding", "loadMs": 1, "summariseMs": 1}


class Matching(unittest.TestCase):
    def test_a_step_holding_every_key_word_matches_whatever_the_case(self):
        self.assertTrue(devset.holds("Send Helen the DATA PROCESSING Agreement", ["data processing agreement"]))

    def test_a_step_missing_one_key_word_does_not_match(self):
        self.assertFalse(devset.holds("Put the numbers together", ["numbers", "two year"]))

    def test_either_alternative_of_a_key_word_matches_in_both_forms(self):
        self.assertTrue(devset.holds("a quote of €15,000", ["15,000|fifteen thousand"]))
        self.assertTrue(devset.holds("a quote of fifteen thousand euros", ["15,000|fifteen thousand"]))

    def test_a_key_word_starts_a_word_and_a_number_ends_one(self):
        self.assertTrue(devset.holds("signed copies", ["sign"]))
        self.assertFalse(devset.holds("the new design", ["sign"]))
        self.assertFalse(devset.holds("120 seats", ["12"]))
        self.assertFalse(devset.holds("in 2012", ["12"]))

    def test_thousands_commas_hyphens_and_curly_apostrophes_do_not_matter(self):
        self.assertTrue(devset.holds("pay 15000 up front", ["15,000"]))
        self.assertTrue(devset.holds("the two-year option", ["two year"]))
        self.assertTrue(devset.holds("Thursday\u2019s meeting", ["thursday's"]))

    def test_a_step_listed_twice_counts_once_and_lowers_precision(self):
        m = meeting([item(["floor plan"])])
        score = devset.score_steps(m, "whisper", answer(["Send the floor plan", "Send the floor plan by Tuesday"]))
        self.assertEqual((score["matched"], score["steps"]), (1, 2))
        self.assertEqual(score["unmatched"], ["Send the floor plan by Tuesday"])

    def test_one_step_holding_two_items_counts_for_one_of_them(self):
        m = meeting([item(["contract"]), item(["invoice"])])
        score = devset.score_steps(m, "whisper", answer(["Send the contract and the invoice"]))
        self.assertEqual(score["matched"], 1)

    def test_the_matching_is_the_largest_not_the_first_that_fits(self):
        # Step 0 fits both items, step 1 only the first: both items match.
        m = meeting([item(["quote"]), item(["quote", "warranty"])])
        score = devset.score_steps(m, "whisper", answer(["Send the quote with the warranty", "Send the quote"]))
        self.assertEqual(score["matched"], 2)

    def test_structured_action_items_are_scored_with_their_due_text_instead_of_next_steps(self):
        m = meeting([item(["discount", "monday"])])
        a = answer(["unrelated text"], [{"who": "me", "action": "Ask finance about the January discount",
                                         "dueText": "by Monday", "dueDate": "2026-02-02"}])
        self.assertEqual(devset.score_steps(m, "whisper", a)["matched"], 1)


class DueDatesAndWho(unittest.TestCase):
    def scored(self, produced):
        m = meeting([item(["floor plan"], due_text="by Tuesday", due_date="2026-02-03"),
                     item(["headcount"], who="client", due_text="by the 13th", due_date="2026-02-13"),
                     item(["sandbox"], who="Marcus", due_text="next week")])
        return devset.score_steps(m, "whisper", answer(items=produced))

    def test_a_matched_item_with_the_wrong_date_is_not_resolved(self):
        score = self.scored([{"who": "me", "action": "Send the floor plan", "dueDate": "2026-02-03"},
                             {"who": "client", "action": "Confirm the headcount", "dueDate": "2026-02-12"}])
        self.assertEqual((score["datesRight"], score["datedMatched"], score["dated"]), (1, 2, 2))

    def test_an_unmatched_item_counts_against_dates_of_all_items_only(self):
        total = devset.totals([self.scored([{"who": "me", "action": "Send the floor plan", "dueDate": "2026-02-03"}])])
        self.assertEqual(total["datesResolved"], 1.0)
        self.assertEqual(total["datesOfAll"], 0.5)

    def test_who_accepts_the_consultants_name_for_me_and_a_longer_name_for_a_person(self):
        score = self.scored([{"who": "Daniel Okafor", "action": "Send the floor plan"},
                             {"who": "Helen", "action": "Confirm the headcount"},
                             {"who": "Marcus from IT", "action": "Test on the sandbox"}])
        self.assertEqual((score["whoRight"], score["whoJudged"]), (3, 3))

    def test_who_of_the_vosk_form_is_the_unlabelled_one_when_given(self):
        labelled = item(["deposit"], who="Owen")
        labelled["whoUnlabelled"] = "unattributed"
        self.assertEqual(devset.who_for(labelled, "whisper"), "Owen")
        self.assertEqual(devset.who_for(labelled, "vosk"), "unattributed")

    def test_an_owner_is_judged_where_the_transcript_names_it_labelled_turns_we_or_a_third_party(self):
        items = [item(["floor plan"], who="me"), item(["headcount"], who="we"), item(["sandbox"], who="Marcus")]
        produced = answer(items=[{"who": "client", "action": "Send the floor plan"},
                                 {"who": "we", "action": "Confirm the headcount"},
                                 {"who": "unattributed", "action": "Test on the sandbox"}])
        plain = devset.score_steps(meeting(items), "whisper", produced)
        self.assertEqual((plain["ownerNamedRight"], plain["ownerNamedJudged"]), (1, 2))
        labelled = meeting(items)
        labelled.labelled = True
        turns = devset.score_steps(labelled, "whisper", produced)
        self.assertEqual((turns["ownerNamedRight"], turns["ownerNamedJudged"]), (1, 3))
        spoken = devset.score_steps(labelled, "vosk", produced)
        self.assertEqual((spoken["ownerNamedRight"], spoken["ownerNamedJudged"]), (1, 2))

    def test_an_answer_without_who_is_not_judged_on_it(self):
        m = meeting([item(["floor plan"])])
        self.assertEqual(devset.score_steps(m, "whisper", answer(["Send the floor plan"]))["whoJudged"], 0)


class Facts(unittest.TestCase):
    def test_only_the_first_200_words_of_a_summary_count(self):
        m = meeting(facts=[{"keywords": ["45|forty five", "seats"], "fact": "45 seats"},
                           {"keywords": ["enterprise"], "fact": "no Enterprise"}])
        summary = "They keep 45 seats. " + "filler " * 200 + "Enterprise was dropped."
        score = devset.score_facts(m, summary)
        self.assertEqual((score["held"], score["facts"], score["missing"]), (1, 2, ["no Enterprise"]))


class Checks(unittest.TestCase):
    """A hand-made meeting in a scratch folder, broken one way at a time."""

    def setUp(self):
        self.folder = tempfile.mkdtemp()
        for form in ("whisper", "vosk", "expected"):
            os.makedirs(os.path.join(self.folder, form))
        self.write("Thanks Helen. I'll send the floor plan by Tuesday. It costs €15,000.\n")

    def tearDown(self):
        shutil.rmtree(self.folder)

    def write(self, whisper):
        with open(os.path.join(self.folder, "whisper", "m.txt"), "w") as f:
            f.write(whisper)
        with open(os.path.join(self.folder, "vosk", "m.txt"), "w") as f:
            f.write(devset.vosk_form_module().vosk_form(whisper))

    def expect(self, items, facts=()):
        with open(os.path.join(self.folder, "expected", "m.json"), "w") as f:
            json.dump({"date": "2026-01-30", "me": {"name": "Daniel Okafor"}, "client": {"name": "Helen Marsh"},
                       "labelled": False, "covers": [], "actionItems": items, "facts": list(facts)}, f)
        return devset.load(folder=self.folder)

    def test_a_meeting_that_agrees_with_its_transcript_loads(self):
        loaded = self.expect([item(["floor plan"], due_text="by Tuesday", due_date="2026-02-03",
                                   said="I'll send the floor plan by Tuesday.")],
                             [{"keywords": ["15,000|fifteen thousand"], "fact": "€15,000"}])
        self.assertEqual(len(loaded), 1)

    def test_a_quote_not_in_the_transcript_is_refused(self):
        with self.assertRaisesRegex(ValueError, "not in the transcript"):
            self.expect([item(["floor plan"], said="I'll send the plans by Tuesday.")])

    def test_a_key_word_missing_from_the_vosk_form_is_refused(self):
        with self.assertRaisesRegex(ValueError, "not in the vosk form"):
            self.expect([], [{"keywords": ["15,000"], "fact": "€15,000"}])

    def test_a_due_date_on_another_weekday_than_said_is_refused(self):
        with self.assertRaisesRegex(ValueError, "is not a Wednesday"):
            self.expect([item(["floor plan"], due_text="by Tuesday", due_date="2026-02-04",
                              said="I'll send the floor plan by Tuesday.")])

    def test_a_day_said_without_its_month_is_the_next_such_day(self):
        self.write("I'll confirm the headcount by the 13th.\n")
        with self.assertRaisesRegex(ValueError, "is the next 13th"):
            self.expect([item(["headcount"], due_text="by the 13th", due_date="2026-03-13",
                              said="I'll confirm the headcount by the 13th.")])

    def test_a_stale_vosk_form_is_refused(self):
        with open(os.path.join(self.folder, "vosk", "m.txt"), "a") as f:
            f.write("extra words\n")
        with self.assertRaisesRegex(ValueError, "out of date"):
            self.expect([])


class CommittedSet(unittest.TestCase):
    def test_every_committed_meeting_agrees_with_its_transcripts_and_current_vosk_form(self):
        meetings = devset.load()
        self.assertGreaterEqual(len(meetings), 24)
        self.assertGreaterEqual(sum(m.labelled for m in meetings), 6)

    def test_the_held_out_part_names_existing_meetings_and_the_tuning_part_the_rest(self):
        held = devset.held_out()
        self.assertTrue(held)
        self.assertEqual(len(held), len(set(held)))
        self.assertTrue(set(held) <= set(devset.names()))
        self.assertEqual(sorted(devset.tuning() + held), devset.names())


class VoskForm(unittest.TestCase):
    def said(self, text):
        return devset.vosk_form_module().vosk_form(text).strip()

    def test_amounts_are_said_with_their_currency_after_the_number(self):
        self.assertEqual(self.said("€15,000, $1.2 million and £3.50"),
                         "fifteen thousand euros one point two million dollars and three pounds fifty")

    def test_ordinals_years_times_and_percentages_are_said_as_words(self):
        self.assertEqual(self.said("On the 21st, in 2026, at 9:30 a.m. or 3pm, 12% off."),
                         "on the twenty first in twenty twenty six at nine thirty a m or three p m twelve percent off")

    def test_addresses_are_spelled_as_speech(self):
        self.assertEqual(self.said("Mail anna.kovacs@greenway.co.uk or www.greenway.co.uk."),
                         "mail anna dot kovacs at greenway dot co dot uk or w w w dot greenway dot co dot uk")

    def test_acronyms_go_letter_by_letter_unless_said_as_a_word(self):
        self.assertEqual(self.said("The CRM, the VAT and Q3."), "the c r m the vat and q three")

    def test_speaker_labels_punctuation_and_capitals_go_and_apostrophes_stay(self):
        self.assertEqual(self.said("Tom Brennan: I'll send it — right?\nPriya Nair: Yes, the client's copy."),
                         "i'll send it right yes the client's copy")


if __name__ == "__main__":
    unittest.main()
