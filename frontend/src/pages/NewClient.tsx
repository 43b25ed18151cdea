import { Card } from "../components/Card.tsx";
import { Page } from "../components/Page.tsx";

export default function NewClient() {
  return (
    <Page title="New Client">
      <Card>
        <p className="muted">Record a meeting, scan a business card and save the client here.</p>
      </Card>
    </Page>
  );
}
