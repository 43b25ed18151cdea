import { TrashIcon } from "../../components/action-icons.tsx";
import { Button } from "../../components/Button.tsx";
import { Field } from "../../components/Field.tsx";
import { Input } from "../../components/Input.tsx";
import { blankStep, type EditableStep, WHO_CHOICES, withDueDate } from "./next-steps.ts";

const value = (event: Event) => (event.currentTarget as HTMLInputElement | HTMLSelectElement).value;

/**
 * The next steps as the email preview corrects them: reword, say who and by when,
 * remove, add. The email line of each is the server's rendering once saved.
 */
export function StepsEditor({
  steps,
  clientName,
  problem,
  onChange,
}: {
  steps: EditableStep[];
  clientName: string;
  /** The list's problem, shown once the owner tried to save. */
  problem: string | null;
  onChange: (steps: EditableStep[]) => void;
}) {
  const update = (key: string, change: (step: EditableStep) => EditableStep) =>
    onChange(steps.map((step) => (step.key === key ? change(step) : step)));
  const choices = WHO_CHOICES.map((c) => (c.value === "client" ? { ...c, label: clientName || c.label } : c));

  return (
    <fieldset className="steps-edit">
      <legend>Next Steps</legend>
      {steps.length === 0 && <p className="muted">No next steps. Add one if the meeting agreed on any.</p>}
      <ol className="steps-edit__list">
        {steps.map((step, i) => {
          const who = choices.some((c) => c.value === step.who)
            ? choices
            : [...choices, { value: step.who, label: step.who }];
          const empty = problem !== null && step.action.trim() === "";
          return (
            <li key={step.key} className="steps-edit__item">
              <Input
                label={`Step ${i + 1}`}
                value={step.action}
                autoComplete="off"
                error={empty ? "Every next step needs an action" : undefined}
                onInput={(e) => update(step.key, (s) => ({ ...s, action: value(e as unknown as Event) }))}
              />
              <div className="steps-edit__row">
                <Field
                  label="Who"
                  control={(control) => (
                    <select
                      {...control}
                      className="field__input"
                      value={step.who}
                      onChange={(e) => update(step.key, (s) => ({ ...s, who: value(e as unknown as Event) }))}
                    >
                      {who.map((c) => (
                        <option key={c.value} value={c.value}>
                          {c.label}
                        </option>
                      ))}
                    </select>
                  )}
                />
                <Input
                  label="Due"
                  type="date"
                  value={step.dueDate}
                  hint={step.dueText ? `The email says “${step.dueText}”` : undefined}
                  onInput={(e) => update(step.key, (s) => withDueDate(s, value(e as unknown as Event)))}
                />
              </div>
              <label className="steps-edit__done">
                <input
                  type="checkbox"
                  checked={step.done}
                  onChange={(e) => update(step.key, (s) => ({ ...s, done: (e.currentTarget as HTMLInputElement).checked }))}
                />
                Done
              </label>
              <Button
                type="button"
                variant="outline"
                size="sm"
                className="steps-edit__remove"
                aria-label={`Remove step ${i + 1}`}
                onClick={() => onChange(steps.filter((s) => s.key !== step.key))}
              >
                <TrashIcon size={16} />
                Remove
              </Button>
            </li>
          );
        })}
      </ol>
      <Button type="button" variant="outline" size="sm" onClick={() => onChange([...steps, blankStep({ who: "me" })])}>
        Add step
      </Button>
      {problem && (
        <p role="alert" className="field__error">
          {problem}
        </p>
      )}
    </fieldset>
  );
}
