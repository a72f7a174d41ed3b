/**
 * Full-screen working buffers kept from one peek to the next, so that a peek does not leave ~30 MB of
 * dead planes and summed-area tables (the glyph and disc proposers' at a camera frame's size) for the
 * garbage collector: V8 collects dead ArrayBuffers only once external memory has grown by tens of MB,
 * so that garbage sat on top of the live data and ONNX Runtime's arenas and made the peak RSS
 * (bench/README.md, session 13 h-perf2 and session 17 h-mem2).
 *
 * Every buffer handed out is zero-filled, as a fresh typed array is: the code using it cannot tell the
 * difference, so a listing cannot depend on the peek before it (a different screen size included).
 * One buffer per key: a caller holds a key's buffer only until it asks for that key again, so two
 * buffers alive at once need two keys. Not for use across an `await` (two peeks of one pipeline may
 * interleave there); the listing's passes run synchronously.
 */
export interface Buffers {
  f64(key: string, n: number): Float64Array;
  f32(key: string, n: number): Float32Array;
  i32(key: string, n: number): Int32Array;
  u16(key: string, n: number): Uint16Array;
  u8(key: string, n: number): Uint8Array;
}

/** A new zero-filled array each call: the default where no pool is passed (tests, one-off calls). */
export const FRESH_BUFFERS: Buffers = {
  f64: (_key, n) => new Float64Array(n),
  f32: (_key, n) => new Float32Array(n),
  i32: (_key, n) => new Int32Array(n),
  u16: (_key, n) => new Uint16Array(n),
  u8: (_key, n) => new Uint8Array(n),
};

/**
 * One pipeline's pool (`VisionPipeline` owns it): each key's memory is kept at the largest size asked
 * for (a phone's screen size does not change between peeks, so it is allocated once), and each request
 * gets a zero-filled view of its first `n` entries.
 */
export class ScratchBuffers implements Buffers {
  private readonly held = new Map<string, ArrayBuffer>();

  /** Bytes held by the pool (for tests and measurements). */
  get heldBytes(): number {
    let n = 0;
    for (const b of this.held.values()) n += b.byteLength;
    return n;
  }

  f64(key: string, n: number): Float64Array {
    return new Float64Array(this.memory(key, n * 8), 0, n).fill(0);
  }

  f32(key: string, n: number): Float32Array {
    return new Float32Array(this.memory(key, n * 4), 0, n).fill(0);
  }

  i32(key: string, n: number): Int32Array {
    return new Int32Array(this.memory(key, n * 4), 0, n).fill(0);
  }

  u16(key: string, n: number): Uint16Array {
    return new Uint16Array(this.memory(key, n * 2), 0, n).fill(0);
  }

  u8(key: string, n: number): Uint8Array {
    return new Uint8Array(this.memory(key, n), 0, n).fill(0);
  }

  private memory(key: string, bytes: number): ArrayBuffer {
    const had = this.held.get(key);
    if (had && had.byteLength >= bytes) return had;
    // Dropped before the larger one is made, so the two are not alive together.
    this.held.delete(key);
    const made = new ArrayBuffer(bytes);
    this.held.set(key, made);
    return made;
  }
}
