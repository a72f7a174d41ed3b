import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RealScreen } from "../../src/lab/real/labels.js";
import type { RgbImage } from "../../src/shared/image.js";
import { findChat } from "../../src/vision/chat-bubbles.js";
import { chatDecorations } from "../../src/vision/chat-decor.js";
import { pictureShare } from "../../src/vision/picture-ink.js";
import { decodeRgb } from "../../src/vision/rectify.js";
import type { Candidate } from "../../src/vision/row.js";
import { row } from "./candidates.js";
import { REAL_SET_DIR, realLabel } from "./real-set.js";

/**
 * A conversation's emoji and avatars on real chat screenshots (`datasets/real-iphone`). Rows are the
 * screen's labelled text lines (as text rows) and icon-only elements (as icon rows), plus the boxes the
 * pipeline listed on the emoji and avatars, which no label covers.
 */
async function load(id: string): Promise<{ label: RealScreen; image: RgbImage }> {
  const label = realLabel(`${id}.json`);
  return { label, image: await decodeRgb(readFileSync(join(REAL_SET_DIR, "images", label.image))) };
}

/** The labelled screen as rows: its text lines, and its icon-only elements as icon rows. */
const labelled = (label: RealScreen): Candidate[] => [
  ...label.text.map((t) => row("text", t.text, t.box)),
  ...label.elements.filter((e) => e.iconOnly).map((e) => row("icon", "", e.box)),
];

describe("chat decorations on real chat screens", () => {
  it("drops an emoji-only message's emoji, keeps the audio message's play button and the media bubbles", async () => {
    const { label, image } = await load("rb-messagekit-chat-media");
    const emoji = [
      row("icon", "", [0.112, 0.548, 0.184, 0.585]), // ❤️
      row("icon", "", [0.109, 0.619, 0.188, 0.652]), // 😃 😃 😃
      row("icon", "", [0.207, 0.619, 0.284, 0.652]),
      row("icon", "", [0.303, 0.618, 0.379, 0.652]),
    ];
    // The contact card's initials and chevron and the audio message's play button as the pipeline boxed them.
    const kept = [
      row("icon", "", [0.08, 0.15, 0.149, 0.182]),
      row("icon", "", [0.451, 0.16, 0.468, 0.172]),
      row("icon", "", [0.087, 0.198, 0.149, 0.226]),
    ];
    const rows = [...labelled(label), ...kept, ...emoji];
    expect(findChat(image, rows)?.leading).toBeCloseTo(0.053, 2);
    expect([...chatDecorations(image, rows)]).toEqual(emoji);
  });

  it("drops the senders' avatars beside the bubbles, keeps the play and info buttons", async () => {
    const { label, image } = await load("rb-messagekit-chat");
    const avatars = [
      row("icon", "", [0.028, 0.197, 0.098, 0.222]),
      row("icon", "", [0.025, 0.604, 0.098, 0.63]),
    ];
    const rows = [...labelled(label), ...avatars];
    expect(new Set(chatDecorations(image, rows))).toEqual(new Set(avatars));
  });

  it("drops Messages' group avatars, keeps the input bar's camera and apps buttons and the app drawer", async () => {
    const { label, image } = await load("rb-messagemaker-messages");
    const avatars = [
      row("icon", "", [0.043, 0.457, 0.11, 0.485]),
      row("icon", "", [0.04, 0.506, 0.108, 0.53]),
    ];
    const rows = [...labelled(label), ...avatars];
    expect(new Set(chatDecorations(image, rows))).toEqual(new Set(avatars));
  });

  it("finds no conversation on a profile whose buttons share an edge (pills side by side)", async () => {
    const { label, image } = await load("rc-icecubes-profile-dark");
    const rows = labelled(label);
    expect(findChat(image, rows)).toBeUndefined();
    expect(chatDecorations(image, rows).size).toBe(0);
  });

  it("measures a photo as a picture and a symbol as one tint", async () => {
    const { image } = await load("rb-messagekit-chat");
    expect(pictureShare(image, [0.028, 0.197, 0.098, 0.222])).toBeGreaterThan(0.3); // the panda avatar
    expect(pictureShare(image, [0.009, 0.057, 0.08, 0.103])).toBeLessThan(0.04); // the back chevron
  });
});
