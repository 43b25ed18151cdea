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
  /** False until the address is confirmed where the sign-up policy asks for it (absent from older servers). */
  emailConfirmed?: boolean;
  /** A new address waiting for the link mailed to it. */
  pendingEmail?: string | null;
}

/** Where the server's transcription and summary of a client's recording stands. */
export type JobStatus = "queued" | "transcribing" | "summarising" | "waiting_for_model" | "done" | "failed";

/** The background job of a client's recording (`Client.job`, the `job` event). */
export interface Job {
  status: JobStatus;
  /** 0–100 within the current stage (transcribing or summarising). */
  progress: number;
  /** failed: why, for the user; waiting_for_model: what is missing (it resumes once installed). */
  error: string | null;
  updatedAt: string;
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
  /** null when the client has no recording. */
  jobStatus: JobStatus | null;
  createdAt: string;
}

/** Who will do a next step: the consultant, the client, both sides, a name, or not said. */
export type Who = "me" | "client" | "we" | "unattributed" | (string & {});

/** One next step as the server keeps it (`src/domain/action_item_record.rs`). */
export interface ActionItem {
  id: number;
  who: Who;
  action: string;
  /** The deadline as said: "by Friday". */
  dueText: string | null;
  /** The deadline as a date, YYYY-MM-DD. */
  dueDate: string | null;
  /** The item as its line of the email reads. */
  line: string;
  done: boolean;
  source: "summary" | "edited" | "added";
}

/** What the server confirmed of a client's recording. */
export interface RecordingInfo {
  /** Of the WAV as uploaded, in bytes. */
  size: number;
  sha256: string;
  durationMs: number;
  /** How the audio is kept: the WAV as uploaded, then Ogg Opus once it is transcribed. */
  contentType: "audio/wav" | "audio/ogg";
  /** Bytes as kept now. */
  storedSize: number;
  /**
   * When the retention policy removed the audio (`recordingUrl` is then null); the
   * transcript, summary and next steps stay.
   */
  removedAt: string | null;
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
  /** One step per line: the rendering of `actionItems`, or the owner's own text. */
  nextSteps: string | null;
  /** The next steps as items; empty for a client whose steps are text only. */
  actionItems?: ActionItem[];
  /** null when the client has no recording. */
  job: Job | null;
  createdAt: string;
}
