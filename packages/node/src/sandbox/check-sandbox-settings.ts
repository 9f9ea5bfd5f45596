import path from "node:path";
import { SdkError, type SandboxSettings } from "@agent-tools/core";
import { closestName } from "@agent-tools/core/internal";
import { checkSandboxEnvironment } from "./sandbox-environment.js";

/** The keys of {@link SandboxSettings}. */
export const SANDBOX_SETTING_KEYS: readonly string[] = ["enabled", "allowNetwork", "writableRoots", "hiddenPaths", "environment"];

function invalid(message: string, details: Record<string, unknown> = {}): SdkError {
  return new SdkError("invalid_options", message, details);
}

function checkAbsolutePaths(value: unknown, key: string): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) throw invalid(`sandbox.${key} must be an array of absolute paths, not ${JSON.stringify(value)}.`, { key });
  for (const entry of value) {
    if (typeof entry !== "string" || !path.isAbsolute(entry) || entry.includes("\u0000")) {
      throw invalid(`sandbox.${key} entry ${JSON.stringify(entry)} is not an absolute path; give each as an absolute path (e.g. "/home/ada/.cache").`, {
        key,
        entry,
      });
    }
  }
}

/**
 * Checks a host's sandbox settings and fails closed: an unknown key (e.g.
 * `allownetwork`), a value of the wrong type or a relative path throws
 * `SdkError` (`invalid_options`) naming it and saying what is expected, so a
 * typo never leaves a command less confined than the host meant. `extraKeys`
 * are keys the caller handles itself (e.g. the SDK's `bubblewrapPath`).
 *
 * @example
 * checkSandboxSettings({ enabled: true, environment: { allow: ["NPM_*"] } });
 */
export function checkSandboxSettings(settings: unknown, extraKeys: readonly string[] = []): SandboxSettings {
  if (typeof settings !== "object" || settings === null || Array.isArray(settings)) {
    throw invalid(`sandbox must be an object like { enabled: true }, not ${JSON.stringify(settings)}.`);
  }
  const known = [...SANDBOX_SETTING_KEYS, ...extraKeys];
  for (const key of Object.keys(settings)) {
    if (known.includes(key)) continue;
    const near = closestName(key, known);
    throw invalid(`Unknown sandbox option "${key}".${near ? ` Did you mean "${near}"?` : ""} Known options: ${known.join(", ")}.`, {
      key,
      option: `sandbox.${key}`,
      ...(near === undefined ? {} : { suggestion: `sandbox.${near}` }),
    });
  }
  const given = settings as Record<string, unknown>;
  if (typeof given.enabled !== "boolean") throw invalid(`sandbox.enabled must be true or false, not ${JSON.stringify(given.enabled)}.`, { key: "enabled" });
  if (given.allowNetwork !== undefined && typeof given.allowNetwork !== "boolean") {
    throw invalid(`sandbox.allowNetwork must be true or false, not ${JSON.stringify(given.allowNetwork)}.`, { key: "allowNetwork" });
  }
  checkAbsolutePaths(given.writableRoots, "writableRoots");
  checkAbsolutePaths(given.hiddenPaths, "hiddenPaths");
  checkSandboxEnvironment(given.environment);
  return settings as SandboxSettings;
}
