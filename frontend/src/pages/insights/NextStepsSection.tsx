import { useId, useRef } from "react";
import type { QueryState } from "../../stores/query.ts";
import { DONE_PATH, OPEN_PATH } from "./paths.ts";
import { ReadStatus } from "./ReadStatus.tsx";
import { $focusStep, changeStep, tickDone } from "./step-changes.ts";
import { StepItem } from "./StepItem.tsx";
import { groupSteps, type TrackedStep } from "./tracker.ts";

/** The done steps, folded away; unticking one opens it again, back under its date. */
function DoneSteps({ steps }: { steps: TrackedStep[] }) {
  const id = useId();
  if (steps.length === 0) return null;
  const reopen = (step: TrackedStep) => {
    $focusStep.set({ id: step.id, control: "check", done: false });
    void changeStep(step, { done: false });
  };
  return (
    <details className="steps-done">
      <summary id={id}>Done ({steps.length})</summary>
      <ul className="steps" aria-labelledby={id}>
        {steps.map((step) => (
          <StepItem key={step.id} step={step} onToggle={reopen} />
        ))}
      </ul>
    </details>
  );
}

/**
 * My next steps across all clients, under Overdue, This week, Later and No date by the
 * phone's date. Ticking one folds it into Done, with an Undo; the focus goes to the
 * step that took its place.
 */
export function NextStepsSection({
  open,
  done,
  today,
}: {
  open: QueryState<TrackedStep[]>;
  done: QueryState<TrackedStep[]>;
  today: string;
}) {
  const ids = useId();
  const heading = useRef<HTMLHeadingElement>(null);

  const tick = (step: TrackedStep, order: TrackedStep[]) => {
    const at = order.findIndex((s) => s.id === step.id);
    const next = order[at + 1] ?? order[at - 1];
    if (next) $focusStep.set({ id: next.id, control: "check", done: false });
    else heading.current?.focus();
    tickDone(step);
  };

  return (
    <section className="insights-section" aria-labelledby={`${ids}-title`}>
      <h2 className="insights-section__title" id={`${ids}-title`} tabIndex={-1} ref={heading}>
        My next steps
      </h2>
      <ReadStatus state={open} path={OPEN_PATH} what="your next steps">
        {(steps) => {
          const groups = groupSteps(steps, today);
          const order = groups.flatMap((group) => group.steps);
          if (groups.length === 0) {
            return <p className="insights-empty">Nothing open. The next steps of your meetings show up here.</p>;
          }
          return groups.map((group) => (
            <div key={group.key} className={`step-group step-group--${group.key}`}>
              <h3 className="step-group__title" id={`${ids}-${group.key}`}>
                {group.title}
              </h3>
              <ul className="steps" aria-labelledby={`${ids}-${group.key}`}>
                {group.steps.map((step) => (
                  <StepItem
                    key={step.id}
                    step={step}
                    overdue={group.key === "overdue"}
                    onToggle={(s) => tick(s, order)}
                  />
                ))}
              </ul>
            </div>
          ));
        }}
      </ReadStatus>
      {done.data && <DoneSteps steps={done.data} />}
      {done.error && !done.data && (
        <ReadStatus state={done} path={DONE_PATH} what="the steps done">
          {() => null}
        </ReadStatus>
      )}
    </section>
  );
}
