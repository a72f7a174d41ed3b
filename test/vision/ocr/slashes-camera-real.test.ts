import { describe, expect, it } from "vitest";
import { filmedRealScreen } from "./filmed-real.js";
import { useRealOcrEngine } from "./real-engine.js";

/**
 * A Scriptable script's JSON previewed in a share sheet (SF Pro, real dev-set screen) as a camera frame
 * shows it: ~1.4 px per point, lens blur. Each line below was read wrong before `strokes.ts` measured
 * the ink to a fraction of a pixel and from the Latin baseline: `\/\/` read `W` (its descent measured
 * from the ideographs' bottoms) or `WV` (six strokes for four), `\n` read `in` or `In` (the backslash's
 * top cut off the crop) or `n` (the backslash lost), `()` read `(` or `0` (a bracket's 1–2 px bow lost
 * between whole-pixel runs).
 */
const FILMED_LINES = [
  String.raw`"script"："\n\/\/ LOL近期赛事列表小组件\n\/\/支持中号、大号`,
  String.raw`组件.\n\/\/如果组件崩溃或出现任何问题，请尝试重新下载`,
  String.raw`https:\/\/github.com\/zkytech\/iOS14-widgets-for-`,
  String.raw`scriptable\/releases\n\/\/ 如果仍无法解决，请反馈至：https:\/\/`,
  String.raw`issues\nconst mainW = new ListWidget()\npresentSize =`,
  String.raw`\nconst LW = mainW.addStack()\nLW.layoutVertically()`,
  String.raw`\nLW.centerAlignContent()\nlet lineHeight = 30 \/\/ 图片的高度`,
  String.raw`\nlet teamTxtWidth=60 \/\/队名的容器宽度\nlet timeStrWidth`,
];
/** Lines with V, W, i, n and 0 that are what they look like, on the same frame. */
const KEPT = ["WPS Office", '"always_run_in_app": false,', "Scriptable document · 12 KB"];

describe("code on a filmed real screen (rd-zkytech-share-sheet-zh, filmed as the bench films it)", () => {
  const engine = useRealOcrEngine();
  let texts: string[] = [];
  const read = async () => {
    if (texts.length === 0)
      texts = (await engine().recognize(await filmedRealScreen("rd-zkytech-share-sheet-zh.jpg", 122))).map(
        (l) => l.text,
      );
    return texts;
  };

  for (const text of FILMED_LINES)
    it(`reads ${text}`, async () => {
      expect(await read()).toContain(text);
    }, 120_000);

  it("keeps a W starting a word, a w inside one and an n in prose", async () => {
    const all = await read();
    for (const text of KEPT) expect(all, text).toContain(text);
  }, 120_000);
});
