/** The signed-in user as `GET /api/auth/me` returns it. */
export interface User {
  id: number | string;
  email: string;
  firstName: string;
  lastName: string;
  company: string;
  position: string;
  linkedinUrl: string | null;
  profileImageUrl: string | null;
  createdAt: string;
}
