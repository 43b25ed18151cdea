import { Card } from "../components/Card.tsx";
import { AlertIcon } from "../components/icons.tsx";
import { Page } from "../components/Page.tsx";

export default function NotFound() {
  return (
    <Page title="404 Page Not Found" ownHeading className="center-page">
      <Card className="center-card not-found">
        <div className="not-found__heading">
          <AlertIcon size={32} className="not-found__icon" />
          <h1>404 Page Not Found</h1>
        </div>
        <p className="muted">Did you forget to add the page to the router?</p>
      </Card>
    </Page>
  );
}
