// Next steps as the server sends them, for the tests of the email preview's list and of
// the tracker: one shape, so a field the server adds is added here once.

/** A client's next step (`ActionItem`); `fill` replaces fields. */
export const actionItem = (id, fill = {}) => ({
  id,
  who: "me",
  action: `Step ${id}`,
  dueText: null,
  dueDate: null,
  line: `I will step ${id}.`,
  done: false,
  source: "summary",
  ...fill,
});

/** A next step as the tracker lists it (`TrackedStep`): the item, of client 7, Jordan Ellis. */
export const trackedStep = (id, fill = {}) => actionItem(id, { clientId: 7, clientName: "Jordan Ellis", ...fill });
