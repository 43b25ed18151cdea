import type { ReactNode } from "react";
import { Button } from "../../components/Button.tsx";
import { AlertIcon } from "../../components/icons.tsx";
import { Spinner } from "../../components/Spinner.tsx";
import { errorMessage } from "../../lib/api.ts";
import type { QueryState } from "../../stores/query.ts";
import { invalidate } from "../../stores/query.ts";

/**
 * A section's read: a spinner until it first answers, the reason and Try again when it
 * failed, else the section. Data already shown stays while it is read again.
 */
export function ReadStatus<T>({
  state,
  path,
  what,
  children,
}: {
  state: QueryState<T>;
  path: string;
  /** "your next steps": what is loading, or could not be loaded. */
  what: string;
  children: (data: T) => ReactNode;
}) {
  if (state.data !== undefined) return <>{children(state.data)}</>;
  if (state.error) {
    return (
      <div className="notice notice--error insights-failed">
        <AlertIcon size={20} className="notice__icon" />
        <div className="notice__body">
          <p>{[`Could not load ${what}.`, errorMessage(state.error, "")].filter(Boolean).join(" ")}</p>
          <Button size="sm" variant="outline" onClick={() => invalidate(path)}>
            Try again
          </Button>
        </div>
      </div>
    );
  }
  return <Spinner label={`Loading ${what}`} className="insights-loading" />;
}
