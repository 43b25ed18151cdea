import { render } from "react-dom";
import { App } from "./App.tsx";
import { matchPath } from "./lib/access.ts";
import { keepInstallPrompt } from "./lib/install-prompt.ts";
import { registerServiceWorker } from "./lib/service-worker.ts";
import { routes } from "./routes.tsx";
import { $reachable, watchConnection } from "./stores/connection.ts";
import { query } from "./stores/query.ts";
import { $session, checkSession, watchSession } from "./stores/session.ts";
import { showCarriedToast } from "./stores/toast.ts";
import "./styles/index.css";

// Fetch the current screen's code while the session is being checked, not after,
// and its data as soon as the check says someone is signed in.
const landing = location.pathname;
const current = routes.find((route) => matchPath(route.path, landing));
void current?.page.preload();
const stopWarming = $session.listen(({ status }) => {
  if (status === "loading") return;
  stopWarming();
  const params = current && matchPath(current.path, landing);
  if (status === "authenticated" && params && location.pathname === landing) {
    for (const path of current.reads?.(params) ?? []) query(path).get();
  }
});

watchSession();
watchConnection();
// Whoever the app remembered while the server was out of reach, the server decides now.
$reachable.listen((reachable) => {
  if (reachable) void checkSession(true);
});
registerServiceWorker();
keepInstallPrompt();
// A toast raised just before a full reload ("Login successful").
showCarriedToast();

const root = document.getElementById("app");
if (root) {
  root.replaceChildren(); // index.html's launch screen
  render(<App />, root);
}
