import { Link } from "wouter";
import { Card } from "../components/Card.tsx";
import { ArrowLeftIcon } from "../components/icons.tsx";
import { Page } from "../components/Page.tsx";

export default function ClientDetail({ params }: { params?: { id?: string } }) {
  return (
    <Page title="Client Details">
      <Card>
        <p className="muted">Client {params?.id}</p>
      </Card>
      <Link href="/history" className="btn btn--outline btn--md">
        <ArrowLeftIcon size={20} />
        Back to History
      </Link>
    </Page>
  );
}
