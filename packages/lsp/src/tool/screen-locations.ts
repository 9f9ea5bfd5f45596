/**
 * Which result locations the model may see: inside the registry's roots
 * (the path policy resolves it for reading), not gitignored, and not
 * denied by the permission rules for a Read of that file. Everything else
 * is left out and counted, so the answer says what it hid.
 */
import type { ToolContext } from "@agent-tools/core";
import { gitIgnoredPaths } from "./ignored-paths.js";
import type { LspToolEnvironment } from "./lsp-tool-environment.js";

/** A file a location points into, resolved for reading. */
export interface ScreenedFile {
  readonly absolutePath: string;
  readonly displayPath: string;
}

/** How many locations were left out, and why. */
export interface LeftOut {
  outside: number;
  ignored: number;
  denied: number;
}

/** An empty count. */
export function noneLeftOut(): LeftOut {
  return { outside: 0, ignored: 0, denied: 0 };
}

/** The sentence telling what was left out, or "" when nothing was. */
export function leftOutText(left: LeftOut): string {
  const parts: string[] = [];
  const plural = (count: number) => (count === 1 ? "result" : "results");
  if (left.outside > 0) parts.push(`${left.outside} ${plural(left.outside)} outside the workspace`);
  if (left.ignored > 0) parts.push(`${left.ignored} ${plural(left.ignored)} in gitignored files`);
  if (left.denied > 0) parts.push(`${left.denied} ${plural(left.denied)} in files the permission rules do not let you read`);
  return parts.length === 0 ? "" : `${parts.join(", ")} left out.`;
}

/**
 * Screens the files of URIs: the file of each URI the model may see, or
 * undefined (counted in `left`, once per location of that URI).
 */
export async function screenUris(
  uris: readonly string[],
  call: { environment: LspToolEnvironment; context: ToolContext; left: LeftOut },
): Promise<Map<string, ScreenedFile | undefined>> {
  const { environment, context, left } = call;
  const verdicts = new Map<string, ScreenedFile | undefined>();
  const candidates = new Map<string, ScreenedFile>();
  for (const uri of new Set(uris)) {
    const path = environment.manager.pathOfUri(uri);
    if (path === undefined) {
      verdicts.set(uri, undefined);
      continue;
    }
    try {
      const resolved = context.paths.resolve(path, { intent: "read", label: "LSP result" });
      candidates.set(uri, { absolutePath: resolved.absolutePath, displayPath: resolved.displayPath });
    } catch {
      verdicts.set(uri, undefined);
    }
  }
  const counts = new Map<string, number>();
  for (const uri of uris) counts.set(uri, (counts.get(uri) ?? 0) + 1);
  const count = (uri: string) => counts.get(uri) ?? 0;
  for (const uri of verdicts.keys()) left.outside += count(uri);
  const roots = [
    context.workdir,
    ...context.paths
      .roots()
      .filter((root) => root.status !== "missing")
      .map((root) => root.canonicalPath),
  ];
  const ignored = await gitIgnoredPaths(
    environment.gitRunner(context),
    roots,
    [...new Set([...candidates.values()].map((file) => file.absolutePath))],
    context.signal,
  );
  for (const [uri, file] of candidates) {
    if (ignored.has(file.absolutePath)) {
      left.ignored += count(uri);
      verdicts.set(uri, undefined);
    } else if (await environment.readDenied(file.absolutePath, context.signal)) {
      left.denied += count(uri);
      verdicts.set(uri, undefined);
    } else {
      verdicts.set(uri, file);
    }
  }
  return verdicts;
}
