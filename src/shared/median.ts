/**
 * The median of `values`: the upper middle of a sorted copy for an even count (no averaging, so a median
 * of integer levels stays an integer level), 0 for none. `values` is not reordered.
 */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
