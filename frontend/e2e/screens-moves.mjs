// What the screen review does to a page between states: holds a request so a loading
// moment stays still, waits for a toast, signs someone in.

import assert from "node:assert/strict";
import { heading } from "./harness.mjs";

const hold = () => {}; // a route handler that never answers: the moment stays frozen
export const heldRoute = (page, pattern, method = "GET") =>
  page.route(pattern, (route) => (route.request().method() === method ? hold(route) : route.fallback()));

export const toastShown = (page, title) =>
  page.getByRole("region", { name: "Notification" }).getByText(title, { exact: true }).waitFor();

/**
 * Makes sure `page` is signed in as `who` (an account of `world.accounts`, "admin", or
 * null for signed out), remembering it on the page.
 */
export async function signInAs(page, who, world) {
  if (page.who === who) return;
  if (who === null || page.who === "admin") await page.context().clearCookies();
  if (who && who !== "admin") {
    const { server, fields } = world.accounts[who];
    const res = await page.context().request.post(`${server.url}/api/auth/login`, {
      data: { email: fields.email, password: fields.password },
    });
    assert.equal(res.status(), 200, `signing in as ${who}: ${await res.text()}`);
  }
  if (who === "admin") {
    await page.goto(`${world.main.url}/admin/login`);
    await page.getByLabel("Username", { exact: true }).fill(world.admin.username);
    await page.getByLabel("Password", { exact: true }).fill(world.admin.password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await heading(page, "Admin Dashboard").waitFor();
  }
  page.who = who;
}
