/**
 * Ctrl-C and SIGTERM during an in-process `piclaw run` (issue 18, problem 9). Node's default for
 * both is to exit at once: the GRBL cable child was orphaned, the trace stayed `running`, the arm
 * was never parked. While a session runs in this process, the first signal aborts it the way
 * `piclaw abort` aborts a daemon session (the tool lifts and parks, the trace ends ABORTED); the
 * caller then stops the appliance, which stops its children. The handlers are `once`: a second
 * signal finds none and gets Node's default, an immediate exit, for a stop that itself hangs.
 */

export type StopSignal = "SIGINT" | "SIGTERM";

/** Where signals come from: `process` in the CLI, an EventEmitter in tests. */
export interface SignalSource {
  once(signal: StopSignal, listener: () => void): unknown;
  off(signal: StopSignal, listener: () => void): unknown;
}

const SIGNALS: readonly StopSignal[] = ["SIGINT", "SIGTERM"];

/**
 * Route SIGINT/SIGTERM to `abort` until the returned function is called (call it when the session
 * is over). `write` tells the user what happens.
 */
export function abortOnSignals(
  abort: (reason: string) => boolean,
  write: (text: string) => void,
  source: SignalSource,
): () => void {
  const listeners = SIGNALS.map((signal) => {
    const listener = () => {
      write(`${signal}: aborting the session (the arm lifts and parks); ${signal} again to exit at once\n`);
      abort(`interrupted (${signal})`);
    };
    source.once(signal, listener);
    return { signal, listener };
  });
  return () => {
    for (const { signal, listener } of listeners) source.off(signal, listener);
  };
}
