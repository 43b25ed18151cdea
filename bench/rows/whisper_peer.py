"""The Whisper peer in a process of its own: faster-whisper on a CTranslate2
model, greedy, with timestamps (the transcript needs them, so ours decodes
them too), so that it can be pinned to a core like `debrief transcribe`.
Prints its load and decode times and the text as JSON.

    python whisper_peer.py MODEL_DIR WAV COMPUTE_TYPE THREADS"""

import json
import sys
import time

from faster_whisper import WhisperModel


def main(model_dir, wav, compute_type, threads):
    started = time.perf_counter()
    model = WhisperModel(model_dir, device="cpu", compute_type=compute_type, cpu_threads=int(threads))
    load = time.perf_counter() - started
    started = time.perf_counter()
    segments, _ = model.transcribe(wav, beam_size=1, best_of=1, temperature=0.0, vad_filter=False,
                                   language="en", without_timestamps=False)
    text = " ".join(s.text.strip() for s in segments)
    print(json.dumps({"load": load, "decode": time.perf_counter() - started, "text": text}))


if __name__ == "__main__":
    main(*sys.argv[1:])
