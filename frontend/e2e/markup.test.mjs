// Markup typed into every free-text field the app accepts is text on every screen that
// shows it: the user's name, company and position (signup, profile, admin users), the
// client's company, position, summary and next steps (History, the client page, its edit
// dialog, the e-mail preview, admin clients) and the e-mail template's sections (admin
// template editor and its preview, the e-mail preview frame). On each screen: no dialog
// opens, no img[src="x"] (nor any onerror attribute) exists in the page or its frames,
// nothing asks for the image's address, no console error, and the string is visible as
// text or, in a form, is the field's exact value. Client names refuse markup by rule.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  apiFromPage,
  checkA11y,
  createAdmin as createAdminOn,
  heading,
  onPath,
  openEmailPreview,
  seeToast,
  signIn,
  signUpAndLogIn,
  useApp,
} from "./harness.mjs";

const app = useApp();

/** The payload, numbered so that a dialog would say which field let it through. */
const img = (n) => `<img src=x onerror=alert(${n})>`;

let counter = 0;
/** Letters only: client names may not hold digits. */
const tag = () => `${Date.now().toString(36)}${++counter}`.replace(/\d/g, (d) => "abcdefghij"[Number(d)]);
const clientName = () => {
  const t = tag();
  return `Grace ${t.charAt(0).toUpperCase()}${t.slice(1)}`;
};

/**
 * Records what markup that ran would leave behind: dialogs (dismissed), console errors,
 * requests for the image's address "x". `check(where)` asserts nothing of it happened
 * and that no such element exists in the page or any of its frames.
 * The admin session check answers 401 on purpose and logs it; only that one is let pass.
 */
function watch(page) {
  const dialogs = [];
  const errors = [];
  const fetchedX = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on("console", (msg) => {
    if (msg.type() !== "error") return;
    const at = msg.location()?.url ?? "";
    const path = at ? new URL(at, app.url).pathname : "";
    if (/status of 401/.test(msg.text()) && path === "/api/admin/session") return;
    errors.push(`${msg.text()} (${at})`);
  });
  page.on("request", (req) => {
    if (/\/x$/.test(new URL(req.url()).pathname)) fetchedX.push(req.url());
  });
  return {
    async check(where) {
      // Time for an image that failed to load to fire its handler.
      await page.waitForTimeout(150);
      for (const frame of page.frames()) {
        const name = frame === page.mainFrame() ? "the page" : `the frame ${frame.url()}`;
        assert.equal(await frame.locator('img[src="x"]').count(), 0, `${where}: no img[src="x"] in ${name}`);
        assert.equal(await frame.locator("[onerror]").count(), 0, `${where}: no onerror attribute in ${name}`);
      }
      assert.deepEqual(dialogs, [], `${where}: no dialog opened`);
      assert.deepEqual(fetchedX, [], `${where}: nothing asked for the image "x"`);
      assert.deepEqual(errors, [], `${where}: no console error`);
    },
  };
}

/** Waits until `text` is visible, word for word, as the whole text of an element in `root`. */
const see = (root, text) => root.getByText(text, { exact: true }).first().waitFor();

const value = (root, label) => root.getByLabel(label, { exact: true }).inputValue();

/** An administrator of this test's server. */
const createAdmin = () => createAdminOn(app.server.dataDir, `admin${tag()}`, "correct horse battery staple");

/** A user whose name, company and position are markup, signed in through the API. */
async function markupUser(page, n) {
  const { fields, signup, login } = await signUpAndLogIn(page, {
    firstName: `Ada ${img(n)}`,
    lastName: `Byron "><img src=x onerror=alert(${n + 1})>`,
    company: `Engines </textarea>${img(n + 2)}`,
    position: `Analyst ${img(n + 3)}`,
  });
  assert.equal(login?.status, 200, JSON.stringify(signup.body));
  return { fields, user: login.body };
}

/** A client of the signed-in user with markup in every free-text field, through the API. */
async function markupClient(page, n) {
  const data = {
    name: clientName(),
    email: `grace.${tag()}@client.example`,
    phone: "555-123-4567",
    company: `Compilers ${img(n)}`,
    position: `"><img src=x onerror=alert(${n + 1})>`,
  };
  const texts = { summary: `Before ${img(n + 2)} after`, nextSteps: `Call ${img(n + 3)}\n</li>${img(n + 4)}` };
  const created = await apiFromPage(page, "POST", "/api/clients", { clientData: data });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const patched = await apiFromPage(page, "PATCH", `/api/clients/${created.body.id}`, { ...data, ...texts });
  assert.equal(patched.status, 200, JSON.stringify(patched.body));
  return { ...patched.body, steps: [`Call ${img(n + 3)}`, `</li>${img(n + 4)}`] };
}

describe("markup in free-text fields", () => {
  test("markup typed at signup and in the profile is the fields' value and text on the profile", (t) =>
    app.run(t, async (page) => {
      const guard = watch(page);
      const fields = {
        "First Name": `Ada ${img(1)}`,
        "Last Name": `Byron "><img src=x onerror=alert(2)>`,
        Email: `ada.${tag()}@example.com`,
        Password: "correct horse battery",
        "Confirm Password": "correct horse battery",
        Company: `Engines </textarea>${img(3)}`,
        Position: `Analyst ${img(4)}`,
      };
      await page.goto("/signup");
      await heading(page, "Create Account").waitFor();
      for (const [label, text] of Object.entries(fields)) await page.getByLabel(label, { exact: true }).fill(text);
      await page.getByRole("button", { name: "Create Account" }).click();
      await seeToast(page, "Account created successfully");
      await onPath(page, "/login");
      await page.getByLabel("Email", { exact: true }).fill(fields.Email);
      await page.getByLabel("Password", { exact: true }).fill(fields.Password);
      await page.getByRole("button", { name: "Sign In" }).click();
      await onPath(page, "/");
      await heading(page, "New Client").waitFor();
      await guard.check("New Client after signing in");

      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Profile" }).click();
      await heading(page, "Profile").waitFor();
      await see(page, `${fields["First Name"]} ${fields["Last Name"]}`);
      for (const label of ["First Name", "Last Name", "Company", "Position"]) {
        assert.equal(await value(page, label), fields[label], label);
      }
      await checkA11y(page);
      await guard.check("the profile");

      // Changed through the form: the server stores exactly what was typed.
      const company = `Difference ${img(5)}`;
      const position = `Chief </script>${img(6)}`;
      await page.getByLabel("Company", { exact: true }).fill(company);
      await page.getByLabel("Position", { exact: true }).fill(position);
      await page.getByRole("button", { name: "Save Changes" }).click();
      await seeToast(page, "Profile updated");
      const me = (await apiFromPage(page, "GET", "/api/auth/me")).body;
      assert.deepEqual(
        [me.firstName, me.lastName, me.company, me.position],
        [fields["First Name"], fields["Last Name"], company, position],
      );
      await page.reload();
      await heading(page, "Profile").waitFor();
      await see(page, `${fields["First Name"]} ${fields["Last Name"]}`);
      assert.equal(await value(page, "Company"), company);
      assert.equal(await value(page, "Position"), position);
      await guard.check("the profile after saving");
    }));

  test("a client's markup is text on History, the client page and in the edit dialog", (t) =>
    app.run(t, async (page) => {
      await signIn(page);
      const guard = watch(page);
      await page.goto("/");
      await heading(page, "New Client").waitFor();
      const name = clientName();
      const typed = { company: `Compilers ${img(11)}`, position: `"><img src=x onerror=alert(12)>` };
      await page.getByLabel("Full Name", { exact: true }).fill(name);
      await page.getByLabel("Email Address", { exact: true }).fill(`grace.${tag()}@client.example`);
      await page.getByLabel("Phone Number", { exact: true }).fill("555-123-4567");
      await page.getByLabel("Company", { exact: true }).fill(typed.company);
      await page.getByLabel("Position", { exact: true }).fill(typed.position);
      await page.getByRole("button", { name: "Save Client" }).click();
      await onPath(page, /^\/client\/\d+$/);
      await heading(page, name).waitFor();
      const id = page.url().split("/").pop();
      const saved = (await apiFromPage(page, "GET", `/api/clients/${id}`)).body;
      assert.deepEqual([saved.company, saved.position], [typed.company, typed.position], "stored as typed");

      // The summary and next steps come from the summariser; here from the owner's correction.
      const texts = { summary: `Before ${img(13)} after`, nextSteps: `Call ${img(14)}\n</li>${img(15)}` };
      const patched = await apiFromPage(page, "PATCH", `/api/clients/${id}`, { ...saved, ...texts });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      await page.reload();
      await heading(page, name).waitFor();
      await see(page, `${typed.position}, ${typed.company}`);
      await see(page, texts.summary);
      assert.deepEqual(await page.locator(".next-steps li").allTextContents(), [`Call ${img(14)}`, `</li>${img(15)}`]);
      await see(page.locator(".next-steps"), `</li>${img(15)}`);
      await checkA11y(page);
      await guard.check("the client page");

      await page.getByRole("button", { name: "Edit Details" }).click();
      const dialog = page.getByRole("dialog", { name: "Edit Client" });
      await dialog.waitFor();
      assert.equal(await value(dialog, "Company"), typed.company);
      assert.equal(await value(dialog, "Position"), typed.position);
      await guard.check("the edit dialog");
      const company = `Difference </textarea>${img(16)}`;
      await dialog.getByLabel("Company", { exact: true }).fill(company);
      await dialog.getByRole("button", { name: "Save Changes" }).click();
      await seeToast(page, "Success", "Client updated successfully");
      await dialog.waitFor({ state: "hidden" });
      await see(page, `${typed.position}, ${company}`);
      assert.equal((await apiFromPage(page, "GET", `/api/clients/${id}`)).body.company, company);
      await guard.check("the client page after editing");

      await page.goto("/history");
      await heading(page, "History").waitFor();
      const row = page.locator(".client-row").filter({ hasText: name });
      await see(row, company);
      await see(row, texts.summary);
      // A search for the markup finds the client and stays a search.
      await page.getByPlaceholder("Search clients...").fill(company);
      assert.equal(await page.locator(".client-row").count(), 1);
      await see(page.locator(".client-row"), company);
      await checkA11y(page);
      await guard.check("History");
    }));

  test("markup in the template, the user's name and the client's texts is text in the e-mail preview", (t) =>
    app.run(t, async (page) => {
      await page.goto("/login");
      await heading(page, "Welcome back").waitFor();
      const admin = await createAdmin();
      assert.equal((await apiFromPage(page, "POST", "/api/admin/login", admin)).status, 200);
      const template = {
        fromName: `Acme ${img(21)}`,
        emailTitle: `Meeting with [client name] ${img(22)}`,
        firstContentSection: `Hello [client name], from [user name]. ${img(23)}`,
        secondContentSection: `Second </p>${img(24)}`,
        thirdContentSection: `Third <script>alert(25)</script> ${img(26)}`,
      };
      const put = await apiFromPage(page, "PUT", "/api/admin/email-template", template);
      assert.equal(put.status, 200, JSON.stringify(put.body));
      await apiFromPage(page, "POST", "/api/admin/logout");

      const { fields } = await markupUser(page, 31);
      const guard = watch(page);
      const client = await markupClient(page, 41);
      const userName = `${fields.firstName} ${fields.lastName}`;
      const dialog = await openEmailPreview(page, client);
      const subject = `Meeting with ${client.name} ${img(22)}`;
      assert.deepEqual(await dialog.locator(".email-meta dd").allTextContents(), [
        template.fromName,
        client.email,
        fields.email,
        subject,
      ]);
      assert.equal(await dialog.locator("iframe").getAttribute("sandbox"), "");

      const frame = page.frameLocator(".email-dialog iframe");
      const paragraphs = [
        `Hello ${client.name}, from ${userName}. ${img(23)}`,
        client.summary,
        template.secondContentSection,
        template.thirdContentSection,
      ];
      for (const text of [...paragraphs, ...client.steps]) await see(frame, text);
      assert.equal(await frame.locator("title").textContent(), subject);

      await dialog.getByText("Plain-text version").click();
      await dialog.locator(".email-text pre").waitFor();
      const plain = await dialog.locator(".email-text pre").textContent();
      for (const text of [...paragraphs, ...client.steps]) assert.ok(plain.includes(text), `the plain text has ${text}`);
      assert.equal(await value(dialog, "Summary"), client.summary);
      for (const [i, step] of client.steps.entries()) assert.equal(await value(dialog, `Step ${i + 1}`), step);
      assert.equal(await value(dialog, "Company"), client.company);
      assert.equal(await value(dialog, "Position"), client.position);
      await checkA11y(page);
      await guard.check("the e-mail preview");

      // A summary corrected in the dialog: saved as typed, shown as text in the new preview.
      const summary = `Corrected </textarea>${img(47)}`;
      await dialog.getByLabel("Summary", { exact: true }).fill(summary);
      await dialog.getByRole("button", { name: "Save Changes" }).click();
      await dialog.getByRole("status").getByText("Changes saved. The preview shows them.").waitFor();
      await see(frame, summary);
      assert.equal((await apiFromPage(page, "GET", `/api/clients/${client.id}`)).body.summary, summary);
      await guard.check("the e-mail preview after saving");
    }));

  test("the admin dashboard shows markup in users, clients and the template as text", (t) =>
    app.run(t, async (page) => {
      await page.goto("/admin/login");
      await heading(page, "Admin Login").waitFor();
      const { fields, user } = await markupUser(page, 51);
      const client = await markupClient(page, 61);
      await apiFromPage(page, "POST", "/api/auth/logout");
      const admin = await createAdmin();
      const guard = watch(page);

      await page.getByLabel("Username", { exact: true }).fill(admin.username);
      await page.getByLabel("Password", { exact: true }).fill(admin.password);
      await page.getByRole("button", { name: "Sign In" }).click();
      await onPath(page, "/admin/dashboard");
      await heading(page, "Admin Dashboard").waitFor();
      const panel = page.getByRole("tabpanel");
      const card = (id) =>
        panel.getByRole("listitem").filter({ has: page.getByText(`ID: ${id}`, { exact: true }) });

      // Users: the card, then the edit dialog, saved unchanged.
      const userName = `${fields.firstName} ${fields.lastName}`;
      const userCard = card(user.id);
      await userCard.getByRole("heading", { name: userName }).waitFor();
      await see(userCard, fields.company);
      await see(userCard, fields.position);
      await checkA11y(page);
      await guard.check("the users panel");
      await userCard.getByRole("button", { name: `Edit ${userName}` }).click();
      const editUser = page.getByRole("dialog", { name: "Edit User" });
      await editUser.waitFor();
      for (const [label, field] of [
        ["First Name", "firstName"],
        ["Last Name", "lastName"],
        ["Company", "company"],
        ["Position", "position"],
      ]) {
        assert.equal(await value(editUser, label), fields[field], label);
      }
      await guard.check("the edit user dialog");
      await editUser.getByRole("button", { name: "Save Changes" }).click();
      await seeToast(page, "Success", "User updated successfully");
      await editUser.waitFor({ state: "hidden" });
      const stored = (await apiFromPage(page, "GET", "/api/admin/users")).body.find((u) => u.id === user.id);
      assert.deepEqual(
        [stored.firstName, stored.lastName, stored.company, stored.position],
        [fields.firstName, fields.lastName, fields.company, fields.position],
      );
      await userCard.getByRole("heading", { name: userName }).waitFor();
      await guard.check("the users panel after saving");

      // Clients: the card with its summary, then the edit dialog.
      await page.getByRole("tab", { name: "Clients", exact: true }).click();
      const clientCard = card(client.id);
      await clientCard.getByRole("heading", { name: client.name }).waitFor();
      await see(clientCard, client.company);
      await see(clientCard, client.position);
      await see(clientCard, client.summary);
      await checkA11y(page);
      await guard.check("the clients panel");
      await clientCard.getByRole("button", { name: `Edit ${client.name}` }).click();
      const editClient = page.getByRole("dialog", { name: "Edit Client" });
      await editClient.waitFor();
      assert.equal(await value(editClient, "Company"), client.company);
      assert.equal(await value(editClient, "Position"), client.position);
      await guard.check("the edit client dialog");
      await editClient.getByRole("button", { name: "Cancel" }).click();
      await editClient.waitFor({ state: "hidden" });

      // The template editor: typed markup is text in the live preview, and saved as typed.
      await page.getByRole("tab", { name: "Email Template", exact: true }).click();
      await page.waitForFunction(() => document.querySelector('input[name="fromName"]')?.value !== "");
      const values = {
        "From Name": `Acme ${img(71)}`,
        "Email Title": `About [client name] ${img(72)}`,
        "First Content Section": `Hello [client name], from [user name]. ${img(73)}`,
        "Second Content Section": `Second </p>${img(74)}`,
        "Third Content Section": `Third <script>alert(75)</script> ${img(76)}`,
      };
      for (const [label, text] of Object.entries(values)) await page.getByLabel(label, { exact: true }).fill(text);
      const preview = page.locator(".admin-preview");
      assert.deepEqual(await preview.locator(".admin-preview__headers dd").allTextContents(), [
        values["From Name"],
        `About Jane Smith ${img(72)}`,
      ]);
      await see(preview, `Hello Jane Smith, from Alex Morgan. ${img(73)}`);
      await see(preview, values["Second Content Section"]);
      await see(preview, values["Third Content Section"]);
      await checkA11y(page);
      await guard.check("the template editor");

      await page.getByRole("button", { name: "Save Email Template" }).click();
      await seeToast(page, "Success", "Email template updated successfully");
      await page.reload();
      await heading(page, "Admin Dashboard").waitFor();
      await page.getByRole("tab", { name: "Email Template", exact: true }).click();
      await page.waitForFunction((want) => document.querySelector('input[name="fromName"]')?.value === want, values["From Name"]);
      for (const [label, text] of Object.entries(values)) assert.equal(await value(page, label), text, label);
      await see(preview, values["Third Content Section"]);
      await guard.check("the template editor after a reload");
    }));
});
