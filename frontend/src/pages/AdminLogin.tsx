import { Link } from "wouter";
import { Card, CardHeader } from "../components/Card.tsx";
import { Page } from "../components/Page.tsx";

export default function AdminLogin() {
  return (
    <Page title="Admin Login" ownHeading className="auth-page">
      <Card>
        <CardHeader level={1} title="Admin Login" />
        <p className="muted">
          Administrators are created on the server with <code>debrief admin create</code>.
        </p>
        <p className="auth-links">
          <Link href="/login">Return to regular login</Link>
        </p>
      </Card>
    </Page>
  );
}
