import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/app/config/load.js";
import { toRgb } from "../../src/shared/image.js";
import { IPHONE_61 } from "../../src/shared/phone-model.js";
import { createVision, type VisionStack } from "../../src/vision/create.js";
import { applyIconMemory, IconMemory, iconSignature, isOpaqueTile } from "../../src/vision/icon-memory.js";
import type { ListingEntry } from "../../src/vision/listing.js";
import { decodeRgb } from "../../src/vision/rectify.js";
import { el, fonts, makePhone, PASSCODE } from "../sim/phone/helpers.js";

const sig = (v: number): Float32Array => new Float32Array(108).fill(v);

describe("IconMemory", () => {
  it("recalls the nearest name only when it is close and unambiguous, and stays bounded", () => {
    const m = new IconMemory({ capacity: 2, maxDistance: 20, minMargin: 8 });
    m.remember(sig(40), "Mail");
    m.remember(sig(200), "Notes");
    expect(m.recall(sig(45))).toBe("Mail");
    expect(m.recall(sig(120))).toBeNull(); // far from both
    m.remember(sig(52), "Maps");
    // Capacity 2: "Notes" (least recently used) is forgotten; 46 lies between Mail and Maps: ambiguous.
    expect(m.size).toBe(2);
    expect(m.recall(sig(200))).toBeNull();
    expect(m.recall(sig(46))).toBeNull();
  });

  it("a name seen beside its tile (the switcher) outranks words read under the same tile", () => {
    const m = new IconMemory({ capacity: 8, maxDistance: 20, minMargin: 8 });
    m.remember(sig(60), "Nothing here yet"); // an app's empty state: its icon over other words
    expect(m.recall(sig(58))).toBe("Nothing here yet");
    m.remember(sig(57), "Music", true); // the switcher's card header
    expect(m.size).toBe(1);
    expect(m.recall(sig(58))).toBe("Music");
    m.remember(sig(60), "Nothing here yet"); // seen again: does not make "Music" ambiguous
    expect(m.recall(sig(58))).toBe("Music");
    m.remember(sig(150), "Notes"); // an inferred name of another tile is still learnt
    expect(m.recall(sig(150))).toBe("Notes");
  });

  it("gives no signature for a box too small to be an app tile", () => {
    const screen = toRgb({ width: 100, height: 200, channels: 3, data: Buffer.alloc(100 * 200 * 3) });
    expect(iconSignature(screen, [0, 0, 0.05, 0.02])).toBeNull();
    expect(iconSignature(screen, [0, 0, 0.3, 0.15])).not.toBeNull();
  });
});

/**
 * The dock prints no names: on the simulated phone Music lives only there, and it is not a stock design
 * (stock-apps.ts) either. Once the agent has seen its icon with its name (the app switcher's card
 * header), the dock icon is listed as `[app] "Music"`.
 */
describe("dock icons named from memory on the simulated phone", () => {
  let vision: VisionStack;
  const memory = new IconMemory();

  beforeAll(async () => {
    vision = await createVision(parseConfig({}), {
      fonts,
      clock: { now: () => performance.now() },
      screenPx: IPHONE_61.screenPx,
      iconMemory: memory,
    });
  });
  afterAll(async () => {
    await vision?.close();
  });

  it("home page names its grid icons; the dock's Music is named after the switcher showed it", async () => {
    const { phone, finger } = makePhone();
    finger.unlock(PASSCODE);
    const look = async (): Promise<ListingEntry[]> =>
      (await vision.pipeline.fromScreenshot(await phone.screenshot())).entries;
    // The row whose centre lies on element `id` (a tap there opens it).
    const at = (id: string) => {
      const b = el(phone, id).box;
      return (e: ListingEntry): boolean => {
        const cx = (e.box[0] + e.box[2]) / 2;
        const cy = (e.box[1] + e.box[3]) / 2;
        return cx >= b[0] && cx <= b[2] && cy >= b[1] && cy <= b[3];
      };
    };
    let home = await look();
    expect(home.find(at("home.icon.mail"))).toMatchObject({ kind: "app", label: "Mail" });
    // The dock shows no names. Phone, Safari and Messages are named by their stock design
    // (stock-apps.ts); Music is not a stock design, so only memory can name it — and it has none yet.
    expect(home.find(at("home.icon.messages"))).toMatchObject({ kind: "app", label: "Messages" });
    expect(home.find(at("home.icon.music"))?.kind).not.toBe("app");
    expect(home.find(at("home.icon.music"))?.label ?? "").toBe("");
    // Open Music from the dock, then the app switcher: its card header shows the icon and the name.
    finger.tapId("home.icon.music");
    finger.homeSwipe(500);
    expect(phone.truth().screen).toBe("switcher");
    const learnt = memory.size;
    await look();
    expect(memory.size).toBeGreaterThan(learnt);
    finger.homeSwipe();
    expect(phone.truth().screen).toBe("home");
    home = await look();
    expect(home.find(at("home.icon.music"))).toMatchObject({ kind: "app", label: "Music" });
  }, 120_000);
});

/**
 * Only opaque tiles are remembered or named. Seen in the phone-tools e2e under load: on a camera frame
 * the thread's back chevron, boxed like a tile, was listed as `[app] "Send"` (a flat patch had been
 * remembered under that name), and tapping the first "Send" row went back instead of sending.
 */
describe("glyph buttons are not app tiles", () => {
  it("a home icon is an opaque tile, the back chevron and a blank patch are not; no name lands on them", async () => {
    const { phone, finger } = makePhone();
    finger.unlock(PASSCODE);
    const home = await decodeRgb(await phone.screenshot());
    const mail = el(phone, "home.icon.mail").box;
    const mailSig = iconSignature(home, mail);
    expect(mailSig && isOpaqueTile(home, mail, mailSig)).toBe(true);
    finger.tapId("home.icon.messages");
    const thread = phone.truth().elements.find((e) => e.id.startsWith("messages.thread."));
    finger.tapId(thread?.id ?? "");
    const screen = await decodeRgb(await phone.screenshot());
    const back = el(phone, "nav.back").box;
    const backSig = iconSignature(screen, back);
    expect(backSig).not.toBeNull();
    expect(backSig && isOpaqueTile(screen, back, backSig)).toBe(false);
    // A blank patch of the thread's background, of the back button's size, remembered as "Send" (as a
    // flat gap beside the Send label was) is close enough to the chevron's signature to name it...
    const w = back[2] - back[0];
    const h = back[3] - back[1];
    const blank: [number, number, number, number] = [0.45, 0.4, 0.45 + w, 0.4 + h];
    const blankSig = iconSignature(screen, blank);
    expect(blankSig && isOpaqueTile(screen, blank, blankSig)).toBe(false);
    const memory = new IconMemory();
    if (blankSig) memory.remember(blankSig, "Send", true);
    expect(backSig && memory.recall(backSig)).toBe("Send");
    // ...but the listing never names a glyph button from memory.
    const aspect = screen.height / screen.width;
    const rows = applyIconMemory(screen, [{ kind: "icon", label: "", box: back, conf: 0.6 }], memory, aspect);
    expect(rows[0]).toMatchObject({ kind: "icon", label: "" });
  }, 60_000);
});
