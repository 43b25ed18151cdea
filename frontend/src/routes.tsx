import type { Access } from "./lib/access.ts";
import { lazyPage, type LazyPage } from "./lib/lazy-page.tsx";

export interface RouteDef {
  path: string;
  /** A function decides from the query string (e.g. a reset link that carries a token). */
  access: Access | ((query: URLSearchParams) => Access);
  page: LazyPage;
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
  { path: "/", access: "signed-in", page: lazyPage(() => import("./pages/NewClient.tsx")) },
  { path: "/history", access: "signed-in", page: lazyPage(() => import("./pages/History.tsx")) },
  { path: "/client/:id", access: "signed-in", page: lazyPage(() => import("./pages/ClientDetail.tsx")) },
  { path: "/profile", access: "signed-in", page: lazyPage(() => import("./pages/Profile.tsx")) },
  { path: "/admin/login", access: "public", page: lazyPage(() => import("./pages/AdminLogin.tsx")) },
  // Read on a phone before it can sign in: how to trust the server and install the app.
  { path: "/install", access: "public", page: lazyPage(() => import("./pages/Install.tsx")) },
  { path: "/admin/dashboard", access: "admin", page: lazyPage(() => import("./pages/AdminDashboard.tsx")) },
];

export function resolveAccess(route: RouteDef, search: string): Access {
  return typeof route.access === "function" ? route.access(new URLSearchParams(search)) : route.access;
}
