// The screens and states of the review, and how a page is brought to each one. A
// state is `{ name, title, as, open(page), reopen? }`: `as` says who is signed in.
// The transcript, Insights and admin states have files of their own.

import { heading } from "./harness.mjs";
import { heldRoute, toastShown } from "./screens-moves.mjs";
import { LONG } from "./screens-seed.mjs";
import { adminStates } from "./screens-states-admin.mjs";
import { insightsStates } from "./screens-states-insights.mjs";
import { transcriptStates } from "./screens-states-transcript.mjs";

const fieldErrorShown = (page) => page.locator(".field__error").first().waitFor();

/**
 * Every screen and state. `as` is who is signed in; `open` brings the page to the
 * state; `reopen` states (a toast of five seconds, a clock that runs) are opened anew
 * for each scheme. Names of states that hold a request say so: Playwright's route
 * interception freezes that moment of the network, nothing else is faked.
 */
export function reviewStates(world) {
  const at = (page, path, server = world.main) => page.goto(`${server.url}${path}`);
  const clientPage = async (page, client, server) => {
    await at(page, `/client/${client.id}`, server);
    await heading(page, client.name).waitFor();
  };
  return [
    {
      name: "start-session-check-held",
      title: "Start: session check (held)",
      as: null,
      open: async (page) => {
        // A signed-in screen waits for the answer; a sign-in screen would not.
        await heldRoute(page, "**/api/auth/session");
        await at(page, "/");
        await page.getByRole("status", { name: "Checking your session" }).waitFor();
      },
    },
    { name: "login", title: "Login", as: null, open: (page) => at(page, "/login").then(() => heading(page, "Welcome back").waitFor()) },
    {
      name: "login-errors",
      title: "Login: field errors",
      as: null,
      open: async (page) => {
        await at(page, "/login");
        await page.getByLabel("Email", { exact: true }).fill("ada@example");
        await page.getByRole("button", { name: "Sign In" }).click();
        await fieldErrorShown(page);
      },
    },
    {
      name: "login-failed",
      title: "Login: wrong password",
      as: null,
      reopen: true,
      open: async (page) => {
        await at(page, "/login");
        await page.getByLabel("Email", { exact: true }).fill(world.accounts.empty.fields.email);
        await page.getByLabel("Password", { exact: true }).fill("not the password");
        await page.getByRole("button", { name: "Sign In" }).click();
        await toastShown(page, "Login failed");
      },
    },
    { name: "signup", title: "Signup", as: null, open: (page) => at(page, "/signup").then(() => heading(page, "Create Account").waitFor()) },
    {
      name: "signup-errors",
      title: "Signup: field errors",
      as: null,
      open: async (page) => {
        await at(page, "/signup");
        await page.getByRole("button", { name: "Create Account" }).click();
        await fieldErrorShown(page);
      },
    },
    {
      name: "reset-request",
      title: "Reset password",
      as: null,
      open: (page) => at(page, "/reset-password").then(() => heading(page, "Reset Password").waitFor()),
    },
    {
      name: "reset-check-email",
      title: "Reset: check your email",
      as: null,
      open: async (page) => {
        await at(page, "/reset-password");
        await page.getByLabel("Email", { exact: true }).fill("nobody@example.com");
        await page.getByRole("button", { name: "Send Reset Link" }).click();
        await heading(page, "Check Your Email").waitFor();
      },
    },
    {
      name: "reset-new-password",
      title: "Reset: new password (link)",
      as: null,
      open: (page) => at(page, `/reset-password?token=${world.resetToken}`).then(() => heading(page, "Set a New Password").waitFor()),
    },
    {
      name: "admin-login",
      title: "Admin login",
      as: null,
      open: (page) => at(page, "/admin/login").then(() => heading(page, "Admin Login").waitFor()),
    },
    {
      name: "new-client",
      title: "New Client",
      as: "main",
      open: async (page) => {
        await at(page, "/");
        await page.getByRole("button", { name: "Start Recording" }).waitFor();
      },
    },
    {
      name: "new-client-errors",
      title: "New Client: field errors",
      as: "main",
      open: async (page) => {
        await at(page, "/");
        await page.getByRole("button", { name: "Save Client" }).click();
        await fieldErrorShown(page);
      },
    },
    {
      name: "new-client-card-scan-held",
      title: "Scan Business Card: reading (held)",
      as: "main",
      open: async (page) => {
        await heldRoute(page, "**/api/business-card/scan", "POST");
        await at(page, "/");
        await page.getByRole("button", { name: "Scan Business Card" }).click();
        const dialog = page.getByRole("dialog", { name: "Scan Business Card" });
        await dialog.getByLabel("Choose a photo of the card").setInputFiles({ name: "card.png", mimeType: "image/png", buffer: world.cardPng });
        await dialog.getByRole("status").filter({ hasText: "Reading the card…" }).waitFor();
      },
    },
    {
      name: "new-client-saving-held",
      title: "New Client: saving (held)",
      as: "main",
      open: async (page) => {
        await heldRoute(page, "**/api/clients", "POST");
        await at(page, "/");
        await page.getByLabel("Full Name", { exact: true }).fill("Jordan Ellis");
        await page.getByLabel("Email Address", { exact: true }).fill("jordan.ellis@northwind.example");
        await page.getByLabel("Phone Number", { exact: true }).fill("+1 555 010 4477");
        await page.getByLabel("Choose a photo of the client").setInputFiles({ name: "jordan.png", mimeType: "image/png", buffer: world.photoPng });
        await page.getByRole("button", { name: "Remove Photo" }).waitFor();
        await page.getByRole("button", { name: "Save Client" }).click();
        await page.getByRole("dialog", { name: "Processing Information" }).waitFor();
      },
    },
    {
      name: "new-client-recording",
      title: "New Client: recording",
      as: "main",
      reopen: true,
      open: async (page) => {
        await at(page, "/");
        await page.getByRole("button", { name: "Start Recording" }).click();
        await page.getByRole("timer").filter({ hasText: "00:01" }).waitFor();
      },
    },
    {
      name: "new-client-recovery",
      title: "New Client: unfinished recording",
      as: "main",
      open: async (page) => {
        await at(page, "/");
        await page.getByRole("region", { name: "Unfinished recording found" }).waitFor();
      },
    },
    {
      name: "new-client-recorded",
      title: "New Client: recording complete",
      as: "main",
      open: async (page) => {
        await at(page, "/");
        const offer = page.getByRole("region", { name: "Unfinished recording found" });
        await page.getByRole("button", { name: "Start Recording" }).waitFor();
        while (await offer.isVisible()) {
          await offer.getByRole("button", { name: "Discard" }).click();
          await page.getByRole("dialog", { name: "Discard this recording?" }).getByRole("button", { name: "Discard Recording" }).click();
          await page.getByRole("dialog", { name: "Discard this recording?" }).waitFor({ state: "hidden" });
        }
        await page.getByRole("button", { name: "Start Recording" }).click();
        await page.getByRole("timer").filter({ hasText: "00:02" }).waitFor();
        await page.getByRole("button", { name: "STOP RECORDING" }).click();
        await page.getByText("Recording Complete").waitFor();
      },
    },
    {
      name: "history",
      title: "History: long names",
      as: "main",
      open: async (page) => {
        await at(page, "/history");
        await page.locator(".client-row").filter({ hasText: LONG.name }).waitFor();
      },
    },
    {
      name: "history-loading-held",
      title: "History: loading (held)",
      as: "main",
      open: async (page) => {
        await heldRoute(page, "**/api/clients");
        await at(page, "/history");
        await page.getByRole("status", { name: "Loading clients" }).waitFor();
      },
    },
    {
      name: "history-error-refused",
      title: "History: load failed (refused)",
      as: "main",
      open: async (page) => {
        await page.route("**/api/clients", (route) => route.abort("connectionrefused"));
        await at(page, "/history");
        await page.getByRole("button", { name: "Try again" }).waitFor();
      },
    },
    { name: "history-empty", title: "History: empty", as: "empty", open: (page) => at(page, "/history").then(() => page.getByText("No clients found").waitFor()) },
    {
      name: "history-1000-clients",
      title: "History: 1,000 clients",
      as: "bulk",
      open: async (page) => {
        await at(page, "/history");
        await page.locator(".client-row").nth(999).waitFor({ state: "attached" });
      },
    },
    { name: "client-photo", title: "Client: photo, no recording", as: "main", open: (page) => clientPage(page, world.clients.photo) },
    { name: "client-long-names", title: "Client: long names", as: "main", open: (page) => clientPage(page, world.clients.long) },
    ...transcriptStates(world, clientPage),
    {
      name: "client-processing-replayed",
      title: "Client: processing (replayed)",
      as: "main",
      open: async (page) => {
        // The server's own answer, captured while this job was transcribing, served
        // again with the event stream held: the moment of a running job, kept still.
        const { id } = world.clients.meeting;
        await page.route(`**/api/clients/${id}`, (route) =>
          route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify(world.processingMoment) }),
        );
        await heldRoute(page, `**/api/clients/${id}/events`);
        await clientPage(page, world.clients.meeting);
        await page.getByRole("progressbar", { name: "Processing progress" }).waitFor();
      },
    },
    {
      name: "client-two-hours",
      title: "Client: a 2-hour recording",
      as: "main",
      open: async (page) => {
        await clientPage(page, world.clients.twoHours);
        await page.getByText("Length 120:00").waitFor();
      },
    },
    {
      name: "client-failed-job",
      title: "Client: processing failed",
      as: "failed",
      open: async (page) => {
        await clientPage(page, world.clients.failed, world.second);
        await page.getByRole("heading", { name: "Processing failed" }).waitFor();
      },
    },
    {
      name: "client-loading-held",
      title: "Client: loading (held)",
      as: "main",
      open: async (page) => {
        await heldRoute(page, `**/api/clients/${world.clients.photo.id}`);
        await at(page, `/client/${world.clients.photo.id}`);
        await page.getByRole("status", { name: "Loading client" }).waitFor();
      },
    },
    {
      name: "client-not-found",
      title: "Client not found",
      as: "main",
      open: (page) => at(page, "/client/999999").then(() => heading(page, "Client not found").waitFor()),
    },
    {
      name: "email-preview",
      title: "Email Client: preview",
      as: "main",
      open: async (page) => {
        await clientPage(page, world.clients.meeting);
        await page.getByRole("button", { name: "Email Client" }).click();
        const dialog = page.getByRole("dialog", { name: "Email Preview" });
        await dialog.locator(".email-meta").waitFor();
        await dialog.frameLocator("iframe").locator("body *").first().waitFor();
      },
    },
    {
      name: "email-sending-held",
      title: "Email Client: sending (held)",
      as: "main",
      open: async (page) => {
        await heldRoute(page, "**/send-email", "POST");
        await clientPage(page, world.clients.meeting);
        await page.getByRole("button", { name: "Email Client" }).click();
        const dialog = page.getByRole("dialog", { name: "Email Preview" });
        await dialog.locator(".email-meta").waitFor();
        await dialog.getByRole("button", { name: "Send", exact: true }).click();
        await dialog.getByRole("button", { name: "Sending..." }).waitFor();
      },
    },
    {
      name: "email-sent-to-outbox",
      title: "Email Client: saved to outbox",
      as: "main",
      reopen: true,
      open: async (page) => {
        await clientPage(page, world.clients.meeting);
        await page.getByRole("button", { name: "Email Client" }).click();
        const dialog = page.getByRole("dialog", { name: "Email Preview" });
        await dialog.locator(".email-meta").waitFor();
        await dialog.getByRole("button", { name: "Send", exact: true }).click();
        await page.getByRole("region", { name: "Notification" }).getByText(/Saved to outbox/).waitFor();
        await dialog.waitFor({ state: "hidden" });
      },
    },
    {
      name: "profile",
      title: "Profile",
      as: "main",
      open: async (page) => {
        await at(page, "/profile");
        await page.getByRole("img", { name: "Your profile picture" }).waitFor();
      },
    },
    {
      name: "profile-calendar-feed",
      title: "Profile: a new calendar feed link",
      as: "main",
      open: async (page) => {
        await at(page, "/profile");
        // The three sizes make theirs at once: a link made by another first is replaced.
        const create = page.getByRole("button", { name: "Create a feed link" });
        const remake = page.getByRole("button", { name: "Make a new link" });
        await create.or(remake).waitFor();
        if (await create.isVisible()) await create.click();
        else {
          await remake.click();
          await page.getByRole("dialog", { name: "Make a new link?" }).getByRole("button", { name: "Make a new link" }).click();
        }
        await page.getByLabel("Your feed link", { exact: true }).waitFor();
      },
    },
    ...insightsStates(at),
    {
      name: "not-found",
      title: "404",
      as: "main",
      open: (page) => at(page, "/no-such-page").then(() => heading(page, "404 Page Not Found").waitFor()),
    },
    ...adminStates(world, at),
  ];
}
