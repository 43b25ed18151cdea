// Business-card scan: what the card changes in the client form (empty fields filled,
// typed ones only on Replace), the file check, the request and the failure reasons.

import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { ApiError, setFetch } from "../src/lib/api.ts";
import {
  CARD_MAX_BYTES,
  isImageFile,
  SCAN_TEXT,
  scanCard,
  scanFailureReason,
  ScanProblem,
} from "../src/pages/new-client/scan-card.ts";
import {
  CHECK_BELOW,
  mergeScan,
  readDoubts,
  readScan,
  replacements,
  sameValue,
  scanOutcome,
  toCheck,
} from "../src/pages/new-client/scan-merge.ts";
import { fakeFetch } from "./fake-fetch.mjs";

afterEach(() => setFetch(null));

const EMPTY = { name: "", email: "", phone: "", company: "", position: "" };
const CARD = {
  name: "Jane Doe",
  email: "jane.doe@globex.com",
  phone: "+1 (555) 123-4567",
  company: "Globex Corporation",
  position: "Chief Technology Officer",
};

describe("mergeScan", () => {
  test("an empty form takes every field the card gave, and asks nothing", () => {
    const merge = mergeScan(EMPTY, CARD);
    assert.deepEqual(merge.fills, CARD);
    assert.deepEqual(merge.conflicts, []);
    assert.deepEqual(merge.found, ["name", "email", "phone", "company", "position"]);
    assert.deepEqual(replacements(merge), {});
    assert.deepEqual(merge.unsure, []);
  });

  test("unsure fields are to check when filled, replaced, or unread in an empty form; never when kept", () => {
    const current = { ...EMPTY, name: "John Smith", company: "Globex Corporation" };
    const scan = { ...CARD, email: "" };
    const merge = mergeScan(current, scan, ["name", "email", "phone", "company"]);
    // company: the card agrees with what was typed, nothing to check.
    assert.deepEqual(merge.unsure, ["name", "email", "phone"]);
    assert.deepEqual(toCheck(merge, false), ["email", "phone"], "the typed name is kept");
    assert.deepEqual(toCheck(merge, true), ["name", "email", "phone"]);
    // An unread field the user already typed needs no check.
    assert.deepEqual(mergeScan({ ...EMPTY, email: "a@b.io" }, { ...CARD, email: "" }, ["email"]).unsure, []);
  });

  test("what the card did not find leaves the field alone", () => {
    const merge = mergeScan(EMPTY, { ...EMPTY, name: "Jane Doe", email: "jane.doe@globex.com" });
    assert.deepEqual(merge.fills, { name: "Jane Doe", email: "jane.doe@globex.com" });
    assert.deepEqual(merge.found, ["name", "email"]);
  });

  test("a field the user typed is not filled; a different card value is a question", () => {
    const current = { ...EMPTY, name: "John Smith", company: "Initech" };
    const merge = mergeScan(current, CARD);
    assert.deepEqual(merge.fills, {
      email: "jane.doe@globex.com",
      phone: "+1 (555) 123-4567",
      position: "Chief Technology Officer",
    });
    assert.deepEqual(merge.conflicts, [
      { field: "name", label: "Full Name", typed: "John Smith", scanned: "Jane Doe" },
      { field: "company", label: "Company", typed: "Initech", scanned: "Globex Corporation" },
    ]);
    assert.deepEqual(replacements(merge), { name: "Jane Doe", company: "Globex Corporation" });
  });

  test("a typed value the card agrees with is no question (case, spaces, phone punctuation)", () => {
    const current = {
      name: "  jane   DOE ",
      email: "Jane.Doe@Globex.com",
      phone: "+1 555 123 4567",
      company: "globex corporation",
      position: "",
    };
    const merge = mergeScan(current, CARD);
    assert.deepEqual(merge.conflicts, []);
    assert.deepEqual(merge.fills, { position: "Chief Technology Officer" });
  });

  test("a field of white space only counts as empty", () => {
    const merge = mergeScan({ ...EMPTY, name: "   " }, CARD);
    assert.equal(merge.fills.name, "Jane Doe");
    assert.deepEqual(merge.conflicts, []);
  });

  test("phone numbers compare by their digits; a missing country code differs", () => {
    assert.ok(sameValue("phone", "555.123.4567", "(555) 123-4567"));
    assert.ok(!sameValue("phone", "555 123 4567", "+1 (555) 123-4567"));
    assert.ok(!sameValue("phone", "+1 555 123 4567", "1 555 123 4567"));
    assert.ok(sameValue("name", "Jane  Doe", "jane doe"));
    assert.ok(!sameValue("name", "Jane Doe", "Jane Roe"));
  });
});

describe("readScan", () => {
  test("tidies strings and treats anything else as not found", () => {
    assert.deepEqual(readScan({ name: "  Jane \n Doe ", email: 5, phone: null, company: "Globex" }), {
      name: "Jane Doe",
      email: "",
      phone: "",
      company: "Globex",
      position: "",
    });
    assert.deepEqual(readScan(null), EMPTY);
    assert.deepEqual(readScan("text"), EMPTY);
  });
});

describe("readDoubts", () => {
  test("the fields whose confidence is under the bar; none without confidences", () => {
    const answer = { ...CARD, confidence: { name: 0.95, email: 0.2, phone: CHECK_BELOW, company: 0.59, position: "x" } };
    assert.deepEqual(readDoubts(answer), ["email", "company"]);
    assert.deepEqual(readDoubts(CARD), []);
    assert.deepEqual(readDoubts({ confidence: null }), []);
    assert.deepEqual(readDoubts(null), []);
  });
});

describe("scanOutcome", () => {
  test("says what was filled, replaced or kept", () => {
    const merge = mergeScan({ ...EMPTY, name: "John Smith" }, { ...EMPTY, name: "Jane Doe", email: "j@x.io", phone: "5551234567" });
    assert.equal(scanOutcome(merge, false), "Filled Email Address and Phone Number. Kept what you typed in Full Name.");
    assert.equal(scanOutcome(merge, true), "Filled Email Address and Phone Number. Replaced Full Name.");
    assert.equal(scanOutcome(mergeScan(EMPTY, CARD), false), "Filled Full Name, Email Address, Phone Number, Company and Position.");
    assert.equal(scanOutcome(mergeScan(CARD, CARD), false), "The form already had these details.");
    assert.equal(
      scanOutcome(mergeScan(EMPTY, { ...CARD, email: "" }, ["email", "phone"]), false),
      "Filled Full Name, Phone Number, Company and Position. Check Email Address and Phone Number: the card was hard to read there.",
    );
  });
});

describe("isImageFile", () => {
  test("by type, or by name when the phone gave no type", () => {
    assert.ok(isImageFile({ type: "image/jpeg", name: "card.jpg" }));
    assert.ok(isImageFile({ type: "image/heic", name: "IMG_0001.HEIC" }));
    assert.ok(isImageFile({ type: "", name: "IMG_0001.HEIC" }));
    assert.ok(isImageFile({ type: "", name: "card.jpeg" }));
    assert.ok(!isImageFile({ type: "text/plain", name: "card.jpg" }));
    assert.ok(!isImageFile({ type: "application/pdf", name: "card.pdf" }));
    assert.ok(!isImageFile({ type: "", name: "notes.txt" }));
    assert.ok(!isImageFile({ type: "", name: "" }));
  });
});

describe("scanCard", () => {
  test("posts the original file as multipart field businessCard and reads the answer", async () => {
    const f = fakeFetch().reply(200, { ...CARD, confidence: { name: 0.9, email: 0.3 } });
    setFetch(f);
    const file = new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3])], "card.jpg", { type: "image/jpeg" });
    assert.deepEqual(await scanCard(file), { values: CARD, doubtful: ["email"] });
    const { url, init } = f.calls[0];
    assert.equal(url, "/api/business-card/scan");
    assert.equal(init.method, "POST");
    assert.ok(init.body instanceof FormData);
    assert.equal(init.headers["Content-Type"], undefined, "the browser sets the multipart boundary");
    const sent = init.body.get("businessCard");
    assert.equal(sent.name, "card.jpg");
    assert.deepEqual(new Uint8Array(await sent.arrayBuffer()), new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]));
  });

  test("a card with nothing on it is a failure with its own reason", async () => {
    setFetch(fakeFetch().reply(200, EMPTY));
    const err = await scanCard(new File([new Uint8Array(4)], "card.png", { type: "image/png" })).catch((e) => e);
    assert.ok(err instanceof ScanProblem);
    assert.equal(scanFailureReason(err), SCAN_TEXT.nothingFound);
  });

  test("a photo over the server's limit is refused before it is sent", async () => {
    const f = fakeFetch();
    setFetch(f);
    const big = { size: CARD_MAX_BYTES + 1, name: "big.jpg", type: "image/jpeg" };
    const err = await scanCard(big).catch((e) => e);
    assert.equal(scanFailureReason(err), "The photo is too large (15 MB at most)");
    assert.equal(f.calls.length, 0);
  });

  test("the server's message is the reason", async () => {
    setFetch(
      fakeFetch().reply(415, {
        message: "HEIC photos cannot be read here yet: send a JPEG, or set the iPhone camera to 'Most Compatible'",
      }),
    );
    const err = await scanCard(new File([new Uint8Array(4)], "card.heic", { type: "image/heic" })).catch((e) => e);
    assert.ok(err instanceof ApiError);
    assert.equal(
      SCAN_TEXT.failedDescription(scanFailureReason(err)),
      "Failed to extract information: HEIC photos cannot be read here yet: send a JPEG, or set the iPhone camera to 'Most Compatible'",
    );
  });
});

describe("scanFailureReason", () => {
  test("message, then error, then the status text, then the status's reason phrase", () => {
    assert.equal(scanFailureReason(new ApiError(503, "", "{}", { message: "Tesseract is not installed" })), "Tesseract is not installed");
    assert.equal(scanFailureReason(new ApiError(500, "", "{}", { error: "OCR failed" })), "OCR failed");
    assert.equal(scanFailureReason(new ApiError(502, "Proxy Trouble", "", null)), "Proxy Trouble");
    assert.equal(scanFailureReason(new ApiError(413, "", "", null)), "Payload Too Large");
    assert.equal(scanFailureReason(new ApiError(418, "", "{}", {})), "HTTP 418");
    assert.equal(scanFailureReason(new TypeError("Failed to fetch")), SCAN_TEXT.unreachable);
  });

  test("the spec's wording", () => {
    assert.equal(SCAN_TEXT.failedTitle, "Scan Failed");
    assert.equal(SCAN_TEXT.failedDescription("x"), "Failed to extract information: x");
    assert.equal(SCAN_TEXT.success, "Card Scanned Successfully");
    assert.equal(SCAN_TEXT.invalidTitle, "Invalid File");
    assert.equal(SCAN_TEXT.invalidDescription, "Please select an image file.");
  });
});
