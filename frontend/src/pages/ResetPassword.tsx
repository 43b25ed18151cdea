import { useSearch } from "wouter";
import { RequestReset } from "./reset/RequestReset.tsx";
import { SetNewPassword } from "./reset/SetNewPassword.tsx";

// /reset-password asks for a link by email; the link (/reset-password?token=…)
// opens the form that sets the new password.
export default function ResetPassword() {
  const token = new URLSearchParams(useSearch()).get("token");
  return token ? <SetNewPassword token={token} /> : <RequestReset />;
}
