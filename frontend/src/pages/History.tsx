import { Card } from "../components/Card.tsx";
import { Page } from "../components/Page.tsx";

export default function History() {
  return (
    <Page title="History">
      <Card>
        <p className="muted">Your saved clients will be listed here.</p>
      </Card>
    </Page>
  );
}
