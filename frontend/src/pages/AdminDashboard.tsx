import { useState } from "react";
import { useLocation } from "wouter";
import { Button } from "../components/Button.tsx";
import { Card } from "../components/Card.tsx";
import { Page } from "../components/Page.tsx";
import { Tabs } from "../components/Tabs.tsx";
import { setAdminFlag } from "../stores/admin.ts";

type Section = "users" | "clients" | "email-template";

export default function AdminDashboard() {
  const [, navigate] = useLocation();
  const [tab, setTab] = useState<Section>("users");

  const logOut = () => {
    setAdminFlag(false);
    navigate("/admin/login", { replace: true });
  };

  const placeholder = (text: string) => (
    <Card>
      <p className="muted">{text}</p>
    </Card>
  );

  return (
    <Page title="Admin Dashboard" ownHeading>
      <header className="admin-header">
        <h1 className="admin-header__title">Admin Dashboard</h1>
        <Button variant="outline" size="sm" onClick={logOut}>
          Logout
        </Button>
      </header>
      <Tabs
        label="Admin sections"
        value={tab}
        onChange={setTab}
        tabs={[
          { value: "users", label: "Users", panel: placeholder("Users will be listed here.") },
          { value: "clients", label: "Clients", panel: placeholder("Clients will be listed here.") },
          {
            value: "email-template",
            label: "Email Template",
            panel: placeholder("The follow-up email template will be edited here."),
          },
        ]}
      />
    </Page>
  );
}
