import { Button } from "../../components/Button.tsx";
import type { AdminClient, LoadStatus } from "./dashboard-store.ts";
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
            <dl className="admin-card__details">
              <div>
                <dt>Email</dt>
                <dd className="break-all">{client.email}</dd>
              </div>
              <div>
                <dt>Phone</dt>
                <dd>{client.phone}</dd>
              </div>
              {client.company && (
                <div>
                  <dt>Company</dt>
                  <dd>{client.company}</dd>
                </div>
              )}
              {client.position && (
                <div>
                  <dt>Position</dt>
                  <dd>{client.position}</dd>
                </div>
              )}
            </dl>
            {client.summary && <p className="admin-card__summary">{client.summary}</p>}
            <div className="admin-card__actions">
              <Button variant="outline" size="sm" aria-label={`Edit ${client.name}`} onClick={() => onEdit(client)}>
                Edit
              </Button>
              <Button
                variant="outline"
                size="sm"
                className="btn--danger-outline"
                aria-label={`Delete ${client.name}`}
                onClick={() => onDelete(client)}
              >
                Delete
              </Button>
            </div>
          </li>
        ))}
      </ul>
    </ListStatus>
  );
}
