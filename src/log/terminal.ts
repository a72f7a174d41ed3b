/**
 * Text from outside (the model's notes and recaps, a provider's error) printed on a terminal. A
 * terminal obeys control characters: ESC starts colour, cursor and OSC sequences (an OSC can set
 * the window title or, on some terminals, write the clipboard), BEL rings, CR rewrites the line and
 * LF starts a new one — which let a note print a fake `DONE: …` outcome line. So every C0 control
 * (tab included), DEL and every C1 control is shown escaped (`\n`, `\r`, `\t`, `\x1b`, `\u009b`)
 * and the printed text is always exactly one line.
 */
export function terminalSafe(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => {
    if (c === "\n") return "\\n";
    if (c === "\r") return "\\r";
    if (c === "\t") return "\\t";
    const code = c.charCodeAt(0);
    return code < 0x80
      ? `\\x${code.toString(16).padStart(2, "0")}`
      : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}
