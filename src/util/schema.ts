import { z } from "zod";

/**
 * A number within [min, max], both inclusive: the bound most config keys share. Chain `.int()`,
 * `.default()` or `.describe()` as with any zod number.
 */
export const num = (min: number, max: number) => z.number().min(min).max(max);
