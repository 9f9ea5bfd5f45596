import { randomInt } from "node:crypto";

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

/** Characters of randomness after the prefix of every cron id. */
export const CRON_ID_RANDOM_CHARS = 12;

/** `<prefix>_` plus {@link CRON_ID_RANDOM_CHARS} random base-36 characters, e.g. `cron_k3v0x9a1b2c4`. */
export function newCronId(prefix: "cron" | "run"): string {
  let text = "";
  for (let index = 0; index < CRON_ID_RANDOM_CHARS; index += 1) text += ALPHABET[randomInt(ALPHABET.length)];
  return `${prefix}_${text}`;
}

/** Cuts a run's output to `maxChars` characters (the store's cap). */
export function capCronOutput(output: string, maxChars: number): string {
  return output.length > maxChars ? output.slice(0, maxChars) : output;
}

/** Newest occurrence first; on a tie the larger run id first, so every store lists runs in one order. */
export function compareCronRunsNewestFirst(left: { scheduledAt: number; id: string }, right: { scheduledAt: number; id: string }): number {
  return right.scheduledAt - left.scheduledAt || (left.id < right.id ? 1 : left.id > right.id ? -1 : 0);
}

/** The message a queued run carries once it expired unclaimed. */
export const CRON_EXPIRED_RUN_OUTPUT = "Expired: no prompt runner took this queued run in time. It runs again at its next occurrence.";
