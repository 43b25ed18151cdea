import { useRef, useState, type ChangeEvent } from "react";
import { useLocation } from "wouter";
import { Avatar } from "../../components/Avatar.tsx";
import { Button } from "../../components/Button.tsx";
import { Card } from "../../components/Card.tsx";
import { api, ApiError, errorMessage } from "../../lib/api.ts";
import { PHOTO_ALERTS, photoErrorText, processPhoto } from "../../lib/image.ts";
import type { User } from "../../lib/types.ts";
import { setUser } from "../../stores/session.ts";
import { toast } from "../../stores/toast.ts";
import { authRequired } from "./auth-required.ts";

/** The avatar with its name, and the buttons that upload or remove the picture. */
export function ProfilePicture({ user }: { user: User }) {
  const [, navigate] = useLocation();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState<"upload" | "remove" | null>(null);
  // The picture being sent shows at once; the server's copy replaces it when saved.
  const [preview, setPreview] = useState<string | null>(null);

  const failed = (err: unknown, title: string) => {
    if (err instanceof ApiError && err.status === 401) return authRequired(navigate);
    toast({ title, description: errorMessage(err, PHOTO_ALERTS.generic), variant: "destructive" });
  };

  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0];
    event.currentTarget.value = ""; // picking the same file again still counts
    if (!file) return;
    setBusy("upload");
    try {
      let picture: string;
      try {
        picture = await processPhoto(file);
      } catch (err) {
        toast({ title: "Upload failed", description: photoErrorText(err), variant: "destructive" });
        return;
      }
      setPreview(picture);
      try {
        setUser(await api.post<User>("/api/profile/picture", { picture }));
        toast({ title: "Profile picture updated" });
      } catch (err) {
        failed(err, "Upload failed");
      }
    } finally {
      setPreview(null);
      setBusy(null);
    }
  };

  const remove = async () => {
    setBusy("remove");
    try {
      setUser(await api.delete<User>("/api/profile/picture"));
      toast({ title: "Profile picture removed" });
    } catch (err) {
      failed(err, "Update failed");
    } finally {
      setBusy(null);
    }
  };

  const src = preview ?? user.profileImageUrl;
  return (
    <Card className="profile-card">
      <div className="profile-card__who">
        <Avatar
          size="lg"
          src={src}
          firstName={user.firstName}
          lastName={user.lastName}
          label={src ? "Your profile picture" : undefined}
        />
        <div className="profile-card__text">
          <p className="profile-card__name">{`${user.firstName} ${user.lastName}`}</p>
          <p className="muted">{user.email}</p>
        </div>
      </div>
      <div className="profile-card__actions">
        <input
          ref={input}
          type="file"
          accept="image/*"
          hidden
          aria-label="Profile picture file"
          onChange={upload}
        />
        <Button variant="outline" size="sm" busy={busy === "upload"} onClick={() => input.current?.click()}>
          {busy === "upload" ? "Uploading…" : "Upload Picture"}
        </Button>
        {user.profileImageUrl && (
          <Button variant="ghost" size="sm" busy={busy === "remove"} onClick={remove}>
            Remove Picture
          </Button>
        )}
      </div>
    </Card>
  );
}
