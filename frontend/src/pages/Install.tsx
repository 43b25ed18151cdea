import { useStore } from "@nanostores/react";
import { useState } from "react";
import { Link } from "wouter";
import { Button } from "../components/Button.tsx";
import { Card, CardHeader } from "../components/Card.tsx";
import { Page } from "../components/Page.tsx";
import { Spinner } from "../components/Spinner.tsx";
import { $installPrompt } from "../lib/install-prompt.ts";
import { query } from "../stores/query.ts";
import { $session } from "../stores/session.ts";

interface InstallInfo {
  /** null: the server listens on its own machine only. */
  phoneUrl: string | null;
  /** The local certificate authority's name; null when there is none to trust. */
  localCa: string | null;
}

const installed = () =>
  matchMedia("(display-mode: standalone)").matches || (navigator as Navigator & { standalone?: boolean }).standalone === true;

function OpenOnPhone({ phoneUrl }: { phoneUrl: string | null }) {
  if (!phoneUrl) {
    return (
      <p>
        This server listens on its own machine only, so a phone cannot reach it. Start it with{" "}
        <code>--bind 0.0.0.0:8443</code> (the default) to open it from phones on the same network.
      </p>
    );
  }
  return (
    <>
      <img className="install__qr" src="/api/install/qr.svg" alt={`QR code of ${phoneUrl}`} width={200} height={200} />
      <p>Point the phone's camera at the code, or type this address in its browser:</p>
      <p className="install__url">{phoneUrl}</p>
    </>
  );
}

function TrustServer({ localCa }: { localCa: string | null }) {
  if (!localCa) {
    return (
      <>
        <p>
          There is no certificate to install: this server does not use its own certificate authority. It has a
          certificate of its own, or a server in front of it provides HTTPS.
        </p>
        {!window.isSecureContext && (
          <p className="notice" role="note">
            This page was not opened over HTTPS. Phones let the app record and install only from a secure address:
            ask whoever runs the server for its https:// address.
          </p>
        )}
      </>
    );
  }
  return (
    <>
      <p>
        Debrief makes its own certificate, so each phone trusts it once. Until then the phone warns about the
        address, will not give the app its microphone and cannot install it.
      </p>
      <h3>iPhone and iPad</h3>
      <ol className="install__steps">
        <li>
          In Safari, <a href="/ca.mobileconfig">download the profile</a> and allow the download.
        </li>
        <li>Open Settings → General → VPN &amp; Device Management, tap “{localCa}” and install it.</li>
        <li>Open Settings → General → About → Certificate Trust Settings and turn on full trust for “{localCa}”.</li>
      </ol>
      <h3>Android</h3>
      <ol className="install__steps">
        <li>
          <a href="/ca.crt" download="debrief-ca.crt">
            Download the certificate
          </a>
          .
        </li>
        <li>
          Open Settings → Security (or Security &amp; privacy) → More → Encryption &amp; credentials → Install a
          certificate → CA certificate, and choose debrief-ca.crt.
        </li>
      </ol>
      <p className="muted">
        On a computer, <a href="/ca.pem">the certificate as PEM</a> goes into the system's or the browser's trusted
        authorities.
      </p>
    </>
  );
}

function AddToHomeScreen() {
  const prompt = useStore($installPrompt);
  const [done, setDone] = useState(installed);
  if (done) return <p>Debrief is installed on this phone: open it from the home screen.</p>;
  const install = async () => {
    if (!prompt) return;
    await prompt.prompt();
    const { outcome } = await prompt.userChoice;
    $installPrompt.set(null);
    if (outcome === "accepted") setDone(true);
  };
  return (
    <>
      {prompt && (
        <Button block onClick={() => void install()}>
          Install Debrief
        </Button>
      )}
      <h3>iPhone and iPad</h3>
      <p>In Safari, tap Share, then Add to Home Screen.</p>
      <h3>Android</h3>
      <p>In Chrome, open the ⋮ menu and tap Install app (or Add to Home screen).</p>
      <p className="muted">Installed, Debrief opens in its own window and still records when the server is out of reach.</p>
    </>
  );
}

/** "Install on this phone": open the server's address, trust its certificate, add the app. */
export default function Install() {
  const info = useStore(query<InstallInfo>("/api/install"));
  const signedIn = useStore($session).status === "authenticated";
  return (
    <Page title="Install on this phone" className="install">
      {info.loading || (!info.data && !info.error) ? (
        <Spinner label="Loading" />
      ) : info.error || !info.data ? (
        <p className="notice" role="alert">
          The server cannot be reached, so its address and certificate cannot be shown. Try again once the phone is
          on the office network.
        </p>
      ) : (
        <>
          <Card>
            <CardHeader title="Open Debrief on the phone" />
            <OpenOnPhone phoneUrl={info.data.phoneUrl} />
          </Card>
          <Card>
            <CardHeader title="Trust the server" />
            <TrustServer localCa={info.data.localCa} />
          </Card>
        </>
      )}
      <Card>
        <CardHeader title="Add it to the home screen" />
        <AddToHomeScreen />
      </Card>
      <Link href={signedIn ? "/" : "/login"} className="btn btn--outline btn--md">
        {signedIn ? "Back to the app" : "Back to sign in"}
      </Link>
    </Page>
  );
}
