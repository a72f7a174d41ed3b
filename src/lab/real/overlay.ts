import sharp from "sharp";
import type { RealScreen } from "./labels.js";

/**
 * Draws a label file over its screenshot for checking by eye: a 5% grid with its fractions written at
 * the edges, text lines in blue (index `tN`), elements in red (index `eN`, with kind/state/char), the
 * status bar in green. `crop` = [top, bottom] fractions to look at one band at a larger scale.
 */
export async function renderOverlay(
  imagePath: string,
  label: Pick<RealScreen, "text" | "elements" | "statusBar">,
  opts: { width?: number; crop?: [number, number] } = {},
): Promise<Buffer> {
  const meta = await sharp(imagePath).metadata();
  const W = meta.width ?? 1;
  const H = meta.height ?? 1;
  const [c0, c1] = opts.crop ?? [0, 1];
  const top = Math.round(c0 * H);
  const height = Math.max(1, Math.round((c1 - c0) * H));
  const outW = opts.width ?? 1000;
  const scale = outW / W;
  const outH = Math.round(height * scale);
  const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const x = (f: number) => f * W * scale;
  const y = (f: number) => (f * H - top) * scale;
  const parts: string[] = [];
  for (let g = 0; g <= 20; g++) {
    const f = g / 20;
    const strong = g % 2 === 0;
    const stroke = `stroke="#ff00ff" stroke-opacity="${strong ? 0.45 : 0.2}" stroke-width="1"`;
    parts.push(`<line x1="${x(f)}" y1="0" x2="${x(f)}" y2="${outH}" ${stroke}/>`);
    if (f * H >= top && f * H <= top + height) {
      parts.push(`<line x1="0" y1="${y(f)}" x2="${outW}" y2="${y(f)}" ${stroke}/>`);
      parts.push(`<text x="2" y="${y(f) - 2}" font-size="12" fill="#ff00ff">${f.toFixed(2)}</text>`);
    }
    parts.push(`<text x="${x(f) + 2}" y="12" font-size="11" fill="#ff00ff">${f.toFixed(2)}</text>`);
  }
  const rect = (b: readonly number[], color: string, tag: string, dash = "") => {
    const [l = 0, t = 0, r = 0, bo = 0] = b;
    parts.push(
      `<rect x="${x(l)}" y="${y(t)}" width="${x(r) - x(l)}" height="${y(bo) - y(t)}" fill="none" stroke="${color}" stroke-width="2" ${dash}/>`,
      `<text x="${x(l) + 1}" y="${y(bo) + 11}" font-size="11" fill="${color}" stroke="white" stroke-width="3" paint-order="stroke">${esc(tag)}</text>`,
    );
  };
  if (label.statusBar) rect(label.statusBar, "#00a000", "status");
  label.text.forEach((t, i) => {
    rect(t.box, "#0050ff", `t${i} ${t.text.slice(0, 24)}`);
  });
  label.elements.forEach((e, i) => {
    const extra = e.kind === "key" ? ` ${JSON.stringify(e.char ?? "")}` : e.state ? ` ${e.state}` : "";
    rect(e.box, "#e00000", `e${i} ${e.kind}${extra} ${e.label.slice(0, 18)}`, 'stroke-dasharray="5,3"');
  });
  const svg = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${outW}" height="${outH}">${parts.join("")}</svg>`,
  );
  return sharp(imagePath)
    .extract({ left: 0, top, width: W, height: Math.min(height, H - top) })
    .resize(outW, outH, { fit: "fill" })
    .composite([{ input: svg, top: 0, left: 0 }])
    .png()
    .toBuffer();
}
