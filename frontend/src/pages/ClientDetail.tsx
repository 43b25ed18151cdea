import { useStore } from "@nanostores/react";
import { useEffect, useRef, useState } from "react";
import { Link, useLocation, useSearch } from "wouter";
import { PencilIcon, TrashIcon } from "../components/action-icons.tsx";
import { Button } from "../components/Button.tsx";
import { Card, CardHeader } from "../components/Card.tsx";
import { ConfirmDialog } from "../components/ConfirmDialog.tsx";
import { AlertIcon, ArrowLeftIcon, UserIcon } from "../components/icons.tsx";
import { Page } from "../components/Page.tsx";
import { Spinner } from "../components/Spinner.tsx";
import { api, ApiError, errorMessage } from "../lib/api.ts";
import { endAnnouncement, isRunning, NO_SUMMARY } from "../lib/job.ts";
import { findPendingUpload } from "../lib/pending-upload.ts";
import { deleteRecording } from "../lib/recordings-db.ts";
import type { Client, ClientRow, Job } from "../lib/types.ts";
import { invalidate, query, setQueryData } from "../stores/query.ts";
import { $session } from "../stores/session.ts";
import { toast } from "../stores/toast.ts";
import { clientPath, LIST_PATH, rememberClient } from "./client/client-cache.ts";
import { EditClientDialog } from "./client/EditClientDialog.tsx";
import { EmailButton } from "./client/EmailButton.tsx";
import { NextStepsCard } from "./client/NextStepsCard.tsx";
import { ProcessingCard } from "./client/ProcessingCard.tsx";
import { RecordingCard } from "./client/RecordingCard.tsx";
import { RegenerateSummary } from "./client/RegenerateSummary.tsx";
import { TranscriptCard } from "./client/TranscriptCard.tsx";
import { useJobEvents } from "./client/use-job-events.ts";

function NotFoundCard() {
  return (
    <Page title="Client not found" ownHeading className="center-page">
      <Card className="center-card not-found">
        <div className="not-found__heading">
          <AlertIcon size={32} className="not-found__icon" />
          <h1>Client not found</h1>
        </div>
        <p className="muted">The client you're looking for doesn't exist or you don't have permission to view it.</p>
        <Link href="/history" className="btn btn--outline btn--md">
          <ArrowLeftIcon size={20} />
          Back to History
        </Link>
      </Card>
    </Page>
  );
}

/** For screen readers: what became of a job this visit watched, said once it ends. */
function useEndAnnouncement(job: Job | null): string {
  const before = useRef(job?.status);
  const [said, setSaid] = useState("");
  useEffect(() => {
    const now = endAnnouncement(before.current, job);
    before.current = job?.status;
    // Emptied while a job runs, so the same words are heard again after the next one.
    if (now || isRunning(job?.status)) setSaid(now ?? "");
  }, [job?.status]);
  return said;
}

function ClientView({ client, userId }: { client: Client; userId: string }) {
  const [, navigate] = useLocation();
  // ?email=1 (the tracker's link to a follow-up waiting to go out) opens the preview.
  const openEmail = new URLSearchParams(useSearch()).get("email") === "1";
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  // Set once Regenerate started a job: its button is gone, the Processing card takes the focus.
  const [focusJob, setFocusJob] = useState(false);
  // The recording's player, which the transcript's paragraphs play from their start.
  const [audio, setAudio] = useState<HTMLAudioElement | null>(null);
  const path = clientPath(client.id);
  const job = client.job ?? null;
  const running = isRunning(job?.status);
  useJobEvents(client.id, job?.status);
  const announcement = useEndAnnouncement(job);
  // A failed job's Retry may have to transcribe again, which the audio the retention
  // policy removed cannot be: no Retry then, and Regenerate (from the kept transcript)
  // is offered in its place.
  const audioRemoved = !!client.recording?.removedAt;
  const canRegenerate = !!client.transcription && !running && (job?.status !== "failed" || audioRemoved);

  const saved = (updated: Client) => {
    rememberClient(updated);
    setEditing(false);
  };

  const remove = async () => {
    setDeleting(true);
    try {
      await api.delete(path);
    } catch (err) {
      setDeleting(false);
      setConfirming(false);
      toast({ title: "Error", description: errorMessage(err, "Failed to delete client"), variant: "destructive" });
      return;
    }
    // The client and its recording are gone: a copy still waiting on this phone goes too.
    const pending = await findPendingUpload(String(client.id), userId);
    if (pending) await deleteRecording(pending.id).catch(() => {});
    setQueryData<ClientRow[] | undefined>(LIST_PATH, (rows) => rows?.filter((row) => row.id !== client.id));
    toast({ title: "Success", description: "Client deleted successfully" });
    navigate("/history");
    invalidate(path);
  };

  return (
    <Page title={client.name} ownHeading className="client-detail">
      <p className="sr-only" role="status">
        {announcement}
      </p>
      <Card className="client-card">
        {client.photoUrl ? (
          <img className="client-card__photo" src={client.photoUrl} alt={`Photo of ${client.name}`} />
        ) : (
          <div className="client-card__photo client-card__photo--none">
            <UserIcon size={40} />
            <span>No photo available</span>
          </div>
        )}
        <div className="client-card__who">
          <h1 className="client-card__name">{client.name}</h1>
          {client.company && (
            <p className="client-card__company">
              {client.position ? `${client.position}, ${client.company}` : client.company}
            </p>
          )}
          {!client.company && client.position && <p className="client-card__company">{client.position}</p>}
        </div>
        <dl className="client-card__contact">
          <div>
            <dt>Email</dt>
            <dd>
              <a href={`mailto:${client.email}`} className="break-all">
                {client.email}
              </a>
            </dd>
          </div>
          <div>
            <dt>Phone</dt>
            <dd>
              <a href={`tel:${client.phone.replace(/[^\d+]/g, "")}`}>{client.phone}</a>
            </dd>
          </div>
        </dl>
        <EmailButton
          client={client}
          openNow={openEmail}
          // Opened once: a reload or Back to this page shows the page itself.
          onOpened={() => navigate(`/client/${client.id}`, { replace: true })}
        />
      </Card>

      {job && <ProcessingCard clientId={client.id} job={job} canRetry={!audioRemoved} takeFocus={focusJob} />}

      <Card>
        <CardHeader title="Summary" />
        {client.summary ? (
          <p className="client-detail__text">{client.summary}</p>
        ) : (
          <p className="muted">{NO_SUMMARY}</p>
        )}
        {canRegenerate && (
          <RegenerateSummary clientId={client.id} onStarted={() => setFocusJob(true)} />
        )}
      </Card>

      <NextStepsCard client={client} />

      {client.transcription && (
        <TranscriptCard
          clientId={client.id}
          text={client.transcription}
          audio={audio}
          canRegenerate={canRegenerate}
          onRegenerateStarted={() => setFocusJob(true)}
        />
      )}

      <RecordingCard client={client} userId={userId} onAudio={setAudio} onUploaded={() => invalidate(path)} />

      <div className="btn-row">
        <Button variant="outline" onClick={() => setEditing(true)}>
          <PencilIcon size={20} />
          Edit Details
        </Button>
        <Button variant="outline" className="btn--danger-outline" onClick={() => setConfirming(true)}>
          <TrashIcon size={20} />
          Delete
        </Button>
      </div>
      <Link href="/history" className="btn btn--outline btn--md btn--block">
        <ArrowLeftIcon size={20} />
        Back to History
      </Link>

      <EditClientDialog open={editing} client={client} onClose={() => setEditing(false)} onSaved={saved} />
      <ConfirmDialog
        open={confirming}
        title="Delete Client"
        description="Are you sure you want to delete this client? This action cannot be undone."
        confirmLabel="Delete"
        busy={deleting}
        onConfirm={remove}
        onCancel={() => setConfirming(false)}
      />
    </Page>
  );
}

function LoadClient({ id }: { id: string }) {
  const [, navigate] = useLocation();
  const { user } = useStore($session);
  const path = clientPath(id);
  const { data, error } = useStore(query<Client>(path));
  const notFound = error instanceof ApiError && error.status === 404;

  useEffect(() => {
    if (!error || notFound) return;
    const description =
      error instanceof ApiError && error.status === 401 ? "User not authenticated" : errorMessage(error, "Failed to load client");
    toast({ title: "Error", description, variant: "destructive" });
    navigate("/history", { replace: true });
    // A failed read is not kept: the next visit asks again.
    invalidate(path);
  }, [error, notFound]);

  if (notFound) return <NotFoundCard />;
  if (!data || !user) {
    return (
      <div className="page-loading">
        <Spinner label="Loading client" size="lg" />
      </div>
    );
  }
  return <ClientView client={data} userId={String(user.id)} />;
}

export default function ClientDetail({ params }: { params?: { id?: string } }) {
  const id = params?.id ?? "";
  // Client ids are numbers; anything else cannot be one of the user's clients.
  if (!/^\d{1,20}$/.test(id)) return <NotFoundCard />;
  return <LoadClient key={id} id={id} />;
}
