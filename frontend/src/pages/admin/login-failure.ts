import { ApiError } from "../../lib/api.ts";

export const ADMIN_LOGIN_TEXT = {
  authFailedTitle: "Authentication failed",
  authFailed: "Invalid username or password",
  failedTitle: "Login failed",
  failed: "An error occurred during login. Please try again.",
} as const;

/** The toast for a refused or failed admin sign-in (spec section 8). */
export function describeAdminLoginFailure(err: unknown): { title: string; description: string } {
  if (err instanceof ApiError && err.status === 401) {
    return { title: ADMIN_LOGIN_TEXT.authFailedTitle, description: ADMIN_LOGIN_TEXT.authFailed };
  }
  // Throttled: the server says how it stands ("Too many failed admin sign-in attempts...").
  if (err instanceof ApiError && err.status === 429 && err.serverMessage) {
    return { title: ADMIN_LOGIN_TEXT.failedTitle, description: err.serverMessage };
  }
  return { title: ADMIN_LOGIN_TEXT.failedTitle, description: ADMIN_LOGIN_TEXT.failed };
}
