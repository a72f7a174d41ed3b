import { describe, expect, it } from "vitest";
import { avatarsBesideBubbles } from "../../src/vision/bubble-avatars.js";
import type { Candidate } from "../../src/vision/row.js";
import { applyScreenSemantics } from "../../src/vision/semantics.js";
import { filmedRealScreen } from "./ocr/filmed-real.js";
import { loadRealImage, realLabel } from "./real-set.js";

/**
 * JSQMessages' demo conversation alternates sides, one bubble per column, so no conversation is found
 * (`chat-bubbles.ts`); filmed by the camera, the detector boxes the senders' photos. Icon boxes are
 * where the detector put them on these frames.
 */
const icon = (box: Candidate["box"]): Candidate => ({ kind: "icon", label: "", box, conf: 0.6 });
const textRows = (name: string): Candidate[] =>
  realLabel(name).text.map((t): Candidate => ({ kind: "text", label: t.text, box: t.box, conf: 0.9 }));

const CASES = [
  // Steve Wozniak's photo at the foot of the blue five-line bubble.
  { name: "rb-jsqmessages-chat.png", avatar: [0.017, 0.286, 0.103, 0.335] },
  // The same photo at the foot of the green two-line bubble.
  { name: "rb-jsqmessages-map.png", avatar: [0.015, 0.51, 0.103, 0.558] },
] as const;

/** Controls on these screens that must stay: the close ✕ and the input bar's paperclip. */
const CONTROLS = [
  [0.035, 0.045, 0.12, 0.09],
  [0.025, 0.944, 0.094, 0.979],
] as const;

describe("avatarsBesideBubbles", () => {
  for (const c of CASES)
    it(`drops the sender's photo beside a bubble on ${c.name}, keeping the controls`, async () => {
      for (const seed of [7, 31]) {
        const screen = await filmedRealScreen(c.name, seed);
        const avatar = icon([...c.avatar]);
        const controls = CONTROLS.map((b) => icon([...b]));
        const found = avatarsBesideBubbles(screen, [...textRows(c.name), avatar, ...controls]);
        expect([...found], `seed ${seed}`).toEqual([avatar]);
      }
    });

  it("takes the avatar out of the listing (semantics)", async () => {
    const c = CASES[0];
    const avatar = icon([...c.avatar]);
    const out = applyScreenSemantics(await filmedRealScreen(c.name, 7), [...textRows(c.name), avatar]);
    expect(out).not.toContain(avatar);
  });

  it("keeps a one-colour symbol in the same place, and on the screenshot finds the same photo", async () => {
    const c = CASES[0];
    // The screenshot: same geometry, no sensor noise; the photo is a picture there too.
    const shot = await loadRealImage(c.name);
    const avatar = icon([...c.avatar]);
    expect(avatarsBesideBubbles(shot, [...textRows(c.name), avatar]).has(avatar)).toBe(true);
    // A tinted glyph (one colour on the page) beside the bubble's foot: the blue ✕'s pixels moved there.
    const glyph = { ...shot, data: Buffer.from(shot.data) };
    const { width: W, height: H } = shot;
    const [l, t, r, b] = c.avatar;
    const [sl, st] = [0.035, 0.045];
    for (let y = Math.floor(t * H); y < Math.ceil(b * H); y++)
      for (let x = Math.floor(l * W); x < Math.ceil(r * W); x++) {
        const sy = Math.floor(st * H) + y - Math.floor(t * H);
        const sx = Math.floor(sl * W) + x - Math.floor(l * W);
        shot.data.copy(glyph.data, (y * W + x) * 3, (sy * W + sx) * 3, (sy * W + sx) * 3 + 3);
      }
    expect(avatarsBesideBubbles(glyph, [...textRows(c.name), avatar]).has(avatar)).toBe(false);
  });
});
