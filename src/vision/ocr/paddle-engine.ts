import type { InferenceSession, Tensor } from "onnxruntime-node";
import type { FracBox } from "../../shared/box.js";
import type { RgbImage } from "../../shared/image.js";
import { PiclawError } from "../../util/errors.js";
import type { OcrEngine, TextLine } from "../types.js";
import { axisLabelRuns } from "./axis-labels.js";
import { countedBarsIn } from "./bar-count.js";
import { capitalBars } from "./cap-bar.js";
import { withoutCaret } from "./caret.js";
import { recoverSkippedHan, splitAtHanGaps, unifyHanScript, variantPartners } from "./cjk.js";
import { hanRunsOn, readOnPastCuts } from "./cjk-ends.js";
import { codeBrackets } from "./code-brackets.js";
import { columnCase } from "./column-case.js";
import type { OcrOptions } from "./config.js";
import { ctcDecode, restoreSpaces } from "./ctc.js";
import { ellipsisDash, typographicDashes } from "./dashes.js";
import { endsWithDegreeRing, ringReach, singleDegreeRing } from "./degree-sign.js";
import { dbBoxes, detectionInput, detectionInputGrey, detectionSize, type PixelBox } from "./detect.js";
import { trailingDots } from "./dots.js";
import { extendAlongLines } from "./extend.js";
import { gluedBars } from "./glued-bars.js";
import { trailingHanDot } from "./han-dot.js";
import { endsWithRaisedMark, type InkImage, tightenToInk, withLeadingDash } from "./ink.js";
import { gluedIcon, iconReadAsOpener, leadingIcon } from "./lead-icon.js";
import { caseFromInk, keypadPlus, underZero } from "./letter-case.js";
import {
  DEFAULT_LOCAL_CONTRAST,
  darkestChannelSpread,
  type NormalizedImage,
  normalizeLocalContrast,
  WASHED_OUT_SPREAD,
} from "./local-contrast.js";
import { iconDigits, loneDigits } from "./lone-digits.js";
import { type BoxReader, loneGlyphs } from "./lone-glyphs.js";
import { type MapHint, mapHint } from "./map-hint.js";
import { readLostPronouns } from "./pronoun-i.js";
import {
  type FinishedText,
  finishText,
  planBatches,
  REC_HEIGHT,
  recognitionWidth,
  writeCrop,
} from "./recognize.js";
import { slashesFromInk } from "./slashes.js";
import { rereadSnug } from "./snug-reread.js";
import { splitAtGaps } from "./split.js";
import { copyrightSign, parenthesisedChecks, verticalBars } from "./symbols.js";
import { readTimePeriods } from "./time-suffix.js";
import { closingQuote, initialCase, typographicQuotes } from "./typography.js";

/** The parts of onnxruntime-node the engine uses (injected, so the engine never imports a singleton). */
export interface OrtRuntime {
  Tensor: new (type: "float32", data: Float32Array, dims: readonly number[]) => Tensor;
}

/** Sessions and data the engine runs on; `createOcrEngine` builds them from options. */
export interface PaddleOcrParts {
  ort: OrtRuntime;
  det: InferenceSession;
  rec: InferenceSession;
  /** Character list: entry k − 1 is CTC class k (class 0 is the blank). */
  dictionary: readonly string[];
}

/** A region's reading; `rest` holds the further labels when the region was split (`splitAtHanGaps`). */
type ReadText = FinishedText & { rest?: FinishedText[]; runsOn?: boolean };

/** A line must hold a letter or digit (any script): dots, quotes and strokes read off icons and page
 *  indicators carry nothing for the listing, and the detector reports the icons themselves. */
const HAS_LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
/** A digit then a round glyph at the end of a line: possibly a degree sign read as `0`/`o`. */
const DIGIT_THEN_RING = /\d[0oO]$/;
/** A line whose read text ends in a digit: a degree ring after it may have been dropped. */
const ENDS_IN_DIGIT = /\d$/;
/** Smallest side (px) worth looking at: below this no glyph is readable. */
const MIN_IMAGE_SIDE = 8;

/**
 * PP-OCRv4 on ONNX Runtime, hand-wired: the screen is shrunk to `detectionWidth` for DB detection
 * (axis-aligned boxes, no angle classifier: the rectified screen is upright), and every region is
 * read from the full-resolution input in width-sorted batches. Calls are serialised (one inference at
 * a time keeps memory flat on a 2-core device).
 */
export class PaddleOcrEngine implements OcrEngine {
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** The last run's normalised copy, overwritten by the next run of the same size (runs never overlap). */
  private normalized: NormalizedImage | undefined;
  /** `variantPartners` of the dictionary, built on first use. */
  private partners: Int32Array | undefined;

  constructor(
    private readonly parts: PaddleOcrParts,
    private readonly options: OcrOptions,
  ) {}

  recognize(image: RgbImage, detail: RgbImage = image): Promise<TextLine[]> {
    return this.queued(() => this.run(image, detail));
  }

  /** Lone digits in icon boxes (fractions of `detail`), after `recognize` (`lone-digits.ts`). */
  readDigits(detail: RgbImage, boxes: readonly FracBox[]): Promise<(TextLine | undefined)[]> {
    return this.queued(() => iconDigits(detail, boxes, (img, bx) => this.read(img, bx)));
  }

  /** `f` run after the calls queued before it (one inference at a time keeps memory flat). */
  private queued<T>(f: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new PiclawError("OCR_CLOSED", "the OCR engine is closed"));
    const run = this.queue.then(f);
    this.queue = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue;
    this.normalized = undefined;
    await Promise.all([this.parts.det.release(), this.parts.rec.release()]);
  }

  private async run(image: RgbImage, detail: RgbImage): Promise<TextLine[]> {
    const { width, height } = image;
    if (!(width >= MIN_IMAGE_SIDE && height >= MIN_IMAGE_SIDE)) return [];
    for (const img of [image, detail])
      if (img.data.length < img.width * img.height * 3)
        throw new PiclawError("OCR_IMAGE_INVALID", "image data is shorter than width × height × 3", {
          width: img.width,
          height: img.height,
          bytes: img.data.length,
        });
    // Boxes are found on `image`; `detail` (the same screen, maybe sharper) is read through them scaled.
    const sx = detail.width / width;
    const sy = detail.height / height;
    const toDetail = (b: PixelBox): PixelBox =>
      sx === 1 && sy === 1
        ? b
        : { x0: b.x0 * sx, y0: b.y0 * sy, x1: b.x1 * sx, y1: b.y1 * sy, score: b.score };
    // Glare-washed labels only show after local contrast normalisation, so text is found there; it is
    // read in true colours (the normalised grey loses fine marks such as `°`), and only a washed-out
    // region read weakly in colour is read again from the normalised image, the more confident reading
    // winning. The normalised screen is one grey plane; ink and crops read it as three equal channels.
    const normalized = this.options.localContrast
      ? normalizeLocalContrast(image, DEFAULT_LOCAL_CONTRAST, this.normalized)
      : undefined;
    this.normalized = normalized;
    const flat: InkImage = normalized ?? image;
    // Each region followed along its line over ink the 320 px map missed (`extend.ts`).
    const found = await this.detect(normalized ?? image);
    const boxes = extendAlongLines(
      flat,
      found.boxes.map((b) => withLeadingDash(flat, b)),
      found.hint,
    );
    const read = await this.read(detail, boxes.map(toDetail));
    if (flat !== image) {
      const weak = read.flatMap((r, i) => {
        const box = boxes[i];
        return box &&
          r.conf < this.options.minConfidence &&
          darkestChannelSpread(image, box) < WASHED_OUT_SPREAD
          ? [i]
          : [];
      });
      const again = await this.read(flat, boxes, weak);
      for (const i of weak) {
        const second = again[i];
        if (second && second.conf > (read[i]?.conf ?? 0)) read[i] = second;
      }
    }
    // Regions read again from other boxes (fractions of the same screen), only those at `which`.
    const again = (bx: readonly PixelBox[], which: readonly number[]) =>
      this.read(detail, bx.map(toDetail), which);
    const minConf = this.options.minConfidence;
    // A weak reading read again from a crop snug to its ink's rows (`snug-reread.ts`).
    await rereadSnug(read, boxes, flat, minConf, again);
    // A Chinese line whose box ends inside its last glyph, read again an em wider (`cjk-ends.ts`).
    await readOnPastCuts(read, boxes, width, minConf, again);
    await readTimePeriods(read, boxes, minConf, again);
    // `'m` read from a region that starts at the apostrophe: the stem of `I` at its edge (`pronoun-i.ts`).
    await readLostPronouns(read, boxes, flat, minConf, again);
    // A lone digit read weakly from its tight crop, read again alone on a clean canvas (`lone-digits.ts`).
    const reread: BoxReader = (img, bx) => this.read(img, bx);
    await loneDigits(read, boxes.map(toDetail), detail, minConf, reread);
    read.forEach((r, i) => {
      const box = boxes[i];
      if (box) read[i] = countedBarsIn(r, detail, toDetail(box), toDetail(tightenToInk(flat, box)));
    });
    const lines: TextLine[] = [];
    // A region read as two labels (`splitAtHanGaps`) lists each on its own.
    const pieces = read.flatMap((r, i) => [r, ...(r.rest ?? [])].map((piece) => ({ r: piece, i })));
    const texts = unifyHanScript(pieces.map((p) => p.r.text));
    const plusses: TextLine[] = [];
    pieces.forEach(({ r, i }, k) => {
      const box = boxes[i];
      if (box && r.text === "+" && r.conf >= this.options.minConfidence)
        plusses.push(keypadPlus(box, width, height));
      if (!box || r.conf < this.options.minConfidence || !HAS_LETTER_OR_DIGIT.test(r.text)) return;
      const read = {
        ...box,
        x0: box.x0 + (box.x1 - box.x0) * (r.begin ?? 0),
        x1: box.x0 + (box.x1 - box.x0) * r.end,
      };
      const ink = tightenToInk(flat, read);
      // The last piece of a region is looked at to the region's end: a ring the recogniser dropped
      // lies past the end of what it read.
      const last = pieces[k + 1]?.i !== i;
      const raised =
        DIGIT_THEN_RING.test(r.text) && endsWithRaisedMark(detail, toDetail(read))
          ? `${r.text.slice(0, -1)}°`
          : last &&
              ENDS_IN_DIGIT.test(r.text) &&
              endsWithDegreeRing(detail, toDetail({ ...read, x1: ringReach(box, width) }))
            ? `${texts[k] ?? r.text}°`
            : singleDegreeRing(texts[k] ?? r.text);
      // Curly quote marks from their shape, and two labels read as one line cut apart at a wide gap.
      const crop = toDetail(box);
      const at = (m: { index: number; at: number }) => ({
        index: m.index,
        x: crop.x0 + (crop.x1 - crop.x0) * m.at,
      });
      const glyphs = (r.glyphs ?? []).map(at);
      // A `|` read as `1`/`I`/`l` with its spaces lost (`31131`): its ink reaches below the baseline.
      const cased = capitalBars(
        caseFromInk(gluedBars(raised, glyphs, detail, toDetail(ink)), glyphs, detail, toDetail(ink)),
        glyphs,
        detail,
        toDetail(ink),
      );
      const quoted = closingQuote(
        typographicQuotes(cased, (r.marks ?? []).map(at), detail, toDetail(ink)),
        detail,
        toDetail(ink),
      );
      const dashed = typographicDashes(quoted, (r.dashes ?? []).map(at), detail, toDetail(ink));
      // Slashes in code read as letters (`\/\/` as `W`); a dash put before the text shifts indices
      // (the slashes' and the spaces' alike: they were read on the text without it).
      const shift = dashed.length - quoted.length;
      const fixed = slashesFromInk(
        initialCase(dashed, detail, toDetail(ink)),
        (r.slashes ?? []).map((m) => ({ ...at(m), index: m.index + shift })),
        detail,
        toDetail(ink),
      );
      // A leading icon read as a character and a space (`K kottke.org`): cut, the box starting past it.
      // Judged before the `©` check, which would take the icon for a sign the recogniser left out.
      const read0 = (r.spaces ?? []).map((m) => ({ ...at(m), index: fixed.moved(m.index + shift) }))[0];
      const iconFirst = read0?.index === 1 && leadingIcon(detail, toDetail(ink), fixed.text, read0.x);
      // A `©` the recogniser cannot emit, put back from its ink (`symbols.ts`): it may add `© `.
      const text = iconFirst ? fixed.text : copyrightSign(fixed.text, detail, toDetail(ink));
      const signed = text.length - fixed.text.length;
      let spaces: { index: number; x: number; restored?: number }[] = (r.spaces ?? []).map((m) => ({
        ...at(m),
        index: fixed.moved(m.index + shift) + signed,
        restored: m.restored,
      }));
      const space = spaces[0];
      let line = ink;
      let rest = text;
      const opener = iconReadAsOpener(detail, toDetail(ink), text) ?? gluedIcon(detail, toDetail(ink), text);
      if (iconFirst && space) {
        rest = text.slice(2);
        line = tightenToInk(flat, { ...ink, x0: space.x / sx });
        spaces = spaces.slice(1).map((s) => ({ index: s.index - 2, x: s.x }));
      } else if (opener !== undefined) {
        // An icon read as `『` before a Chinese label, or a symbol glued to a count: cut, the box past it.
        rest = text.slice(1);
        line = tightenToInk(flat, { ...ink, x0: opener / sx });
        spaces = spaces.filter((s) => s.index >= 1).map((s) => ({ index: s.index - 1, x: s.x }));
      }
      const pitch = r.pitch !== undefined ? r.pitch * (crop.x1 - crop.x0) : undefined;
      // Symbols outside the recogniser's dictionary or misread, from their ink (`symbols.ts`).
      const barred = verticalBars(rest, detail, toDetail(line), spaces);
      const checked = parenthesisedChecks(barred, detail, toDetail(line), spaces);
      const parts = splitAtGaps(detail, toDetail(line), checked.text, checked.spaces, pitch);
      for (const piece of parts) {
        if (!HAS_LETTER_OR_DIGIT.test(piece.text)) continue;
        const cut =
          parts.length === 1 ? line : tightenToInk(flat, { ...line, x0: piece.x0 / sx, x1: piece.x1 / sx });
        const said = withoutCaret(
          trailingHanDot(
            trailingDots(ellipsisDash(piece.text, detail, toDetail(cut)), detail, toDetail(cut)),
            detail,
            toDetail(cut),
          ),
          detail,
          toDetail(cut),
        );
        // The piece's spaces where they were read, kept when one was read for each space it holds.
        const spaceXs = checked.spaces
          .map((s) => s.x / detail.width)
          .filter((x) => x > cut.x0 / width && x < cut.x1 / width);
        lines.push({
          text: said,
          conf: r.conf,
          box: [cut.x0 / width, cut.y0 / height, cut.x1 / width, cut.y1 / height],
          ...(spaceXs.length > 0 && spaceXs.length === said.split(" ").length - 1 ? { spaces: spaceXs } : {}),
        });
      }
    });
    // A chart's x-axis labels read as one run-on line, cut at the ticks' spacing (`axis-labels.ts`).
    lines.splice(0, lines.length, ...axisLabelRuns(lines, detail));
    // Lone glyphs too small for the detection map (section-index letters, badge counts).
    const lone = await loneGlyphs(lines, image, detail, reread);
    for (let i = lines.length - 1; i >= 0; i--) if (lone.drop.has(lines[i] as TextLine)) lines.splice(i, 1);
    lines.push(...lone.add);
    // Brace-only lines of a code block, in its empty line slots (`code-brackets.ts`).
    lines.push(...codeBrackets(lines, detail));
    return columnCase([...lines, ...underZero(lines, plusses)]);
  }

  /** Text regions in source pixels, on a colour screen or a grey plane (its three channels equal). */
  /** Text regions on `image`, and the map's own word on any box of it (`map-hint.ts`). */
  private async detect(image: InkImage): Promise<{ boxes: PixelBox[]; hint: MapHint }> {
    const size = detectionSize(image.width, image.height, this.options.detectionWidth);
    const data =
      "channels" in image
        ? detectionInput(image, size.width, size.height)
        : detectionInputGrey(image.data, image.width, image.height, size.width, size.height);
    const input = new this.parts.ort.Tensor("float32", data, [1, 3, size.height, size.width]);
    const out = await this.parts.det.run({ [this.parts.det.inputNames[0] ?? "x"]: input });
    const map = out[this.parts.det.outputNames[0] ?? ""];
    if (!map || !(map.data instanceof Float32Array))
      throw new PiclawError("OCR_MODEL_OUTPUT", "text detection returned no float map", {});
    const fx = image.width / size.width;
    const fy = image.height / size.height;
    const boxes = dbBoxes(map.data, size.width, size.height, this.options).map((b) => ({
      x0: b.x0 * fx,
      y0: b.y0 * fy,
      x1: Math.min(image.width, b.x1 * fx),
      y1: Math.min(image.height, b.y1 * fy),
      score: b.score,
    }));
    return { boxes, hint: mapHint(map.data, size.width, size.height, fx, fy) };
  }

  /** Recognised text per box (same order as `boxes`); only the boxes at `which` (default all) are read. */
  private async read(
    image: InkImage,
    boxes: readonly PixelBox[],
    which?: readonly number[],
  ): Promise<ReadText[]> {
    const results: ReadText[] = boxes.map(() => ({ text: "", conf: 0, end: 1 }));
    const widths = boxes.map(recognitionWidth);
    const wanted = which ?? boxes.map((_, i) => i);
    const inputName = this.parts.rec.inputNames[0] ?? "x";
    const outputName = this.parts.rec.outputNames[0] ?? "";
    const planned = planBatches(
      wanted.map((i) => widths[i] ?? 0),
      this.options.recognitionBatch,
    ).flatMap((b) => {
      // A batch wider than `recognitionColumns` runs in parts at the same padded width: the crops read
      // as in one run, and the arena never has to hold the whole batch's activations.
      const indices = b.indices.map((k) => wanted[k] ?? 0);
      const per = Math.max(1, Math.floor(this.options.recognitionColumns / b.width));
      const parts: { width: number; indices: number[] }[] = [];
      for (let k = 0; k < indices.length; k += per)
        parts.push({ width: b.width, indices: indices.slice(k, k + per) });
      return parts;
    });
    for (const batch of planned) {
      const n = batch.indices.length;
      const perCrop = 3 * REC_HEIGHT * batch.width;
      const tensor = new Float32Array(n * perCrop);
      batch.indices.forEach((boxIndex, k) => {
        const box = boxes[boxIndex];
        if (box) writeCrop(image, box, widths[boxIndex] ?? batch.width, tensor, k * perCrop, batch.width);
      });
      const input = new this.parts.ort.Tensor("float32", tensor, [n, 3, REC_HEIGHT, batch.width]);
      const out = (await this.parts.rec.run({ [inputName]: input }))[outputName];
      if (!out || !(out.data instanceof Float32Array) || out.dims.length !== 3)
        throw new PiclawError("OCR_MODEL_OUTPUT", "text recognition returned no [N, T, C] scores", {});
      const steps = out.dims[1] ?? 0;
      const classes = out.dims[2] ?? 0;
      const data = out.data;
      this.partners ??= variantPartners(this.parts.dictionary);
      const partners = this.partners;
      batch.indices.forEach((boxIndex, k) => {
        const offset = k * steps * classes;
        const decoded = recoverSkippedHan(
          ctcDecode(data, offset, steps, classes, this.parts.dictionary, partners),
          data,
          offset,
          classes,
          this.parts.dictionary,
        );
        const cropWidth = widths[boxIndex] ?? batch.width;
        const [first, ...rest] = splitAtHanGaps(restoreSpaces(decoded), cropWidth, batch.width).map((p) => {
          const t = finishText(p.r, cropWidth, batch.width, this.options.stripChevrons);
          return { ...t, begin: Math.max(p.begin, t.begin ?? 0), end: Math.min(p.end, t.end) };
        });
        const runsOn = rest.length === 0 && hanRunsOn(decoded, data, offset, classes, cropWidth, batch.width);
        if (first)
          results[boxIndex] = rest.length > 0 ? { ...first, rest } : runsOn ? { ...first, runsOn } : first;
      });
    }
    return results;
  }
}
