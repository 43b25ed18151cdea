import { useStore } from "@nanostores/react";
import { useEffect, useId, useState } from "react";
import { Page } from "../components/Page.tsx";
import { invalidate, query, type QueryState } from "../stores/query.ts";
import type { Insights as InsightsData } from "./insights/figures.ts";
import { FiguresView } from "./insights/FiguresView.tsx";
import { NextStepsSection } from "./insights/NextStepsSection.tsx";
import { DONE_PATH, insightsPath, localToday, OPEN_PATH } from "./insights/paths.ts";
import { ReadStatus } from "./insights/ReadStatus.tsx";
import type { TrackedStep } from "./insights/tracker.ts";
import { WaitingSection } from "./insights/WaitingSection.tsx";

let shownBefore = false;

/**
 * Cached reads never go stale, but what the tracker shows changes elsewhere too (a
 * summary written by the server, an email sent from a client's page): coming back to
 * the page reads it again, showing the last answer meanwhile. The first visit's reads
 * are fresh already.
 */
function useReadAgainOnReturn(paths: string[]): void {
  useEffect(() => {
    if (shownBefore) {
      for (const path of paths) {
        const state = query(path).value;
        if (state?.data !== undefined && !state.loading) invalidate(path);
      }
    }
    shownBefore = true;
  }, []);
}

function FiguresSection({ state, path }: { state: QueryState<InsightsData>; path: string }) {
  const id = useId();
  return (
    <section className="insights-section" aria-labelledby={id}>
      <h2 className="insights-section__title" id={id}>
        Figures
      </h2>
      <ReadStatus state={state} path={path} what="the figures">
        {(figures) => <FiguresView figures={figures} />}
      </ReadStatus>
    </section>
  );
}

/** The follow-up tracker: my next steps by due date, the follow-ups still to send, the figures. */
export default function Insights() {
  // The day the page opened on: groups and figures agree, even across midnight.
  const [today] = useState(() => localToday());
  const path = insightsPath(today);
  const open = useStore(query<TrackedStep[]>(OPEN_PATH));
  const done = useStore(query<TrackedStep[]>(DONE_PATH));
  const insights = useStore(query<InsightsData>(path));
  // After the reads' own subscriptions: a read asked again while watched keeps its data on screen.
  useReadAgainOnReturn([OPEN_PATH, DONE_PATH, path]);
  return (
    <Page title="Insights" className="insights">
      <NextStepsSection open={open} done={done} today={today} />
      <WaitingSection state={insights} path={path} />
      <FiguresSection state={insights} path={path} />
    </Page>
  );
}
