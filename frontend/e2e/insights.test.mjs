// The follow-up tracker against the real server, at 390×844: a client's next steps
// grouped by due date relative to today (the phone's date), ticked done and undone,
// dated and undated, downloaded as a calendar file, and seen done on the client page;
// the clients waiting for a follow-up, until it is sent through a real SMTP server
// (an outbox copy does not count) or marked as followed up, from the tracker and from
// the client page; the figures; Profile's calendar feed; the admin's figures.

import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { describe, test } from "node:test";
import {
  apiFromPage,
  checkA11y,
  createAdmin,
  createClient,
  heading,
  notification,
  onPath,
  seeToast,
  signIn,
  useApp,
} from "./harness.mjs";
import { useSmtpApp } from "./smtp.mjs";

// The server without SMTP: a sent email goes to the outbox.
const app = useApp();

// --- the phone's days -----------------------------------------------------------------

const iso = (d) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;

/** Dates around today as the page reads them (the browser runs on this machine's clock). */
function days() {
  const now = new Date();
  const at = (n) => iso(new Date(now.getFullYear(), now.getMonth(), now.getDate() + n));
  const toSunday = (7 - now.getDay()) % 7;
  return { yesterday: at(-1), today: at(0), sunday: at(toSunday), nextMonday: at(toSunday + 1), later: at(toSunday + 9) };
}

/** "Due Fri 6 Mar", as the client page and the tracker write a date. */
function due(date) {
  const [y, m, d] = date.split("-").map(Number);
  return `Due ${new Date(y, m - 1, d).toLocaleDateString("en-GB", { weekday: "short", day: "numeric", month: "short" })}`;
}

/** Gives a client these next steps, as the email preview saves them. */
async function giveSteps(page, client, actionItems) {
  const { name, email, phone } = client;
  const saved = await apiFromPage(page, "PATCH", `/api/clients/${client.id}`, { name, email, phone, actionItems });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  return saved.body;
}

const nav = (page) => page.getByRole("navigation", { name: "Main" });
const mySteps = (page) => page.getByRole("region", { name: "My next steps" });
const waiting = (page) => page.getByRole("region", { name: "Waiting for a follow-up" });
const group = (page, name) => mySteps(page).getByRole("list", { name, exact: true });
const check = (root, action) => root.getByRole("checkbox", { name: action, exact: true });
/** The row of the step with this action. */
const stepRow = (page, action) => mySteps(page).locator(".step").filter({ has: check(page, action) });
const waitingNames = (page) => waiting(page).locator(".waiting__name").allTextContents();
/** The value of the figure with this label, within `root` (the page, or the admin's panel). */
const figure = (root, label) => root.locator(".figure").filter({ hasText: new RegExp(`^${label}`) }).locator(".figure__value");
const isPatch = (res) => res.request().method() === "PATCH" && /\/api\/next-steps\/\d+$/.test(res.url());

async function openInsights(page) {
  await nav(page).getByRole("link", { name: "Insights" }).click();
  await onPath(page, "/insights");
  await heading(page, "Insights").waitFor();
}

describe("my next steps", () => {
  test("a client's next steps show under Insights grouped by due date, and a step ticked there is done on the client page", (t) =>
    app.run(t, async (page) => {
      await signIn(page);
      const client = await createClient(page);
      const d = days();
      await giveSteps(page, client, [
        { who: "me", action: "Send the revised proposal", dueText: "by yesterday", dueDate: d.yesterday },
        { who: "client", action: "Confirm the stock count", dueText: "by Sunday", dueDate: d.sunday },
        { who: "we", action: "Book the workshop room", dueText: "next week", dueDate: d.nextMonday },
        { who: "unattributed", action: "Check the delivery dates" },
      ]);

      // The client page first, so that its read is in the cache when the tracker changes a step.
      await page.goto(`/client/${client.id}`);
      await heading(page, client.name).waitFor();
      assert.equal(await page.locator(".next-step--done").count(), 0);
      await openInsights(page);
      await group(page, "Overdue").waitFor();
      assert.deepEqual(await mySteps(page).locator("h3").allTextContents(), ["Overdue", "This week", "Later", "No date"]);
      for (const [name, action] of [
        ["Overdue", "Send the revised proposal"],
        ["This week", "Confirm the stock count"],
        ["Later", "Book the workshop room"],
        ["No date", "Check the delivery dates"],
      ]) {
        assert.equal(await check(group(page, name), action).count(), 1, `${action} under ${name}`);
      }
      const meta = (action) => stepRow(page, action).locator(".step__meta").textContent();
      assert.equal(await meta("Send the revised proposal"), `${client.name} · Who: Me · ${due(d.yesterday)}`);
      assert.equal(await meta("Confirm the stock count"), `${client.name} · Who: ${client.name} · ${due(d.sunday)}`);
      assert.equal(await meta("Book the workshop room"), `${client.name} · Who: We · ${due(d.nextMonday)}`);
      assert.equal(await meta("Check the delivery dates"), `${client.name} · Who: Not known`);
      const link = stepRow(page, "Send the revised proposal").getByRole("link", { name: client.name });
      assert.equal(await link.getAttribute("href"), `/client/${client.id}`);
      assert.equal(await stepRow(page, "Check the delivery dates").getByRole("link", { name: "Add to calendar" }).count(), 0);
      // The figures count them: one of four is overdue.
      assert.equal(await figure(page, "Open next steps").textContent(), "4");
      assert.equal(await figure(page, "Overdue next steps").textContent(), "1");
      const chart = page.getByRole("img", { name: /^Meetings per week/ });
      assert.equal(await chart.count(), 1);
      await checkA11y(page);

      // Ticked: at once under Done, sent, with an Undo; the focus moves to the next step.
      const patched = page.waitForResponse(isPatch);
      // A click, not check(): the box leaves the list as it is ticked.
      await check(page, "Confirm the stock count").click();
      await page.locator("details.steps-done > summary").filter({ hasText: "Done (1)" }).waitFor();
      assert.equal(await group(page, "This week").count(), 0, "an empty group is left out");
      const answer = await patched;
      assert.equal(answer.status(), 200);
      assert.deepEqual(answer.request().postDataJSON(), { done: true });
      await notification(page).getByText("Marked as done", { exact: true }).waitFor();
      await notification(page).getByRole("button", { name: "Undo" }).waitFor();
      assert.equal(await page.evaluate(() => document.activeElement?.labels?.[0]?.textContent), "Book the workshop room");
      await page.waitForFunction(() =>
        [...document.querySelectorAll(".figure")].some((f) => f.textContent === "Open next steps3"),
      );
      await checkA11y(page);

      // The client page, reached through the app, shows the step done.
      await link.click();
      await heading(page, client.name).waitFor();
      const done = page.locator(".next-step--done");
      await done.waitFor();
      assert.equal(await done.count(), 1);
      assert.equal(await done.locator(".next-step__meta").textContent(), `${client.name} · ${due(d.sunday)} · Done`);
      const stored = (await apiFromPage(page, "GET", `/api/clients/${client.id}`)).body;
      assert.deepEqual(
        stored.actionItems.map((i) => [i.action, i.done]),
        [
          ["Send the revised proposal", false],
          ["Confirm the stock count", true],
          ["Book the workshop room", false],
          ["Check the delivery dates", false],
        ],
      );
    }));

  test("Undo opens a ticked step again, a date is added and removed, a done step is opened from Done, a dated step downloads as a calendar file", (t) =>
    app.run(t, async (page) => {
      await signIn(page);
      const client = await createClient(page);
      const d = days();
      const saved = await giveSteps(page, client, [
        { who: "me", action: "Send the revised proposal", dueText: "in two weeks", dueDate: d.later },
        { who: "client", action: "Check the delivery dates" },
      ]);
      const proposal = saved.actionItems.find((i) => i.action === "Send the revised proposal");
      const open = async () => (await apiFromPage(page, "GET", "/api/next-steps?status=open")).body;

      await page.goto("/insights");
      await heading(page, "Insights").waitFor();
      await group(page, "No date").waitFor();

      // Undo, within the toast's few seconds: the step is open again, here and on the server.
      let patched = page.waitForResponse(isPatch);
      await check(page, "Check the delivery dates").click();
      await patched;
      patched = page.waitForResponse(isPatch);
      await notification(page).getByRole("button", { name: "Undo" }).click();
      assert.deepEqual((await patched).request().postDataJSON(), { done: false });
      await check(group(page, "No date"), "Check the delivery dates").waitFor();
      assert.equal(await check(page, "Check the delivery dates").isChecked(), false);
      assert.equal(await page.evaluate(() => document.activeElement?.labels?.[0]?.textContent), "Check the delivery dates");
      assert.equal(await page.locator("details.steps-done").count(), 0, "nothing done");
      assert.deepEqual((await open()).map((s) => [s.action, s.done]), [
        ["Send the revised proposal", false],
        ["Check the delivery dates", false],
      ]);

      // A date: the step moves under Later, the server rewrites when it is due.
      const row = stepRow(page, "Check the delivery dates");
      await row.getByRole("button", { name: "Add date" }).click();
      await row.getByLabel("Due date", { exact: true }).fill(d.nextMonday);
      await checkA11y(page);
      patched = page.waitForResponse(isPatch);
      await row.getByRole("button", { name: "Save date" }).click();
      assert.deepEqual((await patched).request().postDataJSON(), { dueDate: d.nextMonday });
      await check(group(page, "Later"), "Check the delivery dates").waitFor();
      assert.equal(await group(page, "No date").count(), 0);
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Change date");
      let step = (await open()).find((s) => s.action === "Check the delivery dates");
      assert.equal(step.dueDate, d.nextMonday);
      assert.ok(step.dueText, "the deadline is written out for the email");

      // Removed again: back under No date.
      await row.getByRole("button", { name: "Change date" }).click();
      patched = page.waitForResponse(isPatch);
      await row.getByRole("button", { name: "Remove date" }).click();
      assert.deepEqual((await patched).request().postDataJSON(), { dueDate: null });
      await check(group(page, "No date"), "Check the delivery dates").waitFor();
      step = (await open()).find((s) => s.action === "Check the delivery dates");
      assert.equal(step.dueDate, null);

      // Ticked, then opened again from the folded Done list.
      patched = page.waitForResponse(isPatch);
      await check(page, "Check the delivery dates").click();
      await patched;
      const doneList = page.locator("details.steps-done");
      await doneList.locator("summary").click();
      patched = page.waitForResponse(isPatch);
      await check(doneList, "Check the delivery dates").click();
      assert.deepEqual((await patched).request().postDataJSON(), { done: false });
      await check(group(page, "No date"), "Check the delivery dates").waitFor();
      assert.equal(await doneList.count(), 0);

      // The dated step as a calendar file: one all-day event.
      const calendar = stepRow(page, "Send the revised proposal").getByRole("link", { name: "Add to calendar" });
      assert.equal(await calendar.getAttribute("href"), `/api/next-steps/${proposal.id}/calendar.ics`);
      const [download] = await Promise.all([page.waitForEvent("download"), calendar.click()]);
      assert.match(download.suggestedFilename(), /\.ics$/);
      const ics = await readFile(await download.path(), "utf8");
      assert.match(ics, /BEGIN:VCALENDAR/);
      assert.match(ics, /BEGIN:VEVENT/);
      assert.match(ics, new RegExp(`DTSTART;VALUE=DATE:${d.later.replace(/-/g, "")}`));
      assert.match(ics.replace(/\r?\n[ \t]/g, ""), /revised proposal/);
      await checkA11y(page);
    }));

  test("with nothing open the tracker says so, and with no meetings the figures are empty", (t) =>
    app.run(t, async (page) => {
      await signIn(page);
      await page.goto("/insights");
      await heading(page, "Insights").waitFor();
      await mySteps(page).getByText("Nothing open.", { exact: false }).waitFor();
      await waiting(page).getByText("No client is waiting", { exact: false }).waitFor();
      assert.equal(await figure(page, "Median time to follow-up").locator('[aria-hidden="true"]').textContent(), "—");
      assert.equal(await figure(page, "Meetings this month").textContent(), "0");
      await page.getByRole("img", { name: "Meetings per week: none in the last 12 weeks." }).waitFor();
      await checkA11y(page);
    }));
});

describe("waiting for a follow-up", () => {
  test("an email sent to the outbox does not count; Mark as followed up, from the tracker and from the client page, with Undo", (t) =>
    app.run(t, async (page) => {
      await signIn(page);
      const first = await createClient(page);
      const second = await createClient(page);
      const third = await createClient(page);
      const noSummary = await createClient(page, { summary: "" });

      // Sent without SMTP: filed in the outbox, which is not a follow-up.
      await page.goto(`/client/${first.id}?email=1`);
      const dialog = page.getByRole("dialog", { name: "Email Preview" });
      await dialog.locator(".email-meta").waitFor();
      await dialog.getByRole("button", { name: "Send", exact: true }).click();
      await seeToast(page, "Saved to outbox: email is not configured on this server");
      await dialog.waitFor({ state: "hidden" });

      await openInsights(page);
      await waiting(page).locator(".waiting__row").first().waitFor();
      assert.deepEqual(await waitingNames(page), [first.name, second.name, third.name], "oldest meeting first");
      assert.ok(!(await waitingNames(page)).includes(noSummary.name));
      await checkA11y(page);

      // Marked from the tracker: off the list at once, with an Undo that brings it back.
      const row = (client) => waiting(page).locator(".waiting__row").filter({ hasText: client.name });
      let answered = page.waitForResponse((r) => r.url().endsWith(`/api/clients/${first.id}/followed-up`));
      await row(first).getByRole("button", { name: /^Mark as followed up/ }).click();
      assert.equal((await answered).request().method(), "POST");
      await row(first).waitFor({ state: "detached" });
      assert.equal(
        await page.evaluate(() => document.activeElement?.textContent),
        `Mark as followed up: ${second.name}`,
        "the next row's button has the focus",
      );
      await seeToast(page, "Marked as followed up", first.name);
      answered = page.waitForResponse((r) => r.url().endsWith(`/api/clients/${first.id}/followed-up`));
      await notification(page).getByRole("button", { name: "Undo" }).click();
      assert.equal((await answered).request().method(), "DELETE");
      await row(first).waitFor();
      assert.deepEqual(await waitingNames(page), [first.name, second.name, third.name]);
      await row(first).getByRole("button", { name: /^Mark as followed up/ }).click();
      await row(first).waitFor({ state: "detached" });

      // Marked on the client page, next to Email Client.
      await row(second).getByRole("link", { name: /^Review email/ }).click();
      await onPath(page, `/client/${second.id}`);
      await page.getByRole("dialog", { name: "Email Preview" }).locator(".email-meta").waitFor();
      assert.equal(new URL(page.url()).search, "", "opened once: a reload shows the page");
      await page.getByRole("dialog", { name: "Email Preview" }).getByRole("button", { name: "Cancel" }).click();
      await page.getByRole("button", { name: "Mark as followed up" }).click();
      await page.getByText("Marked as followed up just now", { exact: true }).waitFor();
      assert.equal(await page.getByRole("button", { name: "Mark as followed up" }).count(), 0);
      assert.ok((await apiFromPage(page, "GET", `/api/clients/${second.id}`)).body.followedUpAt);
      await checkA11y(page);

      // No summary, nothing to follow up: not offered.
      await page.goto(`/client/${noSummary.id}`);
      await heading(page, noSummary.name).waitFor();
      assert.equal(await page.getByRole("button", { name: "Mark as followed up" }).count(), 0);
      await page.goto(`/client/${first.id}`);
      await page.getByText("Marked as followed up just now", { exact: true }).waitFor();

      await openInsights(page);
      await page.waitForFunction((name) => {
        const names = [...document.querySelectorAll(".waiting__name")].map((n) => n.textContent);
        return names.length === 1 && names[0] === name;
      }, third.name);
      await checkA11y(page);
    }));

  describe("with an SMTP server", () => {
    const mail = useSmtpApp(app);

    test("a client with a summary waits for a follow-up until its email is sent", (t) =>
      mail.run(t, async (page) => {
        await signIn(page);
        const client = await createClient(page);
        await page.goto("/insights");
        await heading(page, "Insights").waitFor();
        await waiting(page).locator(".waiting__row").first().waitFor();
        assert.deepEqual(await waitingNames(page), [client.name]);
        assert.equal(await figure(page, "Follow-ups sent this month").textContent(), "0");

        // Its row opens the client page with the email review open.
        await waiting(page).getByRole("link", { name: `Review email to ${client.name}` }).click();
        await onPath(page, `/client/${client.id}`);
        const dialog = page.getByRole("dialog", { name: "Email Preview" });
        await dialog.locator(".email-meta").waitFor();
        await checkA11y(page);
        await dialog.getByRole("button", { name: "Send", exact: true }).click();
        await seeToast(page, "Success", `Email sent to ${client.email}`);
        const [message] = await mail.received(1);
        assert.equal(message.header("x-rcptto"), client.email);

        await openInsights(page);
        await waiting(page).getByText("No client is waiting", { exact: false }).waitFor();
        assert.equal(await figure(page, "Follow-ups sent this month").textContent(), "1");
        await checkA11y(page);
      }));
  });
});

describe("the calendar feed and the admin's figures", () => {
  test("Profile makes a feed link shown once, makes a new one that replaces it, and revokes it", (t) =>
    app.run(t, async (page) => {
      await signIn(page);
      const client = await createClient(page);
      await giveSteps(page, client, [{ who: "me", action: "Send the revised proposal", dueText: "next week", dueDate: days().later }]);
      await page.goto("/profile");
      await heading(page, "Profile").waitFor();
      await page.getByText("Subscribe to your dated next steps from your calendar app.").waitFor();
      await page.getByRole("button", { name: "Create a feed link" }).click();
      const field = page.getByLabel("Your feed link", { exact: true });
      await field.waitFor();
      assert.ok(await field.evaluate((el) => el === document.activeElement), "the new link has the focus");
      const link = await field.inputValue();
      assert.match(link, new RegExp(`^${app.url.replace(/[.]/g, "\\.")}/api/next-steps\\.ics\\?token=.+`));
      await page.getByText("Shown only this once", { exact: false }).waitFor();
      assert.equal(await page.getByRole("link", { name: "Subscribe" }).getAttribute("href"), link.replace(/^http:/, "webcal:"));
      await checkA11y(page);

      // What a calendar app gets from the link, without any session.
      const feed = await fetch(link);
      assert.equal(feed.status, 200);
      assert.match(feed.headers.get("content-type"), /^text\/calendar/);
      assert.match((await feed.text()).replace(/\r?\n[ \t]/g, ""), /revised proposal/);

      // Another visit: the link is not shown again.
      await page.reload();
      await page.getByText("A feed link has been active since", { exact: false }).waitFor();
      assert.equal(await page.getByLabel("Your feed link", { exact: true }).count(), 0);
      await page.getByRole("button", { name: "Make a new link" }).click();
      const replace = page.getByRole("dialog", { name: "Make a new link?" });
      await replace.getByRole("button", { name: "Make a new link" }).click();
      await field.waitFor();
      const newer = await field.inputValue();
      assert.notEqual(newer, link);
      assert.notEqual((await fetch(link)).status, 200, "the old link stopped working");
      assert.equal((await fetch(newer)).status, 200);

      await page.getByRole("button", { name: "Revoke" }).click();
      const revoke = page.getByRole("dialog", { name: "Revoke the feed link?" });
      await checkA11y(page);
      await revoke.getByRole("button", { name: "Revoke" }).click();
      await seeToast(page, "Calendar feed turned off");
      const create = page.getByRole("button", { name: "Create a feed link" });
      await create.waitFor();
      assert.ok(await create.evaluate((el) => el === document.activeElement), "the focus is on the button that makes one");
      assert.notEqual((await fetch(newer)).status, 200, "revoked");
      assert.deepEqual((await apiFromPage(page, "GET", "/api/profile/calendar-feed")).body, { active: false, createdAt: null });
    }));

  test("the admin dashboard shows the same figures across all users, counts only", (t) =>
    app.run(t, async (page) => {
      await signIn(page);
      await createClient(page);
      const admin = await createAdmin(app.server.dataDir, `insights${Date.now().toString(36)}`, "correct horse battery staple");
      await page.goto("/admin/login");
      await heading(page, "Admin Login").waitFor();
      await page.getByLabel("Username", { exact: true }).fill(admin.username);
      await page.getByLabel("Password", { exact: true }).fill(admin.password);
      await page.getByRole("button", { name: "Sign In" }).click();
      await heading(page, "Admin Dashboard").waitFor();
      await page.getByRole("tab", { name: "Insights", exact: true }).click();
      const panel = page.getByRole("tabpanel");
      await panel.locator(".figure").first().waitFor();
      const expected = (await apiFromPage(page, "GET", `/api/admin/insights?today=${days().today}`)).body;
      assert.ok(expected.users >= 1);
      assert.equal(expected.waiting, undefined, "no client is named");
      assert.equal(await figure(panel, "Users").textContent(), String(expected.users));
      assert.equal(await figure(panel, "Open next steps").textContent(), String(expected.openItems));
      await panel.getByRole("img", { name: /^Meetings per week/ }).waitFor();
      await checkA11y(page);
    }));
});
