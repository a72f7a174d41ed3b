import type { RgbImage } from "../shared/image.js";
import { bubbleAround } from "./chat-bubbles.js";
import { pictureShare } from "./picture-ink.js";
import type { Candidate } from "./row.js";
import { boxHeight, boxWidth } from "./row.js";

/**
 * A sender's photo at the foot of one message bubble.
 *
 * `chat-decor.ts` drops senders' avatars once a conversation is found (two or more bubbles of one
 * column). A screen may show one message per column — JSQMessages' demo alternates sides, so each
 * column holds one bubble — and then no conversation is found, yet each avatar sits where chat kits put
 * it: in the gutter beside its message's bubble, level with the bubble's foot (JSQMessages
 * `avatarViewSize`, MessageKit `AvatarPosition(vertical: .messageBottom)`, Messages in group chats).
 * A bubble is a rounded fill padding a message's text (`bubbleAround`); one at least two text lines
 * tall is a message, not a button or pill (those pad one line, and are not taller than a photo beside
 * them). The avatar identifies the sender and is not a control (MessageKit's `didTapAvatar` does
 * nothing by default); its ink is a picture — more colours than one tint, unlike a symbol button
 * (`picture-ink.ts`). So a square picture, no wider than an avatar, right outside a text bubble's side
 * and level with its foot, goes.
 */

/** An avatar is at most this fraction of the width (~50 pt) … */
const AVATAR_MAX = 0.14;
/** … and square within this ratio (width / height in pixels). */
const SQUARE = [0.7, 1.4] as const;
/** Its ink is a picture: at least this share off its main tint (`picture-ink.ts`, as `chat-decor.ts`). */
const PICTURE = 0.1;
/**
 * It lies within this fraction of the width outside the bubble's side (~15 pt): the avatar's gutter
 * plus the transparent inset chat kits leave around a bubble's tail (JSQMessages' bubble images).
 */
const GUTTER = 0.04;
/** Its bottom is within this share of its height of the bubble's bottom (level with the foot). */
const FOOT = 0.5;
/** The bubble is at least this many times the avatar's height: a message of two lines or more. */
const MESSAGE_TALL = 1.5;

/** The icon rows of `rows` that are a sender's avatar beside one bubble (see the module comment). */
export function avatarsBesideBubbles(screen: RgbImage, rows: readonly Candidate[]): Set<Candidate> {
  const out = new Set<Candidate>();
  const texts = rows.filter((r) => r.kind === "text");
  const bubbles = new Map<Candidate, Candidate["box"] | undefined>();
  const bubbleOf = (t: Candidate): Candidate["box"] | undefined => {
    if (!bubbles.has(t)) bubbles.set(t, bubbleAround(screen, t.box, rows)?.box);
    return bubbles.get(t);
  };
  for (const r of rows) {
    if (r.kind !== "icon" || boxWidth(r.box) > AVATAR_MAX) continue;
    const h = boxHeight(r.box);
    const ratio = (boxWidth(r.box) * screen.width) / Math.max(1, h * screen.height);
    if (ratio < SQUARE[0] || ratio > SQUARE[1]) continue;
    // Text lines level with the avatar's foot, whose bubble may reach down to it.
    const near = texts.filter((t) => t.box[3] <= r.box[3] + h && t.box[3] >= r.box[1] - 3 * h);
    const beside = near.some((t) => {
      const b = bubbleOf(t);
      if (!b || boxHeight(b) < MESSAGE_TALL * h || Math.abs(b[3] - r.box[3]) > FOOT * h) return false;
      const left = r.box[2] <= b[0] + 0.005 && b[0] - r.box[2] < GUTTER;
      const right = r.box[0] >= b[2] - 0.005 && r.box[0] - b[2] < GUTTER;
      return left || right;
    });
    if (beside && pictureShare(screen, r.box) >= PICTURE) out.add(r);
  }
  return out;
}
