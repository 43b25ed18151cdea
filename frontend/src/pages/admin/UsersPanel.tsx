import { Avatar } from "../../components/Avatar.tsx";
import { Button } from "../../components/Button.tsx";
import type { AdminUser, LoadStatus } from "./dashboard-store.ts";
import { ListStatus } from "./ListStatus.tsx";

export const fullName = (u: Pick<AdminUser, "firstName" | "lastName">) => `${u.firstName} ${u.lastName}`.trim();

interface UsersPanelProps {
  users: AdminUser[];
  status: LoadStatus;
  onRetry: () => void;
  onEdit: (user: AdminUser) => void;
  onDelete: (user: AdminUser) => void;
}

export function UsersPanel({ users, status, onRetry, onEdit, onDelete }: UsersPanelProps) {
  return (
    <ListStatus
      status={status}
      count={users.length}
      loadingText="Loading users..."
      emptyText="No users found"
      failedText="Failed to load users"
      onRetry={onRetry}
    >
      <ul className="admin-grid" aria-label="Users">
        {users.map((user) => {
          const name = fullName(user);
          return (
            <li key={user.id} className="card admin-card">
              <div className="admin-card__who">
                {/* The name follows: the picture or initials add nothing for a screen reader. */}
                <span aria-hidden="true" className="admin-card__avatar">
                  <Avatar
                    src={user.profileImageUrl}
                    firstName={user.firstName}
                    lastName={user.lastName}
                    size="md"
                  />
                </span>
                <div className="admin-card__title">
                  <h2 className="admin-card__name">{name}</h2>
                  <p className="admin-card__meta">ID: {user.id}</p>
                </div>
              </div>
              <dl className="admin-card__details">
                <div>
                  <dt>Email</dt>
                  <dd className="break-all">{user.email}</dd>
                </div>
                {user.company && (
                  <div>
                    <dt>Company</dt>
                    <dd>{user.company}</dd>
                  </div>
                )}
                {user.position && (
                  <div>
                    <dt>Position</dt>
                    <dd>{user.position}</dd>
                  </div>
                )}
              </dl>
              <div className="admin-card__actions">
                <Button variant="outline" size="sm" aria-label={`Edit ${name}`} onClick={() => onEdit(user)}>
                  Edit
                </Button>
                <Button
                  variant="outline"
                  size="sm"
                  className="btn--danger-outline"
                  aria-label={`Delete ${name}`}
                  onClick={() => onDelete(user)}
                >
                  Delete
                </Button>
              </div>
            </li>
          );
        })}
      </ul>
    </ListStatus>
  );
}
