// The states the screen review shows, made the way the product makes them: accounts,
// clients, photos and recordings through the HTTP API (from Node, as a script would
// call it), administrators and reset links through the binary's own commands, speech
// by espeak-ng and sox, models by `debrief models import`.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { copyFile, mkdir, open, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { startServer } from "./harness.mjs";
import { makePng, pngDataUrl } from "./media.mjs";
import { importModels, spoken } from "./speech.mjs";

const run = promisify(execFile);
const PASSWORD = "correct horse battery";
const POLL_MS = 100;

// About two minutes of a meeting, long enough for a transcript of several paragraphs
// and for its job to be seen part-way.
const MEETING =
  "Good morning Jordan, thanks for making time today. Let's go over where the rollout stands. " +
  "The pilot with the Leeds office went well: forty people used the new booking system for three weeks, " +
  "and the support calls dropped by half. The main complaint was the mobile sign-in, which took too many steps. " +
  "Our team has already simplified it, and the new version goes live next Monday. " +
  "For the second phase we want to add the Manchester and Bristol offices in March. " +
  "That means about two hundred more users, so we need to agree on training. " +
  "I suggest two short online sessions per office rather than one long day. " +
  "On budget, the finance team approved the first phase, but the second phase still needs sign-off. " +
  "I will send the revised proposal with the updated costs by Friday. " +
  "Could you share the list of office managers, so we can plan the sessions? " +
  "Priya will book the training rooms once we have the dates. " +
  "Your IT team asked for a weekly export file instead of the live connection, and that is fine for us. " +
  "Let's schedule a follow-up call in two weeks to review the numbers from the pilot and confirm the March dates. " +
  "Thanks again, this was very helpful.";

// A client with names near the longest the forms allow (100 characters; a 20-character
// phone), with words longer than a phone's line, and a summary and next steps to match.
export const LONG = {
  name: "Maria-Antonietta Wolfeschlegelsteinhausenbergerdorff O'Sullivan-Featherstonehaugh Jr.",
  email: "maria-antonietta.wolfeschlegelsteinhausenbergerdorff@consulting.international-group.example",
  phone: "+44 (0) 20 7946 0958",
  company: "Internationale Gesellschaft für Datenverarbeitungsdienstleistungen und Kommunikationstechnik",
  position: "Senior Vice President, International Business Development and Strategic Partnerships",
  summary:
    "A long first meeting about consolidating the Wolfeschlegelsteinhausenbergerdorff group's eleven regional " +
    "data centres into two, with a migration plan over eighteen months, the works council's approval as the first " +
    "milestone and a detailed comparison of the three hosting offers before the board meeting in September. " +
    "https://example.com/a/very/long/link/that/has/no/spaces/anywhere/in/it/at/all/to/break/on",
  nextSteps: [
    "Send the comparison of the three hosting offers, with the migration costs per data centre, by the end of the month",
    "Book a workshop with the works council and the regional IT leads before the summer holidays",
    "Draft the eighteen-month migration plan",
    "Ask procurement for the Datenverarbeitungsdienstleistungsvertrag templates",
  ].join("\n"),
};

/** A signed-in caller of one server's API, holding its session cookie. */
class Api {
  constructor(url) {
    this.url = url;
    this.cookie = "";
  }

  async call(method, path, body, { form } = {}) {
    const headers = this.cookie ? { cookie: this.cookie } : {};
    let payload = form;
    if (body !== undefined) {
      headers["content-type"] = "application/json";
      payload = JSON.stringify(body);
    }
    const res = await fetch(this.url + path, { method, headers, body: payload });
    const cookies = res.headers.getSetCookie().map((c) => c.split(";")[0]);
    if (cookies.length) this.cookie = cookies.join("; ");
    const text = await res.text();
    let parsed = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: parsed };
  }

  /** Like call(), failing unless the answer is 2xx; resolves with the body. */
  async ok(method, path, body, options) {
    const res = await this.call(method, path, body, options);
    assert.ok(res.status < 300, `${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body;
  }

  upload(path, name, bytes, filename, type) {
    const form = new FormData();
    form.append(name, new Blob([bytes], { type }), filename);
    return this.ok("POST", path, undefined, { form });
  }
}

/** Signs up an account with these details and signs it in; returns `{ api, user, fields }`. */
async function account(server, details) {
  const fields = { password: PASSWORD, confirmPassword: PASSWORD, linkedinUrl: "", ...details };
  const api = new Api(server.url);
  await api.ok("POST", "/api/auth/signup", fields);
  const user = await api.ok("POST", "/api/auth/login", { email: fields.email, password: PASSWORD });
  return { api, user, fields };
}

const createClient = (api, clientData) => api.ok("POST", "/api/clients", { clientData });

/** A date `n` days from today on this machine's calendar (the browser's too), as YYYY-MM-DD. */
function dayFromToday(n) {
  const now = new Date();
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() + n);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

/**
 * A client whose next steps fall under every group of the tracker (overdue, this week,
 * later, no date, one done), dated from today, with a summary still waiting for its follow-up.
 */
async function trackedClient(api) {
  const contact = {
    name: "Priya Raman",
    email: "priya.raman@lumen-health.example",
    phone: "+44 20 7946 0321",
    company: "Lumen Health",
    position: "Chief Operating Officer",
  };
  const client = await createClient(api, contact);
  const toSunday = (7 - new Date().getDay()) % 7;
  const saved = await api.ok("PATCH", `/api/clients/${client.id}`, {
    ...contact,
    summary: "A first look at moving the clinics' appointment booking online, starting with two sites in the spring.",
    actionItems: [
      { who: "me", action: "Send the pricing for the two pilot sites", dueText: "by Monday", dueDate: dayFromToday(-3) },
      { who: "client", action: "Share the current booking volumes per clinic", dueText: "this week", dueDate: dayFromToday(toSunday) },
      { who: "we", action: "Agree the pilot's start date", dueText: "next week", dueDate: dayFromToday(toSunday + 3) },
      { who: "Dr Okafor", action: "Check the patient consent wording with the clinical lead" },
      { who: "me", action: "Book the follow-up call", dueText: null, dueDate: null, done: true },
    ],
  });
  return saved;
}

/** `count` clients for one account, 25 requests at a time. */
async function manyClients(api, count, make) {
  for (let i = 0; i < count; i += 25) {
    await Promise.all(Array.from({ length: Math.min(25, count - i) }, (_, k) => createClient(api, make(i + k))));
  }
}

/** Runs the binary under test with `args`, feeding `input` (if any) on stdin; resolves with stdout. */
function debrief(args, input) {
  const child = run(process.env.DEBRIEF_BIN, args);
  if (input === undefined) child.child.stdin.destroy();
  else child.child.stdin.end(input);
  return child.then(({ stdout }) => stdout);
}

async function createAdmin(server, username) {
  await debrief(["admin", "create", "--username", username, "--password-stdin", "--data-dir", server.dataDir], `${PASSWORD}\n`);
  return { username, password: PASSWORD };
}

/** The token of a one-time reset link, as `debrief user reset-password` prints it. */
async function resetToken(server, email) {
  const out = await debrief(["user", "reset-password", email, "--data-dir", server.dataDir]);
  const token = /[?&]token=([A-Za-z0-9_%-]+)/.exec(out)?.[1];
  assert.ok(token, `a reset link in: ${out}`);
  return token;
}

/**
 * A copy of an imported speech model whose weights were cut short (a transfer that
 * stopped half-way), imported like any other: the import takes it and the job that
 * loads it fails. This is how the review gets a job that really failed.
 */
async function importTruncatedWhisper(work, fromModelsDir, modelsDir) {
  const from = join(fromModelsDir, "whisper", "tiny.en");
  const cut = join(work, "whisper-cut");
  await mkdir(cut, { recursive: true });
  for (const file of ["config.json", "tokenizer.json"]) await copyFile(join(from, file), join(cut, file));
  const source = await open(join(from, "model.safetensors"));
  const { buffer, bytesRead } = await source.read({ buffer: Buffer.alloc(1 << 20), position: 0 });
  await source.close();
  await writeFile(join(cut, "model.safetensors"), buffer.subarray(0, bytesRead));
  await run(process.env.DEBRIEF_BIN, ["models", "import", cut, "--models-dir", modelsDir]);
}

/**
 * A real two-hour WAV that is small: one 8-bit sample a second. Two hours at a
 * recorder's rate would be 230 MB to make, send and store for every run; the server
 * takes this one, reads its length from the header (02:00:00) and checks the file is
 * that long. Its job then fails on the rate, which no recorder uses.
 */
async function twoHourWav(work) {
  const wav = join(work, "two-hours.wav");
  await run("sox", ["-n", "-D", "-r", "1", "-b", "8", "-e", "unsigned-integer", "-c", "1", wav, "trim", "0", "7200"]);
  return readFile(wav);
}

const uploadRecording = (api, client, wav) =>
  api.upload(`/api/clients/${client.id}/recording`, "recording", wav, "recording.wav", "audio/wav");

/** Polls the client until `until(job)` holds; resolves with the client as the server sent it. */
async function waitForJob(api, client, until, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const body = await api.ok("GET", `/api/clients/${client.id}`);
    if (body.job && until(body.job)) return body;
    assert.ok(Date.now() < deadline, `job of client ${client.id} still ${JSON.stringify(body.job)}`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/**
 * Fills `world` with everything the review shows, made in `work` (a scratch folder),
 * servers first so that they can be stopped whatever happens next: two servers (the
 * second with a speech model cut short), the accounts, their clients with photos and
 * recordings, an administrator, a reset link, and the jobs run: one seen while it
 * transcribes (the server's answer kept), one done, two failed.
 */
export async function seedWorld(world, work, models) {
  const modelsDir = join(work, "models");
  const cutModelsDir = join(work, "cut-models");
  await importModels(modelsDir, models, ["whisper-tiny.en-ct2", "all-minilm-l6-v2"]);
  await importTruncatedWhisper(work, modelsDir, cutModelsDir);
  const [meetingWav, twoHours] = await Promise.all([spoken(work, "meeting", MEETING), twoHourWav(work)]);
  // No pause between two follow-ups to one client: the review sends the same one at every size.
  [world.main, world.second] = await Promise.all([
    startServer({ args: ["--models-dir", modelsDir, "--send-window", "0s"] }),
    startServer({ args: ["--models-dir", cutModelsDir] }),
  ]);

  const main = await account(world.main, {
    firstName: "Maximiliana-Theodora",
    lastName: "Featherstonehaugh-Wolfeschlegelstein",
    email: "maximiliana.featherstonehaugh@beratungsgesellschaft.example",
    company: "Internationale Beratungsgesellschaft für Nachhaltige Stadtentwicklung",
    position: "Senior Principal Consultant",
  });
  const api = main.api;
  const meeting = await createClient(api, {
    name: "Jordan Ellis",
    email: "jordan.ellis@northwind.example",
    phone: "+1 555 010 4477",
    company: "Northwind Traders",
    position: "Head of Operations",
  });
  await api.ok("POST", `/api/clients/${meeting.id}/photo`, { photo: pngDataUrl(240, 300) });
  await uploadRecording(api, meeting, meetingWav);
  const transcribing = waitForJob(api, meeting, (job) => job.status === "transcribing" && job.progress > 0 && job.progress < 100);

  await api.ok("POST", "/api/profile/picture", { picture: pngDataUrl(320, 320) });
  const photo = await createClient(api, {
    name: "Amara Okafor",
    email: "amara@okafor-design.example",
    phone: "+234 803 555 0142",
    company: "Okafor Design Studio",
    position: "Founder",
  });
  await api.ok("POST", `/api/clients/${photo.id}/photo`, { photo: pngDataUrl(480, 600) });
  // The summary and next steps as the owner would correct them before emailing.
  const { summary, nextSteps, ...contact } = LONG;
  const long = await createClient(api, contact);
  await api.ok("PATCH", `/api/clients/${long.id}`, { ...contact, summary, nextSteps });
  const tracked = await trackedClient(api);
  const twoHoursClient = await createClient(api, {
    name: "Sebastian Lindqvist",
    email: "s.lindqvist@fjord-capital.example",
    phone: "+46 8 555 012 34",
    company: "Fjord Capital",
    position: "Partner",
  });
  await uploadRecording(api, twoHoursClient, twoHours);

  const [empty, bulk, failed] = await Promise.all([
    account(world.main, { firstName: "Ada", lastName: "Lovelace", email: "ada@analytical.example", company: "Analytical Engines", position: "Analyst" }),
    account(world.main, { firstName: "Grace", lastName: "Hopper", email: "grace@cobol.example", company: "Navy Labs", position: "Rear Admiral" }),
    account(world.second, { firstName: "Alan", lastName: "Turing", email: "alan@bletchley.example", company: "Bletchley Park", position: "Cryptanalyst" }),
  ]);
  const letters = "abcdefghijklmnopqrstuvwxyz";
  await manyClients(bulk.api, 1000, (i) => ({
    name: `Client ${letters[i % 26].toUpperCase()}${letters[Math.floor(i / 26) % 26]} ${["Moreau", "Nakamura", "Okonkwo", "Petrov"][i % 4]}`,
    email: `client${i}@bulk.example`,
    phone: "555-000-1111",
    company: i % 3 ? `Company ${i}` : "",
  }));
  const failedClient = await createClient(failed.api, {
    name: "Elena Marchetti",
    email: "elena@marchetti.example",
    phone: "+39 02 5550 1234",
    company: "Marchetti & Figli",
    position: "Director",
  });
  await uploadRecording(failed.api, failedClient, meetingWav);

  world.accounts = { main: { ...main, server: world.main }, empty: { ...empty, server: world.main }, bulk: { ...bulk, server: world.main }, failed: { ...failed, server: world.second } };
  world.admin = await createAdmin(world.main, "reviewer");
  world.resetToken = await resetToken(world.main, empty.fields.email);
  world.cardPng = makePng(1000, 600);
  world.photoPng = makePng(600, 800);
  world.processingMoment = await transcribing;
  await waitForJob(api, meeting, (job) => job.status === "done");
  await waitForJob(api, twoHoursClient, (job) => job.status === "failed");
  await waitForJob(failed.api, failedClient, (job) => job.status === "failed");
  world.clients = { meeting, photo, long, tracked, twoHours: twoHoursClient, failed: failedClient };
}
