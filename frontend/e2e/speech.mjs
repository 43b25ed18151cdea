// Speech for the tests that run the real models: the test models imported with the
// binary, the way an offline box installs them, and text spoken by espeak-ng as the
// recorder would upload it.

import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Where the test models are kept on this machine. */
export const TEST_MODELS = process.env.DEBRIEF_TEST_MODELS || "/var/cache/debrief/models";

/** Speech models imported from the test models, the way an offline box installs them. */
export async function importModels(modelsDir, models, names) {
  for (const name of names) await run(process.env.DEBRIEF_BIN, ["models", "import", join(models, name), "--models-dir", modelsDir]);
}

/** `text` spoken by espeak-ng, as a 16 kHz mono 16-bit WAV (what the recorder uploads). */
export async function spoken(work, name, text) {
  const raw = join(work, `${name}-raw.wav`);
  const wav = join(work, `${name}.wav`);
  // A US voice at a moderate pace: espeak's default rate makes tiny.en mishear names.
  await run("espeak-ng", ["-v", "en-us", "-s", "150", "-w", raw, text]);
  await run("sox", [raw, "-r", "16000", "-c", "1", "-b", "16", wav]);
  return readFile(wav);
}
