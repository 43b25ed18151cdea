// The admin screens against the real server, at phone and at desktop width: sign-in
// (and its refusals), the dashboard's users, clients and email template, editing and
// deleting, the live preview, a lost server session, failed loads and their Retry, and
// the disk's use with the retention policy.
// Administrators are created the way a box owner does it: `debrief admin create`.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  apiFromPage,
  checkA11y,
  createAdmin as createAdminOn,
  fieldError,
  heading,
  notification,
  onPath,
  seeToast,
  signUpAndLogIn,
  useApp,
} from "./harness.mjs";

const app = useApp();

const PASSWORD = "correct horse battery staple";
const FLAG = "debrief.adminSession";
const DESKTOP = { viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false, deviceScaleFactor: 1 };
const VIEWPORTS = [
  ["phone", {}],
  ["desktop", DESKTOP],
];

let counter = 0;
const unique = () => `${Date.now().toString(36)}${++counter}`;
/** Letters only: client names may not hold digits. */
const letters = (s) => s.replace(/\d/g, (d) => "abcdefghij"[Number(d)]);

/** An administrator of this test's server. */
const createAdmin = (username = `admin${unique()}`, password = PASSWORD) => createAdminOn(app.server.dataDir, username, password);

/** A user with one client and a user without any, made through the API; the browser is left signed out. */
async function seed(page) {
  await page.goto("/admin/login");
  await heading(page, "Admin Login").waitFor();
  const owner = await signUpAndLogIn(page, { firstName: "Grace", lastName: "Hopper" });
  assert.equal(owner.login?.status, 200, JSON.stringify(owner.signup.body));
  const tag = letters(unique());
  const created = await apiFromPage(page, "POST", "/api/clients", {
    clientData: {
      name: `Ada ${tag.charAt(0).toUpperCase()}${tag.slice(1)}`,
      email: `ada.${tag}@client.example`,
      phone: "555-123-4567",
      company: "Analytical Engines",
      position: "Countess",
    },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const other = await signUpAndLogIn(page, { firstName: "Alan", lastName: "Turing" });
  assert.equal(other.login?.status, 200, JSON.stringify(other.signup.body));
  await apiFromPage(page, "POST", "/api/auth/logout");
  return { owner: owner.login.body, other: other.login.body, client: created.body };
}

async function signInAsAdmin(page, { username, password }) {
  await page.goto("/admin/login");
  await heading(page, "Admin Login").waitFor();
  await page.getByLabel("Username", { exact: true }).fill(username);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await onPath(page, "/admin/dashboard");
  await heading(page, "Admin Dashboard").waitFor();
}

const counterText = (page) => page.locator(".admin-counter");
const tab = (page, name) => page.getByRole("tab", { name, exact: true });
const panel = (page) => page.getByRole("tabpanel");
const dialog = (page, name) => page.getByRole("dialog", { name });
/** The card of the user or client with this id. */
const card = (page, id) => panel(page).getByRole("listitem").filter({ has: page.getByText(`ID: ${id}`, { exact: true }) });

/** The counter's words for `n`: "1 user", "2 users" (the app says it the same way). */
const counted = (n, noun) => `${n} ${noun}${n === 1 ? "" : "s"}`;

async function expectCounter(page, text) {
  await page.waitForFunction(
    (want) => document.querySelector(".admin-counter")?.textContent === want,
    text,
    { timeout: 5000 },
  ).catch(async () => assert.equal(await counterText(page).textContent(), text));
}

async function gridColumns(page) {
  return page.locator(".admin-grid").evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(" ").length);
}

describe("admin screens", () => {
  for (const [width, options] of VIEWPORTS) {
    test(`${width}: sign in, edit a client, delete a user, save the template`, (t) =>
      app.run(
        t,
        async (page) => {
          const { owner, other, client } = await seed(page);
          const admin = await createAdmin();

          // Sign-in form: the spec's messages, nothing sent.
          await page.goto("/admin/login");
          await heading(page, "Admin Login").waitFor();
          await page.getByText("debrief admin create --username NAME").waitFor();
          await checkA11y(page);
          let loginCalls = 0;
          page.on("request", (req) => {
            if (new URL(req.url()).pathname === "/api/admin/login") loginCalls++;
          });
          await page.getByRole("button", { name: "Sign In" }).click();
          assert.deepEqual(await fieldError(page, "Username"), { invalid: true, message: "Username is required" });
          assert.deepEqual(await fieldError(page, "Password"), { invalid: true, message: "Password is required" });
          assert.equal(loginCalls, 0);
          await checkA11y(page);

          await signInAsAdmin(page, admin);
          assert.equal(await page.evaluate((k) => localStorage.getItem(k), FLAG), "true");
          const cookies = await page.context().cookies();
          const cookie = cookies.find((c) => c.name === "debrief_admin");
          assert.ok(cookie?.httpOnly, "the admin cookie is HttpOnly");
          assert.equal(cookie.sameSite, "Strict");

          // Both counters are right before any tab switch.
          const users = (await apiFromPage(page, "GET", "/api/admin/users")).body;
          const clients = (await apiFromPage(page, "GET", "/api/admin/clients")).body;
          assert.ok(users.length >= 2 && clients.length >= 1);
          await page.getByText(`Signed in as ${admin.username}`).waitFor();
          assert.equal(await tab(page, "Users").getAttribute("aria-selected"), "true");
          await expectCounter(page, counted(users.length, "user"));
          const ownerCard = card(page, owner.id);
          await ownerCard.waitFor();
          await ownerCard.getByText(owner.email).waitFor();
          await ownerCard.getByText("GH", { exact: true }).waitFor();
          assert.equal(await gridColumns(page), width === "phone" ? 1 : 3);
          const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
          assert.ok(pageWidth <= (width === "phone" ? 390 : 1280), `no sideways scrolling (${pageWidth} px)`);
          await checkA11y(page);

          // Clients: the seeded one, then Edit.
          await tab(page, "Clients").click();
          await expectCounter(page, counted(clients.length, "client"));
          const clientCard = card(page, client.id);
          await clientCard.getByRole("heading", { name: client.name }).waitFor();
          await clientCard.getByText("Added:").waitFor();
          await clientCard.getByText(client.email).waitFor();
          await checkA11y(page);

          await clientCard.getByRole("button", { name: `Edit ${client.name}` }).click();
          const edit = dialog(page, "Edit Client");
          await edit.waitFor();
          assert.equal(await edit.getByLabel("Name", { exact: true }).inputValue(), client.name);
          assert.equal(await edit.getByLabel("Email", { exact: true }).getAttribute("type"), "email");
          await checkA11y(page);
          // No rules here: the server's refusal is what shows.
          await edit.getByLabel("Phone", { exact: true }).fill("12");
          await edit.getByRole("button", { name: "Save Changes" }).click();
          await seeToast(page, "Error", "Failed to update client");
          assert.deepEqual(await fieldError(page, "Phone", edit), {
            invalid: true,
            message: "Phone number must be at least 10 digits",
          });
          await edit.getByLabel("Phone", { exact: true }).fill("555-987-6543");
          await edit.getByLabel("Company", { exact: true }).fill("Difference Engines");
          await edit.getByRole("button", { name: "Save Changes" }).click();
          await seeToast(page, "Success", "Client updated successfully");
          await edit.waitFor({ state: "hidden" });
          await clientCard.getByText("Difference Engines").waitFor();
          await clientCard.getByText("555-987-6543").waitFor();
          await expectCounter(page, counted(clients.length, "client"));

          // Users: edit one, then delete the other with confirmation.
          await tab(page, "Users").click();
          await ownerCard.getByRole("button", { name: "Edit Grace Hopper" }).click();
          const editUser = dialog(page, "Edit User");
          await editUser.waitFor();
          assert.equal(await editUser.getByLabel("First Name", { exact: true }).inputValue(), "Grace");
          await editUser.getByLabel("Position", { exact: true }).fill("Rear Admiral");
          await editUser.getByRole("button", { name: "Save Changes" }).click();
          await seeToast(page, "Success", "User updated successfully");
          await ownerCard.getByText("Rear Admiral").waitFor();

          const otherCard = card(page, other.id);
          await otherCard.getByRole("button", { name: "Delete Alan Turing" }).click();
          const confirm = dialog(page, "Confirm Delete");
          await confirm.getByText("Are you sure you want to delete this user? This action cannot be undone.").waitFor();
          await checkA11y(page);
          await confirm.getByRole("button", { name: "Delete" }).click();
          await seeToast(page, "Success", "User deleted successfully");
          await confirm.waitFor({ state: "hidden" });
          await otherCard.waitFor({ state: "detached" });
          await expectCounter(page, counted(users.length - 1, "user"));
          assert.equal(
            (await apiFromPage(page, "GET", "/api/admin/users")).body.some((u) => u.id === other.id),
            false,
            "gone on the server too",
          );

          // Email template: the form, its rules, the live preview, saving, a reload.
          await tab(page, "Email Template").click();
          await expectCounter(page, "Email Configuration");
          await page.getByRole("heading", { name: "Email Template Configuration" }).waitFor();
          await page.getByText("AI-Generated Content (Not Editable)").waitFor();
          const fromName = page.getByLabel("From Name", { exact: true });
          await page.waitForFunction(() => document.querySelector('input[name="fromName"]')?.value !== "");
          await checkA11y(page);

          await fromName.fill("");
          await page.getByLabel("Second Content Section", { exact: true }).fill("   ");
          // Leave the field first: its message appears on blur and moves the button down.
          await page.keyboard.press("Tab");
          await page.getByRole("button", { name: "Save Email Template" }).click();
          assert.deepEqual(await fieldError(page, "From Name"), { invalid: true, message: "From name is required" });
          assert.deepEqual(await fieldError(page, "Second Content Section"), {
            invalid: true,
            message: "Second content section is required",
          });
          assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("name")), "fromName");

          const tag = unique();
          const values = {
            fromName: `Acme Team ${tag}`,
            emailTitle: "Your meeting with [user name], [client name]",
            firstContentSection: "Hello <b>[client name]</b>,\n\nThanks for meeting [user name].",
            secondContentSection: "Reply any time.",
            thirdContentSection: `Try Debrief for free ${tag}.`,
          };
          await fromName.fill(values.fromName);
          await page.getByLabel("Email Title", { exact: true }).fill(values.emailTitle);
          await page.getByLabel("First Content Section", { exact: true }).fill(values.firstContentSection);
          await page.getByLabel("Second Content Section", { exact: true }).fill(values.secondContentSection);
          await page.getByLabel("Third Content Section", { exact: true }).fill(values.thirdContentSection);
          // The preview follows the form: sample names in, markup shown as text.
          const preview = page.locator(".admin-preview");
          await preview.getByText("Your meeting with Alex Morgan, Jane Smith").waitFor();
          await preview.getByText("Hello <b>Jane Smith</b>,").waitFor();
          assert.equal(await preview.locator("b").count(), 0, "typed markup is not markup");
          await preview.getByText(`Try Debrief for free ${tag}.`).waitFor();
          await checkA11y(page);

          await page.getByRole("button", { name: "Save Email Template" }).click();
          await seeToast(page, "Success", "Email template updated successfully");
          const stored = (await apiFromPage(page, "GET", "/api/admin/email-template")).body;
          for (const [k, v] of Object.entries(values)) assert.equal(stored[k], v, k);

          await page.reload();
          await heading(page, "Admin Dashboard").waitFor();
          await tab(page, "Email Template").click();
          await page.waitForFunction((want) => document.querySelector('input[name="fromName"]')?.value === want, values.fromName);
          assert.equal(await page.getByLabel("Email Title", { exact: true }).inputValue(), values.emailTitle);
          assert.equal(await page.getByLabel("First Content Section", { exact: true }).inputValue(), values.firstContentSection);
          assert.equal(await page.getByLabel("Third Content Section", { exact: true }).inputValue(), values.thirdContentSection);

          // Logout ends the server session as well as the flag.
          await page.getByRole("button", { name: "Logout" }).click();
          await onPath(page, "/admin/login");
          assert.equal(await page.evaluate((k) => localStorage.getItem(k), FLAG), null);
          assert.equal((await apiFromPage(page, "GET", "/api/admin/session")).status, 401);
        },
        options,
      ));
  }

  test("opening /admin/dashboard signed out goes to /admin/login", (t) =>
    app.run(t, async (page) => {
      await page.goto("/admin/dashboard");
      await onPath(page, "/admin/login");
      await heading(page, "Admin Login").waitFor();
      await checkA11y(page);
    }));

  test("a flag without a server session is cleared on opening the dashboard", (t) =>
    app.run(t, async (page) => {
      await page.addInitScript((k) => {
        if (!sessionStorage.getItem("seeded")) {
          localStorage.setItem(k, "true");
          sessionStorage.setItem("seeded", "1");
        }
      }, FLAG);
      await page.goto("/admin/dashboard");
      await onPath(page, "/admin/login");
      await heading(page, "Admin Login").waitFor();
      assert.equal(await page.evaluate((k) => localStorage.getItem(k), FLAG), null);
      assert.equal(await notification(page).getByText("Failed to load users").count(), 0, "no error toast");
    }));

  test("a wrong password shows 'Authentication failed'", (t) =>
    app.run(t, async (page) => {
      const admin = await createAdmin();
      await page.goto("/admin/login");
      await heading(page, "Admin Login").waitFor();
      await page.getByLabel("Username", { exact: true }).fill(admin.username);
      await page.getByLabel("Password", { exact: true }).fill("not the password at all");
      await page.getByRole("button", { name: "Sign In" }).click();
      await seeToast(page, "Authentication failed", "Invalid username or password");
      assert.equal(new URL(page.url()).pathname, "/admin/login");
      assert.equal(await page.evaluate((k) => localStorage.getItem(k), FLAG), null);
      await checkA11y(page);
    }));

  test("other sign-in failures say 'Login failed'; throttling shows the server's words", (t) =>
    app.run(t, async (page) => {
      await page.goto("/admin/login");
      await heading(page, "Admin Login").waitFor();
      let answer = { status: 500, body: "boom", contentType: "text/plain" };
      await page.route("**/api/admin/login", (route) => route.fulfill(answer));
      await page.getByLabel("Username", { exact: true }).fill("someone");
      await page.getByLabel("Password", { exact: true }).fill("whatever password");
      await page.getByRole("button", { name: "Sign In" }).click();
      await seeToast(page, "Login failed", "An error occurred during login. Please try again.");
      answer = {
        status: 429,
        contentType: "application/json",
        body: JSON.stringify({ message: "Too many failed admin sign-in attempts. Please try again later." }),
      };
      await page.getByRole("button", { name: "Sign In" }).click();
      await seeToast(page, "Login failed", "Too many failed admin sign-in attempts. Please try again later.");
      assert.equal(await page.evaluate((k) => localStorage.getItem(k), FLAG), null);
    }));

  test("failed loads show the toasts, empty lists and a Retry that works", (t) =>
    app.run(t, async (page) => {
      const admin = await createAdmin();
      const failing = new Set(["/api/admin/users", "/api/admin/clients", "/api/admin/email-template"]);
      await page.route("**/api/admin/**", (route) => {
        const path = new URL(route.request().url()).pathname;
        if (route.request().method() === "GET" && failing.has(path)) {
          return route.fulfill({ status: 500, contentType: "text/plain", body: "down" });
        }
        return route.fallback();
      });
      await signInAsAdmin(page, admin);
      await panel(page).getByText("Failed to load users").waitFor();
      await expectCounter(page, "0 users");
      assert.equal(await page.getByText("No users found").count(), 0, "a failure is not an empty list");
      // At most one toast at a time: the last of the three failures is the one shown.
      await notification(page).getByText("Error", { exact: true }).waitFor();
      await checkA11y(page);

      failing.delete("/api/admin/users");
      await panel(page).getByRole("button", { name: "Retry" }).click();
      await panel(page).getByRole("list", { name: "Users" }).waitFor();
      const users = (await apiFromPage(page, "GET", "/api/admin/users")).body;
      await expectCounter(page, counted(users.length, "user"));

      await tab(page, "Clients").click();
      await panel(page).getByText("Failed to load clients").waitFor();

      await tab(page, "Email Template").click();
      await panel(page).getByText("Failed to load email template").waitFor();
      assert.equal(await page.getByLabel("From Name", { exact: true }).inputValue(), "", "empty until loaded");
      assert.equal(await page.getByLabel("From Name", { exact: true }).isDisabled(), true);
      failing.delete("/api/admin/email-template");
      await panel(page).getByRole("button", { name: "Retry" }).click();
      await page.waitForFunction(() => document.querySelector('input[name="fromName"]')?.value !== "");
      assert.equal(await page.getByLabel("From Name", { exact: true }).isDisabled(), false);
      await checkA11y(page);
    }));

  test("a session that ends on the server sends the admin back to sign in", (t) =>
    app.run(t, async (page) => {
      const admin = await createAdmin();
      await signInAsAdmin(page, admin);
      await tab(page, "Email Template").click();
      await page.waitForFunction(() => document.querySelector('input[name="fromName"]')?.value !== "");
      // The session ends elsewhere (another tab logged out, or it expired).
      const ended = await page.evaluate(() => fetch("/api/admin/logout", { method: "POST" }).then((r) => r.status));
      assert.equal(ended, 200);
      await page.getByRole("button", { name: "Save Email Template" }).click();
      await onPath(page, "/admin/login");
      assert.equal(await page.evaluate((k) => localStorage.getItem(k), FLAG), null);
      assert.equal(await notification(page).getByText("Failed to update email template").count(), 0);
    }));

  test("deleting a client asks first, and Cancel keeps it (dark scheme)", (t) =>
    app.run(
      t,
      async (page) => {
        const { client } = await seed(page);
        const admin = await createAdmin();
        await signInAsAdmin(page, admin);
        await tab(page, "Clients").click();
        const clientCard = card(page, client.id);
        await clientCard.waitFor();
        await checkA11y(page);
        await clientCard.getByRole("button", { name: `Delete ${client.name}` }).click();
        const confirm = dialog(page, "Confirm Delete");
        await confirm.getByText("Are you sure you want to delete this client? This action cannot be undone.").waitFor();
        await checkA11y(page);
        await confirm.getByRole("button", { name: "Cancel" }).click();
        await confirm.waitFor({ state: "hidden" });
        await clientCard.waitFor();

        const before = (await apiFromPage(page, "GET", "/api/admin/clients")).body.length;
        await expectCounter(page, counted(before, "client"));
        await clientCard.getByRole("button", { name: `Delete ${client.name}` }).click();
        await confirm.getByRole("button", { name: "Delete" }).click();
        await seeToast(page, "Success", "Client deleted successfully");
        await clientCard.waitFor({ state: "detached" });
        await expectCounter(page, counted(before - 1, "client"));
        // Focus does not fall to the page's end with the removed card.
        assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("role")), "tab");
        await tab(page, "Email Template").click();
        await page.waitForFunction(() => document.querySelector('input[name="fromName"]')?.value !== "");
        await checkA11y(page);
      },
      { ...DESKTOP, colorScheme: "dark" },
    ));

  test("deleting a user takes their clients off the Clients tab too", (t) =>
    app.run(t, async (page) => {
      const { owner, client } = await seed(page);
      const admin = await createAdmin();
      await signInAsAdmin(page, admin);
      const clients = (await apiFromPage(page, "GET", "/api/admin/clients")).body.length;
      await card(page, owner.id).getByRole("button", { name: "Delete Grace Hopper" }).click();
      await dialog(page, "Confirm Delete").getByRole("button", { name: "Delete" }).click();
      await seeToast(page, "Success", "User deleted successfully");
      await tab(page, "Clients").click();
      await expectCounter(page, counted(clients - 1, "client"));
      assert.equal(await card(page, client.id).count(), 0);
    }));

  test("the Storage tab shows where the disk space goes, and saves how long recordings are kept", (t) =>
    app.run(t, async (page) => {
      const admin = await createAdmin();
      await signInAsAdmin(page, admin);
      const label = "Delete recordings older than (days)";
      const days = panel(page).getByLabel(label, { exact: true });
      const save = panel(page).getByRole("button", { name: "Save", exact: true });
      const openStorage = async () => {
        await tab(page, "Storage").click();
        await days.waitFor();
      };
      await openStorage();
      await expectCounter(page, "Disk Space");
      const storage = (await apiFromPage(page, "GET", "/api/admin/storage")).body;
      for (const row of ["Recordings", "Photos", "Database"]) await panel(page).getByText(row, { exact: true }).waitFor();
      if (storage.totalBytes > 0) await panel(page).getByText(/^\d[\d.]* [kMGT]?B free of \d[\d.]* [kMGT]?B$/).waitFor();
      assert.equal(await days.inputValue(), storage.retentionDays === null ? "" : String(storage.retentionDays));
      await panel(page).getByText("Empty keeps them for good. Transcripts, summaries and next steps are always kept.").waitFor();
      await checkA11y(page);

      // Out of range: the server's words (the form says them first), nothing saved.
      const refusal = "Keep recordings between 1 and 3650 days, or leave the field empty to keep them for good";
      const refused = await apiFromPage(page, "PUT", "/api/admin/storage", { retentionDays: 3651 });
      assert.deepEqual([refused.status, refused.body?.message], [400, refusal]);
      await days.fill("0");
      await save.click();
      assert.deepEqual(await fieldError(page, label), { invalid: true, message: refusal });
      await checkA11y(page);

      await days.fill("30");
      await save.click();
      await seeToast(page, "Retention saved");
      assert.equal((await apiFromPage(page, "GET", "/api/admin/storage")).body.retentionDays, 30);
      await page.reload();
      await openStorage();
      assert.equal(await days.inputValue(), "30");

      // Emptied, recordings are kept for good again.
      await days.fill("");
      await save.click();
      await seeToast(page, "Retention saved");
      assert.equal((await apiFromPage(page, "GET", "/api/admin/storage")).body.retentionDays, null);
    }));
});
