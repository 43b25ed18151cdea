import type { Access } from "./lib/access.ts";
import { lazyPage, type LazyPage } from "./lib/lazy-page.tsx";
import { clientPath, LIST_PATH } from "./pages/client/client-cache.ts";
import { insightsPath, localToday, OPEN_PATH } from "./pages/insights/paths.ts";

export interface RouteDef {
  path: string;
  /** A function decides from the query string (e.g. a reset link that carries a token). */
  access: Access | ((query: URLSearchParams) => Access);
  page: LazyPage;
  /**
   * The reads the page shows first: on a cold load they are asked for as soon as the
   * session check says who is signed in, while the page's code is still on its way.
   */
  reads?: (params: Record<string, string>) => string[];
}

// The route table of the product (spec section 2). Anything else is the not-found page.
export const routes: RouteDef[] = [
  { path: "/login", access: "signed-out", page: lazyPage(() => import("./pages/Login.tsx")) },
  { path: "/signup", access: "signed-out", page: lazyPage(() => import("./pages/Signup.tsx")) },
  {
    path: "/reset-password",
    // A reset link (?token=…) opens whoever is signed in; asking for one is for signed-out visitors.
    access: (q) => (q.has("token") ? "public" : "signed-out"),
    page: lazyPage(() => import("./pages/ResetPassword.tsx")),
  },
  // A link mailed to confirm an address: opens whoever is signed in, or nobody.
  { path: "/confirm-email", access: "public", page: lazyPage(() => import("./pages/ConfirmEmail.tsx")) },
  { path: "/", access: "signed-in", page: lazyPage(() => import("./pages/NewClient.tsx")) },
  {
    path: "/history",
    access: "signed-in",
    page: lazyPage(() => import("./pages/History.tsx")),
    reads: () => [LIST_PATH],
  },
  {
    path: "/client/:id",
    access: "signed-in",
    page: lazyPage(() => import("./pages/ClientDetail.tsx")),
    reads: ({ id }) => [clientPath(id)],
  },
  {
    path: "/insights",
    access: "signed-in",
    page: lazyPage(() => import("./pages/Insights.tsx")),
    reads: () => [OPEN_PATH, insightsPath(localToday())],
  },
  { path: "/profile", access: "signed-in", page: lazyPage(() => import("./pages/Profile.tsx")) },
  { path: "/admin/login", access: "public", page: lazyPage(() => import("./pages/AdminLogin.tsx")) },
  // Read on a phone before it can sign in: how to trust the server and install the app.
  { path: "/install", access: "public", page: lazyPage(() => import("./pages/Install.tsx")) },
  { path: "/admin/dashboard", access: "admin", page: lazyPage(() => import("./pages/AdminDashboard.tsx")) },
];

export function resolveAccess(route: RouteDef, search: string): Access {
  return typeof route.access === "function" ? route.access(new URLSearchParams(search)) : route.access;
}
