import { clearSession } from "../../stores/session.ts";
import { toast } from "../../stores/toast.ts";

/** The server no longer knows this session: say so, forget the user, go to /login. */
export function authRequired(navigate: (to: string, options?: { replace?: boolean }) => void): void {
  toast({
    title: "Authentication required",
    description: "Please log in again to update your profile.",
    variant: "destructive",
  });
  clearSession();
  navigate("/login", { replace: true });
}
