import { ToolError } from "../errors.js";
import { shortenForMessage } from "../quote.js";

/** How deep and how large the arguments of one call may be. */
export interface ArgumentLimits {
  /** Deepest nesting of arrays and objects below the arguments object; default 64. */
  readonly maxDepth: number;
  /** Most values (objects, arrays, strings, numbers, ...) in one call's arguments; default 100 000. */
  readonly maxValues: number;
}

/** The limits the executor applies before validation. */
export const DEFAULT_ARGUMENT_LIMITS: ArgumentLimits = Object.freeze({ maxDepth: 64, maxValues: 100_000 });

interface Pending {
  readonly value: unknown;
  readonly depth: number;
  /** The container and key this value sits under: a linked path, so no value copies its ancestors' path. */
  readonly parent?: Pending;
  readonly key?: string | number;
}

/**
 * Refuses arguments that are nested too deeply, hold too many values, or
 * hold values JSON cannot express (BigInt, functions, symbols, non-finite
 * numbers, class instances such as Date or Map), with `invalid_arguments`
 * naming the limit and where it was exceeded. Walks with an explicit stack,
 * never recursion, so no input can overflow the call stack; runs before
 * validation, whose recursion could.
 *
 * @example
 * checkArgumentLimits("Edit", { path: "a", old_string: deeplyNested }); // throws ToolError("invalid_arguments")
 */
export function checkArgumentLimits(toolName: string, args: Record<string, unknown>, limits: ArgumentLimits = DEFAULT_ARGUMENT_LIMITS): void {
  const stack: Pending[] = [{ value: args, depth: 0 }];
  let values = 0;
  while (stack.length > 0) {
    const entry = stack.pop()!;
    const { value, depth } = entry;
    values += 1;
    const problem = nonJsonProblem(value);
    if (problem !== undefined) {
      throw refusal(
        toolName,
        `contain ${problem}, which JSON cannot express`,
        entry,
        "Send only JSON values: strings, numbers, booleans, null, arrays and plain objects",
      );
    }
    if (value === null || typeof value !== "object") continue;
    if (depth >= limits.maxDepth) {
      throw refusal(toolName, `be nested more than ${limits.maxDepth} levels deep (or refer to themselves)`, entry, "Flatten the value");
    }
    const keys: readonly (string | number)[] | undefined = Array.isArray(value) ? undefined : Object.keys(value);
    const count = keys === undefined ? (value as unknown[]).length : keys.length;
    // Counted before pushing, so a ten-million-element array is refused without being copied onto the stack.
    if (values + stack.length + count > limits.maxValues) {
      throw refusal(toolName, `hold more than ${limits.maxValues} values (arrays, objects, strings, numbers, ...) in total`, entry, "Send fewer values");
    }
    for (let index = count - 1; index >= 0; index -= 1) {
      const key = keys === undefined ? index : keys[index]!;
      stack.push({ value: (value as Record<string | number, unknown>)[key], depth: depth + 1, parent: entry, key });
    }
  }
}

function nonJsonProblem(value: unknown): string | undefined {
  switch (typeof value) {
    case "bigint":
      return "a BigInt";
    case "function":
      return "a function";
    case "symbol":
      return "a symbol";
    case "number":
      return Number.isFinite(value) ? undefined : `the number ${String(value)}`;
    case "object": {
      if (value === null || Array.isArray(value)) return undefined;
      const prototype = Object.getPrototypeOf(value) as object | null;
      if (prototype === Object.prototype || prototype === null) return undefined;
      const name = (prototype.constructor as { name?: unknown } | undefined)?.name;
      return `a ${typeof name === "string" && name !== "" ? name : "non-plain"} object`;
    }
    default:
      return undefined; // string, boolean, undefined (an absent optional argument)
  }
}

function refusal(toolName: string, what: string, entry: Pending, next: string): ToolError {
  const path: (string | number)[] = [];
  for (let current: Pending | undefined = entry; current?.parent !== undefined; current = current.parent) path.unshift(current.key!);
  const where = path.length === 0 ? "arguments" : `\`${formatPath(path)}\``;
  return new ToolError(
    "invalid_arguments",
    `${toolName} refused its arguments: they must not ${what}; exceeded at ${where}. ${next} and call ${toolName} again.`,
    { details: { argumentPath: formatPath(path), depth: path.length } },
  );
}

/** `old_string[0][0]...`, cut so a 64-level path stays short. */
function formatPath(path: readonly (string | number)[]): string {
  const text = path.map((segment, index) => (typeof segment === "number" ? `[${segment}]` : index === 0 ? segment : `.${segment}`)).join("");
  return shortenForMessage(text, 120);
}
