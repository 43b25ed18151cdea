"""Storage per recorded hour, through the real server: each LibriVox reading
is uploaded as the recording of a client of its own (16 kHz 16-bit WAV, as
the browser sends it), transcribed by Whisper tiny.en, then compressed by
the server's upkeep to Ogg Opus. The row gives the bytes kept per hour of
audio (`recording.storedSize` over `recording.durationMs`) and checks that
nothing said was lost: the stored copy is transcribed again and its words
compared with the first transcription's (word edit distance, normalised as
the speech row does).

The server re-transcribes the stored copy itself: it decodes its Ogg Opus to
WAV (`GET /api/clients/{id}/recording?as=wav`, the server's own decoder),
and that is uploaded as the recording of a twin client with the same card,
so the job runs with the same spelling hint. `POST .../job/retry` cannot do
it: it runs only a failed job again, from the stage that failed.

The figures do not vary from run to run (Whisper decodes greedily), so the
row holds its budget in a quick pass too. The server's own account of the
space (`debrief retention show`, as the dashboard and `debrief doctor`
give it) goes into the JSON beside it."""

import hashlib
import io
import os
import time
import wave

from lib import Row, import_models, multipart, signed_in
from rows.speech import threads_env, words, wrong_words

ROWS = ["storage per recorded hour (Ogg Opus)"]
MB_PER_HOUR = 15.0
WORDS_CHANGED = 1
# How long the upkeep may take to compress a transcribed recording.
COMPRESS_WAIT_S = 120
JOB_WAIT_S = 300
OPUS = "audio/ogg"
WAV = "audio/wav"


def readings(models):
    """The LibriVox readings: (name, WAV bytes, the words said), in order."""
    folder = os.path.join(models, "librivox")
    said = {}
    with open(os.path.join(folder, "transcription")) as f:
        for line in f:
            text, _, name = line.rpartition("(")
            said[name.strip().rstrip(")")] = text.split("</s>")[0].replace("<s>", "").strip()
    out = []
    for name in sorted(f for f in os.listdir(folder) if f.endswith(".wav")):
        with open(os.path.join(folder, name), "rb") as f:
            out.append((name, f.read(), said[name[:-len(".wav")]]))
    return out


def card(n):
    """A client's card; the twin that re-transcribes its stored copy gets the
    same one, and so the same hint."""
    name = ["Elinor", "Marianne", "Margaret", "Edward", "Fanny"][n % 5]
    return {"name": f"{name} Dashwood", "email": f"{name.lower()}{n}@client.example", "phone": "+1 555 0100",
            "company": "Norland Park", "position": "Tenant"}


def upload(http, n, wav):
    client = http.call("POST", "/api/clients", {"clientData": card(n)})
    body, content_type = multipart("recording", "meeting.wav", "audio/wav", wav)
    http.call("POST", f"/api/clients/{client['id']}/recording", body, content_type, raw=True)
    return client["id"]


def wait_done(http, ids, seconds=JOB_WAIT_S):
    """Each client's JSON once its job is done; raises when one fails or
    takes longer than `seconds`."""
    deadline = time.monotonic() + seconds
    done = {}
    while len(done) < len(ids):
        for id in ids:
            if id in done:
                continue
            client = http.call("GET", f"/api/clients/{id}")
            job = client.get("job") or {}
            if job.get("status") == "done":
                done[id] = client
            elif job.get("status") == "failed":
                raise RuntimeError(f"the job of client {id} failed: {job}")
        if len(done) < len(ids):
            if time.monotonic() > deadline:
                raise RuntimeError(f"{len(ids) - len(done)} job(s) not done within {seconds} s")
            time.sleep(0.2)
    return [done[id] for id in ids]


def wait_compressed(http, ids, seconds=COMPRESS_WAIT_S):
    """Each client's JSON once its recording is kept as Ogg Opus, and the
    seconds that took; the clients still in WAV when time ran out come back
    as they were."""
    started = time.monotonic()
    latest, waited = {}, {}
    while True:
        for id in ids:
            if id in waited:
                continue
            client = http.call("GET", f"/api/clients/{id}")
            recording = client.get("recording") or {}
            if "contentType" not in recording:
                raise RuntimeError(f"the client JSON has no recording.contentType (a server from before compression): "
                                   f"{recording}")
            latest[id] = client
            if recording["contentType"] == OPUS:
                waited[id] = time.monotonic() - started
        if len(waited) == len(ids) or time.monotonic() - started > seconds:
            return [latest[id] for id in ids], [waited.get(id) for id in ids]
        time.sleep(0.5)


def stored_copy(http, id, recording):
    """Checks what the server serves as the recording is what the JSON says it
    keeps: an Ogg file of `storedSize` bytes. Returns its sha256."""
    stored = http.call("GET", f"/api/clients/{id}/recording")
    if not isinstance(stored, bytes) or stored[:4] != b"OggS" or b"OpusHead" not in stored[:512]:
        raise RuntimeError(f"client {id}: the stored recording is not Ogg Opus (starts {bytes(stored[:8])!r})")
    if len(stored) != recording["storedSize"]:
        raise RuntimeError(f"client {id}: {len(stored)} bytes served, storedSize says {recording['storedSize']}")
    return hashlib.sha256(stored).hexdigest()


def decoded(http, id):
    """The stored copy as the server decodes it, a 16-bit WAV, and its length in ms."""
    wav = http.call("GET", f"/api/clients/{id}/recording?as=wav")
    with wave.open(io.BytesIO(wav)) as w:
        if (w.getframerate(), w.getnchannels(), w.getsampwidth()) != (16000, 1, 2):
            raise RuntimeError(f"client {id}: the decoded copy is not 16 kHz mono 16-bit")
        return wav, round(w.getnframes() * 1000 / w.getframerate())


def storage_figures(server):
    """What the server itself says of the space used (`debrief retention
    show` through its control socket); kept for the JSON, never fatal."""
    out = server.cli("retention", "show", check=False)
    return {"exit": out.returncode, "lines": (out.stdout or out.stderr).strip().splitlines()}


def mb_per_hour(size, duration_ms):
    return size / 1e6 / (duration_ms / 3_600_000) if duration_ms else float("inf")


def measure(ctx):
    clips = readings(ctx.models)
    models_dir = os.path.join(ctx.tmp, "storage-models")
    import_models(ctx, ["whisper-tiny.en-ct2"], models_dir)
    with ctx.serve(["--asr", "whisper", "--models-dir", models_dir], env=threads_env()) as server:
        http = signed_in(server)
        ids = [upload(http, n, wav) for n, (_, wav, _) in enumerate(clips)]
        first = wait_done(http, ids)
        clients, waited = wait_compressed(http, ids)
        # The server's account of the space, before the twins add theirs.
        figures = storage_figures(server)
        recordings = [c["recording"] for c in clients]
        per_clip = [{"file": name, "durationMs": r["durationMs"], "uploadedBytes": r["size"],
                     "storedBytes": r["storedSize"], "contentType": r["contentType"], "compressedAfterS": w,
                     "firstText": c["transcription"], "wrongAgainstReading": wrong_words(said, c["transcription"] or "")}
                    for (name, _, said), r, c, w in zip(clips, recordings, first, waited)]
        duration = sum(r["durationMs"] for r in recordings)
        stored = sum(r["storedSize"] for r in recordings)
        uploaded = sum(r["size"] for r in recordings)
        said_words = sum(len(words(said)) for _, _, said in clips)
        values = {"clips": per_clip, "durationMs": duration, "storedBytes": stored, "uploadedBytes": uploaded,
                  "words": said_words, "budgetMbPerHour": MB_PER_HOUR, "budgetWordsChanged": WORDS_CHANGED,
                  "server": figures}
        wav_rate = mb_per_hour(uploaded, duration)
        peer = f"{wav_rate:.1f} MB/h as uploaded (WAV)"
        budget = f"≤ {MB_PER_HOUR:g} MB/h, ≤ {WORDS_CHANGED} word changed"

        still_wav = [c["file"] for c in per_clip if c["contentType"] != OPUS]
        if still_wav:
            return [Row(ROWS[0], f"not compressed within {COMPRESS_WAIT_S} s: {len(still_wav)} of {len(clips)} "
                                 f"recordings still {WAV}", budget, False, peer=peer, quality=True, values=values)]

        # The stored copies: as served, then as the server decodes them,
        # re-transcribed by the server under the same hint.
        twins = []
        for n, (id, recording, clip) in enumerate(zip(ids, recordings, per_clip)):
            clip["storedSha256"] = stored_copy(http, id, recording)
            wav, clip["decodedMs"] = decoded(http, id)
            twins.append(upload(http, n, wav))
        again = wait_done(http, twins)
        for clip, (_, _, said), twin in zip(per_clip, clips, again):
            clip["storedText"] = twin["transcription"]
            clip["wordsChanged"] = wrong_words(clip["firstText"] or "", twin["transcription"] or "")
            clip["storedWrongAgainstReading"] = wrong_words(said, twin["transcription"] or "")

    rate = mb_per_hour(stored, duration)
    changed = sum(c["wordsChanged"] for c in per_clip)
    wrong_first = sum(c["wrongAgainstReading"] for c in per_clip)
    wrong_stored = sum(c["storedWrongAgainstReading"] for c in per_clip)
    values.update(mbPerHour=rate, wavMbPerHour=wav_rate, wordsChanged=changed,
                  wrongAgainstReading={"uploaded": wrong_first, "stored": wrong_stored})
    ours = (f"{rate:.1f} MB per recorded hour ({stored / 1e3:.0f} KB for {duration / 1000:.1f} s, "
            f"{len(clips)} recordings); words changed by re-transcribing the stored copy: {changed} of {said_words} "
            f"(wrong against the readings: {wrong_first} uploaded, {wrong_stored} stored)")
    return [Row(ROWS[0], ours, budget, rate <= MB_PER_HOUR and changed <= WORDS_CHANGED, peer=peer,
                ratio=rate / wav_rate, quality=True, values=values)]
