// The admin dashboard's data (spec section 4, Dashboard): users, clients and the
// email template, loaded together when the dashboard opens; one shared busy flag for
// loading and saving; the local lists updated after a successful edit or delete,
// without reloading. A failed load leaves an empty list (never someone else's data)
// that can be retried. Any answer that says there is no admin session ends the
// dashboard through `onSessionLost`, without an error toast.

import { atom, type ReadableAtom } from "nanostores";
import { api, ApiError } from "../../lib/api.ts";
import type { User } from "../../lib/types.ts";
import { isAdminSessionLost } from "../../stores/admin.ts";
import { toast } from "../../stores/toast.ts";
import type { TemplateValues } from "./validation.ts";

/** The admin list carries users as the API shapes them everywhere. */
export type AdminUser = User;

export interface AdminClient {
  id: number | string;
  userId: number | string;
  name: string;
  email: string;
  phone: string;
  company: string | null;
  position: string | null;
  summary: string | null;
  createdAt: string;
  createdByEmail?: string | null;
}

export interface EmailTemplate extends TemplateValues {
  name: string;
}

export type UserInput = Pick<AdminUser, "firstName" | "lastName" | "email" | "company" | "position">;
export type ClientInput = { name: string; email: string; phone: string; company: string; position: string };
export type RecordKind = "user" | "client";

export type LoadStatus = "loading" | "ready" | "failed";

export interface DashboardState {
  /** Who is signed in, once the server confirmed the session. */
  username: string | null;
  users: AdminUser[];
  usersStatus: LoadStatus;
  clients: AdminClient[];
  clientsStatus: LoadStatus;
  template: EmailTemplate | null;
  templateStatus: LoadStatus;
  /** Loads and saves under way: the shared busy flag is `busy > 0`. */
  busy: number;
  /** What is being saved, so the right button says so. */
  saving: "user" | "client" | "delete" | "template" | null;
}

/** The dashboard's toasts, word for word (spec section 8; the load failures without the dropped fallbacks). */
export const ADMIN_TEXT = {
  errorTitle: "Error",
  successTitle: "Success",
  loadUsersFailed: "Failed to load users",
  loadClientsFailed: "Failed to load clients",
  loadTemplateFailed: "Failed to load email template",
  updateUserFailed: "Failed to update user",
  updateClientFailed: "Failed to update client",
  deleteUserFailed: "Failed to delete user",
  deleteClientFailed: "Failed to delete client",
  updateTemplateFailed: "Failed to update email template",
  userUpdated: "User updated successfully",
  clientUpdated: "Client updated successfully",
  userDeleted: "User deleted successfully",
  clientDeleted: "Client deleted successfully",
  templateUpdated: "Email template updated successfully",
} as const;

/** How a save ended, for the dialog or form that asked for it. */
export type SaveOutcome<T> =
  | { ok: true; value: T }
  /** `error` is the server's refusal (400, 404, 409...) or a transport failure. */
  | { ok: false; error: unknown; sessionLost: boolean };

export interface Dashboard {
  $state: ReadableAtom<DashboardState>;
  /** Confirms the session and loads users, clients and the template together. */
  open(): Promise<void>;
  loadUsers(): Promise<void>;
  loadClients(): Promise<void>;
  loadTemplate(): Promise<void>;
  updateUser(id: AdminUser["id"], input: UserInput): Promise<SaveOutcome<AdminUser>>;
  updateClient(id: AdminClient["id"], input: ClientInput): Promise<SaveOutcome<AdminClient>>;
  remove(kind: RecordKind, id: AdminUser["id"] | AdminClient["id"]): Promise<SaveOutcome<null>>;
  saveTemplate(values: TemplateValues): Promise<SaveOutcome<EmailTemplate>>;
  /** The screen is gone: answers still on their way change nothing and show nothing. */
  dispose(): void;
}

const sameId = (a: unknown, b: unknown) => String(a) === String(b);

export function createDashboard({ onSessionLost }: { onSessionLost: () => void }): Dashboard {
  const $state = atom<DashboardState>({
    username: null,
    users: [],
    usersStatus: "loading",
    clients: [],
    clientsStatus: "loading",
    template: null,
    templateStatus: "loading",
    busy: 0,
    saving: null,
  });
  const controller = new AbortController();
  let lost = false;

  const patch = (changes: Partial<DashboardState> | ((s: DashboardState) => Partial<DashboardState>)) => {
    if (controller.signal.aborted) return;
    const s = $state.get();
    $state.set({ ...s, ...(typeof changes === "function" ? changes(s) : changes) });
  };

  /** Runs one call under the busy flag; a lost session ends the dashboard and is reported as such. */
  async function run<T>(call: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown; sessionLost: boolean }> {
    patch((s) => ({ busy: s.busy + 1 }));
    try {
      return { ok: true, value: await call() };
    } catch (error) {
      const sessionLost = isAdminSessionLost(error);
      if (sessionLost && !lost && !controller.signal.aborted) {
        lost = true;
        onSessionLost();
      }
      return { ok: false, error, sessionLost };
    } finally {
      patch((s) => ({ busy: Math.max(0, s.busy - 1) }));
    }
  }

  const live = () => !controller.signal.aborted && !lost;
  const fail = (description: string) => {
    if (live()) toast({ title: ADMIN_TEXT.errorTitle, description, variant: "destructive" });
  };
  const succeed = (description: string) => {
    if (live()) toast({ title: ADMIN_TEXT.successTitle, description });
  };
  const get = <T>(path: string) => api.get<T>(path, { signal: controller.signal });

  async function loadUsers() {
    patch({ usersStatus: "loading" });
    const r = await run(() => get<AdminUser[]>("/api/admin/users"));
    if (r.ok && Array.isArray(r.value)) patch({ users: r.value, usersStatus: "ready" });
    else {
      patch({ users: [], usersStatus: "failed" });
      if (r.ok || !r.sessionLost) fail(ADMIN_TEXT.loadUsersFailed);
    }
  }

  async function loadClients() {
    patch({ clientsStatus: "loading" });
    const r = await run(() => get<AdminClient[]>("/api/admin/clients"));
    if (r.ok && Array.isArray(r.value)) patch({ clients: r.value, clientsStatus: "ready" });
    else {
      patch({ clients: [], clientsStatus: "failed" });
      if (r.ok || !r.sessionLost) fail(ADMIN_TEXT.loadClientsFailed);
    }
  }

  async function loadTemplate() {
    patch({ templateStatus: "loading" });
    const r = await run(() => get<EmailTemplate>("/api/admin/email-template"));
    if (r.ok && r.value && typeof r.value === "object") patch({ template: r.value, templateStatus: "ready" });
    else {
      patch({ templateStatus: "failed" });
      if (r.ok || !r.sessionLost) fail(ADMIN_TEXT.loadTemplateFailed);
    }
  }

  async function checkSession() {
    const r = await run(() => get<{ username: string }>("/api/admin/session"));
    if (r.ok && r.value) patch({ username: r.value.username });
  }

  async function save<T>(
    kind: NonNullable<DashboardState["saving"]>,
    call: () => Promise<T>,
    done: (value: T) => void,
    messages: { ok: string; failed: string },
  ): Promise<SaveOutcome<T>> {
    patch({ saving: kind });
    const r = await run(call);
    patch({ saving: null });
    if (r.ok) {
      done(r.value);
      succeed(messages.ok);
    } else if (!r.sessionLost) {
      fail(messages.failed);
    }
    return r;
  }

  return {
    $state,
    async open() {
      await Promise.all([checkSession(), loadUsers(), loadClients(), loadTemplate()]);
    },
    loadUsers,
    loadClients,
    loadTemplate,

    updateUser(id, input) {
      return save(
        "user",
        () => api.put<AdminUser>(`/api/admin/users/${encodeURIComponent(String(id))}`, input, { signal: controller.signal }),
        (user) =>
          patch((s) => ({
            users: s.users.map((u) => (sameId(u.id, id) ? { ...u, ...user } : u)),
            // The clients' "created by" follows the owner's new email.
            clients: s.clients.map((c) => (sameId(c.userId, id) ? { ...c, createdByEmail: user.email } : c)),
          })),
        { ok: ADMIN_TEXT.userUpdated, failed: ADMIN_TEXT.updateUserFailed },
      );
    },

    updateClient(id, input) {
      return save(
        "client",
        () => api.put<AdminClient>(`/api/admin/clients/${encodeURIComponent(String(id))}`, input, { signal: controller.signal }),
        // The answer is the client without createdByEmail: keep the one we had.
        (client) => patch((s) => ({ clients: s.clients.map((c) => (sameId(c.id, id) ? { ...c, ...client } : c)) })),
        { ok: ADMIN_TEXT.clientUpdated, failed: ADMIN_TEXT.updateClientFailed },
      );
    },

    async remove(kind, id) {
      const path = `/api/admin/${kind === "user" ? "users" : "clients"}/${encodeURIComponent(String(id))}`;
      const outcome = await save(
        "delete",
        () => api.delete<unknown>(path, { signal: controller.signal }),
        () =>
          patch((s) =>
            kind === "user"
              ? // The server deletes the user's clients with the account.
                { users: s.users.filter((u) => !sameId(u.id, id)), clients: s.clients.filter((c) => !sameId(c.userId, id)) }
              : { clients: s.clients.filter((c) => !sameId(c.id, id)) },
          ),
        kind === "user"
          ? { ok: ADMIN_TEXT.userDeleted, failed: ADMIN_TEXT.deleteUserFailed }
          : { ok: ADMIN_TEXT.clientDeleted, failed: ADMIN_TEXT.deleteClientFailed },
      );
      // Already gone on the server (deleted elsewhere): the list should not keep showing it.
      if (!outcome.ok && outcome.error instanceof ApiError && outcome.error.status === 404) {
        patch((s) =>
          kind === "user" ? { users: s.users.filter((u) => !sameId(u.id, id)) } : { clients: s.clients.filter((c) => !sameId(c.id, id)) },
        );
      }
      return outcome.ok ? { ok: true, value: null } : outcome;
    },

    saveTemplate(values) {
      return save(
        "template",
        () => api.put<EmailTemplate>("/api/admin/email-template", values, { signal: controller.signal }),
        (template) => patch({ template, templateStatus: "ready" }),
        { ok: ADMIN_TEXT.templateUpdated, failed: ADMIN_TEXT.updateTemplateFailed },
      );
    },

    dispose() {
      controller.abort();
    },
  };
}
