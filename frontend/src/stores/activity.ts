import { computed, map } from "nanostores";

// What the app is doing that matters beyond the screen it is on: a recording
// being made or waiting to be saved, a save or an upload under way, saves kept
// on the phone for later. A reload must wait for the first ones; the offline
// message says whether a recording is safe on the phone.

export type Activity = "recording" | "saving" | "syncing" | "queued";

export const $activity = map<Record<Activity, boolean>>({
  recording: false,
  saving: false,
  syncing: false,
  queued: false,
});

export function setActivity(kind: Activity, on: boolean): void {
  if ($activity.get()[kind] !== on) $activity.setKey(kind, on);
}

/** Nothing would be cut short by reloading the app now. */
export const $reloadSafe = computed($activity, (a) => !a.recording && !a.saving && !a.syncing);

/** A recording is on this phone and not yet on the server. */
export const $recordingKept = computed($activity, (a) => a.recording || a.queued);
