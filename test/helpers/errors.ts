import { PiclawError } from "../../src/util/errors.js";

/** Await `work` and return the PiclawError it rejects with; fail if it resolves or rejects otherwise. */
export async function rejection(work: Promise<unknown>): Promise<PiclawError> {
  try {
    await work;
  } catch (err) {
    if (err instanceof PiclawError) return err;
    throw err;
  }
  throw new Error("expected a rejection with a PiclawError");
}
