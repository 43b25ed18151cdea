// The client page's transcript in the screen review: read, a paragraph being heard,
// searched, being corrected. All on the spoken meeting of screens-seed.mjs.

/** `clientPage(page, client)` opens a client's page and waits for its name. */
export function transcriptStates(world, clientPage) {
  return [
    {
      name: "client-transcript",
      title: "Client: recording, summary, transcript",
      as: "main",
      open: async (page) => {
        await clientPage(page, world.clients.meeting);
        await page.getByText(/^Read the transcript/).click();
        await page.locator(".transcript__text").waitFor();
      },
    },
    {
      name: "client-transcript-heard",
      title: "Client: transcript, a paragraph being heard",
      as: "main",
      open: async (page) => {
        await clientPage(page, world.clients.meeting);
        await page.getByText(/^Read the transcript/).click();
        const paragraph = page.locator(".transcript__para").last();
        await paragraph.click();
        // Stopped where the tap put it, so every size and scheme shows the same moment.
        await page.locator("audio.client-detail__audio").evaluate((audio) => audio.pause());
        await page.locator('.transcript__para[aria-current="true"]').waitFor();
      },
    },
    {
      name: "client-transcript-search",
      title: "Client: transcript searched",
      as: "main",
      open: async (page) => {
        await clientPage(page, world.clients.meeting);
        await page.getByRole("searchbox", { name: "Search the transcript" }).fill("office");
        await page.locator(".transcript__text mark").first().waitFor();
        await page.locator(".transcript__count").getByText(/match/).waitFor();
      },
    },
    {
      name: "client-transcript-edit",
      title: "Client: transcript being corrected",
      as: "main",
      open: async (page) => {
        await clientPage(page, world.clients.meeting);
        await page.getByText(/^Read the transcript/).click();
        await page.getByRole("button", { name: "Edit", exact: true }).click();
        await page.getByRole("form", { name: "Correct the transcript" }).getByRole("textbox").first().waitFor();
      },
    },
  ];
}
