// The follow-up tracker (Insights) in the screen review: the seeded steps, a date being
// set, a tick with its Undo, loading, and an account with nothing yet.

import { heldRoute, toastShown } from "./screens-moves.mjs";

/** `at(page, path)` opens a path on the main server. */
export function insightsStates(at) {
  return [
    {
      name: "insights",
      title: "Insights: next steps, waiting, figures",
      as: "main",
      open: async (page) => {
        await at(page, "/insights");
        await page.getByRole("list", { name: "Overdue", exact: true }).waitFor();
        await page.locator(".waiting__row").first().waitFor();
        await page.getByRole("img", { name: /^Meetings per week/ }).waitFor();
      },
    },
    {
      name: "insights-date-and-done",
      title: "Insights: a date being set, Done unfolded",
      as: "main",
      open: async (page) => {
        await at(page, "/insights");
        const step = page.locator(".step").filter({ hasText: "Check the patient consent wording" });
        await step.getByRole("button", { name: "Add date" }).click();
        await step.getByLabel("Due date", { exact: true }).waitFor();
        await page.locator("details.steps-done > summary").click();
        await page.getByRole("checkbox", { name: "Book the follow-up call" }).waitFor();
      },
    },
    {
      name: "insights-ticked-held",
      title: "Insights: a step ticked, with Undo (held)",
      as: "main",
      reopen: true,
      open: async (page) => {
        await heldRoute(page, "**/api/next-steps/*", "PATCH");
        await at(page, "/insights");
        await page.getByRole("checkbox", { name: "Agree the pilot's start date" }).click();
        await toastShown(page, "Marked as done");
      },
    },
    {
      name: "insights-loading-held",
      title: "Insights: loading (held)",
      as: "main",
      open: async (page) => {
        await heldRoute(page, /\/api\/(next-steps\?status=|insights\?)/);
        await at(page, "/insights");
        await page.getByRole("status", { name: "Loading your next steps" }).waitFor();
      },
    },
    {
      name: "insights-empty",
      title: "Insights: nothing yet",
      as: "empty",
      open: async (page) => {
        await at(page, "/insights");
        await page.getByText("Nothing open.", { exact: false }).waitFor();
        await page.getByRole("img", { name: /^Meetings per week/ }).waitFor();
      },
    },
  ];
}
