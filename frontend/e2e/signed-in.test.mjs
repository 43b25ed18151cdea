// The frame once signed in: the bottom bar, the redirect away from /login, logging out.
// Accounts are made through the real API.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { checkA11y, signUpAndLogIn, useApp } from "./harness.mjs";
import { heldRoute } from "./screens-moves.mjs";

const app = useApp();

async function signIn(page) {
  await page.goto("/login");
  await page.getByRole("heading", { level: 1, name: "Welcome back" }).waitFor();
  const { signup, login } = await signUpAndLogIn(page);
  assert.ok(signup.status < 300, `signup answered ${signup.status}: ${JSON.stringify(signup.body)}`);
  assert.equal(login.status, 200, `login answered ${login.status}: ${JSON.stringify(login.body)}`);
}

describe("signed in", () => {
  test("the bottom bar shows four links, marks the current one and covers nothing", (t) =>
    app.run(t, async (page) => {
      await signIn(page);
      await page.goto("/");
      await page.getByRole("heading", { level: 1, name: "New Client" }).waitFor();
      const nav = page.getByRole("navigation", { name: "Main" });
      await nav.waitFor();
      assert.equal(await nav.getByRole("link", { name: "New" }).getAttribute("aria-current"), "page");
      assert.equal(await nav.getByRole("link", { name: "History" }).getAttribute("aria-current"), null);
      assert.equal(await nav.getByRole("link").count(), 4, "four links, none of them disabled");
      await checkA11y(page);

      await nav.getByRole("link", { name: "Insights" }).click();
      await page.waitForURL((url) => url.pathname === "/insights");
      await page.getByRole("heading", { level: 1, name: "Insights" }).waitFor();
      assert.equal(await nav.getByRole("link", { name: "Insights" }).getAttribute("aria-current"), "page");
      assert.equal(await nav.getByRole("link", { name: "New" }).getAttribute("aria-current"), null);

      await nav.getByRole("link", { name: "History" }).click();
      await page.waitForURL((url) => url.pathname === "/history");
      await page.getByRole("heading", { level: 1, name: "History" }).waitFor();
      assert.equal(await nav.getByRole("link", { name: "History" }).getAttribute("aria-current"), "page");
      assert.equal(await nav.getByRole("link", { name: "New" }).getAttribute("aria-current"), null);
      await checkA11y(page);

      // Scrolled to the end, the page's last content ends above the bar.
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      const { contentBottom, navTop } = await page.evaluate(() => {
        const items = document.querySelectorAll(".app__main .page > *");
        return {
          contentBottom: items[items.length - 1].getBoundingClientRect().bottom,
          navTop: document.querySelector(".bottom-nav").getBoundingClientRect().top,
        };
      });
      assert.ok(contentBottom <= navTop, `content ends at ${contentBottom}, bar starts at ${navTop}`);
    }));

  test("/login and /signup send a signed-in visitor to /", (t) =>
    app.run(t, async (page) => {
      await signIn(page);
      for (const path of ["/login", "/signup"]) {
        await page.goto(path);
        await page.waitForURL((url) => url.pathname === "/");
        await page.getByRole("heading", { level: 1, name: "New Client" }).waitFor();
      }
    }));

  test("Log Out signs out, says so and goes to /login", (t) =>
    app.run(t, async (page) => {
      await signIn(page);
      await page.goto("/profile");
      await page.getByRole("heading", { level: 1, name: "Profile" }).waitFor();
      await checkA11y(page);
      await page.getByRole("button", { name: "Log Out" }).click();
      await page.waitForURL((url) => url.pathname === "/login");
      await page.getByRole("region", { name: "Notification" }).getByText("Logged out").waitFor();
      await checkA11y(page);
      await page.goto("/");
      await page.waitForURL((url) => url.pathname === "/login");
    }));
});

describe("before the session check answers", () => {
  test("a browser where nobody has signed in shows the sign-in form at once", (t) =>
    app.run(t, async (page) => {
      await heldRoute(page, "**/api/auth/session");
      await page.goto("/login");
      await page.getByRole("heading", { level: 1, name: "Welcome back" }).waitFor();
      assert.equal(await page.getByRole("status", { name: "Checking your session" }).count(), 0);
    }));

  test("a browser that remembers a signed-in user waits for the answer instead", (t) =>
    app.run(t, async (page) => {
      await page.goto("/login");
      await page.getByRole("heading", { level: 1, name: "Welcome back" }).waitFor();
      await page.evaluate(() =>
        localStorage.setItem("debrief.user", JSON.stringify({ id: 1, email: "kept@example.com", firstName: "Kept" })),
      );
      await heldRoute(page, "**/api/auth/session");
      await page.reload();
      await page.getByRole("status", { name: "Checking your session" }).waitFor();
      assert.equal(await page.getByRole("heading", { name: "Welcome back" }).count(), 0);
    }));
});
