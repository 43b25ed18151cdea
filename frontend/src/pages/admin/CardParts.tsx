import { Button } from "../../components/Button.tsx";

/** The labelled details of a card; empty values are left out. */
export function CardDetails({ items }: { items: [label: string, value: string | null | undefined, breakAll?: boolean][] }) {
  return (
    <dl className="admin-card__details">
      {items
        .filter(([, value]) => value)
        .map(([label, value, breakAll]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd className={breakAll ? "break-all" : undefined}>{value}</dd>
          </div>
        ))}
    </dl>
  );
}

/** Edit and Delete, named after the record for screen readers. */
export function CardActions({ name, onEdit, onDelete }: { name: string; onEdit: () => void; onDelete: () => void }) {
  return (
    <div className="admin-card__actions">
      <Button variant="outline" size="sm" aria-label={`Edit ${name}`} onClick={onEdit}>
        Edit
      </Button>
      <Button variant="outline" size="sm" className="btn--danger-outline" aria-label={`Delete ${name}`} onClick={onDelete}>
        Delete
      </Button>
    </div>
  );
}
