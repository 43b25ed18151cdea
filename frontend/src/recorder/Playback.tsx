import { useEffect, useRef, useState } from "react";
import { PauseIcon, PlayIcon } from "../components/action-icons.tsx";
import { formatClock } from "../lib/format.ts";

/** Play/pause for the recording just made, with a progress bar that also seeks. */
export function Playback({ wav, durationMs }: { wav: Blob; durationMs: number }) {
  const audio = useRef<HTMLAudioElement>(null);
  const [url, setUrl] = useState<string | null>(null);
  const [playing, setPlaying] = useState(false);
  const [positionMs, setPositionMs] = useState(0);

  useEffect(() => {
    const made = URL.createObjectURL(wav);
    setUrl(made);
    setPlaying(false);
    setPositionMs(0);
    return () => URL.revokeObjectURL(made);
  }, [wav]);

  useEffect(() => {
    const el = audio.current;
    if (!el) return;
    let frame = 0;
    const follow = () => {
      setPositionMs(el.currentTime * 1000);
      if (!el.paused) frame = requestAnimationFrame(follow);
    };
    const onPlay = () => {
      setPlaying(true);
      frame = requestAnimationFrame(follow);
    };
    const onPause = () => {
      setPlaying(false);
      cancelAnimationFrame(frame);
      setPositionMs(el.currentTime * 1000);
    };
    const onEnded = () => {
      onPause();
      setPositionMs(0);
      el.currentTime = 0;
    };
    el.addEventListener("play", onPlay);
    el.addEventListener("pause", onPause);
    el.addEventListener("ended", onEnded);
    return () => {
      cancelAnimationFrame(frame);
      el.removeEventListener("play", onPlay);
      el.removeEventListener("pause", onPause);
      el.removeEventListener("ended", onEnded);
    };
  }, [url]);

  const toggle = () => {
    const el = audio.current;
    if (!el) return;
    if (el.paused) void el.play().catch(() => setPlaying(false));
    else el.pause();
  };

  const total = Math.max(durationMs, 1);
  const share = Math.min(1, positionMs / total);
  const seek = (event: { currentTarget: HTMLElement; clientX: number }) => {
    const el = audio.current;
    if (!el) return;
    const box = event.currentTarget.getBoundingClientRect();
    const at = Math.min(1, Math.max(0, (event.clientX - box.left) / box.width));
    el.currentTime = (at * total) / 1000;
    setPositionMs(at * total);
  };
  const step = (deltaMs: number) => {
    const el = audio.current;
    if (!el) return;
    const next = Math.min(total, Math.max(0, el.currentTime * 1000 + deltaMs));
    el.currentTime = next / 1000;
    setPositionMs(next);
  };

  return (
    <div className="playback">
      {url && <audio ref={audio} src={url} preload="metadata" />}
      <button
        type="button"
        className="playback__toggle"
        aria-label={playing ? "Pause recording" : "Play recording"}
        onClick={toggle}
      >
        {playing ? <PauseIcon size={22} /> : <PlayIcon size={22} />}
      </button>
      <div
        className="playback__bar"
        role="slider"
        tabIndex={0}
        aria-label="Playback position"
        aria-valuemin={0}
        aria-valuemax={Math.round(total / 1000)}
        aria-valuenow={Math.round(positionMs / 1000)}
        aria-valuetext={`${formatClock(positionMs)} of ${formatClock(durationMs)}`}
        onClick={seek}
        onKeyDown={(event) => {
          if (event.key === "ArrowRight") step(5000);
          else if (event.key === "ArrowLeft") step(-5000);
          else if (event.key === "Home") step(-total);
          else if (event.key === "End") step(total);
          else return;
          event.preventDefault();
        }}
      >
        <div className="playback__fill" style={{ transform: `scaleX(${share})` }} />
      </div>
      <span className="playback__time">
        {formatClock(positionMs)} / {formatClock(durationMs)}
      </span>
    </div>
  );
}
