import { useStore } from "@nanostores/react";
import { $recordingKept } from "../stores/activity.ts";
import { $reachable } from "../stores/connection.ts";

export const RECORDING_SAFE_OFFLINE = "offline — your recording is safe on this phone";
const OFFLINE = "offline — you can still record: the recording waits on this phone for the server";

/** Says so while the server cannot be reached, and that recordings are kept meanwhile. */
export function OfflineBanner() {
  const reachable = useStore($reachable);
  const kept = useStore($recordingKept);
  return (
    <p className="status-bar status-bar--offline" role="status" hidden={reachable}>
      {reachable ? "" : kept ? RECORDING_SAFE_OFFLINE : OFFLINE}
    </p>
  );
}
