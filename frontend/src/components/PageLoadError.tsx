import { Button } from "./Button.tsx";
import { Card, CardHeader } from "./Card.tsx";

// Shown when a screen's code cannot be fetched (offline, or a newer version replaced it).
export function PageLoadError({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="center-page">
      <Card className="center-card" role="alert">
        <CardHeader level={1} title="This page could not be loaded" description="Check the connection to the Debrief server and try again." />
        <div className="stack">
          <Button onClick={onRetry}>Try again</Button>
          <Button variant="outline" onClick={() => location.reload()}>
            Reload the app
          </Button>
        </div>
      </Card>
    </div>
  );
}
