// The admin dashboard in the screen review: its tabs and the Edit User dialog.

/** `at(page, path)` opens a path on the main server. */
export function adminStates(world, at) {
  return [
    {
      name: "admin-users",
      title: "Admin: users",
      as: "admin",
      open: async (page) => {
        await at(page, "/admin/dashboard");
        await page.getByText(/^\d+ users$/).waitFor();
      },
    },
    {
      name: "admin-clients",
      title: "Admin: 1,000+ clients",
      as: "admin",
      open: async (page) => {
        await at(page, "/admin/dashboard");
        await page.getByRole("tab", { name: "Clients" }).click();
        await page.getByText(/^\d+ clients$/).waitFor();
      },
    },
    {
      name: "admin-template",
      title: "Admin: email template",
      as: "admin",
      open: async (page) => {
        await at(page, "/admin/dashboard");
        await page.getByRole("tab", { name: "Email Template" }).click();
        await page.getByRole("heading", { name: "Email Template Configuration" }).waitFor();
        await page.waitForFunction(() => document.querySelector('input[name="fromName"]')?.value);
      },
    },
    {
      name: "admin-insights",
      title: "Admin: figures of all users",
      as: "admin",
      open: async (page) => {
        await at(page, "/admin/dashboard");
        await page.getByRole("tab", { name: "Insights", exact: true }).click();
        await page.getByRole("img", { name: /^Meetings per week/ }).waitFor();
      },
    },
    {
      name: "admin-storage",
      title: "Admin: storage and retention",
      as: "admin",
      open: async (page) => {
        await at(page, "/admin/dashboard");
        await page.getByRole("tab", { name: "Storage", exact: true }).click();
        await page.getByLabel("Delete recordings older than (days)", { exact: true }).waitFor();
      },
    },
    {
      name: "admin-edit-user",
      title: "Admin: Edit User",
      as: "admin",
      open: async (page) => {
        await at(page, "/admin/dashboard");
        const { firstName, lastName } = world.accounts.main.fields;
        await page.getByRole("button", { name: `Edit ${firstName} ${lastName}` }).click();
        await page.getByRole("dialog", { name: "Edit User" }).waitFor();
      },
    },
  ];
}
