import { z } from "zod";
import { PiclawError } from "../../util/errors.js";

/**
 * `piclaw.txt` on the boot partition: PiClaw's own first-boot keys, one `key=value` a line, `#`
 * comments, editable in any text editor on any computer. Applied to /etc/piclaw/config.yaml at boot
 * when the file changed; a file with any error is applied not at all (see apply.ts).
 */
const piclawTxtSchema = z.strictObject({
  rig_backend: z.enum(["sim", "hardware"]).optional(),
  rig_profile: z
    .string()
    .regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, "must be a profile name like corexy-fluidnc")
    .optional(),
  serial_path: z
    .string()
    .regex(/^\/dev\/[A-Za-z0-9._/:-]+$/, "must be a device path under /dev, e.g. /dev/ttyUSB0")
    .optional(),
  passcode_file: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, "must be a file name on the boot partition, e.g. passcode.txt")
    .optional(),
});

export type PiclawTxt = z.infer<typeof piclawTxtSchema>;

/** The keys piclaw.txt accepts (for messages). */
export const PICLAW_TXT_KEYS = Object.keys(piclawTxtSchema.shape);

/**
 * Parse and validate piclaw.txt. Throws PiclawError BOOT_SETTINGS_INVALID listing every problem
 * (line numbers for syntax, key names for values), so one boot shows all of them.
 */
export function parsePiclawTxt(text: string): PiclawTxt {
  const raw: Record<string, string> = {};
  const problems: string[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("#")) return;
    const eq = trimmed.indexOf("=");
    if (eq <= 0) {
      problems.push(`line ${index + 1}: expected key=value`);
      return;
    }
    const key = trimmed.slice(0, eq).trim();
    const value = trimmed
      .slice(eq + 1)
      .replace(/\s+#.*$/, "")
      .trim();
    if (key in raw) problems.push(`line ${index + 1}: ${key} is set twice`);
    raw[key] = value;
  });
  const parsed = piclawTxtSchema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const keys = "keys" in issue && Array.isArray(issue.keys) ? issue.keys.join(", ") : "";
      problems.push(
        issue.code === "unrecognized_keys"
          ? `unknown key ${keys} (known: ${PICLAW_TXT_KEYS.join(", ")})`
          : `${issue.path.join(".")}: ${issue.message}`,
      );
    }
  }
  if (problems.length > 0) {
    throw new PiclawError("BOOT_SETTINGS_INVALID", `piclaw.txt: ${problems.join("; ")}`, { problems });
  }
  return parsed.data ?? {};
}
