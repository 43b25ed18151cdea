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

/** A row of `GET /api/clients`: what the History list shows. */
export interface ClientRow {
  id: number;
  name: string;
  email: string;
  company: string | null;
  photoUrl: string | null;
  /** The first 200 characters or so. */
  summary: string | null;
  createdAt: string;
}

/** What the server confirmed of a client's recording. */
export interface RecordingInfo {
  size: number;
  sha256: string;
  durationMs: number;
}

/** A client as `GET /api/clients/{id}` returns it. */
export interface Client {
  id: number;
  userId: number | string;
  name: string;
  email: string;
  phone: string;
  company: string | null;
  position: string | null;
  photoUrl: string | null;
  recordingUrl: string | null;
  recording: RecordingInfo | null;
  transcription: string | null;
  summary: string | null;
  /** One step per line. */
  nextSteps: string | null;
  createdAt: string;
}
