import { useStore } from "@nanostores/react";
import { useEffect, useRef } from "react";
import { useLocation } from "wouter";
import { $updateReady } from "../lib/service-worker.ts";
import { $reloadSafe } from "../stores/activity.ts";
import { Button } from "./Button.tsx";

/**
 * Offers the new version once one has taken over, but never while a recording or
 * a save is under way; leaving a screen then loads the new version by itself,
 * since what that screen held is being left anyway.
 */
export function UpdateBar() {
  const ready = useStore($updateReady);
  const safe = useStore($reloadSafe);
  const [path] = useLocation();
  const shownAt = useRef(path);

  useEffect(() => {
    if (ready && safe && path !== shownAt.current) location.reload();
    shownAt.current = path;
  }, [path, ready, safe]);

  const shown = ready && safe;
  // Always in the document, so that screen readers hear it when it fills.
  return (
    <div className="status-bar status-bar--update" role="status" hidden={!shown}>
      {shown && (
        <>
          <span>A new version is ready</span>
          <Button size="sm" variant="outline" onClick={() => location.reload()}>
            Reload
          </Button>
        </>
      )}
    </div>
  );
}
