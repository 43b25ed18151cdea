// Email Client against the real server: the preview dialog, corrections saved and
// shown, sending through a real SMTP server on loopback (aiosmtpd), the outbox of a
// server without SMTP, failures, the disabled button, and markup in the summary.

import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, test } from "node:test";
import {
  apiFromPage,
  checkA11y,
  createClient,
  fieldError,
  framed,
  heading,
  notification,
  openEmailPreview,
  seeToast,
  signIn,
  SUMMARY,
  useApp,
} from "./harness.mjs";
import { partOf, useSmtpApp } from "./smtp.mjs";

const EMAIL_MISSING = "Cannot send email: Client email or summary is missing";
const OUTBOX = "Saved to outbox: email is not configured on this server";

// The server without SMTP: emails go to <dataDir>/outbox/.
const app = useApp();

// --- the tests --------------------------------------------------------------------------

describe("Email Client with an SMTP server", () => {
  const mail = useSmtpApp(app);

  test("preview, correct a next step, save, send: the client receives the corrected email", (t) =>
    mail.run(t, async (page) => {
      const { fields } = await signIn(page);
      const client = await createClient(page, { nextSteps: "Send the proposal\nBook a demo" });
      await page.goto(`/client/${client.id}`);
      await heading(page, client.name).waitFor();
      await checkA11y(page);

      const dialog = await openEmailPreview(page, client);
      // Full screen on a phone.
      assert.deepEqual(await dialog.boundingBox(), { x: 0, y: 0, width: 390, height: 844 });
      const expected = (await apiFromPage(page, "GET", `/api/clients/${client.id}/email`)).body;
      assert.equal(expected.to, client.email);
      assert.equal(expected.replyTo, fields.email);
      assert.deepEqual(
        await dialog.locator(".email-meta dt").allTextContents(),
        ["From", "To", "Reply-To", "Subject"],
      );
      assert.deepEqual(await dialog.locator(".email-meta dd").allTextContents(), [
        expected.fromName,
        expected.to,
        expected.replyTo,
        expected.subject,
      ]);
      const frame = dialog.locator("iframe");
      assert.equal(await frame.getAttribute("sandbox"), "", "sandboxed, no allow-* token");
      assert.ok(await frame.getAttribute("title"), "the frame has a title");
      assert.equal(await frame.getAttribute("src"), expected.htmlUrl);
      await framed(page).getByText(SUMMARY).waitFor();
      await framed(page).getByText("Send the proposal", { exact: true }).waitFor();
      assert.equal(await dialog.getByLabel("Summary", { exact: true }).inputValue(), SUMMARY);
      await checkA11y(page);

      // The form's own rules: nothing goes to the server.
      const patches = [];
      page.on("request", (req) => {
        if (req.method() === "PATCH") patches.push(req.url());
      });
      await dialog.getByLabel("Phone", { exact: true }).fill("12");
      await dialog.getByRole("button", { name: "Save Changes" }).click();
      assert.equal((await fieldError(page, "Phone", dialog)).message, "Phone number must be at least 10 digits");
      assert.deepEqual(patches, []);
      await dialog.getByLabel("Phone", { exact: true }).fill(client.phone);

      // A corrected next step holds Send until it is saved and previewed.
      const edited = "Send the revised proposal by Friday";
      await dialog.getByLabel("Step 1", { exact: true }).fill(edited);
      const send = dialog.getByRole("button", { name: "Send", exact: true });
      assert.equal(await send.isDisabled(), true, "unsaved changes hold Send");
      await dialog.getByText("Save the changes to see them in the preview before sending.").waitFor();
      await dialog.getByRole("button", { name: "Save Changes" }).click();
      await dialog.getByRole("status").getByText("Changes saved. The preview shows them.").waitFor();
      assert.equal(patches.length, 1);
      await framed(page).getByText(`${edited}.`, { exact: true }).waitFor();
      assert.equal(await framed(page).getByText("Send the proposal", { exact: true }).count(), 0);
      assert.match(await dialog.locator(".email-text pre").textContent(), new RegExp(edited));
      assert.equal(await send.isDisabled(), false);
      // The page behind shows the correction too.
      assert.equal((await apiFromPage(page, "GET", `/api/clients/${client.id}`)).body.nextSteps, `${edited}.\nBook a demo.`);

      // Send: 'Sending...' on both buttons until the server answers.
      let release;
      const held = new Promise((resolve) => (release = resolve));
      await page.route("**/api/clients/*/send-email", async (route) => {
        await held;
        await route.continue();
      });
      await send.click();
      await dialog.getByRole("button", { name: "Sending..." }).waitFor();
      assert.equal(await page.locator(".email-action > .btn").textContent(), "Sending...");
      release();
      await seeToast(page, "Success", `Email sent to ${client.email}`);
      await dialog.waitFor({ state: "hidden" });
      const sent = page.getByRole("button", { name: "Email Sent" });
      await sent.waitFor();
      assert.equal(await sent.isDisabled(), true);
      // Focus does not fall back to the document: it is on the line saying where it went.
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), `Email sent to ${client.email}`);
      await page.unroute("**/api/clients/*/send-email");
      await checkA11y(page);

      // What the SMTP server got: to the client only, with the correction in both parts.
      const [message] = await mail.received(1);
      assert.equal(message.header("x-rcptto"), client.email);
      assert.match(message.header("to"), new RegExp(client.email.replace(/\./g, "\\.")));
      assert.equal(message.header("cc"), "");
      assert.equal(message.header("bcc"), "");
      const text = partOf(message, "text/plain");
      const html = partOf(message, "text/html");
      for (const [name, body] of [["text", text], ["html", html]]) {
        assert.ok(body.includes(edited), `the ${name} part has the corrected step`);
        assert.ok(body.includes("Book a demo"), `the ${name} part has the other step`);
        assert.ok(!body.includes("Send the proposal"), `the ${name} part no longer has the old step`);
        assert.ok(body.includes(SUMMARY), `the ${name} part has the summary`);
      }

      // Another visit: ready to send again, and when it was last sent.
      await page.reload();
      await heading(page, client.name).waitFor();
      const again = page.getByRole("button", { name: "Email Client" });
      await again.waitFor();
      assert.equal(await again.isDisabled(), false);
      await page.getByText("Last emailed just now").waitFor();
      await checkA11y(page);
    }));
});

describe("Email Client without SMTP", () => {
  test("the outbox: the toast says so, the button is ready again, the .eml is in the outbox", (t) =>
    app.run(t, async (page) => {
      await signIn(page);
      const client = await createClient(page, { nextSteps: "Call back on Monday" });
      const dialog = await openEmailPreview(page, client);
      await framed(page).getByText("Call back on Monday", { exact: true }).waitFor();
      await checkA11y(page);

      // The server's field errors go under their fields; its message shows in the dialog.
      await page.route(`**/api/clients/${client.id}`, (route) =>
        route.request().method() === "PATCH"
          ? route.fulfill({
              status: 400,
              contentType: "application/json",
              body: JSON.stringify({
                message: "Invalid client",
                fieldErrors: [{ field: "email", message: "Email address is too long" }],
              }),
            })
          : route.continue(),
      );
      await dialog.getByRole("button", { name: "Save Changes" }).click();
      assert.deepEqual(await fieldError(page, "Email", dialog), { invalid: true, message: "Email address is too long" });
      await dialog.getByRole("alert").getByText("Invalid client").waitFor();
      await checkA11y(page);
      await page.unroute(`**/api/clients/${client.id}`);

      const send = dialog.getByRole("button", { name: "Send", exact: true });
      const outboxDir = join(app.server.dataDir, "outbox");
      const emlFiles = async () => (await readdir(outboxDir).catch(() => [])).filter((n) => n.endsWith(".eml"));
      const before = await emlFiles();

      await send.click();
      await seeToast(page, OUTBOX);
      await dialog.waitFor({ state: "hidden" });
      const button = page.getByRole("button", { name: "Email Client" });
      await button.waitFor();
      assert.equal(await button.isDisabled(), false);
      const added = (await emlFiles()).filter((n) => !before.includes(n));
      assert.equal(added.length, 1, "one .eml file in the outbox");
      const eml = await readFile(join(outboxDir, added[0]), "latin1");
      assert.match(eml, new RegExp(client.email.replace(/\./g, "\\.")));
      await checkA11y(page);

      // Again within the minute: the server refuses (429) and says why.
      await page.getByRole("button", { name: "Email Client" }).click();
      await dialog.waitFor();
      await dialog.locator(".email-meta").waitFor();
      await send.click();
      await seeToast(
        page,
        "Failed to send email",
        "This follow-up was just sent. Please wait a minute before sending it again.",
      );
      await page.getByRole("button", { name: "Email Client" }).waitFor();
    }));

  test("a failed send: 'Failed to send email' and back to Email Client", (t) =>
    app.run(t, async (page) => {
      await signIn(page);
      const client = await createClient(page);
      const dialog = await openEmailPreview(page, client);
      await page.route("**/api/clients/*/send-email", (route) =>
        route.fulfill({ status: 502, contentType: "application/json", body: '{"message":"Failed to send email"}' }),
      );
      await dialog.getByRole("button", { name: "Send", exact: true }).click();
      await seeToast(page, "Failed to send email");
      assert.equal(await notification(page).locator(".toast--destructive").count(), 1);
      const button = page.getByRole("button", { name: "Email Client" });
      await button.waitFor();
      assert.equal(await button.isDisabled(), false);
      await checkA11y(page);
    }));

  test("no summary: the button is disabled and says why", (t) =>
    app.run(t, async (page) => {
      await signIn(page);
      const client = await createClient(page, { summary: "" });
      await page.goto(`/client/${client.id}`);
      await heading(page, client.name).waitFor();
      const button = page.getByRole("button", { name: "Email Client" });
      assert.equal(await button.isDisabled(), true);
      await page.getByText(EMAIL_MISSING, { exact: true }).waitFor();
      assert.equal(
        await button.evaluate((el) => document.getElementById(el.getAttribute("aria-describedby"))?.textContent),
        EMAIL_MISSING,
      );
      assert.equal((await apiFromPage(page, "GET", `/api/clients/${client.id}/email`)).body.message, EMAIL_MISSING);
      await checkA11y(page);
    }));

  test("markup in the summary is text everywhere, and the preview frame is sandboxed", (t) =>
    app.run(t, async (page) => {
      const markup = "<img src=x onerror=alert(1)>";
      const dialogs = [];
      const errors = [];
      page.on("dialog", (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      // Signed in first: the signed-out session check logs its 401 on the way.
      await signIn(page);
      page.on("console", (msg) => {
        if (msg.type() === "error") errors.push(msg.text());
      });
      const client = await createClient(page, { summary: `Before ${markup} after`, nextSteps: markup });
      await page.goto(`/client/${client.id}`);
      await heading(page, client.name).waitFor();
      await page.getByText(`Before ${markup} after`, { exact: true }).waitFor();

      const previewHtml = page.waitForResponse((res) => res.url().endsWith("/email/preview.html"));
      await page.getByRole("button", { name: "Email Client" }).click();
      const dialog = page.getByRole("dialog", { name: "Email Preview" });
      await dialog.waitFor();
      const response = await previewHtml;
      assert.match(response.headers()["content-security-policy"] ?? "", /\bsandbox\b/);
      assert.equal(await dialog.locator("iframe").getAttribute("sandbox"), "");
      await framed(page).getByText(`Before ${markup} after`).waitFor();
      await framed(page).getByText(markup, { exact: true }).waitFor();
      assert.equal(await framed(page).locator('img[src="x"]').count(), 0);
      assert.equal(await dialog.getByLabel("Summary", { exact: true }).inputValue(), `Before ${markup} after`);
      assert.match(await dialog.locator(".email-text pre").textContent(), /Before <img src=x onerror=alert\(1\)> after/);
      await checkA11y(page);
      await page.waitForTimeout(300);
      assert.deepEqual(dialogs, [], "no dialog opened");
      assert.deepEqual(errors, [], "no console error");
    }));
});
