// The app frame in a phone-sized Chromium against the real server: routes and their
// access rules, the not-found page, the session spinner, the notification region.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { checkA11y, useApp } from "./harness.mjs";

const app = useApp();

const heading = (page, name) => page.getByRole("heading", { level: 1, name });

async function expectLogin(page) {
  await page.waitForURL((url) => url.pathname === "/login");
  await heading(page, "Welcome back").waitFor();
}

describe("app frame", () => {
  test("an unknown path shows the not-found card", (t) =>
    app.run(t, async (page) => {
      const res = await page.goto("/no/such/page");
      assert.equal(res.status(), 200);
      await heading(page, "404 Page Not Found").waitFor();
      await page.getByText("Did you forget to add the page to the router?").waitFor();
      assert.equal(new URL(page.url()).pathname, "/no/such/page", "no redirect");
      assert.equal(await page.title(), "404 Page Not Found · Debrief");
      await checkA11y(page);
    }));

  for (const path of ["/", "/history", "/client/1", "/profile"]) {
    test(`${path} sends a signed-out visitor to /login`, (t) =>
      app.run(t, async (page) => {
        await page.goto(path);
        await expectLogin(page);
        await checkA11y(page);
      }));
  }

  test("/login shows 'Welcome back' with its links", (t) =>
    app.run(t, async (page) => {
      await page.goto("/login");
      await heading(page, "Welcome back").waitFor();
      await page.getByRole("link", { name: "Create account" }).waitFor();
      await page.getByRole("link", { name: "Forgot your password?" }).waitFor();
      assert.equal(await page.getByRole("navigation", { name: "Main" }).count(), 0, "no bottom bar when signed out");
      await checkA11y(page);

      await page.getByRole("link", { name: "Create account" }).click();
      await page.waitForURL((url) => url.pathname === "/signup");
      await heading(page, "Create Account").waitFor();
      await checkA11y(page);

      await page.getByRole("link", { name: "Sign in" }).click();
      await expectLogin(page);
      await page.getByRole("link", { name: "Forgot your password?" }).click();
      await page.waitForURL((url) => url.pathname === "/reset-password");
      await heading(page, "Reset Password").waitFor();
      await checkA11y(page);
    }));

  test("F8 focuses the Notification region", (t) =>
    app.run(t, async (page) => {
      await page.goto("/login");
      await heading(page, "Welcome back").waitFor();
      const region = page.getByRole("region", { name: "Notification" });
      assert.equal(await region.count(), 1);
      await page.keyboard.press("F8");
      const focused = await page.evaluate(() => document.activeElement?.getAttribute("aria-label"));
      assert.equal(focused, "Notification");
      await checkA11y(page);
    }));

  test("a full-screen spinner shows while the session is being checked", (t) =>
    app.run(t, async (page) => {
      let release;
      const held = new Promise((resolve) => (release = resolve));
      await page.route("**/api/auth/session", async (route) => {
        await held;
        await route.continue();
      });
      await page.goto("/");
      const spinner = page.getByRole("status", { name: "Checking your session" });
      await spinner.waitFor();
      await checkA11y(page);
      release();
      await expectLogin(page);
      assert.equal(await spinner.count(), 0);
    }));

  test("the session check bypasses the HTTP cache, and nobody signed in is no console error", (t) =>
    app.run(t, async (page) => {
      const consoleErrors = [];
      page.on("console", (msg) => {
        if (msg.type() === "error") consoleErrors.push(msg.text());
      });
      const seen = page.waitForRequest("**/api/auth/session");
      await page.goto("/login");
      const req = await seen;
      assert.equal(req.method(), "GET");
      const res = await req.response();
      assert.equal(res.status(), 200);
      assert.deepEqual(await res.json(), { user: null });
      await heading(page, "Welcome back").waitFor();
      assert.deepEqual(consoleErrors, []);
      // fetch's cache: "no-store" sends no conditional headers and caches nothing.
      const headers = await req.allHeaders();
      assert.equal(headers["if-none-match"], undefined);
      assert.equal(headers["if-modified-since"], undefined);
    }));

  test("/admin/dashboard without the admin flag goes to /admin/login", (t) =>
    app.run(t, async (page) => {
      await page.goto("/admin/dashboard");
      await page.waitForURL((url) => url.pathname === "/admin/login");
      await heading(page, "Admin Login").waitFor();
      await page.getByRole("link", { name: "Return to regular login" }).waitFor();
      await checkA11y(page);
    }));

  test("/admin/dashboard opens with the flag, tabs work by keyboard, Logout clears it", (t) =>
    app.run(t, async (page) => {
      await page.addInitScript(() => {
        if (!sessionStorage.getItem("seeded")) {
          localStorage.setItem("debrief.adminSession", "true");
          sessionStorage.setItem("seeded", "1");
        }
      });
      // The dashboard confirms the flag with the server; stand in for a signed-in admin
      // (the real sign-in is e2e/admin.test.mjs's).
      const answers = {
        "/api/admin/session": { username: "frame" },
        "/api/admin/users": [],
        "/api/admin/clients": [],
        "/api/admin/email-template": {
          name: "default",
          fromName: "Debrief Support",
          emailTitle: "Meeting Summary - [client name]",
          firstContentSection: "Dear [client name],",
          secondContentSection: "Questions? Reply to this email.",
          thirdContentSection: "Ask [user name] about a free account.",
        },
        "/api/admin/signup-policy": { mode: "open", domains: [] },
        "/api/admin/insights": {
          users: 2,
          meetingsThisMonth: 3,
          meetingsLastMonth: 1,
          followUpsThisMonth: 2,
          medianHoursToFollowUp: 5.5,
          openItems: 4,
          overdueItems: 1,
          weeks: Array.from({ length: 12 }, (_, i) => ({ start: `2026-0${1 + Math.floor(i / 4)}-0${1 + (i % 4) * 2}`, meetings: i % 3 })),
        },
        // Low on space, with recordings to compress: the panel shows all it can.
        "/api/admin/storage": {
          recordingsBytes: 1_500_000_000,
          photosBytes: 12_000_000,
          databaseBytes: 3_400_000,
          freeBytes: 4_000_000_000,
          totalBytes: 64_000_000_000,
          lowOnSpace: true,
          retentionDays: 90,
          pendingCompression: 2,
        },
        "/api/admin/logout": { message: "Logged out" },
      };
      await page.route("**/api/admin/**", (route) => {
        const body = answers[new URL(route.request().url()).pathname];
        return body ? route.fulfill({ json: body }) : route.fallback();
      });
      await page.goto("/admin/dashboard");
      await heading(page, "Admin Dashboard").waitFor();
      const users = page.getByRole("tab", { name: "Users" });
      assert.equal(await users.getAttribute("aria-selected"), "true");
      await checkA11y(page);

      await users.focus();
      await page.keyboard.press("ArrowRight");
      const clients = page.getByRole("tab", { name: "Clients" });
      assert.equal(await clients.getAttribute("aria-selected"), "true");
      assert.equal(await clients.evaluate((el) => el === document.activeElement), true);
      assert.equal(await clients.getAttribute("tabindex"), "0");
      assert.equal(await users.getAttribute("tabindex"), "-1");
      await page.keyboard.press("End");
      assert.equal(await page.getByRole("tab", { name: "Storage" }).getAttribute("aria-selected"), "true");
      await page.getByText("Less than 10% of the disk is free", { exact: true }).waitFor();
      await checkA11y(page);
      await page.keyboard.press("ArrowLeft");
      assert.equal(await page.getByRole("tab", { name: "Insights" }).getAttribute("aria-selected"), "true");
      await page.getByRole("tabpanel").waitFor();
      await checkA11y(page);

      await page.getByRole("button", { name: "Logout" }).click();
      await page.waitForURL((url) => url.pathname === "/admin/login");
      assert.equal(await page.evaluate(() => localStorage.getItem("debrief.adminSession")), null);
      await page.goto("/admin/dashboard");
      await page.waitForURL((url) => url.pathname === "/admin/login");
    }));

  test("the page fits a 360 px wide screen without sideways scrolling", (t) =>
    app.run(
      t,
      async (page) => {
        for (const path of ["/login", "/nowhere"]) {
          await page.goto(path);
          await page.getByRole("heading", { level: 1 }).waitFor();
          const width = await page.evaluate(() => document.documentElement.scrollWidth);
          assert.ok(width <= 360, `${path} is ${width} px wide`);
        }
      },
      { viewport: { width: 360, height: 740 } },
    ));

  test("the dark scheme passes the same checks", (t) =>
    app.run(
      t,
      async (page) => {
        await page.goto("/login");
        await heading(page, "Welcome back").waitFor();
        const bg = await page.evaluate(() => getComputedStyle(document.querySelector(".app")).backgroundColor);
        assert.notEqual(bg, "rgb(245, 246, 248)", "dark colours apply");
        await checkA11y(page);
        await page.goto("/nowhere");
        await heading(page, "404 Page Not Found").waitFor();
        await checkA11y(page);
      },
      { colorScheme: "dark" },
    ));

  test("index.html has no inline script or style, and its assets load", (t) =>
    app.run(t, async (page) => {
      const res = await page.request.get("/some/deep/link");
      assert.equal(res.status(), 200);
      const html = await res.text();
      assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/i, "inline script");
      assert.doesNotMatch(html, /<style/i, "style element");
      assert.doesNotMatch(html, /\sstyle=/i, "style attribute");
      const urls = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
      assert.ok(urls.some((u) => /^\/assets\/main-[A-Z0-9]+\.js$/.test(u)), "hashed entry script");
      assert.ok(urls.some((u) => u.endsWith(".css")), "stylesheet");
      for (const u of urls) assert.equal((await page.request.get(u)).status(), 200, u);
    }));
});
