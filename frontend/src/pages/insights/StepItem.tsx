import { useStore } from "@nanostores/react";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { Link } from "wouter";
import { Button } from "../../components/Button.tsx";
import { Input } from "../../components/Input.tsx";
import { cx } from "../../lib/cx.ts";
import { shortDay } from "../client/next-steps.ts";
import { calendarPath } from "./paths.ts";
import { $focusStep, changeStep } from "./step-changes.ts";
import { trackerWho, type TrackedStep } from "./tracker.ts";

/** Its due date, typed or picked; Save sends it, and an emptied field removes the date. */
function DateEditor({ step, id, onDone }: { step: TrackedStep; id: string; onDone: () => void }) {
  const [value, setValue] = useState(step.dueDate ?? "");
  const save = (dueDate: string | null) => {
    onDone();
    if (dueDate !== step.dueDate) void changeStep(step, { dueDate });
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    save(value || null);
  };
  return (
    <form id={id} className="step__date-form" noValidate onSubmit={submit}>
      <Input
        label="Due date"
        type="date"
        value={value}
        hint={step.dueDate ? "Empty the field to remove the date." : undefined}
        onInput={(event) => setValue((event.currentTarget as HTMLInputElement).value)}
      />
      <div className="btn-row">
        <Button type="submit" size="sm">
          Save date
        </Button>
        {step.dueDate && (
          <Button variant="outline" size="sm" onClick={() => save(null)}>
            Remove date
          </Button>
        )}
      </div>
    </form>
  );
}

/**
 * One next step: its checkbox (named by the action), whose client it is, who does it
 * and by when; an open step's date can be changed and, once dated, added to a calendar.
 */
export function StepItem({
  step,
  overdue = false,
  onToggle,
}: {
  step: TrackedStep;
  overdue?: boolean;
  onToggle: (step: TrackedStep) => void;
}) {
  const ids = useId();
  const [editing, setEditing] = useState(false);
  const focus = useStore($focusStep);
  const root = useRef<HTMLLIElement>(null);

  // Asked for after a change that drew the step again, possibly in another group.
  useEffect(() => {
    if (!focus || focus.id !== step.id || focus.done !== step.done) return;
    root.current?.querySelector<HTMLElement>(focus.control === "check" ? ".step__check" : ".step__date-toggle")?.focus();
    $focusStep.set(null);
  }, [focus, step.id, step.done]);

  const checkId = `${ids}-check`;
  const metaId = `${ids}-meta`;
  const editorId = `${ids}-date`;
  return (
    <li ref={root} className={cx("step", step.done && "step--done")}>
      <input
        id={checkId}
        type="checkbox"
        className="step__check"
        checked={step.done}
        aria-describedby={metaId}
        onChange={() => onToggle(step)}
      />
      <div className="step__body">
        <label htmlFor={checkId} className="step__action">
          {step.action}
        </label>
        <p className="step__meta" id={metaId}>
          <Link href={`/client/${step.clientId}`}>{step.clientName}</Link>
          <span aria-hidden="true"> · </span>
          <span>Who: {trackerWho(step.who, step.clientName)}</span>
          {step.dueDate && (
            <>
              <span aria-hidden="true"> · </span>
              <span className={cx("step__due", overdue && "step__due--overdue")}>
                Due <time dateTime={step.dueDate}>{shortDay(step.dueDate)}</time>
              </span>
            </>
          )}
        </p>
        {!step.done && (
          <div className="step__tools">
            <Button
              variant="ghost"
              size="sm"
              className="step__date-toggle"
              aria-expanded={editing}
              aria-controls={editing ? editorId : undefined}
              onClick={() => setEditing((open) => !open)}
            >
              {step.dueDate ? "Change date" : "Add date"}
            </Button>
            {step.dueDate && (
              <a className="btn btn--ghost btn--sm" href={calendarPath(step.id)} download>
                Add to calendar
              </a>
            )}
          </div>
        )}
        {editing && !step.done && (
          <DateEditor
            step={step}
            id={editorId}
            onDone={() => {
              setEditing(false);
              $focusStep.set({ id: step.id, control: "date", done: false });
            }}
          />
        )}
      </div>
    </li>
  );
}
