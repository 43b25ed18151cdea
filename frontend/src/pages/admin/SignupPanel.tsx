import { useEffect, useId, useState } from "react";
import { Button } from "../../components/Button.tsx";
import { Card, CardHeader } from "../../components/Card.tsx";
import { EmailInput, Input } from "../../components/Input.tsx";
import { api, errorMessage } from "../../lib/api.ts";
import { isAdminSessionLost } from "../../stores/admin.ts";
import { toast } from "../../stores/toast.ts";

type Mode = "open" | "invitation" | "closed";

interface SignupPolicy {
  mode: Mode;
  domains: string[];
}

interface Invitation {
  link: string;
  email: string | null;
  expiresAt: string;
  delivery?: "sent" | "outbox";
}

const MODES: ReadonlyArray<{ value: Mode; label: string; hint: string }> = [
  { value: "open", label: "Open", hint: "Anyone who can reach this server creates an account." },
  { value: "invitation", label: "By invitation", hint: "Only with a single-use link made here." },
  { value: "closed", label: "Closed", hint: "Nobody creates an account." },
];

interface SignupPanelProps {
  /** The tab is shown: the policy is read the first time it is. */
  active: boolean;
  /** The admin session is gone: the dashboard signs out. */
  onSessionLost: () => void;
}

/** Who may sign up, and invitation links: the admin's control over new accounts. */
export function SignupPanel({ active, onSessionLost }: SignupPanelProps) {
  const id = useId();
  const [policy, setPolicy] = useState<SignupPolicy | null>(null);
  const [mode, setMode] = useState<Mode>("open");
  const [domains, setDomains] = useState("");
  const [saving, setSaving] = useState(false);
  const [inviteEmail, setInviteEmail] = useState("");
  const [sendIt, setSendIt] = useState(false);
  const [inviting, setInviting] = useState(false);
  const [invitation, setInvitation] = useState<Invitation | null>(null);

  const failed = (title: string, err: unknown) => {
    if (isAdminSessionLost(err)) return onSessionLost();
    toast({ title, description: errorMessage(err, "The server did not answer"), variant: "destructive" });
  };

  const show = (p: SignupPolicy) => {
    setPolicy(p);
    setMode(p.mode);
    setDomains(p.domains.join(", "));
  };

  // Read when the tab is first shown; after a failed read, the next time it is shown.
  const [asked, setAsked] = useState(false);
  useEffect(() => {
    if (!active) {
      if (asked && !policy) setAsked(false);
      return;
    }
    if (asked) return;
    setAsked(true);
    api.get<SignupPolicy>("/api/admin/signup-policy").then(show, (err) => failed("Failed to load sign-up", err));
  }, [active, asked]);

  const save = async (event: Event) => {
    event.preventDefault();
    setSaving(true);
    try {
      show(await api.put<SignupPolicy>("/api/admin/signup-policy", { mode, domains: [domains] }));
      toast({ title: "Sign-up saved" });
    } catch (err) {
      failed("Sign-up not saved", err);
    }
    setSaving(false);
  };

  const invite = async (event: Event) => {
    event.preventDefault();
    setInviting(true);
    try {
      const email = inviteEmail.trim();
      const made = await api.post<Invitation>("/api/admin/invitations", {
        ...(email ? { email } : {}),
        send: sendIt && email !== "",
      });
      setInvitation(made);
      if (made.delivery === "sent") toast({ title: "Invitation sent", description: `E-mailed to ${made.email}` });
      if (made.delivery === "outbox") {
        toast({ title: "Saved to outbox", description: "Email is not configured on this server: pass the link on." });
      }
    } catch (err) {
      failed("No invitation made", err);
    }
    setInviting(false);
  };

  return (
    <div className="admin-signup">
      <Card>
        <CardHeader id={`${id}-policy`} title="Sign-up" description="Who may create an account on this server." />
        <form className="form" noValidate aria-labelledby={`${id}-policy`} onSubmit={save}>
          <fieldset className="admin-signup__modes" disabled={!policy}>
            <legend>Sign-up is</legend>
            {MODES.map((m) => (
              <label key={m.value} className="admin-signup__mode">
                <input
                  type="radio"
                  name={`${id}-mode`}
                  value={m.value}
                  checked={mode === m.value}
                  onChange={() => setMode(m.value)}
                />
                <span>
                  <strong>{m.label}</strong> <span className="admin-signup__hint">{m.hint}</span>
                </span>
              </label>
            ))}
          </fieldset>
          <Input
            label="Allowed e-mail domains (optional)"
            autoComplete="off"
            autoCapitalize="none"
            spellcheck={false}
            placeholder="firm.example"
            hint="Open sign-up takes addresses at these domains only; empty: any domain."
            value={domains}
            disabled={!policy}
            onInput={(e) => setDomains((e.target as HTMLInputElement).value)}
          />
          <Button type="submit" block busy={saving} disabled={!policy}>
            Save Sign-up
          </Button>
        </form>
      </Card>

      <Card>
        <CardHeader
          id={`${id}-invite`}
          title="Invite someone"
          description="A link that creates one account, within seven days."
        />
        <form className="form" noValidate aria-labelledby={`${id}-invite`} onSubmit={invite}>
          <EmailInput
            label="Their e-mail (optional)"
            hint="With an address, only that address can use the link."
            value={inviteEmail}
            onInput={(e) => setInviteEmail((e.target as HTMLInputElement).value)}
          />
          <label className="admin-signup__mode">
            <input
              type="checkbox"
              checked={sendIt}
              disabled={inviteEmail.trim() === ""}
              onChange={(e) => setSendIt((e.target as HTMLInputElement).checked)}
            />
            <span>E-mail the link to them</span>
          </label>
          <Button type="submit" block busy={inviting}>
            Create Invitation Link
          </Button>
        </form>
        {invitation && (
          <div className="admin-signup__link">
            <Input label="Invitation link" readOnly value={invitation.link} onFocus={(e) => e.currentTarget.select()} />
            <p className="admin-signup__hint">
              Single use{invitation.email ? `, for ${invitation.email}` : ""}, until{" "}
              {new Date(invitation.expiresAt).toLocaleDateString()}.
            </p>
          </div>
        )}
      </Card>
    </div>
  );
}
