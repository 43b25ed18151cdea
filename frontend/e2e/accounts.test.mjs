// The account screens against the real server: sign up, sign in, the profile with
// its picture, a forgotten password by the emailed link, signing out.

import assert from "node:assert/strict";
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, test } from "node:test";
import { apiFromPage, checkA11y, fillSignup, newUserFields, signUpAndLogIn, useApp } from "./harness.mjs";
import { makePng } from "./media.mjs";

const app = useApp();

const heading = (page, name) => page.getByRole("heading", { level: 1, name });
const notification = (page) => page.getByRole("region", { name: "Notification" });

async function seeToast(page, title, description) {
  const region = notification(page);
  await region.getByText(title, { exact: true }).waitFor();
  if (description) await region.getByText(description, { exact: true }).waitFor();
}

async function onPath(page, pathname) {
  await page.waitForURL((url) => url.pathname === pathname);
}

/** The message shown under a field, through the field's accessible description. */
async function fieldError(page, label) {
  const input = page.getByLabel(label, { exact: true });
  await input.waitFor();
  return input.evaluate((el) => {
    const ids = (el.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean);
    const error = ids.map((id) => document.getElementById(id)).find((n) => n?.classList.contains("field__error"));
    return { invalid: el.getAttribute("aria-invalid") === "true", message: error?.textContent ?? null };
  });
}


async function logIn(page, email, password) {
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
}

/** Count the calls the page makes to `path`. */
function countRequests(page, path) {
  const seen = [];
  page.on("request", (req) => {
    if (new URL(req.url()).pathname === path) seen.push(req.method());
  });
  return seen;
}

// --- the outbox ---------------------------------------------------------------------

function decodeQuotedPrintable(text) {
  return text.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
}

/** The text of an .eml message with its transfer encodings undone. */
function readableMail(raw) {
  const parts = [decodeQuotedPrintable(raw)];
  // A base64 body: decode every long base64 run as well.
  for (const [run] of raw.matchAll(/(?:^[A-Za-z0-9+/=]{20,}\r?\n)+/gm)) {
    parts.push(Buffer.from(run.replace(/\s+/g, ""), "base64").toString("utf8"));
  }
  return parts.join("\n");
}

/** Wait for an email to `to` in `<dataDir>/outbox/` and return the newest one's text. */
async function newestMailTo(dataDir, to, { after = 0, timeoutMs = 10_000 } = {}) {
  const dir = join(dataDir, "outbox");
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let names = [];
    try {
      names = (await readdir(dir)).filter((n) => n.endsWith(".eml"));
    } catch {
      // not created yet
    }
    const found = [];
    for (const name of names) {
      const path = join(dir, name);
      const { mtimeMs } = await stat(path);
      if (mtimeMs < after) continue;
      const text = readableMail(await readFile(path, "utf8"));
      if (text.toLowerCase().includes(to.toLowerCase())) found.push({ mtimeMs, text });
    }
    if (found.length > 0) return found.sort((a, b) => b.mtimeMs - a.mtimeMs)[0].text;
    if (Date.now() > deadline) throw new Error(`no email to ${to} in ${dir} (files: ${names.join(", ") || "none"})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// --- the tests ----------------------------------------------------------------------

describe("accounts", () => {
  test("sign up, sign in, edit the profile, log out", (t) =>
    app.run(t, async (page) => {
      const fields = newUserFields({ linkedinUrl: "https://www.linkedin.com/in/ada" });
      await page.goto("/signup");
      await heading(page, "Create Account").waitFor();
      await checkA11y(page);
      await fillSignup(page, fields);
      await page.getByRole("button", { name: "Create Account" }).click();
      await seeToast(page, "Account created successfully");
      await onPath(page, "/login");
      await heading(page, "Welcome back").waitFor();
      await checkA11y(page);

      await logIn(page, fields.email, fields.password);
      await onPath(page, "/");
      await heading(page, "New Client").waitFor();
      // Raised before the full reload, shown by the page it brings.
      await seeToast(page, "Login successful");
      const nav = page.getByRole("navigation", { name: "Main" });
      await nav.waitFor();
      await checkA11y(page);

      await nav.getByRole("link", { name: "Profile" }).click();
      await onPath(page, "/profile");
      await heading(page, "Profile").waitFor();
      assert.equal(await page.getByLabel("First Name", { exact: true }).inputValue(), fields.firstName);
      assert.equal(await page.getByLabel("Email", { exact: true }).inputValue(), fields.email);
      assert.equal(await page.getByLabel("LinkedIn URL", { exact: true }).inputValue(), fields.linkedinUrl);
      await checkA11y(page);

      await page.getByLabel("Company", { exact: true }).fill("Difference Engines");
      await page.getByLabel("Position", { exact: true }).fill("Chief Analyst");
      await page.getByLabel("LinkedIn URL", { exact: true }).fill("");
      await page.getByRole("button", { name: "Save Changes" }).click();
      await seeToast(page, "Profile updated");
      const me = await apiFromPage(page, "GET", "/api/auth/me");
      assert.equal(me.body.company, "Difference Engines");
      assert.equal(me.body.position, "Chief Analyst");
      assert.equal(me.body.linkedinUrl, null);
      await page.getByText(`${fields.firstName} ${fields.lastName}`).waitFor();
      await checkA11y(page);

      await page.reload();
      await heading(page, "Profile").waitFor();
      assert.equal(await page.getByLabel("Company", { exact: true }).inputValue(), "Difference Engines");

      await page.getByRole("button", { name: "Log Out" }).click();
      await onPath(page, "/login");
      await seeToast(page, "Logged out");
      assert.equal(await page.getByRole("navigation", { name: "Main" }).count(), 0);
      assert.equal((await apiFromPage(page, "GET", "/api/auth/me")).status, 401);
      await checkA11y(page);
    }));

  test("signup with empty fields shows the messages under the fields and sends nothing", (t) =>
    app.run(t, async (page) => {
      const calls = countRequests(page, "/api/auth/signup");
      await page.goto("/signup");
      await heading(page, "Create Account").waitFor();
      await page.getByRole("button", { name: "Create Account" }).click();
      const expected = {
        "First Name": "First name is required",
        "Last Name": "Last name is required",
        Email: "Email is required",
        Password: "Password must be at least 8 characters",
        "Confirm Password": "Please confirm your password",
        Company: "Company is required",
        Position: "Position is required",
      };
      for (const [label, message] of Object.entries(expected)) {
        assert.deepEqual(await fieldError(page, label), { invalid: true, message }, label);
      }
      assert.deepEqual(await fieldError(page, "LinkedIn URL (optional)"), { invalid: false, message: null });
      const focused = await page.evaluate(() => document.activeElement?.getAttribute("name"));
      assert.equal(focused, "firstName", "focus goes to the first field with a message");
      await checkA11y(page);

      // The messages follow the values from now on.
      await page.getByLabel("Email", { exact: true }).fill("ada@example");
      assert.equal((await fieldError(page, "Email")).message, "Invalid email address");
      await page.getByLabel("Password", { exact: true }).fill("long enough");
      await page.getByLabel("Confirm Password", { exact: true }).fill("long enougH");
      assert.equal((await fieldError(page, "Password")).message, null);
      assert.equal((await fieldError(page, "Confirm Password")).message, "Passwords do not match");
      await page.getByLabel("LinkedIn URL (optional)", { exact: true }).fill("linkedin.com/in/ada");
      assert.equal((await fieldError(page, "LinkedIn URL (optional)")).message, "Invalid LinkedIn URL");
      await page.getByRole("button", { name: "Create Account" }).click();
      assert.deepEqual(calls, [], "no request was sent");
    }));

  test("an email that already has an account: 'Signup failed' with the server's message", (t) =>
    app.run(t, async (page) => {
      await page.goto("/signup");
      await heading(page, "Create Account").waitFor();
      const fields = newUserFields();
      assert.equal((await apiFromPage(page, "POST", "/api/auth/signup", fields)).status, 201);
      await fillSignup(page, { ...fields, email: fields.email.toUpperCase() });
      await page.getByRole("button", { name: "Create Account" }).click();
      await seeToast(page, "Signup failed", "An account with this email already exists");
      assert.equal((await fieldError(page, "Email")).message, "An account with this email already exists");
      assert.equal(new URL(page.url()).pathname, "/signup");
      await checkA11y(page);
    }));

  test("login with a wrong password says 'Login failed: Invalid email or password'", (t) =>
    app.run(t, async (page) => {
      await page.goto("/login");
      await heading(page, "Welcome back").waitFor();
      const fields = newUserFields();
      assert.equal((await apiFromPage(page, "POST", "/api/auth/signup", fields)).status, 201);
      await logIn(page, fields.email, "not the password");
      await seeToast(page, "Login failed", "Invalid email or password");
      assert.equal(new URL(page.url()).pathname, "/login");
      assert.equal((await apiFromPage(page, "GET", "/api/auth/me")).status, 401);
      await checkA11y(page);
    }));

  test("login checks the form before asking the server", (t) =>
    app.run(t, async (page) => {
      const calls = countRequests(page, "/api/auth/login");
      await page.goto("/login");
      await heading(page, "Welcome back").waitFor();
      await page.getByRole("button", { name: "Sign In" }).click();
      assert.equal((await fieldError(page, "Email")).message, "Invalid email address");
      assert.equal((await fieldError(page, "Password")).message, "Password is required");
      assert.deepEqual(calls, []);
      await checkA11y(page);
    }));

  test("a forgotten password is reset through the emailed link", (t) =>
    app.run(t, async (page) => {
      const started = Date.now() - 1000;
      await page.goto("/reset-password");
      await heading(page, "Reset Password").waitFor();
      const fields = newUserFields();
      assert.equal((await apiFromPage(page, "POST", "/api/auth/signup", fields)).status, 201);

      await page.getByRole("button", { name: "Send Reset Link" }).click();
      assert.equal((await fieldError(page, "Email")).message, "Please enter a valid email address");
      await page.getByLabel("Email", { exact: true }).fill(fields.email);
      await page.getByRole("button", { name: "Send Reset Link" }).click();
      await heading(page, "Check Your Email").waitFor();
      await seeToast(page, "Password reset requested", "If an account with this email exists, you'll receive reset instructions.");
      await page.getByText(/spam folder/).waitFor();
      await checkA11y(page);

      const mail = await newestMailTo(app.server.dataDir, fields.email, { after: started });
      const link = /https?:\/\/\S+?\/reset-password\?token=[A-Za-z0-9_%-]+/.exec(mail);
      assert.ok(link, `a reset link in:\n${mail}`);
      const target = new URL(link[0]);
      const path = `${target.pathname}${target.search}`;

      await page.getByRole("button", { name: "Back to Login" }).click();
      await onPath(page, "/login");

      // The link opens even when someone is signed in in this browser.
      const login = await apiFromPage(page, "POST", "/api/auth/login", { email: fields.email, password: fields.password });
      assert.equal(login.status, 200);
      await page.goto(path);
      await heading(page, "Set a New Password").waitFor();
      await checkA11y(page);
      await page.getByRole("button", { name: "Reset Password" }).click();
      assert.equal((await fieldError(page, "New Password")).message, "Password must be at least 8 characters");
      await page.getByLabel("New Password", { exact: true }).fill("a brand new secret");
      await page.getByLabel("Confirm Password", { exact: true }).fill("a brand new secret");
      await page.getByRole("button", { name: "Reset Password" }).click();
      await onPath(page, "/login");
      await seeToast(page, "Password reset", "Your password has been reset. Please sign in.");
      assert.equal((await apiFromPage(page, "GET", "/api/auth/me")).status, 401, "signed out everywhere");
      await checkA11y(page);

      // The old password no longer works; the new one does.
      await logIn(page, fields.email, fields.password);
      await seeToast(page, "Login failed", "Invalid email or password");
      await logIn(page, fields.email, "a brand new secret");
      await onPath(page, "/");
      await heading(page, "New Client").waitFor();

      // A used link says so and offers a new one.
      await page.goto(path);
      await heading(page, "Set a New Password").waitFor();
      await page.getByLabel("New Password", { exact: true }).fill("yet another secret");
      await page.getByLabel("Confirm Password", { exact: true }).fill("yet another secret");
      await page.getByRole("button", { name: "Reset Password" }).click();
      await page
        .getByRole("alert")
        .getByText("This reset link is invalid or has expired. Please request a new one.")
        .waitFor();
      await page.getByRole("link", { name: "Request a new reset link" }).waitFor();
      await checkA11y(page);
    }));

  test("an uploaded picture becomes the avatar", (t) =>
    app.run(t, async (page) => {
      await page.goto("/login");
      await heading(page, "Welcome back").waitFor();
      const { fields, login } = await signUpAndLogIn(page);
      assert.equal(login.status, 200);
      await page.goto("/profile");
      await heading(page, "Profile").waitFor();
      const initials = `${fields.firstName[0]}${fields.lastName[0]}`;
      await page.locator(".profile-card .avatar").getByText(initials).waitFor();

      await page.locator('input[type="file"]').setInputFiles({
        name: "portrait.png",
        mimeType: "image/png",
        buffer: makePng(1200, 900),
      });
      await seeToast(page, "Profile picture updated");
      const avatar = page.getByRole("img", { name: "Your profile picture" });
      await page.waitForFunction(() => {
        const img = document.querySelector("img.avatar");
        return img && img.getAttribute("src")?.startsWith("/api/profile/picture") && img.complete && img.naturalWidth > 0;
      });
      const size = await avatar.evaluate((img) => ({ w: img.naturalWidth, h: img.naturalHeight }));
      assert.deepEqual(size, { w: 800, h: 600 }, "scaled down to 800 px wide");
      const me = await apiFromPage(page, "GET", "/api/auth/me");
      assert.match(me.body.profileImageUrl, /^\/api\/profile\/picture\?v=/);
      const type = await page.evaluate(async (url) => (await fetch(url)).headers.get("content-type"), me.body.profileImageUrl);
      assert.equal(type, "image/jpeg", "re-encoded as JPEG");
      await checkA11y(page);

      // A HEIC photo this browser cannot read: the alert and the iPhone hint.
      await page.locator('input[type="file"]').setInputFiles({
        name: "IMG_0001.HEIC",
        mimeType: "image/heic",
        buffer: Buffer.concat([Buffer.from("\0\0\0\x18ftypheic\0\0\0\0mif1heic", "binary"), Buffer.alloc(64)]),
      });
      await notification(page).getByText(/This photo format isn't supported.*Most Compatible/).waitFor();

      await page.getByRole("button", { name: "Remove Picture" }).click();
      await seeToast(page, "Profile picture removed");
      await page.locator(".profile-card .avatar").getByText(initials).waitFor();
    }));

  test("profile: messages under the fields, a taken email, a password change", (t) =>
    app.run(t, async (page) => {
      await page.goto("/login");
      await heading(page, "Welcome back").waitFor();
      const other = newUserFields();
      assert.equal((await apiFromPage(page, "POST", "/api/auth/signup", other)).status, 201);
      const { fields } = await signUpAndLogIn(page);
      const calls = countRequests(page, "/api/profile");
      await page.goto("/profile");
      await heading(page, "Profile").waitFor();

      await page.getByLabel("First Name", { exact: true }).fill("A");
      await page.getByLabel("LinkedIn URL", { exact: true }).fill("www.linkedin.com/in/ada");
      await page.getByRole("button", { name: "Save Changes" }).click();
      assert.equal((await fieldError(page, "First Name")).message, "First name must be at least 2 characters");
      assert.equal((await fieldError(page, "LinkedIn URL")).message, "Please enter a valid LinkedIn URL");
      assert.deepEqual(calls, [], "nothing sent");
      await checkA11y(page);

      await page.getByLabel("First Name", { exact: true }).fill("Augusta");
      await page.getByLabel("LinkedIn URL", { exact: true }).fill("");
      await page.getByLabel("Email", { exact: true }).fill(other.email);
      await page.getByRole("button", { name: "Save Changes" }).click();
      await seeToast(page, "Update failed");
      assert.match((await fieldError(page, "Email")).message ?? "", /already/);
      assert.deepEqual(calls, ["PUT"]);

      await page.getByLabel("Current Password", { exact: true }).fill("wrong password");
      await page.getByLabel("New Password", { exact: true }).fill("another good one");
      await page.getByLabel("Confirm Password", { exact: true }).fill("another good one");
      await page.getByRole("button", { name: "Change Password" }).click();
      await notification(page).getByText("Current password is incorrect").waitFor();
      assert.equal((await fieldError(page, "Current Password")).message, "Current password is incorrect");
      await page.getByLabel("Current Password", { exact: true }).fill(fields.password);
      await page.getByRole("button", { name: "Change Password" }).click();
      await seeToast(page, "Password changed");
      assert.equal(await page.getByLabel("New Password", { exact: true }).inputValue(), "");
      const relogin = await apiFromPage(page, "POST", "/api/auth/login", { email: fields.email, password: "another good one" });
      assert.equal(relogin.status, 200);
    }));

  test("a session that ended meanwhile: 'Authentication required' and back to /login", (t) =>
    app.run(t, async (page) => {
      await page.goto("/login");
      await heading(page, "Welcome back").waitFor();
      await signUpAndLogIn(page);
      await page.goto("/profile");
      await heading(page, "Profile").waitFor();
      // Signed out behind the page's back.
      assert.equal((await apiFromPage(page, "POST", "/api/auth/logout")).status, 200);
      await page.getByLabel("Company", { exact: true }).fill("Somewhere Else");
      await page.getByRole("button", { name: "Save Changes" }).click();
      await seeToast(page, "Authentication required", "Please log in again to update your profile.");
      await onPath(page, "/login");
    }));

  test("the account screens pass axe in the dark scheme, messages shown", (t) =>
    app.run(
      t,
      async (page) => {
        for (const [path, title, button] of [
          ["/login", "Welcome back", "Sign In"],
          ["/signup", "Create Account", "Create Account"],
          ["/reset-password", "Reset Password", "Send Reset Link"],
          ["/reset-password?token=not-a-real-token", "Set a New Password", "Reset Password"],
        ]) {
          await page.goto(path);
          await heading(page, title).waitFor();
          await page.getByRole("button", { name: button }).click();
          await page.locator(".field__error").first().waitFor();
          await checkA11y(page);
        }
        await page.getByLabel("New Password", { exact: true }).fill("long enough");
        await page.getByLabel("Confirm Password", { exact: true }).fill("long enough");
        await page.getByRole("button", { name: "Reset Password" }).click();
        await page.getByRole("link", { name: "Request a new reset link" }).waitFor();
        await checkA11y(page);

        await signUpAndLogIn(page);
        await page.goto("/profile");
        await heading(page, "Profile").waitFor();
        await page.getByLabel("First Name", { exact: true }).fill("");
        await page.getByRole("button", { name: "Save Changes" }).click();
        await page.locator(".field__error").first().waitFor();
        await checkA11y(page);
      },
      { colorScheme: "dark" },
    ));

  test("the account screens fit a 360 px wide screen", (t) =>
    app.run(
      t,
      async (page) => {
        for (const [path, title] of [
          ["/signup", "Create Account"],
          ["/reset-password", "Reset Password"],
        ]) {
          await page.goto(path);
          await heading(page, title).waitFor();
          const width = await page.evaluate(() => document.documentElement.scrollWidth);
          assert.ok(width <= 360, `${path} is ${width} px wide`);
        }
        await signUpAndLogIn(page);
        await page.goto("/profile");
        await heading(page, "Profile").waitFor();
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(width <= 360, `/profile is ${width} px wide`);
      },
      { viewport: { width: 360, height: 740 } },
    ));
});
