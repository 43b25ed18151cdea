// Who may see a route. Pure so that the rules are unit-tested apart from the router.

export type Access = "public" | "signed-out" | "signed-in" | "admin";

export type SessionStatus = "loading" | "authenticated" | "anonymous";

export type Decision =
  | { kind: "show" }
  | { kind: "wait" }
  | { kind: "redirect"; to: string };

/**
 * `signedInBefore`: this browser remembers a signed-in user. Without one, a
 * signed-out screen shows while the session is still being checked: the
 * visitor is almost surely signed out, and the sign-in form need not wait a
 * round trip to the server. The rare exception is sent on once the check answers.
 */
export function decideAccess(
  access: Access,
  session: SessionStatus,
  adminFlag: boolean,
  signedInBefore = true,
): Decision {
  switch (access) {
    case "public":
      return { kind: "show" };
    case "admin":
      return adminFlag ? { kind: "show" } : { kind: "redirect", to: "/admin/login" };
    case "signed-in":
      if (session === "loading") return { kind: "wait" };
      return session === "authenticated" ? { kind: "show" } : { kind: "redirect", to: "/login" };
    case "signed-out":
      if (session === "loading") return signedInBefore ? { kind: "wait" } : { kind: "show" };
      return session === "authenticated" ? { kind: "redirect", to: "/" } : { kind: "show" };
  }
}

/** Match a route pattern such as /client/:id against a path; returns the params or null. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const names: string[] = [];
  const source = pattern
    .split("/")
    .map((part) => {
      if (part.startsWith(":")) {
        names.push(part.slice(1));
        return "([^/]+)";
      }
      return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("/");
  const match = new RegExp(`^${source}/?$`).exec(path);
  if (!match) return null;
  const params: Record<string, string> = {};
  names.forEach((name, i) => {
    params[name] = decodeURIComponent(match[i + 1]);
  });
  return params;
}
