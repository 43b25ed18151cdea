import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { fallBackWithoutLength, OGG_OPUS, playbackUrl } from "../src/lib/playback.ts";

const URL = "/api/clients/7/recording?v=42";

/** A browser that answers `answer` about every type, and notes what it was asked. */
function browser(answer) {
  const asked = [];
  return {
    asked,
    canPlayType: (type) => {
      asked.push(type);
      return answer;
    },
  };
}

describe("the recording's source for the player", () => {
  test("a recording still kept as the uploaded WAV plays as stored, without asking the browser", () => {
    const never = browser("");
    assert.equal(playbackUrl(URL, "audio/wav", never.canPlayType), URL);
    assert.equal(playbackUrl(URL, undefined, never.canPlayType), URL);
    assert.deepEqual(never.asked, []);
  });

  test("Ogg Opus plays as stored where the browser says it probably or maybe can", () => {
    for (const answer of ["probably", "maybe"]) {
      const able = browser(answer);
      assert.equal(playbackUrl(URL, "audio/ogg", able.canPlayType), URL, answer);
      assert.deepEqual(able.asked, [OGG_OPUS], "asked about the Opus codec, not Ogg alone");
    }
  });

  test("a browser that cannot play Ogg Opus gets the server's WAV of it", () => {
    assert.equal(playbackUrl(URL, "audio/ogg", browser("").canPlayType), `${URL}&as=wav`);
  });
});

/** An audio element's stand-in: its duration, its source, and its listeners. */
function player(duration) {
  const listeners = {};
  return {
    duration,
    src: "ogg",
    addEventListener: (name, f) => (listeners[name] = f),
    removeEventListener: (name) => delete listeners[name],
    fire: (name) => listeners[name]?.(),
    listeners,
  };
}

const later = (ms) => new Promise((done) => setTimeout(done, ms));

describe("a player that learns no length for the Ogg file", () => {
  test("gets the WAV when no length comes in time, and keeps the Ogg when one does", async () => {
    const lost = player(0);
    fallBackWithoutLength(lost, "wav", 20);
    lost.fire("loadedmetadata");
    await later(40);
    assert.equal(lost.src, "wav");

    const late = player(NaN);
    fallBackWithoutLength(late, "wav", 20);
    late.fire("loadedmetadata");
    late.duration = 61.5;
    late.fire("durationchange");
    await later(40);
    assert.equal(late.src, "ogg");
  });

  test("stops watching when told", async () => {
    const left = player(0);
    const stop = fallBackWithoutLength(left, "wav", 20);
    left.fire("loadedmetadata");
    stop();
    await later(40);
    assert.equal(left.src, "ogg");
    assert.deepEqual(Object.keys(left.listeners), []);
  });
});
