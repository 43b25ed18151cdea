import { useStore } from "@nanostores/react";
import { $recordingKept } from "../stores/activity.ts";
import { $reachable } from "../stores/connection.ts";
import { $session } from "../stores/session.ts";

export const RECORDING_SAFE_OFFLINE = "offline — your recording is safe on this phone";
const OFFLINE = "offline — you can still record: the recording waits on this phone for the server";
const OFFLINE_SIGNED_OUT = "offline — the server cannot be reached";

/** Says so while the server cannot be reached, and that recordings are kept meanwhile. */
export function OfflineBanner() {
  const reachable = useStore($reachable);
  const kept = useStore($recordingKept);
  const signedIn = useStore($session).status === "authenticated";
  const text = kept ? RECORDING_SAFE_OFFLINE : signedIn ? OFFLINE : OFFLINE_SIGNED_OUT;
  // Always in the document, so that screen readers hear it when it fills.
  return (
    <p className="status-bar status-bar--offline" role="status" hidden={reachable}>
      {reachable ? "" : text}
    </p>
  );
}
