import { render } from "react-dom";
import { App } from "./App.tsx";
import { matchPath } from "./lib/access.ts";
import { routes } from "./routes.tsx";
import { watchSession } from "./stores/session.ts";
import "./styles/index.css";

// Fetch the current screen's code while the session is being checked, not after.
const current = routes.find((route) => matchPath(route.path, location.pathname));
void current?.page.preload();

watchSession();

const root = document.getElementById("app");
if (root) render(<App />, root);
