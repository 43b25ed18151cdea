import { useStore } from "@nanostores/react";
import { useEffect, useRef, useState } from "react";
import { useLocation } from "wouter";
import { Button } from "../components/Button.tsx";
import { ConfirmDialog } from "../components/ConfirmDialog.tsx";
import { Page } from "../components/Page.tsx";
import { Tabs } from "../components/Tabs.tsx";
import { api } from "../lib/api.ts";
import { countOf } from "../lib/format.ts";
import { isAdminSessionLost, setAdminFlag } from "../stores/admin.ts";
import { toast } from "../stores/toast.ts";
import { ClientsPanel } from "./admin/ClientsPanel.tsx";
import { createDashboard, type AdminClient, type AdminUser, type RecordKind } from "./admin/dashboard-store.ts";
import { EditDialog, type EditField } from "./admin/EditDialog.tsx";
import { InsightsPanel } from "./admin/InsightsPanel.tsx";
import { OutboxPanel } from "./admin/OutboxPanel.tsx";
import { SignupPanel } from "./admin/SignupPanel.tsx";
import { StoragePanel } from "./admin/StoragePanel.tsx";
import { TemplatePanel } from "./admin/TemplatePanel.tsx";
import { UsersPanel } from "./admin/UsersPanel.tsx";
import type { TemplateValues } from "./admin/validation.ts";

type Section = "users" | "clients" | "email-template" | "signup" | "insights" | "storage";

type UserField = "firstName" | "lastName" | "email" | "company" | "position";
type ClientField = "name" | "email" | "phone" | "company" | "position";

const USER_FIELDS: ReadonlyArray<EditField<UserField>> = [
  { name: "firstName", label: "First Name" },
  { name: "lastName", label: "Last Name" },
  { name: "email", label: "Email", type: "email" },
  { name: "company", label: "Company" },
  { name: "position", label: "Position" },
];

const CLIENT_FIELDS: ReadonlyArray<EditField<ClientField>> = [
  { name: "name", label: "Name" },
  { name: "email", label: "Email", type: "email" },
  { name: "phone", label: "Phone", type: "tel" },
  { name: "company", label: "Company" },
  { name: "position", label: "Position" },
];

const userValues = (u: AdminUser): Record<UserField, string> => ({
  firstName: u.firstName ?? "",
  lastName: u.lastName ?? "",
  email: u.email ?? "",
  company: u.company ?? "",
  position: u.position ?? "",
});

const clientValues = (c: AdminClient): Record<ClientField, string> => ({
  name: c.name ?? "",
  email: c.email ?? "",
  phone: c.phone ?? "",
  company: c.company ?? "",
  position: c.position ?? "",
});

interface DeleteTarget {
  kind: RecordKind;
  id: AdminUser["id"] | AdminClient["id"];
}

export default function AdminDashboard() {
  const [, navigate] = useLocation();
  const [dashboard] = useState(() =>
    createDashboard({
      // No admin session on the server (expired, revoked, never there): the flag goes too.
      onSessionLost: () => {
        setAdminFlag(false);
        navigate("/admin/login", { replace: true });
      },
    }),
  );
  const state = useStore(dashboard.$state);
  const [tab, setTab] = useState<Section>("users");
  const [editingUser, setEditingUser] = useState<AdminUser | null>(null);
  const [editingClient, setEditingClient] = useState<AdminClient | null>(null);
  const [deleteTarget, setDeleteTarget] = useState<DeleteTarget | null>(null);
  const [loggingOut, setLoggingOut] = useState(false);
  const [refocus, setRefocus] = useState(0);
  const draft = useRef<TemplateValues | null>(null);
  const panelTop = useRef<HTMLDivElement>(null);
  const busy = state.busy > 0;

  useEffect(() => {
    void dashboard.open();
    return () => dashboard.dispose();
  }, [dashboard]);

  const logOut = async () => {
    setLoggingOut(true);
    try {
      await api.post("/api/admin/logout");
    } catch (err) {
      if (!isAdminSessionLost(err)) {
        // The flag still goes: this screen is closed either way, and the server's
        // session ends by itself when it has been idle long enough.
        toast({ title: "Error", description: "The server could not end the admin session.", variant: "destructive" });
      }
    }
    dashboard.dispose();
    setAdminFlag(false);
    navigate("/admin/login", { replace: true });
  };

  // A panel's own read found no admin session: the dashboard signs out.
  const sessionLost = () => {
    dashboard.dispose();
    setAdminFlag(false);
    navigate("/admin/login", { replace: true });
  };

  const confirmDelete = async () => {
    const target = deleteTarget;
    if (!target) return;
    const outcome = await dashboard.remove(target.kind, target.id);
    // Closed and forgotten after the attempt, whether it worked or not (spec section 4).
    setDeleteTarget(null);
    if (outcome.ok) setRefocus((n) => n + 1);
  };

  // The card that held the focus is gone: once the dialog has closed (its effect runs
  // before this one), the selected tab takes the focus instead of the page's end.
  useEffect(() => {
    if (refocus > 0) panelTop.current?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]')?.focus();
  }, [refocus]);

  const counter =
    tab === "users"
      ? countOf(state.users.length, "user")
      : tab === "clients"
        ? countOf(state.clients.length, "client")
        : tab === "signup"
          ? "New Accounts"
          : tab === "insights"
            ? "All Users"
            : tab === "storage"
              ? "Disk Space"
              : "Email Configuration";

  return (
    <Page title="Admin Dashboard" ownHeading className="admin-page">
      <header className="admin-header">
        <div className="admin-header__text">
          <h1 className="admin-header__title">Admin Dashboard</h1>
          {state.username && <p className="admin-header__who">Signed in as {state.username}</p>}
        </div>
        <Button variant="outline" size="sm" busy={loggingOut} onClick={logOut}>
          Logout
        </Button>
      </header>
      <div ref={panelTop}>
        <Tabs
          label="Admin sections"
          value={tab}
          onChange={setTab}
          aside={<p className="admin-counter">{counter}</p>}
          tabs={[
            {
              value: "users",
              label: "Users",
              panel: (
                <UsersPanel
                  users={state.users}
                  status={state.usersStatus}
                  onRetry={() => void dashboard.loadUsers()}
                  onEdit={setEditingUser}
                  onDelete={(u) => setDeleteTarget({ kind: "user", id: u.id })}
                />
              ),
            },
            {
              value: "clients",
              label: "Clients",
              panel: (
                <ClientsPanel
                  clients={state.clients}
                  status={state.clientsStatus}
                  onRetry={() => void dashboard.loadClients()}
                  onEdit={setEditingClient}
                  onDelete={(c) => setDeleteTarget({ kind: "client", id: c.id })}
                />
              ),
            },
            {
              value: "email-template",
              label: "Email Template",
              panel: (
                <TemplatePanel
                  template={state.template}
                  status={state.templateStatus}
                  busy={busy}
                  saving={state.saving === "template"}
                  onRetry={() => void dashboard.loadTemplate()}
                  onSave={(values) => dashboard.saveTemplate(values)}
                  draft={draft.current}
                  onDraft={(values) => (draft.current = values)}
                />
              ),
            },
            {
              value: "signup",
              label: "Sign-up",
              panel: (
                <>
                  <SignupPanel active={tab === "signup"} onSessionLost={sessionLost} />
                  <OutboxPanel active={tab === "signup"} onSessionLost={sessionLost} />
                </>
              ),
            },
            {
              value: "insights",
              label: "Insights",
              panel: <InsightsPanel active={tab === "insights"} onSessionLost={sessionLost} />,
            },
            {
              value: "storage",
              label: "Storage",
              panel: <StoragePanel onSessionLost={sessionLost} />,
            },
          ]}
        />
      </div>

      <EditDialog
        title="Edit User"
        fields={USER_FIELDS}
        initial={editingUser && userValues(editingUser)}
        conflictField="email"
        save={(values) => dashboard.updateUser(editingUser!.id, values)}
        onSaved={() => setEditingUser(null)}
        onClose={() => setEditingUser(null)}
      />
      <EditDialog
        title="Edit Client"
        fields={CLIENT_FIELDS}
        initial={editingClient && clientValues(editingClient)}
        save={(values) => dashboard.updateClient(editingClient!.id, values)}
        onSaved={() => setEditingClient(null)}
        onClose={() => setEditingClient(null)}
      />
      <ConfirmDialog
        open={deleteTarget !== null}
        title="Confirm Delete"
        description={`Are you sure you want to delete this ${deleteTarget?.kind ?? "user"}? This action cannot be undone.`}
        confirmLabel="Delete"
        busy={state.saving === "delete"}
        onConfirm={confirmDelete}
        onCancel={() => setDeleteTarget(null)}
      />
    </Page>
  );
}
