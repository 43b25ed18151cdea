import { useStore } from "@nanostores/react";
import { Page } from "../components/Page.tsx";
import { RecorderCard } from "../recorder/RecorderCard.tsx";
import { $session } from "../stores/session.ts";
import { ClientsHeader } from "./clients/ClientsHeader.tsx";
import { ClientForm } from "./new-client/ClientForm.tsx";
import { QueuedSaves } from "./new-client/QueuedSaves.tsx";

export default function NewClient() {
  const { user } = useStore($session);
  const userId = user ? String(user.id) : null;
  return (
    <Page title="New Client" ownHeading className="new-client">
      <ClientsHeader />
      <h1 className="sr-only">New Client</h1>
      <QueuedSaves />
      {userId && <RecorderCard userId={userId} />}
      <ClientForm userId={userId} />
    </Page>
  );
}
