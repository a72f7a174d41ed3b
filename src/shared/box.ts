/** Boxes in 0–1 fractions of the image (or screen) they were found in, so they never depend on the
 * resolution a stage happened to run at. */

/** `[left, top, right, bottom]`, each in 0–1, left < right, top < bottom. */
export type FracBox = [left: number, top: number, right: number, bottom: number];
