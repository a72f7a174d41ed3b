import type { FracBox } from "../shared/box.js";
import type { RgbImage } from "../shared/image.js";
import { type Bubble, findChat } from "./chat-bubbles.js";
import { pictureShare } from "./picture-ink.js";
import type { Candidate } from "./row.js";
import { boxHeight, boxWidth, centreX, centreY, contains } from "./row.js";

/**
 * What a conversation draws that is not a control: the emoji of a message and the senders' avatars.
 *
 * - **Emoji in a bubble.** An emoji is a character of the message's text, drawn from the Apple Color
 *   Emoji font (Messages and chat kits render an emoji-only message at a larger size — MessageKit's
 *   `.emoji` kind, JSQMessages' text cell); the detector boxes it as an icon. A bubble that holds no
 *   text row but icon rows holds an emoji-only message: those rows are its text, not buttons. A
 *   media message is its own picture, filling its bubble (no padding around it, so no bubble is found
 *   around it, `chat-bubbles.ts`) and is left alone, and so is a bubble with text (an audio message's
 *   play button sits beside its duration).
 * - **Avatars beside the bubbles.** A received message's sender photo sits in the gutter before the
 *   column of bubbles, level with a bubble's foot (Messages in group chats; MessageKit
 *   `AvatarPosition`, JSQMessages `avatarViewSize`). It identifies the sender and is not a button
 *   unless the app adds a tap handler (MessageKit's `didTapAvatar` is empty by default): an icon row
 *   in the gutter, within the conversation's height, whose ink is a picture — more colours than one
 *   tint on a background, unlike a symbol button (an SF Symbol is drawn in one tint, HIG "SF Symbols"
 *   rendering modes; a failed message's red "!" is one) — goes. The input bar's buttons below the last
 *   bubble (camera, apps) are outside that height.
 */

/** An avatar is at most this fraction of the width (~50 pt) … */
const AVATAR_MAX = 0.14;
/** … and square within this ratio (width / height in pixels). */
const SQUARE = [0.7, 1.4] as const;
/** Its centre lies at most this fraction of the width past the column's edge (avatars tuck under a bubble's foot). */
const GUTTER = 0.03;
/** Above the first bubble holding text, avatars are looked for up to this fraction of the height (one more message). */
const ABOVE = 0.1;
/** Below the last bubble holding text, up to this fraction of the height (an avatar hangs below a bubble's foot). */
const BELOW = 0.03;
/** One column's avatars share their left edge and width within this fraction of the width. */
const SLOT = 0.012;
/** Below this fraction of the height (status and navigation bars, HIG "Navigation bars": ~44 pt under a 47–59 pt status bar). */
const NAV_BOTTOM = 0.1;
/** An avatar's or emoji's ink is a picture: at least this share of it off its main tint (`picture-ink.ts`). */
const PICTURE = 0.1;

/** The rows of `rows` that are a conversation's emoji or avatars (see the module comment). */
export function chatDecorations(screen: RgbImage, rows: readonly Candidate[]): Set<Candidate> {
  const out = new Set<Candidate>();
  const chat = findChat(screen, rows);
  if (!chat) return out;
  const inside = (b: Bubble, r: Candidate): boolean => contains(b.box, centreX(r.box), centreY(r.box));
  const texts = rows.filter((r) => r.kind === "text");
  const withText = chat.bubbles.filter((b) => texts.some((t) => inside(b, t)));
  const loose: Candidate[] = [];
  for (const r of rows) {
    if (r.kind !== "icon") continue;
    const bubble = chat.bubbles.find((b) => inside(b, r));
    if (bubble) {
      const emoji = !withText.includes(bubble) && within(r.box, bubble.box);
      if (emoji && pictureShare(screen, r.box) >= PICTURE) out.add(r);
    } else if (withText.length > 0 && isAvatar(screen, r, chat, withText)) out.add(r);
    else loose.push(r);
  }
  // The same sender's avatar further up, beside a bubble with no text row (a photo, a clipped one):
  // a picture of the same size in the same column, below the navigation bar.
  const avatars = [...out].filter((a) => !chat.bubbles.some((b) => inside(b, a)));
  for (const r of loose)
    if (
      r.box[1] > NAV_BOTTOM &&
      r.box[3] < Math.max(...withText.map((b) => b.box[3])) &&
      avatars.some((a) => sameSlot(a.box, r.box)) &&
      pictureShare(screen, r.box) >= PICTURE
    )
      out.add(r);
  return out;
}

/** Whether two boxes are one column's avatars: the same left edge and size. */
function sameSlot(a: FracBox, b: FracBox): boolean {
  return (
    Math.abs(a[0] - b[0]) < SLOT &&
    Math.abs(boxWidth(a) - boxWidth(b)) < SLOT &&
    Math.abs(boxHeight(a) / boxHeight(b) - 1) < 0.3
  );
}

function isAvatar(
  screen: RgbImage,
  r: Candidate,
  chat: { leading?: number | undefined; trailing?: number | undefined },
  bubbles: readonly Bubble[],
): boolean {
  const w = boxWidth(r.box);
  const ratio = (w * screen.width) / Math.max(1, boxHeight(r.box) * screen.height);
  if (w > AVATAR_MAX || ratio < SQUARE[0] || ratio > SQUARE[1]) return false;
  const top = Math.min(...bubbles.map((b) => b.box[1])) - ABOVE;
  const bottom = Math.max(...bubbles.map((b) => b.box[3])) + BELOW;
  if (r.box[1] < top || r.box[3] > bottom) return false;
  const cx = centreX(r.box);
  const gutter =
    (chat.leading !== undefined && r.box[0] < chat.leading && cx < chat.leading + GUTTER) ||
    (chat.trailing !== undefined && r.box[2] > chat.trailing && cx > chat.trailing - GUTTER);
  return gutter && pictureShare(screen, r.box) >= PICTURE;
}

/** Whether `inner` lies within `outer`. */
const within = (inner: FracBox, outer: FracBox): boolean =>
  inner[0] >= outer[0] && inner[1] >= outer[1] && inner[2] <= outer[2] && inner[3] <= outer[3];
