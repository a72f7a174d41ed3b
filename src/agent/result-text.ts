import type { ToolResult } from "../tools/types.js";

/**
 * How tool results read as text in the conversation: live (every text part, verbatim) and superseded
 * (a short stub once a newer screen image exists). Listing rows are `id [kind] "label" [l,t,r,b] conf`
 * (src/vision/listing.ts); a stub keeps the `text` and `switch` rows (labels and states the model may
 * still need, e.g. what a field said) and drops the rest (icons, buttons, keys, apps, the status bar),
 * whose boxes only mean something next to the image.
 */

const LISTING_ROW = /^\d+ \[(icon|text|button|switch|key|app|status)\] "/;
/** Rows a stub keeps: text the model may still need, and switches (a title and an on/off state). */
const TEXT_ROW = /^\d+ \[(text|switch)\] "/;

/** Marks a result the tool flagged as failed, so the model reads it as an error (tool messages have no flag). */
export const ERROR_PREFIX = "[error] ";

/** The JPEG (base64) of the last image part, or null. */
export function lastImage(result: ToolResult): string | null {
  for (let i = result.content.length - 1; i >= 0; i--) {
    const part = result.content[i];
    if (part?.type === "image") return part.data;
  }
  return null;
}

/** Every text part, verbatim, joined by newlines (with the error prefix when the tool failed). */
export function liveText(result: ToolResult): string {
  const text = result.content
    .flatMap((part) => (part.type === "text" ? [part.text] : []))
    .join("\n")
    .trim();
  const body = text === "" ? "(no text)" : text;
  return result.isError ? `${ERROR_PREFIX}${body}` : body;
}

/**
 * The stub of a result whose image was superseded: `(superseded <tool>)`, then what the tool said it
 * did and its verdict (the lines that are not listing rows, minus `next:` hints, which were advice
 * for the moment and listing headers, which only announced rows), then the text rows.
 */
export function supersededText(toolName: string, result: ToolResult): string {
  const lines: string[] = [`(superseded ${toolName})`];
  for (const part of result.content) {
    if (part.type !== "text") continue;
    const partLines = part.text.split("\n");
    const hasRows = partLines.some((l) => LISTING_ROW.test(l));
    for (const [i, line] of partLines.entries()) {
      if (LISTING_ROW.test(line)) {
        if (TEXT_ROW.test(line)) lines.push(line);
        continue;
      }
      if (line.startsWith("next:") || line.trim() === "") continue;
      if (hasRows && i === 0) continue; // the listing's one-line header
      lines.push(line);
    }
  }
  const body = lines.join("\n");
  return result.isError ? `${ERROR_PREFIX}${body}` : body;
}

/** The `screen: …` verdict line of a gesture result, or null (views and local tools have none). */
export function verdictOf(result: ToolResult): string | null {
  for (const part of result.content) {
    if (part.type !== "text") continue;
    const m = /^screen: (.+)$/m.exec(part.text);
    if (m?.[1]) return m[1];
  }
  return null;
}

/** `s` cut to `max` characters with an ellipsis, on one line. */
export function clip(s: string, max: number): string {
  const flat = s.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
