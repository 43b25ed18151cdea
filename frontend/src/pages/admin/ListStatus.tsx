import type { ReactNode } from "react";
import { Button } from "../../components/Button.tsx";
import { Spinner } from "../../components/Spinner.tsx";
import type { LoadStatus } from "./dashboard-store.ts";

/** A panel's read under way. */
export function Loading({ text }: { text: string }) {
  return (
    <p className="admin-empty" role="status">
      <Spinner size="sm" />
      {text}
    </p>
  );
}

/** A panel's read that failed, and the Retry that reads again. */
export function LoadFailed({ text, onRetry }: { text: string; onRetry: () => void }) {
  return (
    <div className="admin-empty admin-empty--failed">
      <p>{text}</p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        Retry
      </Button>
    </div>
  );
}

interface ListStatusProps {
  status: LoadStatus;
  count: number;
  loadingText: string;
  emptyText: string;
  failedText: string;
  onRetry: () => void;
  children: ReactNode;
}

/** A list's loading, failed and empty states, or the list itself. */
export function ListStatus({ status, count, loadingText, emptyText, failedText, onRetry, children }: ListStatusProps) {
  if (status === "loading" && count === 0) return <Loading text={loadingText} />;
  if (status === "failed") return <LoadFailed text={failedText} onRetry={onRetry} />;
  if (count === 0) return <p className="admin-empty">{emptyText}</p>;
  return <>{children}</>;
}
