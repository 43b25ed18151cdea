import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import { Redirect, Route, Switch, useLocation, useSearch } from "wouter";
import { BottomNav } from "./components/BottomNav.tsx";
import { ConfirmEmailBanner } from "./components/ConfirmEmailBanner.tsx";
import { OfflineBanner } from "./components/OfflineBanner.tsx";
import { FullScreenSpinner } from "./components/Spinner.tsx";
import { Toaster } from "./components/Toaster.tsx";
import { UpdateBar } from "./components/UpdateBar.tsx";
import { decideAccess } from "./lib/access.ts";
import { cx } from "./lib/cx.ts";
import NotFound from "./pages/NotFound.tsx";
import { resolveAccess, routes, type RouteDef } from "./routes.tsx";
import { $adminFlag } from "./stores/admin.ts";
import { $session, signedInBefore } from "./stores/session.ts";

function Guarded({ route, params }: { route: RouteDef; params: Record<string, string | undefined> }) {
  const session = useStore($session);
  const adminFlag = useStore($adminFlag);
  const search = useSearch();
  const decision = decideAccess(resolveAccess(route, search), session.status, adminFlag, signedInBefore());
  if (decision.kind === "wait") return <FullScreenSpinner label="Checking your session" />;
  if (decision.kind === "redirect") return <Redirect to={decision.to} replace />;
  const Page = route.page;
  return <Page params={params} />;
}

/** Sends what waited on the phone for the server, for whoever is signed in. */
function useWaitingWork(userId: string | null) {
  useEffect(() => {
    if (!userId) return;
    let stop: (() => void) | null = null;
    let live = true;
    void import("./offline/sync.ts").then(
      ({ startSync }) => {
        if (live) stop = startSync(userId);
      },
      () => {}, // its code could not be fetched: the next visit sends it
    );
    return () => {
      live = false;
      stop?.();
    };
  }, [userId]);
}

export function App() {
  const session = useStore($session);
  const [path] = useLocation();
  const isAdminArea = path.startsWith("/admin");
  const showNav = session.status === "authenticated" && !isAdminArea;
  useWaitingWork(session.user ? String(session.user.id) : null);
  return (
    <div className={cx("app", showNav && "app--with-nav")}>
      <Toaster />
      <main id="main" className="app__main">
        <UpdateBar />
        <OfflineBanner />
        {!isAdminArea && <ConfirmEmailBanner />}
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
