import { useEffect, useId, useRef } from "react";
import { Button } from "../../components/Button.tsx";
import { Card, CardHeader } from "../../components/Card.tsx";
import { Input } from "../../components/Input.tsx";
import { ApiError } from "../../lib/api.ts";
import { useForm } from "../../lib/use-form.ts";
import type { EmailTemplate, LoadStatus, SaveOutcome } from "./dashboard-store.ts";
import { PREVIEW_SAMPLE, renderPreview } from "./preview.ts";
import { TextArea } from "../../components/TextArea.tsx";
import { TEMPLATE_FIELDS, validateTemplate, type TemplateValues } from "./validation.ts";

// Until the template has loaded the form holds empty strings (spec section 3).
const EMPTY: TemplateValues = {
  fromName: "",
  emailTitle: "",
  firstContentSection: "",
  secondContentSection: "",
  thirdContentSection: "",
};

const valuesOf = (t: EmailTemplate): TemplateValues =>
  Object.fromEntries(TEMPLATE_FIELDS.map((f) => [f, t[f] ?? ""])) as TemplateValues;

interface TemplatePanelProps {
  template: EmailTemplate | null;
  status: LoadStatus;
  /** The dashboard's shared busy flag. */
  busy: boolean;
  saving: boolean;
  onRetry: () => void;
  onSave: (values: TemplateValues) => Promise<SaveOutcome<EmailTemplate>>;
  /** Unsaved edits, kept by the dashboard so that switching tabs does not lose them. */
  draft: TemplateValues | null;
  onDraft: (values: TemplateValues) => void;
}

export function TemplatePanel({ template, status, busy, saving, onRetry, onSave, draft, onDraft }: TemplatePanelProps) {
  const form = useForm<keyof TemplateValues>(
    (template && draft) ?? (template ? valuesOf(template) : EMPTY),
    validateTemplate,
  );
  const loaded = template !== null;
  const titleId = `tpl-${useId()}`;
  const shown = useRef(template);

  // A template that arrives (loaded, reloaded or just saved) replaces what the form holds.
  useEffect(() => {
    if (!template || template === shown.current) return;
    shown.current = template;
    form.reset(valuesOf(template));
  }, [template]);

  useEffect(() => {
    if (loaded) onDraft(form.values);
  }, [form.values]);

  const submit = form.onSubmit(async (values) => {
    if (!loaded || busy) return;
    const trimmed = Object.fromEntries(TEMPLATE_FIELDS.map((f) => [f, values[f].trim()])) as TemplateValues;
    const outcome = await onSave(trimmed);
    if (!outcome.ok && outcome.error instanceof ApiError) form.showServerErrors(outcome.error.fieldErrors);
  });

  const preview = renderPreview(form.values);

  return (
    <div className="admin-template">
      <Card className="admin-template__form">
        <CardHeader
          id={titleId}
          title="Email Template Configuration"
          description={
            <>
              The email sent to clients after meetings. Write <code>[client name]</code> and{" "}
              <code>[user name]</code> where the client's name and the user's name should go.
            </>
          }
        />
        {status === "failed" && (
          <div className="notice notice--error" role="alert">
            <div className="notice__body">
              <p>Failed to load email template</p>
              <Button variant="outline" size="sm" onClick={onRetry}>
                Retry
              </Button>
            </div>
          </div>
        )}
        <form ref={form.ref} className="form" noValidate aria-labelledby={titleId} onSubmit={submit}>
          <fieldset className="admin-template__fields" disabled={!loaded}>
            <Input label="From Name" autoComplete="off" {...form.field("fromName")} />
            <Input
              label="Email Title"
              autoComplete="off"
              hint="Placeholders allowed: [client name], [user name]"
              {...form.field("emailTitle")}
            />
            <TextArea
              label="First Content Section"
              rows={5}
              hint="Appears before the AI summary"
              {...form.field("firstContentSection")}
            />
            <section className="admin-ai" aria-labelledby={`${titleId}-ai`}>
              <h3 className="admin-ai__title" id={`${titleId}-ai`}>
                AI-Generated Content (Not Editable)
              </h3>
              <p className="admin-ai__item">
                <strong>Meeting Summary</strong>
                <span>Filled in automatically from the recorded meeting</span>
              </p>
              <p className="admin-ai__item">
                <strong>Next Steps</strong>
                <span>Filled in automatically from the recorded meeting</span>
              </p>
            </section>
            <TextArea
              label="Second Content Section"
              rows={4}
              hint="Appears after the AI content"
              {...form.field("secondContentSection")}
            />
            <TextArea
              label="Third Content Section"
              rows={4}
              hint="An invitation to create an account"
              {...form.field("thirdContentSection")}
            />
            <Button type="submit" block busy={saving}>
              {saving ? "Saving..." : "Save Email Template"}
            </Button>
          </fieldset>
        </form>
      </Card>

      <Card className="admin-preview">
        <CardHeader
          title="Preview"
          description={`As ${PREVIEW_SAMPLE.clientName} would receive it from ${PREVIEW_SAMPLE.userName}, with sample AI content.`}
        />
        <div className="admin-preview__mail">
          <dl className="admin-preview__headers">
            <div>
              <dt>From</dt>
              <dd>{preview.fromName || "—"}</dd>
            </div>
            <div>
              <dt>Subject</dt>
              <dd>{preview.subject || "—"}</dd>
            </div>
          </dl>
          <div className="admin-preview__body">
            {preview.blocks.map((block, i) => {
              switch (block.kind) {
                case "heading":
                  return (
                    <h3 key={i} className="admin-preview__heading">
                      {block.text}
                    </h3>
                  );
                case "list":
                  return (
                    <ul key={i} className="admin-preview__list">
                      {block.items.map((item, j) => (
                        <li key={j}>{item}</li>
                      ))}
                    </ul>
                  );
                case "missing":
                  return (
                    <p key={i} className="admin-preview__missing">
                      {block.text}
                    </p>
                  );
                default:
                  return <p key={i}>{block.text}</p>;
              }
            })}
          </div>
        </div>
      </Card>
    </div>
  );
}
