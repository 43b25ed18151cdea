import { atom } from "nanostores";

// Chromium offers to install the app through an event that fires once, early,
// whatever page is open; it is kept here for the "Install on this phone" page.

export interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: "accepted" | "dismissed" }>;
}

export const $installPrompt = atom<InstallPromptEvent | null>(null);

export function keepInstallPrompt(win: Window = window): void {
  win.addEventListener("beforeinstallprompt", (event) => $installPrompt.set(event as InstallPromptEvent));
  win.addEventListener("appinstalled", () => $installPrompt.set(null));
}
