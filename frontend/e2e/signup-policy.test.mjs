// Sign-up under the admin's control, in the browser against the real server: the admin
// makes sign-up invitation-only and creates a link on the dashboard; the sign-up screen
// says plainly that a link is needed, takes the link once, and refuses it the second time.
// This file has a server of its own, since it changes who may sign up.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  checkA11y,
  createAdmin,
  fillSignup,
  heading,
  newUserFields,
  notification,
  onPath,
  seeToast,
  useApp,
} from "./harness.mjs";

const app = useApp();
const PASSWORD = "correct horse battery staple";

describe("sign-up by invitation", () => {
  test("the admin closes sign-up to invitations, and a link creates exactly one account", (t) =>
    app.run(t, async (page) => {
      await createAdmin(app.server.dataDir, "gatekeeper", PASSWORD);
      await page.goto("/admin/login");
      await heading(page, "Admin Login").waitFor();
      await page.getByLabel("Username", { exact: true }).fill("gatekeeper");
      await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await page.getByRole("button", { name: "Sign In" }).click();
      await onPath(page, "/admin/dashboard");

      await page.getByRole("tab", { name: "Sign-up", exact: true }).click();
      const panel = page.getByRole("tabpanel");
      await panel.getByRole("radio", { name: /By invitation/ }).check();
      await panel.getByRole("button", { name: "Save Sign-up" }).click();
      await seeToast(page, "Sign-up saved");
      await checkA11y(page);

      const guest = newUserFields({ firstName: "Grace", lastName: "Hopper" });
      await panel.getByLabel("Their e-mail (optional)", { exact: true }).fill(guest.email);
      await panel.getByRole("button", { name: "Create Invitation Link" }).click();
      const linkField = panel.getByLabel("Invitation link", { exact: true });
      await linkField.waitFor();
      const link = await linkField.inputValue();
      assert.match(link, /\/signup\?invitation=[A-Za-z0-9_-]{43}$/);
      await page.getByRole("button", { name: "Logout" }).click();
      await onPath(page, "/admin/login");

      // Without the link the screen says so, and shows no form to fill in.
      await page.goto("/signup");
      await heading(page, "Create Account").waitFor();
      await page
        .getByText("Sign-up on this server is by invitation. Ask your administrator for an invitation link.", {
          exact: true,
        })
        .waitFor();
      assert.equal(await page.getByRole("button", { name: "Create Account" }).count(), 0);
      await checkA11y(page);

      // With it, the invited person signs up once.
      await page.goto(new URL(link).pathname + new URL(link).search);
      await heading(page, "Create Account").waitFor();
      await fillSignup(page, guest);
      await page.getByRole("button", { name: "Create Account" }).click();
      await seeToast(page, "Account created successfully");
      await onPath(page, "/login");

      // The same link again: refused with the server's words, no second account.
      await page.goto(new URL(link).pathname + new URL(link).search);
      await heading(page, "Create Account").waitFor();
      await fillSignup(page, { ...guest, email: `second.${guest.email}` });
      await page.getByRole("button", { name: "Create Account" }).click();
      await seeToast(
        page,
        "Signup failed",
        "This invitation link is invalid, used, for another address or has expired. Ask your administrator for a new one.",
      );
      assert.equal(new URL(page.url()).pathname, "/signup");
      assert.equal(await notification(page).getByText("Account created successfully").count(), 0);
    }));
});
