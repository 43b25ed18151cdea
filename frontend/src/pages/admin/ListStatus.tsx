import type { ReactNode } from "react";
import { Button } from "../../components/Button.tsx";
import { Spinner } from "../../components/Spinner.tsx";
import type { LoadStatus } from "./dashboard-store.ts";

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
  if (status === "loading" && count === 0) {
    return (
      <p className="admin-empty" role="status">
        <Spinner size="sm" />
        {loadingText}
      </p>
    );
  }
  if (status === "failed") {
    return (
      <div className="admin-empty admin-empty--failed">
        <p>{failedText}</p>
        <Button variant="outline" size="sm" onClick={onRetry}>
          Retry
        </Button>
      </div>
    );
  }
  if (count === 0) return <p className="admin-empty">{emptyText}</p>;
  return <>{children}</>;
}
