import { useStore } from "@nanostores/react";
import { Redirect, Route, Switch, useLocation, useSearch } from "wouter";
import { BottomNav } from "./components/BottomNav.tsx";
import { FullScreenSpinner } from "./components/Spinner.tsx";
import { Toaster } from "./components/Toaster.tsx";
import { decideAccess } from "./lib/access.ts";
import { cx } from "./lib/cx.ts";
import NotFound from "./pages/NotFound.tsx";
import { resolveAccess, routes, type RouteDef } from "./routes.tsx";
import { $adminFlag } from "./stores/admin.ts";
import { $session } from "./stores/session.ts";

function Guarded({ route, params }: { route: RouteDef; params: Record<string, string | undefined> }) {
  const session = useStore($session);
  const adminFlag = useStore($adminFlag);
  const search = useSearch();
  const decision = decideAccess(resolveAccess(route, search), session.status, adminFlag);
  if (decision.kind === "wait") return <FullScreenSpinner label="Checking your session" />;
  if (decision.kind === "redirect") return <Redirect to={decision.to} replace />;
  const Page = route.page;
  return <Page params={params} />;
}

export function App() {
  const session = useStore($session);
  const [path] = useLocation();
  const isAdminArea = path.startsWith("/admin");
  const showNav = session.status === "authenticated" && !isAdminArea;
  return (
    <div className={cx("app", showNav && "app--with-nav")}>
      <Toaster />
      <main id="main" className="app__main">
        <Switch>
          {routes.map((route) => (
            <Route key={route.path} path={route.path}>
              {(params) => <Guarded route={route} params={params} />}
            </Route>
          ))}
          <Route>
            <NotFound />
          </Route>
        </Switch>
      </main>
      {showNav && <BottomNav />}
    </div>
  );
}
