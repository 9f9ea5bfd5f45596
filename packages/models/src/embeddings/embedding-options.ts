import { SdkError } from "@agent-tools/core";
import { closestName } from "@agent-tools/core/internal";

/** The largest `maxBatchSize` an adapter accepts (OpenAI's own limit of inputs per request). */
export const MAX_EMBEDDING_BATCH_SIZE = 2048;

/** The default `maxBatchSize`. */
export const DEFAULT_EMBEDDING_BATCH_SIZE = 96;

/** Refuses an options object with a key outside `allowed`, naming it and the nearest allowed key. */
export function checkOptionKeys(owner: string, options: object, allowed: readonly string[]): void {
  for (const key of Object.keys(options)) {
    if (allowed.includes(key)) continue;
    const near = closestName(key, allowed);
    throw new SdkError("invalid_options", `${owner} has no option "${key}"${near ? ` (did you mean "${near}"?)` : ""}; known options: ${allowed.join(", ")}.`);
  }
}

/** Refuses a value that is not an integer in `[min, max]`, naming the option. */
export function checkInteger(owner: string, name: string, value: unknown, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new SdkError("invalid_options", `${owner}: ${name} must be an integer from ${min} to ${max}, not ${JSON.stringify(value)}.`);
  }
  return value;
}

/** The `maxBatchSize` option checked, or the default; never above `limit` (the provider's own). */
export function resolveBatchSize(owner: string, value: unknown, limit = MAX_EMBEDDING_BATCH_SIZE): number {
  if (value === undefined) return Math.min(DEFAULT_EMBEDDING_BATCH_SIZE, limit);
  return checkInteger(owner, "maxBatchSize", value, 1, limit);
}
