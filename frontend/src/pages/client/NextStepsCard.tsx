import { Card, CardHeader } from "../../components/Card.tsx";
import type { ActionItem, Client } from "../../lib/types.ts";
import { shortDay, stepLines, whoLabel } from "./next-steps.ts";

/** Who does it, by when, and whether it is done, where the item says any of it. */
function Meta({ item, clientName }: { item: ActionItem; clientName: string }) {
  if (item.who === "unattributed" && !item.dueDate && !item.done) return null;
  return (
    <span className="next-step__meta">
      {whoLabel(item.who, clientName)}
      {item.dueDate && (
        <>
          {" · Due "}
          <time dateTime={item.dueDate}>{shortDay(item.dueDate)}</time>
        </>
      )}
      {item.done && " · Done"}
    </span>
  );
}

/**
 * The Next Steps card: the lines the email carries, each with who does it and by when
 * from its item. The lines are the items' rendering, or the owner's own words, one
 * item each; a client from before items has the lines alone.
 */
export function NextStepsCard({ client }: { client: Client }) {
  const lines = stepLines(client.nextSteps);
  const items = client.actionItems ?? [];
  const itemOf = (i: number) => (items.length === lines.length ? items[i] : undefined);
  return (
    <Card>
      <CardHeader title="Next Steps" />
      {lines.length > 0 ? (
        <ul className="next-steps">
          {lines.map((line, i) => {
            const item = itemOf(i);
            return (
              <li key={item?.id ?? i} className={item?.done ? "next-step next-step--done" : "next-step"}>
                <span className="next-step__line">{line}</span>
                {item && <Meta item={item} clientName={client.name} />}
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="muted">No next steps available</p>
      )}
    </Card>
  );
}
