"""The Vosk peer: the vosk package driving libvosk directly, in a process
of its own like each run of `debrief transcribe`, so neither decodes with a
heap or model already warmed by an earlier run. Prints its load and decode
times and the text as JSON.

    python vosk_peer.py MODEL_DIR WAV"""

import json
import sys
import time
import wave

import vosk


def main(model_dir, wav):
    vosk.SetLogLevel(-1)
    started = time.perf_counter()
    model = vosk.Model(model_dir)
    load = time.perf_counter() - started
    started = time.perf_counter()
    with wave.open(wav) as w:
        rec = vosk.KaldiRecognizer(model, w.getframerate())
        rec.SetWords(True)
        words = []
        while data := w.readframes(8000):
            if rec.AcceptWaveform(data):
                words.append(json.loads(rec.Result()).get("text", ""))
        words.append(json.loads(rec.FinalResult()).get("text", ""))
    decode = time.perf_counter() - started
    print(json.dumps({"load": load, "decode": decode, "text": " ".join(w for w in words if w)}))


if __name__ == "__main__":
    main(*sys.argv[1:])
