import * as fontkit from "fontkit";
import { assetPath } from "../util/paths.js";

/**
 * Text to SVG paths with the fonts shipped in `assets/fonts/` (Noto Sans SC subsets: Latin + GB2312
 * hanzi). Glyphs become outlines, so rendering never depends on the fonts a machine has installed and
 * every machine draws the same pixels; the same layout gives exact text boxes for ground truth.
 */
export type FontWeight = "light" | "regular" | "semibold";

const FILES: Record<FontWeight, string> = {
  light: "NotoSansSC-Light.ttf",
  regular: "NotoSansSC-Regular.ttf",
  semibold: "NotoSansSC-SemiBold.ttf",
};

export interface TextStyle {
  /** Font size in the drawing's units (the phone renders in points). */
  size: number;
  weight?: FontWeight;
  fill?: string;
  /** Horizontal anchor of `x`. */
  anchor?: "start" | "middle" | "end";
}

export interface TextBox {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface ShapedText {
  /** SVG markup (`<path …/>`), empty for empty text. */
  svg: string;
  /** Ink-independent box: advance width × the ideographic em box (0.88 em above, 0.12 below the baseline). */
  box: TextBox;
  width: number;
}

/** Noto Sans SC's ideographic em box, as fractions of the font size above and below the baseline. */
const EM_BOX_ASCENT = 0.88;
const EM_BOX_DESCENT = 0.12;

/** Loads each weight once per instance; pass one instance around instead of a module singleton. */
export class FontBook {
  private readonly fonts = new Map<FontWeight, fontkit.Font>();

  font(weight: FontWeight): fontkit.Font {
    let font = this.fonts.get(weight);
    if (!font) {
      font = fontkit.openSync(assetPath("fonts", FILES[weight]));
      this.fonts.set(weight, font);
    }
    return font;
  }

  /** Advance width of `text` at `size`. */
  measure(text: string, size: number, weight: FontWeight = "regular"): number {
    const font = this.font(weight);
    return (font.layout(text).advanceWidth * size) / font.unitsPerEm;
  }

  /** Characters of `text` that the shipped fonts cannot draw (they would render as blank boxes). */
  missingGlyphs(text: string, weight: FontWeight = "regular"): string[] {
    const font = this.font(weight);
    return [...text].filter((ch) => ch.trim() !== "" && !font.hasGlyphForCodePoint(ch.codePointAt(0) ?? 0));
  }

  /**
   * Shape `text` with its baseline at `y` and anchored at `x`. Returns outlines plus the layout box
   * (the em box), which is what a person would call the text's box.
   */
  shape(text: string, x: number, y: number, style: TextStyle): ShapedText {
    const font = this.font(style.weight ?? "regular");
    const scale = style.size / font.unitsPerEm;
    const run = font.layout(text);
    const width = run.advanceWidth * scale;
    const anchor = style.anchor ?? "start";
    const startX = anchor === "start" ? x : anchor === "middle" ? x - width / 2 : x - width;
    const box: TextBox = {
      left: startX,
      right: startX + width,
      top: y - EM_BOX_ASCENT * style.size,
      bottom: y + EM_BOX_DESCENT * style.size,
    };
    if (text.length === 0) return { svg: "", box, width: 0 };
    let penX = startX;
    const parts: string[] = [];
    run.glyphs.forEach((glyph, i) => {
      const pos = run.positions[i];
      if (!pos) return;
      const d = glyph.path
        .scale(scale, -scale)
        .translate(penX + pos.xOffset * scale, y - pos.yOffset * scale)
        .toSVG();
      if (d) parts.push(d);
      penX += pos.xAdvance * scale;
    });
    const fill = style.fill ?? "#000";
    return { svg: `<path fill="${fill}" d="${parts.join("")}"/>`, box, width };
  }
}
