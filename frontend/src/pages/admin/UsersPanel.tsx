import { Avatar } from "../../components/Avatar.tsx";
import type { AdminUser, LoadStatus } from "./dashboard-store.ts";
import { CardActions, CardDetails } from "./CardParts.tsx";
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
              <CardDetails
                items={[
                  ["Email", user.email, true],
                  ["Company", user.company],
                  ["Position", user.position],
                ]}
              />
              <CardActions name={name} onEdit={() => onEdit(user)} onDelete={() => onDelete(user)} />
            </li>
          );
        })}
      </ul>
    </ListStatus>
  );
}
