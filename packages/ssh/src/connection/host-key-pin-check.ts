/**
 * The fail-closed check of a pinned host key as a host configures it, shared
 * by the connection options and SSHManager's hosts.
 */
import { SdkError } from "@agent-tools/core";
import { closestName, shortenForMessage } from "@agent-tools/core/internal";

const FINGERPRINT_PATTERN = /^SHA256:[A-Za-z0-9+/]{43}$/;

/** An absolute path of this machine (POSIX, or a Windows drive path). */
const ABSOLUTE_PATH = /^(\/|[A-Za-z]:[\\/])/;

/**
 * Checks `value` (at option path `where`) is `"SHA256:..."` (an OpenSSH
 * SHA-256 fingerprint) or `{ knownHostsFile }` with an absolute path; a
 * missing pin, a malformed fingerprint, an unknown key or a relative path
 * throws `SdkError("invalid_options")` naming the option.
 */
export function checkHostKeyPin(value: unknown, where: string): void {
  if (value === undefined) {
    throw invalid(
      where,
      `${where} is missing: pin the server's key as "SHA256:..." (ssh-keygen -l -E sha256 -f on the server's host key, checked out of band) or { knownHostsFile }; an unknown key is never trusted.`,
    );
  }
  if (typeof value === "string") {
    if (!FINGERPRINT_PATTERN.test(value)) {
      throw invalid(
        where,
        `${where} must be an OpenSSH SHA-256 fingerprint ("SHA256:" and 43 base64 characters, as ssh-keygen -l -E sha256 prints it), not "${shortenForMessage(value, 80)}".`,
      );
    }
    return;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw invalid(where, `${where} must be "SHA256:..." or { knownHostsFile }.`);
  for (const key of Object.keys(value)) {
    if (key === "knownHostsFile") continue;
    const option = `${where}.${shortenForMessage(key, 60)}`;
    const suggestion = closestName(key, ["knownHostsFile"]);
    throw new SdkError(
      "invalid_options",
      `Unknown option ${option}${suggestion === undefined ? "" : `: did you mean ${where}.${suggestion}?`} (known: knownHostsFile).`,
      { option, ...(suggestion === undefined ? {} : { suggestion: `${where}.${suggestion}` }) },
    );
  }
  const file = (value as { knownHostsFile?: unknown }).knownHostsFile;
  const option = `${where}.knownHostsFile`;
  if (typeof file !== "string") throw invalid(option, `${option} must be a string.`);
  if (!ABSOLUTE_PATH.test(file)) throw invalid(option, `${option} must be an absolute path, not "${shortenForMessage(file, 120)}".`);
}

function invalid(option: string, message: string): SdkError {
  return new SdkError("invalid_options", message, { option });
}
