// The admin screens' logic: the forms' rules (the server's, message for message), the
// sign-in toasts, the email preview, and the dashboard's data (loads, busy flag, local
// updates, a lost session).

import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, test } from "node:test";
import { ApiError, setFetch } from "../src/lib/api.ts";
import { ADMIN_TEXT, createDashboard } from "../src/pages/admin/dashboard-store.ts";
import { describeAdminLoginFailure } from "../src/pages/admin/login-failure.ts";
import { PREVIEW_SAMPLE, renderPreview } from "../src/pages/admin/preview.ts";
import { retentionDays, validateAdminLogin, validateRetention, validateTemplate } from "../src/pages/admin/validation.ts";
import { isAdminSessionLost } from "../src/stores/admin.ts";
import { $toasts, resetToastsForTests } from "../src/stores/toast.ts";
import { fakeFetch } from "./fake-fetch.mjs";

const TEMPLATE = {
  name: "default",
  fromName: "Debrief Support",
  emailTitle: "Meeting Summary - [client name]",
  firstContentSection: "Dear [client name],\n\nThank you for meeting [user name].",
  secondContentSection: "Questions? Reply.",
  thirdContentSection: "Ask [user name] about a free account.",
};

describe("admin forms", () => {
  test("admin login: username and password required, as the server says", () => {
    assert.deepEqual(validateAdminLogin({ username: "  ", password: "" }), {
      username: "Username is required",
      password: "Password is required",
    });
    assert.deepEqual(validateAdminLogin({ username: "root", password: "x".repeat(129) }), {
      password: "Password must be at most 128 characters",
    });
    // Passwords are taken as typed: spaces count.
    assert.deepEqual(validateAdminLogin({ username: "root", password: " " }), {});
  });

  test("template: each rule gives its message, in the server's order", () => {
    const empty = { fromName: "", emailTitle: "", firstContentSection: "", secondContentSection: " ", thirdContentSection: "\n" };
    assert.deepEqual(validateTemplate(empty), {
      fromName: "From name is required",
      emailTitle: "Email title is required",
      firstContentSection: "First content section is required",
      secondContentSection: "Second content section is required",
      thirdContentSection: "Third content section is required",
    });
    const { name: _name, ...values } = TEMPLATE;
    assert.deepEqual(validateTemplate(values), {});
    assert.deepEqual(validateTemplate({ ...values, fromName: "Evil\r\nBcc: x@y.z", emailTitle: "t".repeat(201) }), {
      fromName: "From name contains characters that are not allowed",
      emailTitle: "Email title must be less than 200 characters",
    });
    assert.deepEqual(validateTemplate({ ...values, fromName: "f".repeat(101) }), {
      fromName: "From name must be less than 100 characters",
    });
    // Code points, not UTF-16 units; the limit itself is allowed.
    assert.deepEqual(validateTemplate({ ...values, fromName: "😀".repeat(100), emailTitle: "é".repeat(200) }), {});
    assert.deepEqual(validateTemplate({ ...values, emailTitle: "Line\tbreak" }), {
      emailTitle: "Email title contains characters that are not allowed",
    });
    // Sections may hold line breaks.
    assert.deepEqual(validateTemplate({ ...values, firstContentSection: "a\n\nb" }), {});
  });

  test("retention: empty keeps recordings for good, else a whole number of days from 1 to 3650", () => {
    const refused = { days: "Keep recordings between 1 and 3650 days, or leave the field empty to keep them for good" };
    assert.equal(retentionDays(""), null);
    assert.equal(retentionDays("  "), null);
    assert.equal(retentionDays(" 30 "), 30);
    for (const days of ["", "1", "30", "3650"]) assert.deepEqual(validateRetention({ days }), {}, days);
    // Nothing that JSON would turn into null (keep for good) or the server would take for another number.
    for (const days of ["0", "3651", "-1", "1.5", "1e3", "30 days", "99999999999999999999"]) {
      assert.deepEqual(validateRetention({ days }), refused, days);
    }
    assert.ok(Number.isNaN(retentionDays("abc")));
  });

  test("admin login toasts: 401, throttled, anything else", () => {
    assert.deepEqual(describeAdminLoginFailure(new ApiError(401, "", "", { message: "Invalid username or password" })), {
      title: "Authentication failed",
      description: "Invalid username or password",
    });
    const throttled = new ApiError(429, "", "", { message: "Too many failed admin sign-in attempts. Please try again later." });
    assert.deepEqual(describeAdminLoginFailure(throttled), {
      title: "Login failed",
      description: "Too many failed admin sign-in attempts. Please try again later.",
    });
    const generic = { title: "Login failed", description: "An error occurred during login. Please try again." };
    assert.deepEqual(describeAdminLoginFailure(new ApiError(500, "", "oops", "oops")), generic);
    assert.deepEqual(describeAdminLoginFailure(new ApiError(429, "", "", null)), generic);
    assert.deepEqual(describeAdminLoginFailure(new TypeError("Failed to fetch")), generic);
  });

  test("401 and 403 mean no admin session; other failures do not", () => {
    assert.equal(isAdminSessionLost(new ApiError(401, "", "", null)), true);
    assert.equal(isAdminSessionLost(new ApiError(403, "", "", null)), true);
    assert.equal(isAdminSessionLost(new ApiError(500, "", "", null)), false);
    assert.equal(isAdminSessionLost(new TypeError("Failed to fetch")), false);
    assert.equal(isAdminSessionLost(null), false);
  });
});

describe("email preview", () => {
  test("fills the placeholders and puts the sections around the AI content", () => {
    const p = renderPreview(TEMPLATE);
    assert.equal(p.fromName, "Debrief Support");
    assert.equal(p.subject, `Meeting Summary - ${PREVIEW_SAMPLE.clientName}`);
    assert.deepEqual(
      p.blocks.map((b) => b.kind),
      ["paragraph", "paragraph", "heading", "paragraph", "heading", "list", "paragraph", "paragraph"],
    );
    assert.equal(p.blocks[0].text, `Dear ${PREVIEW_SAMPLE.clientName},`);
    assert.equal(p.blocks[1].text, `Thank you for meeting ${PREVIEW_SAMPLE.userName}.`);
    assert.equal(p.blocks[2].text, "Meeting Summary");
    assert.equal(p.blocks[4].text, "Next Steps");
    assert.deepEqual(p.blocks[5].items, [...PREVIEW_SAMPLE.nextSteps]);
    assert.equal(p.blocks[7].text, `Ask ${PREVIEW_SAMPLE.userName} about a free account.`);
    const texts = p.blocks.flatMap((b) => b.items ?? [b.text]).concat(p.subject);
    assert.equal(texts.some((t) => t.includes("[client name]") || t.includes("[user name]")), false, "no placeholder left");
  });

  test("text stays text, every placeholder is filled, an empty section is pointed out", () => {
    const p = renderPreview(
      { ...TEMPLATE, emailTitle: "[client name]\n[client name]", firstContentSection: "<b>[user name]</b>\nline two", secondContentSection: "  " },
      { clientName: "A", userName: "B", summary: "S", nextSteps: [] },
    );
    assert.equal(p.subject, "A A");
    assert.deepEqual(p.blocks[0], { kind: "paragraph", text: "<b>B</b>\nline two" });
    assert.deepEqual(p.blocks.find((b) => b.kind === "missing"), { kind: "missing", text: "(Second content section is empty)" });
  });
});

describe("dashboard data", () => {
  let toasts;
  let stopListening;
  beforeEach(() => {
    resetToastsForTests();
    toasts = [];
    stopListening = $toasts.listen((s) => {
      const t = s.toasts[0];
      if (t && !toasts.some((x) => x.id === t.id)) toasts.push(t);
    });
  });
  afterEach(() => {
    stopListening();
    setFetch(null);
  });

  const users = [
    { id: 1, email: "grace@example.com", firstName: "Grace", lastName: "Hopper", company: "Navy", position: "Admiral", linkedinUrl: null, profileImageUrl: null, createdAt: "2026-01-01T00:00:00.000Z" },
    { id: 2, email: "alan@example.com", firstName: "Alan", lastName: "Turing", company: "", position: "", linkedinUrl: null, profileImageUrl: null, createdAt: "2026-01-02T00:00:00.000Z" },
  ];
  const clients = [
    { id: 10, userId: 1, name: "Ada", email: "ada@client.example", phone: "5551234567", company: null, position: null, summary: null, createdAt: "2026-02-01T00:00:00.000Z", createdByEmail: "grace@example.com" },
    { id: 11, userId: 2, name: "Kurt", email: "kurt@client.example", phone: "5551234567", company: "IAS", position: null, summary: "s", createdAt: "2026-02-02T00:00:00.000Z", createdByEmail: "alan@example.com" },
  ];

  async function opened(f, hooks = {}) {
    setFetch(f);
    const d = createDashboard({ onSessionLost: hooks.onSessionLost ?? (() => assert.fail("session lost")) });
    await d.open();
    return d;
  }

  test("opening confirms the session and loads users, clients and the template together", async () => {
    const f = fakeFetch().reply(200, { username: "root" }).reply(200, users).reply(200, clients).reply(200, TEMPLATE);
    setFetch(f);
    const d = createDashboard({ onSessionLost: () => assert.fail("session lost") });
    const opening = d.open();
    // All four are on their way at once, under the one busy flag.
    assert.deepEqual(f.calls.map((c) => c.url), ["/api/admin/session", "/api/admin/users", "/api/admin/clients", "/api/admin/email-template"]);
    assert.equal(d.$state.get().busy, 4);
    assert.equal(d.$state.get().usersStatus, "loading");
    await opening;
    const s = d.$state.get();
    assert.equal(s.busy, 0);
    assert.equal(s.username, "root");
    assert.deepEqual([s.users.length, s.clients.length, s.usersStatus, s.clientsStatus, s.templateStatus], [2, 2, "ready", "ready", "ready"]);
    assert.deepEqual(s.template, TEMPLATE);
    assert.deepEqual(toasts, []);
  });

  test("a failed load leaves an empty list and says so; Retry loads it", async () => {
    const f = fakeFetch().reply(200, { username: "root" }).reply(500, "down").reply(200, clients).reply(200, TEMPLATE);
    const d = await opened(f);
    assert.deepEqual(d.$state.get().users, []);
    assert.equal(d.$state.get().usersStatus, "failed");
    assert.deepEqual(toasts.map((t) => [t.title, t.description, t.variant]), [["Error", "Failed to load users", "destructive"]]);
    f.reply(200, users);
    await d.loadUsers();
    assert.equal(d.$state.get().users.length, 2);
    assert.equal(d.$state.get().usersStatus, "ready");
  });

  test("the load failures' words", async () => {
    await opened(fakeFetch().reply(200, { username: "root" }).reply(200, users).fail(new TypeError("offline")).reply(503, { message: "x" }));
    assert.deepEqual(toasts.map((t) => t.description), ["Failed to load clients", "Failed to load email template"]);
  });

  test("a 401 ends the dashboard once, with no error toast", async () => {
    let lost = 0;
    const f = fakeFetch().reply(401, { message: "Admin sign-in required" }).reply(401, null).reply(401, null).reply(401, null);
    await opened(f, { onSessionLost: () => lost++ });
    assert.equal(lost, 1);
    assert.deepEqual(toasts, []);
  });

  test("a user session without an admin one (403) ends it too", async () => {
    let lost = 0;
    const f = fakeFetch().reply(200, { username: "root" }).reply(200, users).reply(200, clients).reply(200, TEMPLATE);
    const d = await opened(f, { onSessionLost: () => lost++ });
    f.reply(403, { message: "Administrators only" });
    const r = await d.updateUser(1, { firstName: "G", lastName: "H", email: "g@example.com", company: "", position: "" });
    assert.equal(r.ok, false);
    assert.equal(r.sessionLost, true);
    assert.equal(lost, 1);
    assert.deepEqual(toasts, []);
  });

  test("an updated user replaces theirs in the list, and their clients' owner email follows", async () => {
    const f = fakeFetch().reply(200, { username: "root" }).reply(200, users).reply(200, clients).reply(200, TEMPLATE);
    const d = await opened(f);
    const input = { firstName: "Grace", lastName: "Hopper", email: "amazing@example.com", company: "Navy", position: "Rear Admiral" };
    f.reply(200, { ...users[0], ...input });
    const pending = d.updateUser(1, input);
    assert.equal(d.$state.get().saving, "user");
    assert.equal(d.$state.get().busy, 1);
    const r = await pending;
    assert.equal(r.ok, true);
    const put = f.calls.at(-1);
    assert.equal(put.url, "/api/admin/users/1");
    assert.equal(put.init.method, "PUT");
    assert.deepEqual(JSON.parse(put.init.body), input);
    const s = d.$state.get();
    assert.equal(s.users[0].position, "Rear Admiral");
    assert.deepEqual(s.users[1], users[1], "the others are untouched");
    assert.equal(s.clients[0].createdByEmail, "amazing@example.com");
    assert.equal(s.saving, null);
    assert.deepEqual(toasts.map((t) => [t.title, t.description]), [["Success", "User updated successfully"]]);
  });

  test("a refused update keeps the list and hands the server's answer back", async () => {
    const f = fakeFetch().reply(200, { username: "root" }).reply(200, users).reply(200, clients).reply(200, TEMPLATE);
    const d = await opened(f);
    f.reply(400, { message: "Please enter a valid email address", fieldErrors: [{ field: "email", message: "Please enter a valid email address" }] });
    const r = await d.updateClient(10, { name: "Ada", email: "nope", phone: "5551234567", company: "", position: "" });
    assert.equal(r.ok, false);
    assert.equal(r.sessionLost, false);
    assert.deepEqual(r.error.fieldErrors, [{ field: "email", message: "Please enter a valid email address" }]);
    assert.deepEqual(d.$state.get().clients, clients);
    assert.deepEqual(toasts.map((t) => [t.title, t.description, t.variant]), [["Error", ADMIN_TEXT.updateClientFailed, "destructive"]]);
  });

  test("an updated client keeps the owner email the answer does not carry", async () => {
    const f = fakeFetch().reply(200, { username: "root" }).reply(200, users).reply(200, clients).reply(200, TEMPLATE);
    const d = await opened(f);
    const { createdByEmail: _c, ...answer } = { ...clients[0], company: "Engines" };
    f.reply(200, answer);
    await d.updateClient(10, { name: "Ada", email: "ada@client.example", phone: "5551234567", company: "Engines", position: "" });
    assert.equal(d.$state.get().clients[0].company, "Engines");
    assert.equal(d.$state.get().clients[0].createdByEmail, "grace@example.com");
    assert.deepEqual(toasts.map((t) => t.description), ["Client updated successfully"]);
  });

  test("deleting a user drops them and their clients; deleting a client drops it", async () => {
    const f = fakeFetch().reply(200, { username: "root" }).reply(200, users).reply(200, clients).reply(200, TEMPLATE);
    const d = await opened(f);
    f.reply(200, { message: "User deleted" });
    assert.equal((await d.remove("user", 1)).ok, true);
    assert.equal(f.calls.at(-1).url, "/api/admin/users/1");
    assert.equal(f.calls.at(-1).init.method, "DELETE");
    assert.deepEqual(d.$state.get().users.map((u) => u.id), [2]);
    assert.deepEqual(d.$state.get().clients.map((c) => c.id), [11]);
    f.reply(200, { message: "Client deleted" });
    await d.remove("client", 11);
    assert.equal(f.calls.at(-1).url, "/api/admin/clients/11");
    assert.deepEqual(d.$state.get().clients, []);
    assert.deepEqual(toasts.map((t) => t.description), ["User deleted successfully", "Client deleted successfully"]);
  });

  test("a failed delete keeps the record; one already gone leaves the list", async () => {
    const f = fakeFetch().reply(200, { username: "root" }).reply(200, users).reply(200, clients).reply(200, TEMPLATE);
    const d = await opened(f);
    f.reply(500, "boom");
    assert.equal((await d.remove("client", 10)).ok, false);
    assert.equal(d.$state.get().clients.length, 2);
    f.reply(404, { message: "Client not found" });
    assert.equal((await d.remove("client", 10)).ok, false);
    assert.deepEqual(d.$state.get().clients.map((c) => c.id), [11]);
    assert.deepEqual(toasts.map((t) => t.description), ["Failed to delete client", "Failed to delete client"]);
    f.reply(500, "boom");
    await d.remove("user", 2);
    assert.equal(toasts.at(-1).description, "Failed to delete user");
  });

  test("the saved template replaces the local one", async () => {
    const f = fakeFetch().reply(200, { username: "root" }).reply(200, users).reply(200, clients).reply(200, TEMPLATE);
    const d = await opened(f);
    const { name: _n, ...values } = { ...TEMPLATE, fromName: "Acme" };
    f.reply(200, { ...TEMPLATE, fromName: "Acme" });
    const pending = d.saveTemplate(values);
    assert.equal(d.$state.get().saving, "template");
    await pending;
    assert.equal(f.calls.at(-1).url, "/api/admin/email-template");
    assert.equal(f.calls.at(-1).init.method, "PUT");
    assert.deepEqual(JSON.parse(f.calls.at(-1).init.body), values);
    assert.equal(d.$state.get().template.fromName, "Acme");
    assert.deepEqual(toasts.map((t) => [t.title, t.description]), [["Success", "Email template updated successfully"]]);
    f.reply(400, { message: "From name is required", fieldErrors: [{ field: "fromName", message: "From name is required" }] });
    await d.saveTemplate({ ...values, fromName: "" });
    assert.equal(d.$state.get().template.fromName, "Acme");
    assert.equal(toasts.at(-1).description, "Failed to update email template");
  });

  test("after dispose, late answers change nothing and show nothing", async () => {
    const f = fakeFetch();
    const answer = f.defer();
    f.reply(500, "x").reply(500, "x").reply(500, "x");
    setFetch(f);
    const d = createDashboard({ onSessionLost: () => assert.fail("session lost") });
    const opening = d.open();
    d.dispose();
    answer(401, null);
    await opening;
    assert.deepEqual(toasts, []);
    assert.equal(d.$state.get().usersStatus, "loading");
  });
});
