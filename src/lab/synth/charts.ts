import sharp from "sharp";
import type { FontBook } from "../../shared/fonts.js";
import type { RealScreen } from "../real/labels.js";

/**
 * Synthetic chart screens with their labels (the real-screen label format), drawn as Swift Charts and
 * DGCharts (iOS Charts) draw by default, at 3× on a 390 × 844 pt screen:
 *
 * - Swift Charts: y-axis value labels on the trailing edge beside solid horizontal grid lines
 *   (`AxisMarks` default: `AxisGridLine`, `AxisTick`, `AxisValueLabel` in caption2, secondary label
 *   colour), x-axis labels centred under each mark.
 * - DGCharts: y-axis labels on the leading edge (`leftAxis`), 10 pt system font, grid lines optionally
 *   dashed (`gridLineDashLengths`), x labels centred under each entry (`granularity` 1, every label
 *   drawn, so 10–12 dates crowd to touching on a phone-wide chart).
 *
 * Each screen has a title, a value line or two above the chart (dash and ellipsis cases included),
 * and the plot (bars or a 2–3 pt line). Only text is labelled; elements are left empty. The font is the
 * repo's Noto Sans SC (SF Pro is not redistributable), whose hyphen, en dash and em dash measure
 * 0.32, 0.5 and 1 em like SF Pro's.
 */

type Rgb = readonly [number, number, number];
const hex = (c: Rgb): string => `#${c.map((v) => Math.round(v).toString(16).padStart(2, "0")).join("")}`;

/** One chart screen to draw. */
export interface ChartSpec {
  id: string;
  dark: boolean;
  lang: "en" | "zh";
  title: string;
  /** Lines drawn under the title, above the chart (17 pt, then 15 pt secondary). */
  lines: readonly string[];
  /** Y-axis labels from the bottom grid line up. */
  y: readonly string[];
  ySide: "leading" | "trailing";
  /** Axis label size in points. */
  axisSize: number;
  dashedGrid: boolean;
  x: readonly string[];
  /** Values 0–1 of the plot, one per x label. */
  values: readonly number[];
  plot: "bars" | "line";
  /** Tint of the plot. */
  tint: Rgb;
  /** Plot width in points (the chart's leading edge at 16 pt). */
  width: number;
}

/** The screen's PNG (1170 × 2532) and its label. */
export interface ChartScreen {
  png: Buffer;
  label: RealScreen;
}

export async function chartScreen(spec: ChartSpec, fonts: FontBook): Promise<ChartScreen> {
  const W = 390;
  const H = 844;
  const fg: Rgb = spec.dark ? [255, 255, 255] : [0, 0, 0];
  const sec: Rgb = spec.dark ? [141, 141, 147] : [138, 138, 142];
  const grid: Rgb = spec.dark ? [72, 72, 74] : [209, 209, 214];
  const parts = [`<rect width="${W}" height="${H}" fill="${spec.dark ? "#000000" : "#ffffff"}"/>`];
  const text: RealScreen["text"] = [];
  const put = (
    s: string,
    x: number,
    y: number,
    size: number,
    fill: Rgb,
    anchor: "start" | "middle" | "end",
  ) => {
    const shaped = fonts.shape(s, x, y, { size, fill: hex(fill), anchor, weight: "regular" });
    parts.push(shaped.svg);
    const b = shaped.box;
    text.push({ text: s, box: [b.left / W, b.top / H, b.right / W, b.bottom / H] });
  };
  const titled = fonts.shape(spec.title, 16, 100, { size: 34, weight: "semibold", fill: hex(fg) });
  parts.push(titled.svg);
  const tb = titled.box;
  text.push({ text: spec.title, box: [tb.left / W, tb.top / H, tb.right / W, tb.bottom / H] });
  let y = 140;
  spec.lines.forEach((l, i) => {
    put(l, 16, y, i === 0 ? 17 : 15, i === 0 ? fg : sec, "start");
    y += 28;
  });
  // The plot: 5 pt under the last line, 220 pt tall; y labels beside its grid lines.
  const top = y + 20;
  const bottom = top + 220;
  const labelW = Math.max(...spec.y.map((s) => fonts.measure(s, spec.axisSize)));
  const left = spec.ySide === "leading" ? 16 + labelW + 6 : 16;
  const right = spec.ySide === "leading" ? left + spec.width : 16 + spec.width;
  const dash = spec.dashedGrid ? ` stroke-dasharray="2 2"` : "";
  spec.y.forEach((s, i) => {
    const gy = bottom - (i * (bottom - top)) / (spec.y.length - 1);
    parts.push(
      `<line x1="${left}" y1="${gy}" x2="${right}" y2="${gy}" stroke="${hex(grid)}" stroke-width="0.5"${dash}/>`,
    );
    const base = gy + 0.36 * spec.axisSize;
    if (spec.ySide === "leading") put(s, left - 6, base, spec.axisSize, sec, "end");
    else put(s, right + 6, base, spec.axisSize, sec, "start");
  });
  const step = (right - left) / spec.x.length;
  const xs = spec.x.map((_, i) => left + step * (i + 0.5));
  const vy = (v: number) => bottom - v * (bottom - top);
  if (spec.plot === "bars") {
    const bw = step * 0.6;
    spec.values.forEach((v, i) => {
      const x = (xs[i] ?? 0) - bw / 2;
      parts.push(
        `<rect x="${x}" y="${vy(v)}" width="${bw}" height="${bottom - vy(v)}" rx="2" fill="${hex(spec.tint)}"/>`,
      );
    });
  } else {
    const pts = spec.values.map((v, i) => `${xs[i]},${vy(v)}`).join(" ");
    parts.push(
      `<polyline points="${pts}" fill="none" stroke="${hex(spec.tint)}" stroke-width="2.5" stroke-linejoin="round"/>`,
    );
  }
  spec.x.forEach((s, i) => {
    put(s, xs[i] ?? 0, bottom + 6 + spec.axisSize, spec.axisSize, sec, "middle");
  });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W * 3}" height="${H * 3}" viewBox="0 0 ${W} ${H}">${parts.join("")}</svg>`;
  const png = await sharp(Buffer.from(svg)).removeAlpha().png().toBuffer();
  return {
    png,
    label: {
      image: `${spec.id}.png`,
      width: W * 3,
      height: H * 3,
      lang: spec.lang,
      theme: spec.dark ? "dark" : "light",
      screen: "app",
      statusBar: null,
      text,
      elements: [],
      notes: "Synthetic chart screen (src/lab/synth/charts.ts).",
      unlabelled: [],
    },
  };
}

const ORANGE: Rgb = [255, 149, 0];
const BLUE: Rgb = [0, 122, 255];
const GREEN: Rgb = [52, 199, 89];
const RED: Rgb = [255, 59, 48];
const TEAL: Rgb = [48, 176, 199];

const wave = (n: number, phase: number): number[] =>
  Array.from({ length: n }, (_, i) => 0.45 + 0.35 * Math.sin(i * 0.9 + phase));

/** The chart screens: Swift Charts and DGCharts defaults, light and dark, English and Chinese. */
export const CHART_SPECS: readonly ChartSpec[] = [
  {
    id: "chart-steps-week",
    dark: false,
    lang: "en",
    title: "Steps",
    lines: ["7,204 steps", "Mon – Sun average"],
    y: ["0", "5,000", "10,000", "15,000"],
    ySide: "trailing",
    axisSize: 11,
    dashedGrid: false,
    x: ["M", "T", "W", "T", "F", "S", "S"],
    values: wave(7, 0),
    plot: "bars",
    tint: ORANGE,
    width: 310,
  },
  {
    id: "chart-temp-dates",
    dark: false,
    lang: "en",
    title: "Temperature",
    lines: ["Range 12.4–21.7 °C", "Updated 5 min ago"],
    y: ["0", "5", "10", "15", "20", "25"],
    ySide: "leading",
    axisSize: 10,
    dashedGrid: true,
    x: ["11/3", "11/4", "11/5", "11/6", "11/7", "11/8", "11/9", "11/10", "11/11", "11/12", "11/13", "11/14"],
    values: wave(12, 1),
    plot: "line",
    tint: BLUE,
    width: 300,
  },
  {
    id: "chart-energy-dark",
    dark: true,
    lang: "en",
    title: "Energy",
    lines: ["Today — 12.6 kWh", "Searching for devices..."],
    y: ["0", "5", "10", "15"],
    ySide: "trailing",
    axisSize: 11,
    dashedGrid: false,
    x: ["Nov 3", "Nov 4", "Nov 5", "Nov 6", "Nov 7", "Nov 8", "Nov 9", "Nov 10", "Nov 11"],
    values: wave(9, 2),
    plot: "bars",
    tint: GREEN,
    width: 300,
  },
  {
    id: "chart-weight-zh",
    dark: false,
    lang: "zh",
    title: "体重",
    lines: ["正常: 53.4–72.3 kg", "最近 7 天"],
    y: ["0", "25", "50", "75"],
    ySide: "leading",
    axisSize: 11,
    dashedGrid: true,
    x: ["3日", "4日", "5日", "6日", "7日", "8日", "9日", "10日", "11日", "12日"],
    values: wave(10, 3),
    plot: "line",
    tint: TEAL,
    width: 300,
  },
  {
    id: "chart-heart-rate",
    dark: false,
    lang: "en",
    title: "Heart Rate",
    lines: ["62–118 BPM", "Resting 58 BPM"],
    y: ["40", "80", "120", "160"],
    ySide: "trailing",
    axisSize: 11,
    dashedGrid: false,
    x: ["12 AM", "6 AM", "12 PM", "6 PM"],
    values: [0.3, 0.25, 0.6, 0.45],
    plot: "line",
    tint: RED,
    width: 310,
  },
  {
    id: "chart-sleep-dark-zh",
    dark: true,
    lang: "zh",
    title: "睡眠",
    lines: ["平均 7 小时 12 分", "11月3日 – 11月9日"],
    y: ["0", "2", "4", "6", "8"],
    ySide: "trailing",
    axisSize: 11,
    dashedGrid: false,
    x: ["一", "二", "三", "四", "五", "六", "日"],
    values: wave(7, 4),
    plot: "bars",
    tint: TEAL,
    width: 310,
  },
];
