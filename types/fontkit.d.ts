// Minimal typings for the parts of fontkit 2 that PiClaw uses (the package ships none).
declare module "fontkit" {
  export interface Path {
    scale(sx: number, sy?: number): Path;
    translate(x: number, y: number): Path;
    toSVG(): string;
  }
  export interface Glyph {
    id: number;
    codePoints: number[];
    path: Path;
    advanceWidth: number;
  }
  export interface GlyphPosition {
    xAdvance: number;
    yAdvance: number;
    xOffset: number;
    yOffset: number;
  }
  export interface GlyphRun {
    glyphs: Glyph[];
    positions: GlyphPosition[];
    advanceWidth: number;
  }
  export interface Font {
    unitsPerEm: number;
    ascent: number;
    descent: number;
    capHeight: number;
    xHeight: number;
    familyName: string;
    layout(text: string): GlyphRun;
    hasGlyphForCodePoint(codePoint: number): boolean;
  }
  export function openSync(path: string): Font;
  export function create(buffer: Buffer): Font;
}
