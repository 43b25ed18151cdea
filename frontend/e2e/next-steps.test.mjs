// Next steps as items on the client page and in the email preview, against the real
// server: who does each and by when, and the preview's list editor (reword, who, due
// date, done, remove, add, an empty step refused) saved back to the client.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { apiFromPage, checkA11y, createClient, framed, heading, openEmailPreview, signIn, useApp } from "./harness.mjs";

const app = useApp();

describe("Structured next steps", () => {
  test("structured next steps: who and by when on the client page, edited as a list in the preview", (t) =>
    app.run(t, async (page) => {
      await signIn(page);
      const client = await createClient(page);
      const items = [
        { who: "me", action: "Send the revised proposal", dueText: "by Friday", dueDate: "2026-03-06" },
        { who: "client", action: "Confirm the stock count" },
        { who: "unattributed", action: "Check the delivery dates" },
      ];
      const data = { name: client.name, email: client.email, phone: client.phone };
      const saved = await apiFromPage(page, "PATCH", `/api/clients/${client.id}`, { ...data, actionItems: items });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));

      await page.goto(`/client/${client.id}`);
      await heading(page, client.name).waitFor();
      const steps = page.locator(".next-steps > li");
      assert.deepEqual(await steps.locator(".next-step__line").allTextContents(), [
        "I will send the revised proposal by Friday.",
        "You will confirm the stock count.",
        "Check the delivery dates.",
      ]);
      assert.deepEqual(await steps.locator(".next-step__meta").allTextContents(), ["Me · Due Fri 6 Mar", client.name]);
      await checkA11y(page);

      const dialog = await openEmailPreview(page, client);
      // The email lists the steps by who does them, each with its date spelled out.
      await framed(page).getByRole("heading", { name: "From us" }).waitFor();
      await framed(page).getByText("Send the revised proposal — by Friday 6 March", { exact: true }).waitFor();
      await framed(page).getByText("Confirm the stock count", { exact: true }).waitFor();
      assert.equal(await dialog.getByLabel("Step 1", { exact: true }).inputValue(), "Send the revised proposal");
      assert.equal(await dialog.getByLabel("Who").nth(1).inputValue(), "client");

      // An empty step is refused in the dialog, with the server's words, and nothing is sent.
      const patches = [];
      page.on("request", (req) => {
        if (req.method() === "PATCH") patches.push(req.url());
      });
      await dialog.getByRole("button", { name: "Add step" }).click();
      await dialog.getByRole("button", { name: "Save Changes" }).click();
      await dialog.getByRole("alert").getByText("Every next step needs an action").waitFor();
      assert.deepEqual(patches, []);

      // Reword the new step, give the second a date, tick the third, remove the first.
      await dialog.getByLabel("Step 4", { exact: true }).fill("Book the workshop room");
      await dialog.getByLabel("Who").nth(3).selectOption("we");
      await dialog.getByLabel("Due").nth(1).fill("2026-03-13");
      await dialog.getByRole("checkbox", { name: "Done" }).nth(2).check();
      await dialog.getByRole("button", { name: "Remove step 1" }).click();
      await checkA11y(page);
      await dialog.getByRole("button", { name: "Save Changes" }).click();
      await dialog.getByRole("status").getByText("Changes saved. The preview shows them.").waitFor();
      assert.equal(patches.length, 1);
      const lines = [
        "You will confirm the stock count by Friday 13 March.",
        "Check the delivery dates.",
        "We will book the workshop room.",
      ];
      const emailed = ["Book the workshop room", "Confirm the stock count — by Friday 13 March", "Check the delivery dates"];
      for (const line of emailed) await framed(page).getByText(line, { exact: true }).waitFor();
      assert.equal(await framed(page).getByText("Send the revised proposal — by Friday 6 March").count(), 0);
      const stored = (await apiFromPage(page, "GET", `/api/clients/${client.id}`)).body;
      assert.equal(stored.nextSteps, lines.join("\n"));
      assert.deepEqual(
        stored.actionItems.map((i) => [i.who, i.dueDate, i.done, i.source]),
        [
          ["client", "2026-03-13", false, "added"],
          ["unattributed", null, true, "added"],
          ["we", null, false, "added"],
        ],
      );

      // The page behind shows the saved list.
      await dialog.getByRole("button", { name: "Cancel" }).click();
      assert.deepEqual(await steps.locator(".next-step__line").allTextContents(), lines);
      assert.deepEqual(await steps.locator(".next-step__meta").allTextContents(), [
        `${client.name} · Due Fri 13 Mar`,
        "Not said · Done",
        "Both of us",
      ]);
    }));
});
