import type { FracBox } from "../../shared/box.js";
import type { FontBook, TextStyle } from "../../shared/fonts.js";
import type { ElementKind, ScreenElement } from "../types.js";
import type { SwipeGesture, TapGesture } from "./gestures.js";
import { contains, intersect, type Rect } from "./svg.js";

/**
 * One frame of the phone's UI: the SVG it draws and, for every visible element, its box, kind, label
 * and handlers. Rendering, ground truth (`truth().elements`) and hit testing all read the same scene,
 * so a box in the truth is exactly where a tap lands on that element.
 */
export interface SceneElement {
  id: string;
  kind: ElementKind;
  label: string;
  /** Visible part in points (already clipped to its scroll viewport). */
  rect: Rect;
  /** Visible share of the element's height when its viewport cut it (absent when whole). */
  visibleHeight?: number;
  onTap?: (g: TapGesture) => void;
  /** Return true when the press was used (e.g. a menu opened); otherwise lift acts as a tap. */
  onLongPress?: () => boolean;
  /** Return true when the swipe was used; otherwise it falls through to scrolling. */
  onSwipe?: (g: SwipeGesture) => boolean;
  /** Blocks touches to what is beneath without being ground truth (e.g. a dimmed backdrop). */
  hidden?: boolean;
  /** Drawn opaque over what came before (a notification banner): elements it mostly covers are not visible. */
  opaque?: boolean;
}

/** A scrollable viewport; the screen reads its offset from state and `scrollBy` writes it back. */
export interface ScrollRegion {
  rect: Rect;
  axis: "x" | "y";
  /** Move content by `deltaPt` (positive = content moves up/left = reveal later items). */
  scrollBy(deltaPt: number): void;
}

export interface ElementSpec extends Omit<SceneElement, "rect"> {
  rect: Rect;
}

export class Scene {
  private readonly parts: string[] = [];
  private readonly clips: Rect[] = [];
  private clipSeq = 0;
  readonly elements: SceneElement[] = [];
  readonly scrolls: ScrollRegion[] = [];
  /** Called for a tap that hits no element with a tap handler. */
  onTapEmpty?: () => void;

  constructor(
    readonly fonts: FontBook,
    readonly width: number,
    readonly height: number,
    /** Prefix for SVG ids, so scenes nested as previews do not clash. */
    private readonly idPrefix = "s",
  ) {}

  /** Decoration only: drawn, not ground truth, not hittable. */
  draw(svg: string): void {
    this.parts.push(svg);
  }

  /** Draw `svg` and register an element; it is dropped from truth/hits when clipped away. */
  add(spec: ElementSpec, svg = ""): SceneElement | null {
    this.parts.push(svg);
    const clip = this.clips[this.clips.length - 1] ?? { x: 0, y: 0, w: this.width, h: this.height };
    const visible = intersect(spec.rect, clip);
    if (!visible) return null;
    const el: SceneElement = { ...spec, rect: visible };
    if (visible.h < spec.rect.h && spec.rect.h > 0) el.visibleHeight = visible.h / spec.rect.h;
    this.elements.push(el);
    return el;
  }

  /** Shape text (outlines, never `<text>`) and return its SVG and box without registering anything. */
  shape(text: string, x: number, y: number, style: TextStyle): { svg: string; rect: Rect; width: number } {
    const s = this.fonts.shape(text, x, y, style);
    return {
      svg: s.svg,
      width: s.width,
      rect: { x: s.box.left, y: s.box.top, w: s.box.right - s.box.left, h: s.box.bottom - s.box.top },
    };
  }

  /** Draw a text element (kind "text" unless given) with its em box as the element box. */
  text(
    id: string,
    text: string,
    x: number,
    y: number,
    style: TextStyle,
    extra: Partial<Omit<SceneElement, "id" | "rect">> = {},
  ): SceneElement | null {
    const s = this.shape(text, x, y, style);
    return this.add({ id, kind: "text", label: text, rect: s.rect, ...extra }, s.svg);
  }

  /** Decorative text (part of a larger element whose box already covers it). */
  drawText(text: string, x: number, y: number, style: TextStyle): number {
    const s = this.shape(text, x, y, style);
    this.parts.push(s.svg);
    return s.width;
  }

  /** Start a clipped viewport; elements added until `endClip` are clipped to it. */
  beginClip(r: Rect, rx = 0): void {
    const id = `${this.idPrefix}c${this.clipSeq++}`;
    const outer = this.clips[this.clips.length - 1];
    const eff = outer ? (intersect(r, outer) ?? { x: r.x, y: r.y, w: 0, h: 0 }) : r;
    this.clips.push(eff);
    this.parts.push(
      `<clipPath id="${id}"><rect x="${r.x}" y="${r.y}" width="${r.w}" height="${r.h}" rx="${rx}"/></clipPath><g clip-path="url(#${id})">`,
    );
  }

  endClip(): void {
    this.clips.pop();
    this.parts.push("</g>");
  }

  scroll(region: ScrollRegion): void {
    this.scrolls.push(region);
  }

  /** The drawing without the outer `<svg>` (for nesting as a preview). */
  body(): string {
    return this.parts.join("");
  }

  /** Topmost element under (x, y) that wants `want`; hidden blockers stop the search. */
  hit(x: number, y: number, want: "onTap" | "onLongPress" | "onSwipe"): SceneElement | null {
    for (let i = this.elements.length - 1; i >= 0; i--) {
      const el = this.elements[i];
      if (!el || !contains(el.rect, x, y)) continue;
      if (el[want]) return el;
      if (el.hidden) return null;
    }
    return null;
  }

  /**
   * Ground truth: visible, non-hidden elements as 0–1 boxes, in drawing order. An element at least half
   * covered by an opaque one drawn after it (the status bar under a banner) is not visible.
   */
  truth(): ScreenElement[] {
    const f = (v: number, max: number): number => Math.min(1, Math.max(0, v / max));
    const covered = (el: SceneElement, index: number): boolean =>
      this.elements.some((top, k) => {
        if (k <= index || !top.opaque) return false;
        const over = intersect(el.rect, top.rect);
        return over !== null && over.w * over.h >= 0.5 * el.rect.w * el.rect.h;
      });
    return this.elements
      .filter((el, i) => !el.hidden && !covered(el, i))
      .map((el) => {
        const box: FracBox = [
          f(el.rect.x, this.width),
          f(el.rect.y, this.height),
          f(el.rect.x + el.rect.w, this.width),
          f(el.rect.y + el.rect.h, this.height),
        ];
        return {
          id: el.id,
          kind: el.kind,
          label: el.label,
          box,
          ...(el.visibleHeight !== undefined ? { visibleHeight: el.visibleHeight } : {}),
        };
      });
  }
}

/** Break `text` into lines no wider than `maxWidth` (words for Latin, characters for CJK). */
export function wrapText(fonts: FontBook, text: string, size: number, maxWidth: number): string[] {
  const tokens = text.match(/[\u2e80-\u9fff\uff00-\uffef]|[^\s\u2e80-\u9fff\uff00-\uffef]+|\s+/g) ?? [];
  const lines: string[] = [];
  let current = "";
  for (const tok of tokens) {
    const next = current + tok;
    if (current.trim() !== "" && fonts.measure(next.trimEnd(), size) > maxWidth) {
      lines.push(current.trimEnd());
      current = tok.trimStart();
    } else current = next;
  }
  if (current.trim() !== "" || lines.length === 0) lines.push(current.trimEnd());
  return lines;
}

/** Shorten `text` with an ellipsis so it fits `maxWidth`. */
export function ellipsize(fonts: FontBook, text: string, size: number, maxWidth: number): string {
  if (fonts.measure(text, size) <= maxWidth) return text;
  const chars = [...text];
  while (chars.length > 0 && fonts.measure(`${chars.join("")}…`, size) > maxWidth) chars.pop();
  return `${chars.join("").trimEnd()}…`;
}
