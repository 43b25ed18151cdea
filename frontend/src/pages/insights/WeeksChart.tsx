import { useId } from "react";
import { cx } from "../../lib/cx.ts";
import { chartSummary, layoutBars, weekLabel, type Week } from "./figures.ts";

// The drawing's own units; the SVG scales to the width it is given.
const WIDTH = 280;
const PLOT = 96;
const HEAD = 14; // room above the tallest bar for its count

/**
 * Meetings per week, drawn here: a bar a week, this week's last and stronger, its count
 * above each bar that has one. Screen readers get it as one sentence: the total, the
 * busiest week and this week.
 */
export function WeeksChart({ weeks }: { weeks: Week[] }) {
  const id = useId();
  const { bars } = layoutBars(weeks, { width: WIDTH, height: PLOT });
  if (bars.length === 0) return null;
  const last = bars.length - 1;
  return (
    <figure className="weeks-chart" aria-labelledby={`${id}-caption`}>
      <figcaption className="weeks-chart__caption" id={`${id}-caption`}>
        Meetings per week
      </figcaption>
      <svg
        className="weeks-chart__svg"
        viewBox={`0 0 ${WIDTH} ${PLOT + HEAD}`}
        role="img"
        aria-label={chartSummary(weeks)}
        focusable="false"
      >
        <g transform={`translate(0 ${HEAD})`}>
          <line className="weeks-chart__base" x1={0} x2={WIDTH} y1={PLOT + 0.5} y2={PLOT + 0.5} />
          {bars.map((bar, i) => (
            <g key={bar.start}>
              {bar.height > 0 && (
                <rect
                  className={cx("weeks-chart__bar", i === last && "weeks-chart__bar--now")}
                  x={bar.x}
                  y={bar.y}
                  width={bar.width}
                  height={bar.height}
                  rx={2}
                />
              )}
              {bar.meetings > 0 && (
                <text className="weeks-chart__count" x={bar.x + bar.width / 2} y={bar.y - 3} text-anchor="middle">
                  {bar.meetings}
                </text>
              )}
            </g>
          ))}
        </g>
      </svg>
      <div className="weeks-chart__axis" aria-hidden="true">
        <span>{weekLabel(weeks[0].start)}</span>
        <span>This week</span>
      </div>
    </figure>
  );
}
