import { render } from "react-dom";
import { App } from "./App.tsx";
import { matchPath } from "./lib/access.ts";
import { keepInstallPrompt } from "./lib/install-prompt.ts";
import { registerServiceWorker } from "./lib/service-worker.ts";
import { routes } from "./routes.tsx";
import { $reachable, watchConnection } from "./stores/connection.ts";
import { checkSession, watchSession } from "./stores/session.ts";
import "./styles/index.css";

// Fetch the current screen's code while the session is being checked, not after.
const current = routes.find((route) => matchPath(route.path, location.pathname));
void current?.page.preload();

watchSession();
watchConnection();
// Whoever the app remembered while the server was out of reach, the server decides now.
$reachable.listen((reachable) => {
  if (reachable) void checkSession(true);
});
registerServiceWorker();
keepInstallPrompt();

const root = document.getElementById("app");
if (root) {
  root.replaceChildren(); // index.html's launch screen
  render(<App />, root);
}
