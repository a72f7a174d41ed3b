import type { PigpioPulse } from "../../rig/gpio/pigpio-types.js";

/**
 * pigpio's wave store, as the fake's `waveClear` / `waveAddGeneric` / `waveCreate` / `waveDelete` see it
 * (pigpio.h, joan2937/pigpio): pulses added since the last create are merged on one time line, at most
 * `maxPulses` of them (PI_TOO_MANY_PULSES); every created wave holds its pulses in one DMA pool of that
 * same size until deleted (PI_TOO_MANY_CBS). Errors are thrown as the pigpio module does, as plain Errors.
 */
export class WavePool {
  private building: PigpioPulse[][] = [];
  private readonly waves = new Map<number, PigpioPulse[]>();
  private nextId = 0;

  /** `maxPulses`: `waveGetMaxPulses()`, also the size of the pool shared by all created waves. */
  constructor(readonly maxPulses: number) {}

  /** `gpioWaveClear`: drops the pulses being built and every created wave. */
  clear(): void {
    this.building = [];
    this.waves.clear();
  }

  /** `gpioWaveAddGeneric`: adds a pulse train from time 0; returns the merged wave's pulse count. */
  addGeneric(pulses: readonly PigpioPulse[]): number {
    for (const p of pulses) {
      for (const v of [p.gpioOn, p.gpioOff, p.usDelay]) {
        if (!Number.isInteger(v) || v < 0)
          throw new Error(`pigpio: gpioWaveAddGeneric: bad pulse value ${v}`);
      }
      if (p.gpioOn > 31 || p.gpioOff > 31) throw new Error("pigpio: waves drive GPIO 1–31 only");
    }
    this.building.push(pulses.map((p) => ({ ...p })));
    const count = mergeByTime(this.building).length;
    if (count > this.maxPulses) throw new Error(`pigpio: PI_TOO_MANY_PULSES (${count} > ${this.maxPulses})`);
    return count;
  }

  /** `gpioWaveCreate`: the merged pulses become a wave in the pool; returns its id. */
  create(): number {
    const pulses = mergeByTime(this.building);
    if (pulses.length === 0) throw new Error("pigpio: PI_EMPTY_WAVEFORM");
    let pool = pulses.length;
    for (const w of this.waves.values()) pool += w.length;
    if (pool > this.maxPulses) throw new Error(`pigpio: PI_TOO_MANY_CBS (DMA pool full: ${pool} pulses)`);
    this.building = [];
    const id = this.nextId++;
    this.waves.set(id, pulses);
    return id;
  }

  /** `gpioWaveDelete`: frees the wave's share of the pool. */
  delete(id: number): void {
    if (!this.waves.delete(id)) throw new Error(`pigpio: PI_BAD_WAVE_ID ${id}`);
  }

  /** The created wave's pulses, or undefined if `id` is not (or no longer) in the pool. */
  get(id: number): PigpioPulse[] | undefined {
    return this.waves.get(id);
  }
}

/** pigpio merges every `waveAddGeneric` into one time line; same-time pulses stay in order. */
function mergeByTime(trains: readonly PigpioPulse[][]): PigpioPulse[] {
  if (trains.length === 1) return [...(trains[0] ?? [])];
  const timed: { us: number; seq: number; p: PigpioPulse }[] = [];
  let seq = 0;
  for (const train of trains) {
    let us = 0;
    for (const p of train) {
      timed.push({ us, seq: seq++, p });
      us += p.usDelay;
    }
    timed.push({ us, seq: seq++, p: { gpioOn: 0, gpioOff: 0, usDelay: 0 } });
  }
  timed.sort((x, y) => x.us - y.us || x.seq - y.seq);
  const out: PigpioPulse[] = [];
  for (let i = 0; i < timed.length; i++) {
    const cur = timed[i];
    if (!cur) continue;
    const next = timed[i + 1];
    if (cur.p.gpioOn === 0 && cur.p.gpioOff === 0 && next && next.us === cur.us) continue;
    out.push({ gpioOn: cur.p.gpioOn, gpioOff: cur.p.gpioOff, usDelay: next ? next.us - cur.us : 0 });
  }
  return out;
}
