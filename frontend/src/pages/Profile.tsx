import { useStore } from "@nanostores/react";
import { useState } from "react";
import { useLocation } from "wouter";
import { Button } from "../components/Button.tsx";
import { Page } from "../components/Page.tsx";
import { api } from "../lib/api.ts";
import { $session, clearSession } from "../stores/session.ts";
import { toast } from "../stores/toast.ts";
import { CalendarFeed } from "./profile/CalendarFeed.tsx";
import { ChangePassword } from "./profile/ChangePassword.tsx";
import { ProfileDetails } from "./profile/ProfileDetails.tsx";
import { ProfilePicture } from "./profile/ProfilePicture.tsx";

export default function Profile() {
  const { user } = useStore($session);
  const [, navigate] = useLocation();
  const [busy, setBusy] = useState(false);

  const logOut = async () => {
    setBusy(true);
    try {
      await api.post("/api/auth/logout");
    } catch {
      // Signing out locally is still right: the server session is gone or unreachable.
    }
    clearSession(); // the user and every cached read
    toast({ title: "Logged out" });
    navigate("/login", { replace: true });
  };

  return (
    <Page title="Profile">
      {user && (
        <>
          <ProfilePicture user={user} />
          <ProfileDetails key={user.id} user={user} />
          <ChangePassword />
          <CalendarFeed />
        </>
      )}
      <Button variant="outline" block busy={busy} onClick={logOut}>
        Log Out
      </Button>
    </Page>
  );
}
