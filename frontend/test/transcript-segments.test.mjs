// The timed transcript: paragraphs, their times, the one being heard, search matches,
// and the corrections sent to the server with the client page's copy kept in step.

import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, test } from "node:test";
import { setFetch } from "../src/lib/api.ts";
import {
  countMatches,
  formatTimestamp,
  groupParagraphs,
  matchesText,
  paragraphAt,
  splitMatches,
} from "../src/lib/transcript-segments.ts";
import { clientPath } from "../src/pages/client/client-cache.ts";
import { saveCorrections, transcriptPath, undoCorrections } from "../src/pages/client/transcript/transcript-api.ts";
import { clearQueries, query, setQueryData } from "../src/stores/query.ts";
import { fakeFetch } from "./fake-fetch.mjs";

const seg = (startS, endS, text) => ({ startMs: startS * 1000, endMs: endS * 1000, text });
const marked = (parts) => parts.map((p) => (p.match ? `[${p.text}]` : p.text)).join("");

describe("paragraphs of the transcript", () => {
  test("segments said without a pause make one paragraph, joined by a space", () => {
    const paragraphs = groupParagraphs([seg(0, 2, " Thanks for meeting. "), seg(2.5, 4, "Sarah will send it.")]);
    assert.deepEqual(paragraphs, [{ startMs: 0, endMs: 4000, text: "Thanks for meeting. Sarah will send it." }]);
  });

  test("a pause of two seconds or more starts a new paragraph", () => {
    const paragraphs = groupParagraphs([seg(0, 2, "One."), seg(3.9, 5, "Two."), seg(7, 8, "Three.")]);
    assert.deepEqual(
      paragraphs.map((p) => [p.startMs, p.text]),
      [
        [0, "One. Two."],
        [7000, "Three."],
      ],
    );
  });

  test("without pauses a paragraph still ends after five segments", () => {
    const segments = Array.from({ length: 12 }, (_, i) => seg(i, i + 1, `S${i}.`));
    const paragraphs = groupParagraphs(segments);
    assert.deepEqual(
      paragraphs.map((p) => p.text),
      ["S0. S1. S2. S3. S4.", "S5. S6. S7. S8. S9.", "S10. S11."],
    );
    assert.deepEqual(
      paragraphs.map((p) => [p.startMs, p.endMs]),
      [
        [0, 5000],
        [5000, 10000],
        [10000, 12000],
      ],
    );
  });

  test("a paragraph lasting 20 seconds ends there, so window-long segments each stand alone", () => {
    const windows = groupParagraphs([seg(0, 30, "First window."), seg(30, 60, "Second."), seg(60, 67, "Third.")]);
    assert.deepEqual(
      windows.map((p) => [p.startMs, p.text]),
      [
        [0, "First window."],
        [30000, "Second."],
        [60000, "Third."],
      ],
    );
    const short = groupParagraphs([seg(0, 8, "A."), seg(8, 16, "B."), seg(16, 21, "C."), seg(21, 25, "D.")]);
    assert.deepEqual(
      short.map((p) => p.text),
      ["A. B. C.", "D."],
    );
  });

  test("empty segments add nothing, and a paragraph of nothing but them is left out", () => {
    const paragraphs = groupParagraphs([seg(0, 1, "Hello"), seg(1, 2, "  "), seg(5, 6, ""), seg(9, 10, "Bye")]);
    assert.deepEqual(
      paragraphs.map((p) => p.text),
      ["Hello", "Bye"],
    );
    assert.deepEqual(groupParagraphs([]), []);
  });
});

describe("times in the transcript", () => {
  test("times read as a player shows them, hours only when there are some", () => {
    assert.equal(formatTimestamp(0), "0:00");
    assert.equal(formatTimestamp(42_999), "0:42");
    assert.equal(formatTimestamp(62_000), "1:02");
    assert.equal(formatTimestamp(12 * 60_000 + 5000), "12:05");
    assert.equal(formatTimestamp(3_723_000), "1:02:03");
    assert.equal(formatTimestamp(10 * 3_600_000), "10:00:00");
    assert.equal(formatTimestamp(-1), "0:00");
    assert.equal(formatTimestamp(Number.NaN), "0:00");
  });

  test("the paragraph being heard is the last one started, pauses belonging to the one before", () => {
    const paragraphs = [{ startMs: 1000 }, { startMs: 5000 }, { startMs: 9000 }];
    assert.equal(paragraphAt(paragraphs, 0), -1);
    assert.equal(paragraphAt(paragraphs, 1000), 0);
    assert.equal(paragraphAt(paragraphs, 4999), 0);
    assert.equal(paragraphAt(paragraphs, 5000), 1);
    assert.equal(paragraphAt(paragraphs, 8000), 1);
    assert.equal(paragraphAt(paragraphs, 60_000), 2);
    assert.equal(paragraphAt([], 1000), -1);
  });
});

describe("searching the transcript", () => {
  test("matches are found whatever their case, and keep the transcript's own case", () => {
    assert.equal(marked(splitMatches("Send the Proposal, the proposal!", "PROPOSAL")), "Send the [Proposal], the [proposal]!");
  });

  test("several matches in one text, side by side and at both ends", () => {
    assert.equal(marked(splitMatches("abab cab", "ab")), "[ab][ab] c[ab]");
    assert.equal(marked(splitMatches("go", "go")), "[go]");
  });

  test("the parts joined give back the text unchanged", () => {
    const text = "Call Ana on Friday. Friday works.";
    assert.equal(splitMatches(text, "friday").map((p) => p.text).join(""), text);
  });

  test("special characters in the query are taken literally", () => {
    assert.equal(marked(splitMatches("Costs (Q3) rose 5.2% vs 512%.", "5.2%")), "Costs (Q3) rose [5.2%] vs 512%.");
    assert.equal(marked(splitMatches("Costs (Q3) rose", "(q3)")), "Costs [(Q3)] rose");
    assert.equal(marked(splitMatches("a+b a*b [x] $1 ^c | \\d", "[x]")), "a+b a*b [[x]] $1 ^c | \\d");
    assert.equal(marked(splitMatches("a|b ab", "a|b")), "[a|b] ab");
    assert.equal(marked(splitMatches("path\\to \\d", "\\d")), "path\\to [\\d]");
    assert.equal(countMatches(["...", "a.b"], "."), 4);
  });

  test("an empty or blank query matches nothing, and the query's own spaces around it are ignored", () => {
    assert.deepEqual(splitMatches("Hello", ""), [{ text: "Hello", match: false }]);
    assert.deepEqual(splitMatches("Hello", "   "), [{ text: "Hello", match: false }]);
    assert.deepEqual(splitMatches("", "x"), []);
    assert.equal(marked(splitMatches("the cat", " cat ")), "the [cat]");
  });

  test("the count adds up the matches of every paragraph and reads as words", () => {
    assert.equal(countMatches(["Send the proposal.", "Proposal, proposal."], "proposal"), 3);
    assert.equal(matchesText(0), "No matches");
    assert.equal(matchesText(1), "1 match");
    assert.equal(matchesText(3), "3 matches");
  });
});

describe("correcting the transcript", () => {
  let f;
  beforeEach(() => {
    clearQueries();
    f = fakeFetch();
    setFetch(f);
  });
  afterEach(() => setFetch(null));

  const answer = (texts, corrected) => ({
    text: texts.filter(Boolean).join(" "),
    segments: texts.map((text, i) => ({ startMs: i * 1000, endMs: i * 1000 + 900, text })),
    corrected,
  });

  test("a correction sends exactly one text per segment, in order, and the page shows the new words", async () => {
    setQueryData(clientPath(7), () => ({ id: 7, name: "Ana", transcription: "I will send it to Contosa." }));
    f.reply(200, answer(["I will send it", "to Contoso."], true));
    const saved = await saveCorrections(7, ["I will send it", "to Contoso."]);

    assert.equal(f.calls.length, 1);
    assert.equal(f.calls[0].url, "/api/clients/7/transcript");
    assert.equal(f.calls[0].init.method, "PUT");
    assert.deepEqual(JSON.parse(f.calls[0].init.body), { segments: [{ text: "I will send it" }, { text: "to Contoso." }] });
    assert.equal(saved.corrected, true);
    assert.equal(query(clientPath(7)).get().data.transcription, "I will send it to Contoso.");
    assert.deepEqual(query(transcriptPath(7)).get().data, saved);
  });

  test("undoing the corrections asks the server for the recogniser's words and shows them", async () => {
    setQueryData(clientPath(7), () => ({ id: 7, name: "Ana", transcription: "I will send it to Contoso." }));
    f.reply(200, answer(["I will send it", "to Contosa."], false));
    await undoCorrections(7);

    assert.equal(f.calls[0].url, "/api/clients/7/transcript/corrections");
    assert.equal(f.calls[0].init.method, "DELETE");
    assert.equal(query(clientPath(7)).get().data.transcription, "I will send it to Contosa.");
    assert.equal(query(transcriptPath(7)).get().data.corrected, false);
  });

  test("a refused correction changes nothing on the page", async () => {
    setQueryData(clientPath(7), () => ({ id: 7, name: "Ana", transcription: "Before." }));
    f.reply(400, { message: "Invalid", fieldErrors: [{ field: "segments", message: "A segment must be less than 5000 characters" }] });
    await assert.rejects(saveCorrections(7, ["x".repeat(6000)]), (err) => err.fieldErrors[0].message.startsWith("A segment"));
    assert.equal(query(clientPath(7)).get().data.transcription, "Before.");
  });
});
