/**
 * True when `error` is Node's "cannot find package `name`" from an
 * `import(name)`: the sign that an optional peer dependency is not
 * installed (as opposed to a package that is there and failed to load).
 *
 * @example
 * try {
 *   await import("pg");
 * } catch (error) {
 *   if (isModuleNotFoundError(error, "pg")) throw new SdkError("unsupported", "Install pg: npm install pg");
 *   throw error;
 * }
 */
export function isModuleNotFoundError(error: unknown, name: string): boolean {
  if (error === null || typeof error !== "object") return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") return false;
  // The message names the missing package: a missing dependency *of* `name` is a broken install, not an absent one.
  return typeof message === "string" && (message.includes(`'${name}'`) || message.includes(`"${name}"`) || message.includes(`/${name}/`));
}
