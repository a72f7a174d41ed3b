/**
 * The one error class of PiClaw. `code` is stable and machine-readable (e.g. `CONFIG_INVALID`);
 * `message` is for people and must never contain a secret. `details` carries structured context
 * (a key path, a field name) that callers may show or return to the model as data.
 */
export class PiclawError extends Error {
  readonly code: string;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: string, message: string, details: Record<string, unknown> = {}, options?: ErrorOptions) {
    super(message, options);
    this.name = "PiclawError";
    this.code = code;
    this.details = details;
  }
}

/** Narrow an unknown thrown value to a message without assuming it is an Error. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
