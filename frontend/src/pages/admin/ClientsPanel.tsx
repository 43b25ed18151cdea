import type { AdminClient, LoadStatus } from "./dashboard-store.ts";
import { CardActions, CardDetails } from "./CardParts.tsx";
import { ListStatus } from "./ListStatus.tsx";

let dateFormat: Intl.DateTimeFormat | null = null;

/** The creation date as the reader's locale writes it ("Nov 25, 2025"); empty if unreadable. */
export function formatAdded(createdAt: string): string {
  const date = new Date(createdAt);
  if (!Number.isFinite(date.getTime())) return "";
  dateFormat ??= new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });
  return dateFormat.format(date);
}

interface ClientsPanelProps {
  clients: AdminClient[];
  status: LoadStatus;
  onRetry: () => void;
  onEdit: (client: AdminClient) => void;
  onDelete: (client: AdminClient) => void;
}

export function ClientsPanel({ clients, status, onRetry, onEdit, onDelete }: ClientsPanelProps) {
  return (
    <ListStatus
      status={status}
      count={clients.length}
      loadingText="Loading clients..."
      emptyText="No clients found"
      failedText="Failed to load clients"
      onRetry={onRetry}
    >
      <ul className="admin-grid" aria-label="Clients">
        {clients.map((client) => (
          <li key={client.id} className="card admin-card">
            <div className="admin-card__title">
              <h2 className="admin-card__name">{client.name}</h2>
              <p className="admin-card__meta">
                Added: <time dateTime={client.createdAt}>{formatAdded(client.createdAt)}</time>
              </p>
              <p className="admin-card__meta">ID: {client.id}</p>
            </div>
            <CardDetails
              items={[
                ["Email", client.email, true],
                ["Phone", client.phone],
                ["Company", client.company],
                ["Position", client.position],
              ]}
            />
            {client.summary && <p className="admin-card__summary">{client.summary}</p>}
            <CardActions name={client.name} onEdit={() => onEdit(client)} onDelete={() => onDelete(client)} />
          </li>
        ))}
      </ul>
    </ListStatus>
  );
}
