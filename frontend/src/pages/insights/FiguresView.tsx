import type { ReactNode } from "react";
import { cx } from "../../lib/cx.ts";
import { followUpDelay, type Figures } from "./figures.ts";
import { WeeksChart } from "./WeeksChart.tsx";

export interface Tile {
  label: string;
  value: ReactNode;
  /** Drawn as a warning (overdue steps). */
  alert?: boolean;
}

/**
 * The figures as tiles, then the meetings of the last twelve weeks. `before` puts tiles
 * first (the admin's count of users); the rest are the same for one user or for all.
 */
export function FiguresView({ figures, before = [] }: { figures: Figures; before?: Tile[] }) {
  const delay = followUpDelay(figures.medianHoursToFollowUp);
  const tiles: Tile[] = [
    ...before,
    { label: "Meetings this month", value: figures.meetingsThisMonth },
    { label: "Meetings last month", value: figures.meetingsLastMonth },
    { label: "Follow-ups sent this month", value: figures.followUpsThisMonth },
    {
      label: "Median time to follow-up",
      value: (
        <>
          <span aria-hidden="true">{delay.text}</span>
          <span className="sr-only">{delay.spoken}</span>
        </>
      ),
    },
    { label: "Open next steps", value: figures.openItems },
    { label: "Overdue next steps", value: figures.overdueItems, alert: figures.overdueItems > 0 },
  ];
  return (
    <div className="figures">
      <dl className="figures__tiles">
        {tiles.map((tile) => (
          <div key={tile.label} className={cx("figure", tile.alert && "figure--alert")}>
            <dt className="figure__label">{tile.label}</dt>
            <dd className="figure__value">{tile.value}</dd>
          </div>
        ))}
      </dl>
      <WeeksChart weeks={figures.weeks} />
    </div>
  );
}
