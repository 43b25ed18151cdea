import { useState } from "react";
import { cx } from "../lib/cx.ts";

interface AvatarProps {
  src?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  /** Describes the picture; the initials alone say nothing to a screen reader. */
  label?: string;
  size?: "sm" | "md" | "lg";
  className?: string;
}

export function initials(firstName?: string | null, lastName?: string | null): string {
  const first = (firstName ?? "").trim().charAt(0);
  const last = (lastName ?? "").trim().charAt(0);
  return (first + last).toUpperCase() || "U";
}

export function Avatar({ src, firstName, lastName, label, size = "md", className }: AvatarProps) {
  // Remember which address failed, so a new picture gets its own chance to load.
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const classes = cx("avatar", `avatar--${size}`, className);
  if (src && src !== failedSrc) {
    return <img className={classes} src={src} alt={label ?? ""} onError={() => setFailedSrc(src)} />;
  }
  return (
    <span className={classes} role={label ? "img" : undefined} aria-label={label}>
      <span aria-hidden={label ? "true" : undefined}>{initials(firstName, lastName)}</span>
    </span>
  );
}
