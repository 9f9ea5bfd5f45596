/**
 * Fail-closed checks of the keys of a host's option objects: a misspelt or
 * wrongly cased key throws `SdkError` (`invalid_options`) naming its path
 * and the closest known key, instead of being silently ignored.
 */
import { SdkError } from "@agent-tools/core";
import { closestName, previewForMessage, shortenForMessage } from "@agent-tools/core/internal";

/**
 * The known keys of an options type `T`, as `{ key: true }`. Declare a list
 * with `{ ... } as const satisfies OptionKeyList<T>`: a key the type gains
 * but the list lacks, or a stale key the type no longer has, fails `tsc`.
 */
export type OptionKeyList<T> = { readonly [K in keyof T]-?: true };

/** True for an object that is neither null nor an array (a function is not one). */
export function isOptionObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * Throws `SdkError` (`invalid_options`) for the first own key of `value` that
 * `known` lacks: `Unknown option <where>.<key>: did you mean <where>.<closest>?
 * (known: ...)`, with `details.option` (the key's path) and
 * `details.suggestion` (the closest key's path, when one is close). `where`
 * is the object's path (`fs`, `tasks.run`), or `""` for the top level.
 *
 * @example
 * rejectUnknownKeys({ progresIntervalMs: 5 }, { progressIntervalMs: true }, "fs"); // throws: Unknown option fs.progresIntervalMs: did you mean fs.progressIntervalMs? ...
 */
export function rejectUnknownKeys(value: object, known: Readonly<Record<string, true>>, where: string): void {
  for (const key of Object.keys(value)) {
    if (Object.hasOwn(known, key)) continue;
    const names = Object.keys(known);
    const suggestion = closestName(key, names);
    const option = pathOf(where, shortenForMessage(key, 60));
    throw new SdkError(
      "invalid_options",
      `Unknown option ${option}${suggestion === undefined ? "" : `: did you mean ${pathOf(where, suggestion)}?`} (known: ${names.join(", ")}).`,
      { option, ...(suggestion === undefined ? {} : { suggestion: pathOf(where, suggestion) }) },
    );
  }
}

/**
 * Checks an optional option object: undefined passes; anything but an object
 * throws `<where> must be an object ({ a?, b? }), not <value>.`; an object's
 * keys go through {@link rejectUnknownKeys}. Returns the object (or undefined).
 *
 * @example
 * checkOptionObject(options.fs, FS_OPTION_KEYS, "fs");
 */
export function checkOptionObject(value: unknown, known: Readonly<Record<string, true>>, where: string): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  if (!isOptionObject(value)) {
    throw new SdkError("invalid_options", `${where} must be an object (${shapeOf(known)}), not ${describeOptionValue(value)}.`, { option: where });
  }
  rejectUnknownKeys(value, known, where);
  return value;
}

/** `{ a?, b? }` for a message saying what an object may hold. */
export function shapeOf(known: Readonly<Record<string, true>>): string {
  return `{ ${Object.keys(known)
    .map((key) => `${key}?`)
    .join(", ")} }`;
}

/** A short description of a wrong option value for a message: `an array`, `a function`, `"text"`, `42`. */
export function describeOptionValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "function") return "a function";
  if (typeof value === "object") return "an object";
  return previewForMessage(value, 40);
}

function pathOf(where: string, key: string): string {
  return where === "" ? key : `${where}.${key}`;
}
