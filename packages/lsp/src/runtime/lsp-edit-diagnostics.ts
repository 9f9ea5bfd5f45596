/**
 * The diagnostics the file tools append after a change, from the language
 * servers: `before` snapshots what the running servers report for the
 * files (and reads their old text), `after` syncs the changed files, waits
 * within the budget for fresh diagnostics and reports the errors the
 * change introduced.
 *
 * Never throws for the tool (a failure is `unavailable`) and never waits
 * past the budget: a server that is not running yet is started in the
 * background by `before`, and `after` only uses it if it became ready in
 * time (else `pending`).
 */
import type {
  DiagnosticsFileChange,
  EditDiagnostic,
  EditDiagnostics,
  EditDiagnosticsBaseline,
  EditDiagnosticsDetails,
  EditDiagnosticsReport,
} from "@agent-tools/core/diagnostics";
import { RequestTimeoutError } from "../protocol/json-rpc-connection.js";
import { diffDiagnostics, renderNewProblems, toEditDiagnostic } from "./diagnostics-diff.js";
import type { LanguageServerInstance } from "./language-server-instance.js";
import { type LanguageServerManager, managerInternals } from "./language-server-manager.js";
import type { LspDiagnostic } from "./lsp-types.js";

/** Options of {@link createLspEditDiagnostics}. */
export interface LspEditDiagnosticsOptions {
  /** How long `after` may wait for the servers; default 1500 ms. */
  readonly budgetMs?: number;
  /** Also report new errors in open documents that import a changed or deleted file (at most 20 of them); default true. */
  readonly dependents?: boolean;
  /** The path as the model reads it (workspace-relative). */
  readonly displayPath: (path: string) => string;
}

interface FileBaseline {
  readonly oldText?: string;
  readonly diagnostics?: readonly LspDiagnostic[];
}

interface LspBaseline extends EditDiagnosticsBaseline {
  readonly files: ReadonlyMap<string, FileBaseline>;
  /** Diagnostics of the other open documents (by uri) at `before`. */
  readonly openDiagnostics: ReadonlyMap<string, readonly LspDiagnostic[]>;
}

const LANGUAGE_NAMES: Readonly<Record<string, string>> = { typescript: "TypeScript", python: "Python" };
const MAX_DEPENDENTS = 20;

function raceDeadline<T>(promise: Promise<T>, deadline: number, signal?: AbortSignal): Promise<T | undefined> {
  return new Promise<T | undefined>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), Math.max(0, deadline - Date.now()));
    const onAbort = () => resolve(undefined);
    signal?.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => resolve(value),
      () => resolve(undefined),
    );
    void promise
      .finally(() => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      })
      .catch(() => undefined);
  });
}

function stem(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(0, dot) : name;
}

/** Whether `text` plausibly imports `path` (a module specifier ending in its name). */
function mentionsModule(text: string, path: string): boolean {
  const name = stem(path).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(from|import|require\\()\\s*\\(?\\s*["'][^"']*\\b${name}(\\.[a-z]+)?["']|^\\s*(from|import)\\s+[\\w.]*\\b${name}\\b`, "m").test(text);
}

/**
 * The language servers' {@link EditDiagnostics} provider over a manager.
 *
 * @example
 * const diagnostics = createLspEditDiagnostics(manager, { displayPath: (path) => relative(root, path) });
 * const baseline = await diagnostics.before(["/repo/src/a.ts"]);
 * // ... the change is written ...
 * const report = await diagnostics.after(baseline, [{ path: "/repo/src/a.ts", displayPath: "src/a.ts", change: "modified" }]);
 */
export function createLspEditDiagnostics(manager: LanguageServerManager, options: LspEditDiagnosticsOptions): EditDiagnostics {
  const budgetMs = options.budgetMs ?? 1500;
  const dependents = options.dependents ?? true;
  const internals = managerInternals(manager);

  return {
    async before(paths, callOptions = {}) {
      const files = new Map<string, FileBaseline>();
      const openDiagnostics = new Map<string, readonly LspDiagnostic[]>();
      if (!internals) return { paths, files, openDiagnostics } as LspBaseline;
      // One budget for the whole snapshot, however many files.
      const deadline = Date.now() + budgetMs;
      const within = () => ({ timeoutMs: Math.max(1, deadline - Date.now()), ...(callOptions.signal ? { signal: callOptions.signal } : {}) });
      for (const path of paths) {
        if (!manager.configFor(path)) continue;
        const instance = internals.runningInstanceFor(path);
        if (!instance) {
          // Cold: start in the background; `after` uses it only if it is ready within the budget.
          internals.instanceFor(path).catch(() => undefined);
        }
        const oldText = await internals.readText(path, callOptions.signal).catch(() => undefined);
        const open = instance?.documents.get(path);
        const known = instance?.diagnosticsOf(manager.uriOfPath(path));
        let current = open && known?.known && open.text === oldText ? known.diagnostics : undefined;
        if (instance?.canPull && oldText !== undefined) {
          current = await internals
            .syncText(instance, path, oldText)
            .then(() => instance.pullDiagnostics({ path, uri: manager.uriOfPath(path) }, within()))
            .catch(() => undefined);
        }
        files.set(path, { ...(oldText !== undefined ? { oldText } : {}), ...(current ? { diagnostics: current } : {}) });
        if (!instance) continue;
        for (const document of instance.documents.list()) {
          if (openDiagnostics.has(document.uri) || paths.includes(document.path)) continue;
          if (!instance.canPull) openDiagnostics.set(document.uri, instance.diagnosticsOf(document.uri).diagnostics);
          else if (dependents && openDiagnostics.size < MAX_DEPENDENTS && mentionsModule(document.text, path)) {
            const pulled = await instance.pullDiagnostics(document, within()).catch(() => undefined);
            if (pulled) openDiagnostics.set(document.uri, pulled);
          }
        }
      }
      const baseline: LspBaseline = { paths, files, openDiagnostics };
      return baseline;
    },

    async after(baseline, changes, callOptions = {}) {
      const start = Date.now();
      const deadline = start + budgetMs;
      const signal = callOptions.signal;
      const relevant = changes.filter((change) => manager.configFor(change.path));
      if (relevant.length === 0 || !internals) return undefined;
      const files = (baseline as Partial<LspBaseline>).files ?? new Map<string, FileBaseline>();
      const openBefore = (baseline as Partial<LspBaseline>).openDiagnostics ?? new Map<string, readonly LspDiagnostic[]>();
      const report = (status: EditDiagnosticsDetails["status"], text: string, extra: Partial<EditDiagnosticsDetails> = {}): EditDiagnosticsReport => ({
        text,
        details: { status, introduced: [], resolvedCount: 0, waitedMs: Date.now() - start, ...extra },
      });
      const pendingText = () =>
        `Diagnostics pending: the language server did not answer within ${(budgetMs / 1000).toFixed(1)} s; call LSP diagnostics on ${
          relevant
            .filter((change) => change.change !== "deleted")
            .map((change) => change.displayPath)
            .join(", ") || relevant[0]?.displayPath
        } later.`;
      const remaining = () => ({ timeoutMs: Math.max(1, deadline - Date.now()), ...(signal ? { signal } : {}) });
      try {
        const byInstance = new Map<LanguageServerInstance, DiagnosticsFileChange[]>();
        for (const change of relevant) {
          const instance =
            change.change === "deleted" ? internals.runningInstanceFor(change.path) : await raceDeadline(internals.instanceFor(change.path), deadline, signal);
          if (signal?.aborted) return report("pending", "", { reason: "aborted" });
          if (!instance) {
            if (change.change === "deleted") continue;
            return report("pending", pendingText(), { reason: "the language server was not ready within the budget" });
          }
          const list = byInstance.get(instance) ?? [];
          list.push(change);
          byInstance.set(instance, list);
        }
        const introduced: EditDiagnostic[] = [];
        let warnings = 0;
        let resolvedCount = 0;
        let pending = false;
        const languages = new Set<string>();
        for (const [instance, list] of byInstance) {
          const language = LANGUAGE_NAMES[manager.configFor(list[0]?.path ?? "")?.id ?? ""] ?? manager.configFor(list[0]?.path ?? "")?.id ?? "";
          // Files the server had no diagnostics for before: open their old text first, for a baseline.
          const baselines = new Map<string, readonly LspDiagnostic[]>();
          const needOld: string[] = [];
          const mark0 = instance.publicationMark();
          for (const change of list) {
            const file = files.get(change.path);
            if (file?.diagnostics) baselines.set(change.path, file.diagnostics);
            else if (change.change === "created" && file?.oldText === undefined) baselines.set(change.path, []);
            else if (file?.oldText !== undefined) {
              await internals.syncText(instance, change.path, file.oldText);
              needOld.push(manager.uriOfPath(change.path));
            } else baselines.set(change.path, []);
          }
          if (needOld.length > 0 && instance.canPull) {
            for (const change of list) {
              if (baselines.has(change.path)) continue;
              baselines.set(change.path, await instance.pullDiagnostics({ path: change.path, uri: manager.uriOfPath(change.path) }, remaining()));
            }
          } else if (needOld.length > 0) {
            if (!(await instance.waitForDiagnostics(needOld, mark0, Math.max(0, deadline - Date.now()), signal))) {
              pending = true;
              continue;
            }
            for (const change of list)
              if (!baselines.has(change.path)) baselines.set(change.path, instance.diagnosticsOf(manager.uriOfPath(change.path)).diagnostics);
          }
          const mark = instance.publicationMark();
          const openAtMark = new Map(instance.documents.list().map((document) => [document.uri, instance.diagnosticsOf(document.uri).diagnostics]));
          const watched: { uri: string; type: 1 | 2 | 3 }[] = [];
          for (const change of list) {
            const uri = manager.uriOfPath(change.path);
            watched.push({ uri, type: change.change === "created" ? 1 : change.change === "modified" ? 2 : 3 });
            if (change.change === "deleted") await instance.closeDocument(change.path);
            else await internals.syncText(instance, change.path, await internals.readText(change.path, signal));
          }
          await instance.watchedFilesChanged(watched);
          const waitFor = list.filter((change) => change.change !== "deleted").map((change) => manager.uriOfPath(change.path));
          const pulled = new Map<string, readonly LspDiagnostic[]>();
          if (instance.canPull) {
            for (const change of list) {
              if (change.change !== "deleted")
                pulled.set(change.path, await instance.pullDiagnostics({ path: change.path, uri: manager.uriOfPath(change.path) }, remaining()));
            }
          } else if (waitFor.length > 0 && !(await instance.waitForDiagnostics(waitFor, mark, Math.max(0, deadline - Date.now()), signal))) {
            pending = true;
            continue;
          }
          languages.add(language);
          for (const change of list) {
            if (change.change === "deleted") continue;
            const after = pulled.get(change.path) ?? instance.diagnosticsOf(manager.uriOfPath(change.path)).diagnostics;
            const diff = diffDiagnostics(baselines.get(change.path) ?? [], after);
            resolvedCount += diff.resolvedCount;
            for (const diagnostic of diff.introduced) {
              if ((diagnostic.severity ?? 1) === 1) introduced.push(toEditDiagnostic(change.displayPath, diagnostic));
              else if (diagnostic.severity === 2) warnings += 1;
            }
          }
          if (dependents) {
            const changedPaths = new Set(list.map((change) => change.path));
            const candidates = instance.documents
              .list()
              .filter((document) => !changedPaths.has(document.path) && list.some((change) => mentionsModule(document.text, change.path)))
              .slice(-MAX_DEPENDENTS);
            if (instance.canPull) {
              for (const document of candidates) {
                const before = openBefore.get(document.uri);
                if (!before) continue;
                const diff = diffDiagnostics(before, await instance.pullDiagnostics(document, remaining()));
                for (const diagnostic of diff.introduced)
                  if ((diagnostic.severity ?? 1) === 1) introduced.push(toEditDiagnostic(options.displayPath(document.path), diagnostic));
              }
              continue;
            }
            const uris = candidates.map((document) => document.uri);
            // A deletion reaches the dependents only through the server's own file watching: give it the rest of the budget.
            const dependentWaitMs = list.some((change) => change.change === "deleted") ? deadline - Date.now() : Math.min(300, deadline - Date.now());
            if (uris.length > 0) await instance.waitForDiagnostics(uris, mark, Math.max(0, dependentWaitMs), signal);
            for (const document of candidates) {
              const now = instance.diagnosticsOf(document.uri, mark);
              if (!now.fresh) continue;
              const diff = diffDiagnostics(openBefore.get(document.uri) ?? openAtMark.get(document.uri) ?? [], now.diagnostics);
              for (const diagnostic of diff.introduced)
                if ((diagnostic.severity ?? 1) === 1) introduced.push(toEditDiagnostic(options.displayPath(document.path), diagnostic));
            }
          }
        }
        if (introduced.length > 0) {
          return report("new_problems", renderNewProblems([...languages], introduced, warnings), { introduced: introduced.slice(0, 50), resolvedCount });
        }
        if (pending) return report("pending", pendingText(), { resolvedCount, reason: "no fresh diagnostics within the budget" });
        return report("clean", "", { resolvedCount });
      } catch (error) {
        if (signal?.aborted) return report("pending", "", { reason: "aborted" });
        if (error instanceof RequestTimeoutError) return report("pending", pendingText(), { reason: "no diagnostics within the budget" });
        return report("unavailable", "", { reason: error instanceof Error ? error.message : String(error) });
      }
    },
  };
}
