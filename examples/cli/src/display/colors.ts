/**
 * Terminal colours (picocolors), switchable per output stream.
 */
import pc from "picocolors";

/** A set of colour functions; each is the identity when colours are off. */
export type Colors = ReturnType<typeof pc.createColors>;

/** Colour functions, on or off. */
export function createColors(enabled: boolean): Colors {
  return pc.createColors(enabled);
}
