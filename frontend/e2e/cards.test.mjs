// Scan Business Card on New Client: a card drawn by ImageMagick, read by the server's
// Tesseract, fills the form; a file that is not an image; what the user typed kept
// unless they choose Replace; a field read unsurely highlighted to check; the server's
// refusal; Cancel while the card is read.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { after, before, describe, test } from "node:test";
import { checkA11y, heading, notification, seeToast, signIn, useApp } from "./harness.mjs";
import { parseMultipart, sha256 } from "./media.mjs";

const app = useApp();

// Debian's ImageMagick by its full path: another `convert` may come first on PATH.
const CONVERT = "/usr/bin/convert";
const CARD = {
  name: "Jane Doe",
  email: "jane.doe@globex.com",
  phone: "+1 (555) 123-4567",
  company: "Globex Corporation",
  position: "Chief Technology Officer",
};
const LABELS = {
  name: "Full Name",
  email: "Email Address",
  phone: "Phone Number",
  company: "Company",
  position: "Position",
};
const UNSURE_POSITION = "Feelgood Wizard";
const CHECK_FILLED = "Check this against the card: it was hard to read.";
const HEIC_REASON =
  "HEIC photos cannot be read here yet: send a JPEG, or set the iPhone camera to 'Most Compatible'";

let dir;
let cardJpg;
let unsureCardJpg;
let notesTxt;
let photoHeic;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "debrief-e2e-cards-"));
  cardJpg = join(dir, "card.jpg");
  // a card as a phone would photograph it: dark text on white, the five details
  await promisify(execFile)(CONVERT, [
    ...["-size", "1050x600", "xc:white", "-fill", "#1d2733", "-font", "DejaVu-Sans"],
    ...["-pointsize", "56", "-annotate", "+70+70", CARD.name],
    ...["-pointsize", "32", "-annotate", "+70+150", CARD.position],
    ...["-pointsize", "38", "-annotate", "+70+230", CARD.company],
    ...["-pointsize", "30", "-annotate", "+70+360", CARD.email],
    ...["-annotate", "+70+420", CARD.phone],
    cardJpg,
  ]);
  // The same person with a title no word list knows: the server takes the line under
  // the name for the position, but is unsure of it.
  unsureCardJpg = join(dir, "unsure-card.jpg");
  await promisify(execFile)(CONVERT, [
    ...["-size", "1050x600", "xc:white", "-fill", "#1d2733", "-font", "DejaVu-Sans"],
    ...["-pointsize", "56", "-annotate", "+70+70", CARD.name],
    ...["-pointsize", "32", "-annotate", "+70+150", UNSURE_POSITION],
    ...["-pointsize", "38", "-annotate", "+70+230", CARD.company],
    ...["-pointsize", "30", "-annotate", "+70+360", CARD.email],
    ...["-annotate", "+70+420", CARD.phone],
    unsureCardJpg,
  ]);
  notesTxt = join(dir, "notes.txt");
  await writeFile(notesTxt, "Jane Doe, Globex Corporation\n");
  // The start of an iPhone photo in its HEIC format: an ISO-BMFF `ftyp` box, brand heic.
  photoHeic = join(dir, "IMG_0001.heic");
  const ftyp = Buffer.alloc(24);
  ftyp.writeUInt32BE(24, 0);
  ftyp.write("ftypheic", 4, "ascii");
  ftyp.write("mif1heic", 16, "ascii");
  await writeFile(photoHeic, Buffer.concat([ftyp, Buffer.alloc(512, 7)]));
});

after(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const field = (page, name) => page.getByLabel(LABELS[name], { exact: true });

async function formValues(page) {
  const values = {};
  for (const name of Object.keys(LABELS)) values[name] = await field(page, name).inputValue();
  return values;
}

async function openNewClient(page) {
  await page.goto("/");
  await heading(page, "New Client").waitFor();
}

/** On New Client, the dialog opened with its button; returns the dialog. */
async function openScanDialog(page) {
  await page.getByRole("button", { name: "Scan Business Card" }).click();
  const dialog = page.getByRole("dialog", { name: "Scan Business Card" });
  await dialog.waitFor();
  return dialog;
}

/** Picks `file` through the dialog's Choose Photo button and its file chooser. */
async function choosePhoto(page, dialog, file) {
  const [chooser] = await Promise.all([
    page.waitForEvent("filechooser"),
    dialog.getByRole("button", { name: "Choose Photo" }).click(),
  ]);
  await chooser.setFiles(file);
}

/**
 * From the next page load on, the page notes each `businessCard` file it gives to
 * fetch (name, type, size, SHA-256); sentFiles() reads the notes.
 */
async function recordSentFiles(page) {
  await page.addInitScript(() => {
    const original = window.fetch;
    const notes = [];
    window.__cardUploads = notes;
    window.fetch = function (input, init) {
      const body = init?.body;
      if (body instanceof FormData && body.get("businessCard") instanceof File) {
        const file = body.get("businessCard");
        notes.push(
          file.arrayBuffer().then(async (bytes) => {
            const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
            const sha256 = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
            return { name: file.name, type: file.type, size: file.size, sha256 };
          }),
        );
      }
      return original.apply(this, arguments);
    };
  });
}

const sentFiles = (page) => page.evaluate(() => Promise.all(window.__cardUploads ?? []));

/** Holds the next scan request until the returned function is called. */
async function holdScan(page) {
  let release;
  const released = new Promise((resolve) => (release = resolve));
  const seen = [];
  await page.route("**/api/business-card/scan", async (route) => {
    seen.push(route.request());
    await released;
    await route.continue().catch(() => {}); // the page may have given up on it
  });
  return { release: () => release(), seen };
}

describe("business card scan", () => {
  test("a scanned card fills the empty form, the dialog closes, 'Card Scanned Successfully'", (t) =>
    app.run(t, async (page) => {
      await recordSentFiles(page);
      await signIn(page);
      await openNewClient(page);
      const dialog = await openScanDialog(page);
      await checkA11y(page);

      // The back camera for Take Photo, the library for Choose Photo; both take images.
      const [camera] = await Promise.all([
        page.waitForEvent("filechooser"),
        dialog.getByRole("button", { name: "Take Photo" }).click(),
      ]);
      const cameraInput = camera.element();
      assert.equal(await cameraInput.getAttribute("capture"), "environment");
      assert.equal(await cameraInput.getAttribute("accept"), "image/*");
      await camera.setFiles([]);
      const library = dialog.getByLabel("Choose a photo of the card");
      assert.equal(await library.getAttribute("capture"), null);
      assert.equal(await library.getAttribute("accept"), "image/*");

      const held = await holdScan(page);
      await choosePhoto(page, dialog, cardJpg);

      // Scanning: the dialog stays open, the button is busy, the status says so.
      const choose = dialog.getByRole("button", { name: "Choose Photo" });
      await dialog.getByRole("status").filter({ hasText: "Reading the card…" }).waitFor();
      assert.equal(await choose.getAttribute("aria-busy"), "true");
      assert.ok(await dialog.getByRole("button", { name: "Take Photo" }).isDisabled());
      assert.ok(await dialog.isVisible());
      await checkA11y(page);

      // The request: multipart with one part, `businessCard`, the photo as it was picked.
      assert.equal(held.seen.length, 1);
      const request = held.seen[0];
      assert.equal(request.method(), "POST");
      const parts = parseMultipart(request.postDataBuffer(), await request.headerValue("content-type"));
      assert.deepEqual(
        parts.map((p) => [p.name, p.filename, p.type]),
        [["businessCard", "card.jpg", "image/jpeg"]],
      );
      // Chromium does not show a file part's bytes to the test: the page's record of
      // what it handed to fetch has them.
      const card = await readFile(cardJpg);
      assert.deepEqual(await sentFiles(page), [
        { name: "card.jpg", type: "image/jpeg", size: card.length, sha256: sha256(card) },
      ]);

      const answer = page.waitForResponse("**/api/business-card/scan");
      held.release();
      assert.equal((await answer).status(), 200);
      await seeToast(
        page,
        "Card Scanned Successfully",
        "Filled Full Name, Email Address, Phone Number, Company and Position.",
      );
      await dialog.waitFor({ state: "hidden" });
      assert.deepEqual(await formValues(page), CARD);
      // Focus is back on the button that opened the dialog.
      assert.equal(await page.evaluate(() => document.activeElement?.textContent?.trim()), "Scan Business Card");
      await checkA11y(page);
    }));

  test("a file that is not an image: 'Invalid File', nothing sent, the dialog stays", (t) =>
    app.run(t, async (page) => {
      await signIn(page);
      await openNewClient(page);
      const sent = [];
      page.on("request", (req) => {
        if (new URL(req.url()).pathname === "/api/business-card/scan") sent.push(req);
      });
      const dialog = await openScanDialog(page);
      await choosePhoto(page, dialog, notesTxt);
      await seeToast(page, "Invalid File", "Please select an image file.");
      assert.ok(
        await notification(page).locator(".toast--destructive").filter({ hasText: "Invalid File" }).isVisible(),
        "a destructive toast",
      );
      await dialog.getByRole("alert").filter({ hasText: "Please select an image file." }).waitFor();
      assert.ok(await dialog.isVisible());
      assert.equal(sent.length, 0);
      assert.deepEqual(await formValues(page), { name: "", email: "", phone: "", company: "", position: "" });
      await checkA11y(page);

      // Cancel closes it and gives the focus back.
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "hidden" });
      assert.equal(await page.evaluate(() => document.activeElement?.textContent?.trim()), "Scan Business Card");
    }));

  test("a typed name is kept unless Replace is chosen (dark scheme)", (t) =>
    app.run(t, async (page) => {
      await signIn(page);
      await openNewClient(page);
      await field(page, "name").fill("John Smith");
      await field(page, "company").fill("globex  corporation"); // the card says the same

      let dialog = await openScanDialog(page);
      await choosePhoto(page, dialog, cardJpg);
      const ask = page.getByRole("dialog", { name: "Replace what you typed?" });
      await ask.waitFor();
      // Only the name differs; the empty fields are filled already.
      const items = ask.getByRole("listitem");
      assert.equal(await items.count(), 1);
      assert.match((await items.first().textContent()).replace(/\s+/g, " "), /Full Name.*John Smith.*Jane Doe/);
      assert.equal(await field(page, "email").inputValue(), CARD.email);
      // The safe answer has the focus.
      assert.equal(await page.evaluate(() => document.activeElement?.textContent?.trim()), "Keep mine");
      await checkA11y(page);

      await ask.getByRole("button", { name: "Keep mine" }).click();
      await ask.waitFor({ state: "hidden" });
      await seeToast(
        page,
        "Card Scanned Successfully",
        "Filled Email Address, Phone Number and Position. Kept what you typed in Full Name.",
      );
      assert.deepEqual(await formValues(page), { ...CARD, name: "John Smith", company: "globex  corporation" });

      // Scanned again, Replace this time.
      dialog = await openScanDialog(page);
      await choosePhoto(page, dialog, cardJpg);
      await ask.waitFor();
      await ask.getByRole("button", { name: "Replace" }).click();
      await ask.waitFor({ state: "hidden" });
      await seeToast(page, "Card Scanned Successfully", "Replaced Full Name.");
      assert.deepEqual(await formValues(page), { ...CARD, company: "globex  corporation" });
      await checkA11y(page);
    }, { colorScheme: "dark" }));

  test("a field the card gave unsurely is filled, highlighted to check, and plain again once edited", (t) =>
    app.run(t, async (page) => {
      await signIn(page);
      await openNewClient(page);
      await field(page, "name").fill("John Smith");

      const dialog = await openScanDialog(page);
      const answer = page.waitForResponse("**/api/business-card/scan");
      await choosePhoto(page, dialog, unsureCardJpg);
      // The server's answer: the spec's fields, and a confidence for each.
      const body = await (await answer).json();
      assert.deepEqual(Object.keys(body.confidence).sort(), ["company", "email", "name", "phone", "position"]);
      assert.equal(body.position, UNSURE_POSITION);
      assert.ok(body.confidence.position < 0.6, JSON.stringify(body.confidence));
      assert.ok(body.confidence.email >= 0.6, JSON.stringify(body.confidence));

      const ask = page.getByRole("dialog", { name: "Replace what you typed?" });
      await ask.getByRole("button", { name: "Keep mine" }).click();
      await seeToast(
        page,
        "Card Scanned Successfully",
        "Filled Email Address, Phone Number, Company and Position. Kept what you typed in Full Name. " +
          "Check Position: the card was hard to read there.",
      );
      // The typed name is kept; the unsure position fills the empty field, highlighted
      // and described for assistive technology; the sure fields are plain.
      assert.deepEqual(await formValues(page), { ...CARD, name: "John Smith", position: UNSURE_POSITION });
      const position = field(page, "position");
      const wrapper = (name) => field(page, name).locator("xpath=..");
      assert.match(await wrapper("position").getAttribute("class"), /\bfield--check\b/);
      const described = await position.getAttribute("aria-describedby");
      assert.equal(await page.locator(`[id="${described}"]`).textContent(), CHECK_FILLED);
      for (const name of ["name", "email", "phone", "company"]) {
        assert.doesNotMatch(await wrapper(name).getAttribute("class"), /field--check/, name);
      }
      const border = await position.evaluate((el) => getComputedStyle(el).borderTopColor);
      const plainBorder = await field(page, "company").evaluate((el) => getComputedStyle(el).borderTopColor);
      assert.notEqual(border, plainBorder, "the highlight shows");
      await checkA11y(page);

      // Corrected by the user: no longer flagged, its hint back to "Optional".
      await position.fill("Head of Happiness");
      assert.doesNotMatch(await wrapper("position").getAttribute("class"), /field--check/);
      assert.equal(await wrapper("position").locator(".field__hint").textContent(), "Optional");
    }));

  test("the server refuses the photo (415): 'Scan Failed' with its reason, the dialog open again", (t) =>
    app.run(t, async (page) => {
      await signIn(page);
      await openNewClient(page);
      const dialog = await openScanDialog(page);
      const answer = page.waitForResponse("**/api/business-card/scan");
      await choosePhoto(page, dialog, photoHeic);
      assert.equal((await answer).status(), 415);
      await seeToast(page, "Scan Failed", `Failed to extract information: ${HEIC_REASON}`);
      await dialog.getByRole("alert").filter({ hasText: HEIC_REASON }).waitFor();
      const choose = dialog.getByRole("button", { name: "Choose Photo" });
      assert.equal(await choose.getAttribute("aria-busy"), null);
      assert.ok(await dialog.getByRole("button", { name: "Take Photo" }).isEnabled());
      assert.deepEqual(await formValues(page), { name: "", email: "", phone: "", company: "", position: "" });
      await checkA11y(page);

      // A failure without a message of its own: the status text is the reason.
      await page.route("**/api/business-card/scan", (route) => route.fulfill({ status: 503, body: "" }));
      await choosePhoto(page, dialog, cardJpg);
      await seeToast(page, "Scan Failed", "Failed to extract information: Service Unavailable");

      // And a good photo after that still works.
      await page.unroute("**/api/business-card/scan");
      await choosePhoto(page, dialog, cardJpg);
      await seeToast(page, "Card Scanned Successfully");
      await dialog.waitFor({ state: "hidden" });
      assert.deepEqual(await formValues(page), CARD);
    }));

  test("Cancel while the card is read leaves the form as it was", (t) =>
    app.run(t, async (page) => {
      await signIn(page);
      await openNewClient(page);
      const dialog = await openScanDialog(page);
      const held = await holdScan(page);
      await choosePhoto(page, dialog, cardJpg);
      await dialog.getByRole("status").filter({ hasText: "Reading the card…" }).waitFor();
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "hidden" });
      held.release();
      await page.waitForTimeout(1500); // the server's answer would have come by now
      assert.deepEqual(await formValues(page), { name: "", email: "", phone: "", company: "", position: "" });
      assert.equal(await notification(page).getByText("Card Scanned Successfully").count(), 0);
      assert.equal(await notification(page).getByText("Scan Failed").count(), 0);
    }));
});
