import { useEffect, useState } from "react";
import { api } from "../../lib/api.ts";
import { isAdminSessionLost } from "../../stores/admin.ts";
import type { AdminInsights } from "../insights/figures.ts";
import { FiguresView } from "../insights/FiguresView.tsx";
import { adminInsightsPath, localToday } from "../insights/paths.ts";
import { LoadFailed, Loading } from "./ListStatus.tsx";

type Read = { status: "idle" | "loading" | "failed" } | { status: "ready"; figures: AdminInsights };

/** The tracker's figures over every user's clients: counts only, nobody's names. */
export function InsightsPanel({ active, onSessionLost }: { active: boolean; onSessionLost: () => void }) {
  const [read, setRead] = useState<Read>({ status: "idle" });

  const load = () => {
    setRead({ status: "loading" });
    api.get<AdminInsights>(adminInsightsPath(localToday())).then(
      (figures) => setRead({ status: "ready", figures }),
      (err: unknown) => {
        if (isAdminSessionLost(err)) onSessionLost();
        else setRead({ status: "failed" });
      },
    );
  };

  // Read each time the tab is shown: the figures move while the dashboard is open.
  useEffect(() => {
    if (active) load();
  }, [active]);

  if (read.status === "ready") {
    return <FiguresView figures={read.figures} before={[{ label: "Users", value: read.figures.users }]} />;
  }
  if (read.status === "failed") return <LoadFailed text="Failed to load the figures" onRetry={load} />;
  return <Loading text="Loading the figures…" />;
}
