/**
 * Maps ssh2's connection failures onto `WorkspaceError` codes, with
 * messages that name the endpoint and never a credential: every text is
 * passed through {@link redactSecrets} with the connection's secrets.
 */
import { WorkspaceError } from "@agent-tools/core/workspace";

/** Replaces every occurrence of each secret (and of its lines, for keys) in `text` with `[redacted]`. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < 4) continue;
    out = out.split(secret).join("[redacted]");
    for (const line of secret.split(/\r?\n/)) if (line.trim().length >= 16) out = out.split(line.trim()).join("[redacted]");
  }
  return out;
}

/** A failed connect or login as a `WorkspaceError` (`connection`), with the stage it failed at. */
export function connectError(error: unknown, endpoint: string, method: string, secrets: readonly string[]): WorkspaceError {
  if (error instanceof WorkspaceError) return error;
  const level = (error as { level?: unknown } | null)?.level;
  const code = (error as { code?: unknown } | null)?.code;
  const reason = redactSecrets(error instanceof Error ? error.message : String(error), secrets);
  if (level === "client-authentication") {
    return new WorkspaceError("connection", `Login to ${endpoint} failed: the server refused ${method} authentication (${reason}).`, {
      endpoint,
      stage: "authentication",
      method,
    });
  }
  if (level === "client-timeout") {
    return new WorkspaceError("connection", `Connecting to ${endpoint} timed out before the login finished (readyTimeoutMs).`, { endpoint, stage: "timeout" });
  }
  return new WorkspaceError("connection", `Cannot connect to ${endpoint}: ${reason}`, {
    endpoint,
    stage: typeof level === "string" ? level : "connect",
    ...(typeof code === "string" ? { platformCode: code } : {}),
  });
}

/** True for failures a retry cannot fix (a refused host key, a refused login, bad options). */
export function isPermanentConnectError(error: WorkspaceError): boolean {
  return error.code === "host_key" || error.details.stage === "authentication" || error.details.stage === "options";
}
