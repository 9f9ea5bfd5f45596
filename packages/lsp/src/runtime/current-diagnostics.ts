/**
 * A document's current diagnostics, after it was synced: pulled where the
 * server can (exact, no waiting on publications), else the next
 * publication after the sync, waited for at most `waitMs`.
 */
import { RequestTimeoutError } from "../protocol/json-rpc-connection.js";
import type { LanguageServerInstance } from "./language-server-instance.js";
import type { LspDiagnostic } from "./lsp-types.js";
import { uriOfFilePath } from "./uris.js";

/** Syncs `path` with `sync`, then answers its diagnostics (`pending` when the server did not answer in time). */
export async function currentDiagnostics(
  instance: LanguageServerInstance,
  path: string,
  sync: () => Promise<unknown>,
  diagnosticsOptions: { signal?: AbortSignal; waitMs?: number },
): Promise<{ status: "ready" | "pending"; diagnostics: readonly LspDiagnostic[] }> {
  const uri = uriOfFilePath(path);
  const waitMs = diagnosticsOptions.waitMs ?? 5000;
  const mark = instance.publicationMark();
  const before = instance.documents.get(path)?.version;
  await sync();
  if (instance.canPull) {
    try {
      const diagnostics = await instance.pullDiagnostics(
        { path, uri },
        { timeoutMs: waitMs, ...(diagnosticsOptions.signal ? { signal: diagnosticsOptions.signal } : {}) },
      );
      return { status: "ready", diagnostics };
    } catch (error) {
      diagnosticsOptions.signal?.throwIfAborted();
      if (!(error instanceof RequestTimeoutError)) throw error;
      return { status: "pending", diagnostics: instance.diagnosticsOf(uri).diagnostics };
    }
  }
  const after = instance.documents.get(path)?.version;
  const known = instance.diagnosticsOf(uri);
  // An unchanged open document whose diagnostics are known needs no wait.
  if (before !== undefined && before === after && known.known) return { status: "ready", diagnostics: known.diagnostics };
  const fresh = await instance.waitForDiagnostics([uri], mark, waitMs, diagnosticsOptions.signal);
  diagnosticsOptions.signal?.throwIfAborted();
  return { status: fresh ? "ready" : "pending", diagnostics: instance.diagnosticsOf(uri).diagnostics };
}
