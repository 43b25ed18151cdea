import { useEffect, useState } from "react";
import { Button } from "../../components/Button.tsx";
import { Card, CardHeader } from "../../components/Card.tsx";
import { api, errorMessage } from "../../lib/api.ts";
import { isAdminSessionLost } from "../../stores/admin.ts";
import { toast } from "../../stores/toast.ts";

interface OutboxLine {
  to: string;
  subject: string;
  at: string;
  /** `sent`, `outbox: FILE` or `failed: REASON`. */
  result: string;
}

interface OutboxPanelProps {
  active: boolean;
  onSessionLost: () => void;
}

/**
 * The last emails the server sent or filed. Without SMTP, confirmation, reset and
 * invitation emails land in the outbox folder: the admin sees here what to pass on.
 */
export function OutboxPanel({ active, onSessionLost }: OutboxPanelProps) {
  const [lines, setLines] = useState<OutboxLine[] | null>(null);
  const [loading, setLoading] = useState(false);

  const load = async () => {
    setLoading(true);
    try {
      setLines(await api.get<OutboxLine[]>("/api/admin/outbox"));
    } catch (err) {
      if (isAdminSessionLost(err)) return onSessionLost();
      toast({ title: "Failed to load the outbox", description: errorMessage(err, "The server did not answer"), variant: "destructive" });
    } finally {
      setLoading(false);
    }
  };

  useEffect(() => {
    if (active) void load();
  }, [active]);

  return (
    <Card>
      <CardHeader title="Outbox" description="The last emails this server sent, or saved to its outbox folder." />
      {lines && lines.length === 0 && <p className="admin-outbox__empty">No emails yet.</p>}
      {lines && lines.length > 0 && (
        <ul className="admin-outbox">
          {lines.map((line, i) => (
            <li key={`${line.at}-${i}`} className="admin-outbox__line">
              <strong>{line.subject}</strong>
              <span>to {line.to}</span>
              <span className="admin-outbox__result">
                {new Date(line.at).toLocaleString()} · {line.result}
              </span>
            </li>
          ))}
        </ul>
      )}
      <Button size="sm" variant="outline" busy={loading} onClick={() => void load()}>
        Refresh
      </Button>
    </Card>
  );
}
