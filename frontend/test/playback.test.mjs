import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { OGG_OPUS, playbackUrl } from "../src/lib/playback.ts";

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
