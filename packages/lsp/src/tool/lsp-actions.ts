/** What each action of the LSP tool asks the server, and how its answer is rendered. */
import { type ResolvedPath, type ToolContext, ToolError, type ToolOutput } from "@agent-tools/core";
import { ConnectionClosedError, RequestTimeoutError } from "../protocol/json-rpc-connection.js";
import type { LspDiagnostic } from "../runtime/language-server-manager.js";
import type { LspDetails, LspInput } from "./lsp-tool-input.js";
import type { LspToolEnvironment } from "./lsp-tool-environment.js";
import { FileLines, type LspLocation, normalizeLocations, renderLocations } from "./render-locations.js";
import { hoverText, outlineOf, symbolKindName } from "./render-symbols.js";
import { fromLspPosition, splitLines, toLspPosition } from "./text-positions.js";

/** One call of the tool. */
interface ActionCall {
  readonly environment: LspToolEnvironment;
  readonly context: ToolContext;
}

/** How long `diagnostics` waits for a server that has not published for the file yet. */
const DIAGNOSTICS_WAIT_MS = 5000;

/** The most characters of one diagnostic's message shown. */
const MAX_MESSAGE_CHARS = 500;

const SEVERITIES = ["error", "warning", "information", "hint"] as const;

/** The error of a file no configured server handles, naming the extensions that are handled. */
function noServerError(resolved: ResolvedPath, environment: LspToolEnvironment): ToolError {
  const extensions = [...new Set(environment.servers.flatMap((server) => server.extensions))];
  return new ToolError(
    "unsupported_target",
    `LSP: no language server handles ${resolved.displayPath}. Configured extensions: ${extensions.join(", ") || "none"}. Use Grep to search other files.`,
    { details: { extensions } },
  );
}

/** A manager failure as the model sees it: a missing file, a cancelled call, or the server's failure with what it said. */
function serverFailure(error: unknown, resolved: ResolvedPath, serverId: string, context: ToolContext): unknown {
  if (error instanceof ToolError || context.signal.aborted) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "ENOENT") return new ToolError("not_found", `LSP: ${resolved.displayPath} does not exist. Check the path with Glob.`);
  if (code === "EISDIR") return new ToolError("not_a_file", `LSP: ${resolved.displayPath} is a directory; pass a file.`);
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof RequestTimeoutError) {
    return new ToolError(
      "timeout",
      `LSP: the ${serverId} language server did not answer in time (${message}); it may still be loading the project: try again shortly.`,
      {
        details: { serverId },
      },
    );
  }
  return new ToolError("unavailable", `LSP: the ${serverId} language server failed: ${message}`, { details: { serverId } });
}

/**
 * Runs a request, once more when the server died under it (killed or
 * crashed before the manager noticed): the manager starts a fresh server
 * for the next request, so one crash never fails the model's call.
 */
async function withRestart<T>(run: () => Promise<T>, signal: AbortSignal): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof ConnectionClosedError) || signal.aborted) throw error;
    return run();
  }
}

/** Runs one validated call. */
export async function runLspAction(input: LspInput, call: ActionCall): Promise<ToolOutput<LspDetails>> {
  if (input.action === "workspace_symbols") return workspaceSymbols(input, call);
  const { environment, context } = call;
  const resolved = context.paths.resolve(input.path ?? "", { intent: "read", label: "LSP path" });
  const path = resolved.absolutePath;
  const config = environment.manager.configFor(path);
  if (!config) throw noServerError(resolved, environment);
  const files = new FileLines(environment);
  const base = { kind: "lsp" as const, action: input.action, path: resolved.displayPath, serverId: config.id };
  const ask = async <T>(method: string, params: (document: { uri: string; lines: string[] }) => unknown): Promise<T> => {
    try {
      const send = () =>
        environment.manager.request<T>(
          path,
          method,
          (document) => {
            files.seed(path, document.text);
            return params({ uri: document.uri, lines: splitLines(document.text) });
          },
          { signal: context.signal },
        );
      return await withRestart(send, context.signal);
    } catch (error) {
      throw serverFailure(error, resolved, config.id, context);
    }
  };
  const at = (lines: string[]) => toLspPosition(lines, input.line ?? 1, input.character ?? 1);
  const where = `${resolved.displayPath}:${input.line}:${input.character}`;
  const locations = async (method: string, noun: string, extra: Record<string, unknown> = {}) => {
    const raw = await ask<unknown>(method, ({ uri, lines }) => ({ textDocument: { uri }, position: at(lines), ...extra }));
    const rendered = await renderLocations(normalizeLocations(raw), { environment, context, files });
    const header = rendered.total === 0 ? `No ${noun} found at ${where}.` : `${rendered.total} ${noun} of the symbol at ${where}:`;
    return {
      content: [header, rendered.text].filter((part) => part !== "").join("\n"),
      details: { ...base, total: rendered.total, locations: [...rendered.shown], leftOut: rendered.leftOut },
    };
  };
  switch (input.action) {
    case "definition":
      return locations("textDocument/definition", "definition(s)");
    case "implementation":
      return locations("textDocument/implementation", "implementation(s)");
    case "references":
      return locations("textDocument/references", "reference(s)", { context: { includeDeclaration: true } });
    case "hover": {
      const text = hoverText(await ask<unknown>("textDocument/hover", ({ uri, lines }) => ({ textDocument: { uri }, position: at(lines) })));
      return { content: text === "" ? `No hover information at ${where}.` : text, details: { ...base, total: text === "" ? 0 : 1 } };
    }
    case "document_symbols": {
      const raw = await ask<unknown>("textDocument/documentSymbol", ({ uri }) => ({ textDocument: { uri } }));
      const outline = outlineOf(raw, environment.maxResults);
      const content = outline.total === 0 ? `No symbols in ${resolved.displayPath}.` : `Symbols of ${resolved.displayPath}:\n${outline.text}`;
      return { content, details: { ...base, total: outline.total, symbols: outline.entries } };
    }
    case "diagnostics":
      return diagnostics({ resolved, base, files, call });
    case "call_hierarchy":
      return callHierarchy({ ask, at, where, base, files, call });
  }
}

/** The file's current problems, errors first, capped. */
async function diagnostics(request: {
  resolved: ResolvedPath;
  base: Pick<LspDetails, "kind" | "action" | "path" | "serverId">;
  files: FileLines;
  call: ActionCall;
}): Promise<ToolOutput<LspDetails>> {
  const { resolved, base, files, call } = request;
  const { environment, context } = call;
  let answer: { status: "ready" | "pending"; diagnostics: readonly LspDiagnostic[] };
  try {
    answer = await withRestart(
      () => environment.manager.diagnostics(resolved.absolutePath, { signal: context.signal, waitMs: DIAGNOSTICS_WAIT_MS }),
      context.signal,
    );
  } catch (error) {
    throw serverFailure(error, resolved, base.serverId ?? "", context);
  }
  const lines = await files.of(resolved.absolutePath, context.signal);
  const sorted = [...answer.diagnostics].sort(
    (a, b) => (a.severity ?? 1) - (b.severity ?? 1) || a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character,
  );
  const listed = sorted.slice(0, environment.maxResults).map((item) => {
    const position = lines ? fromLspPosition(lines, item.range.start) : { line: item.range.start.line + 1, character: item.range.start.character + 1 };
    const message = item.message.length > MAX_MESSAGE_CHARS ? `${item.message.slice(0, MAX_MESSAGE_CHARS)}…` : item.message;
    return {
      line: position.line,
      character: position.character,
      severity: SEVERITIES[(item.severity ?? 1) - 1] ?? "error",
      message,
      ...(item.code === undefined ? {} : { code: item.code }),
      ...(item.source === undefined ? {} : { source: item.source }),
    };
  });
  const count = (severity: number) => sorted.filter((item) => (item.severity ?? 1) === severity).length;
  const text: string[] = [];
  if (sorted.length === 0)
    text.push(answer.status === "pending" ? `No diagnostics for ${resolved.displayPath} yet.` : `No problems in ${resolved.displayPath}.`);
  else
    text.push(
      `${resolved.displayPath}: ${count(1)} error(s), ${count(2)} warning(s)${sorted.length > count(1) + count(2) ? `, ${sorted.length - count(1) - count(2)} note(s)` : ""}:`,
    );
  for (const item of listed) {
    const code = item.code === undefined ? "" : ` ${item.source === "typescript" || item.source === "ts" ? "TS" : ""}${item.code}`;
    text.push(`${resolved.displayPath}:${item.line}:${item.character}: ${item.severity}${code}: ${item.message.replace(/\s*\n\s*/g, " ")}`);
  }
  if (sorted.length > listed.length) text.push(`${sorted.length - listed.length} more not shown (at most ${environment.maxResults} per answer).`);
  if (answer.status === "pending") text.push("The language server has not finished checking this file: call LSP diagnostics again shortly.");
  return { content: text.join("\n"), details: { ...base, total: sorted.length, diagnostics: listed, status: answer.status } };
}

interface CallHierarchyItem {
  readonly name: string;
  readonly kind: number;
  readonly uri: string;
  readonly range: LspLocation["range"];
  readonly selectionRange: LspLocation["range"];
}

/** The incoming and outgoing calls of the item at the position. */
async function callHierarchy(request: {
  ask: <T>(method: string, params: (document: { uri: string; lines: string[] }) => unknown) => Promise<T>;
  at: (lines: string[]) => { line: number; character: number };
  where: string;
  base: Pick<LspDetails, "kind" | "action" | "path" | "serverId">;
  files: FileLines;
  call: ActionCall;
}): Promise<ToolOutput<LspDetails>> {
  const { ask, at, where, base, files, call } = request;
  const items = await ask<CallHierarchyItem[] | null>("textDocument/prepareCallHierarchy", ({ uri, lines }) => ({
    textDocument: { uri },
    position: at(lines),
  }));
  const item = items?.[0];
  if (!item) return { content: `No function or method at ${where} to show calls of.`, details: { ...base, total: 0 } };
  const incoming =
    (await ask<Array<{ from: CallHierarchyItem; fromRanges: LspLocation["range"][] }> | null>("callHierarchy/incomingCalls", () => ({ item }))) ?? [];
  const outgoing =
    (await ask<Array<{ to: CallHierarchyItem; fromRanges: LspLocation["range"][] }> | null>("callHierarchy/outgoingCalls", () => ({ item }))) ?? [];
  const label = (target: CallHierarchyItem) => `${symbolKindName(target.kind)} ${target.name}`;
  const callers = await renderLocations(
    incoming.map((entry) => ({ uri: entry.from.uri, range: entry.fromRanges[0] ?? entry.from.selectionRange, label: label(entry.from) })),
    { ...call, files },
  );
  const callees = await renderLocations(
    outgoing.map((entry) => ({ uri: entry.to.uri, range: entry.to.selectionRange, label: label(entry.to) })),
    { ...call, files },
  );
  const name = label(item);
  const content = [
    `Incoming calls of ${name} (${callers.total}):`,
    callers.text || "none",
    `Outgoing calls of ${name} (${callees.total}):`,
    callees.text || "none",
  ].join("\n");
  return {
    content,
    details: {
      ...base,
      total: callers.total + callees.total,
      locations: [
        ...callers.shown.map((shown) => ({ ...shown, label: `in: ${shown.label}` })),
        ...callees.shown.map((shown) => ({ ...shown, label: `out: ${shown.label}` })),
      ],
      leftOut: {
        outside: callers.leftOut.outside + callees.leftOut.outside,
        ignored: callers.leftOut.ignored + callees.leftOut.ignored,
        denied: callers.leftOut.denied + callees.leftOut.denied,
        overLimit: callers.leftOut.overLimit + callees.leftOut.overLimit,
      },
    },
  };
}

interface RawWorkspaceSymbol {
  readonly name?: unknown;
  readonly kind?: unknown;
  readonly containerName?: unknown;
  readonly location?: { readonly uri?: unknown; readonly range?: LspLocation["range"] };
}

/** Symbols of every running server matching the query (starting the server of `path` when given). */
async function workspaceSymbols(input: LspInput, call: ActionCall): Promise<ToolOutput<LspDetails>> {
  const { environment, context } = call;
  const query = (input.query ?? "").trim();
  const resolved = input.path === undefined ? undefined : context.paths.resolve(input.path, { intent: "read", label: "LSP path" });
  if (resolved && !environment.manager.configFor(resolved.absolutePath)) throw noServerError(resolved, environment);
  let answers: Array<{ serverId: string; result: RawWorkspaceSymbol[] | null }>;
  try {
    answers = await environment.manager.requestAll<RawWorkspaceSymbol[] | null>(
      "workspace/symbol",
      { query },
      { signal: context.signal, ...(resolved ? { startFor: [resolved.absolutePath] } : {}) },
    );
  } catch (error) {
    if (resolved) throw serverFailure(error, resolved, environment.manager.configFor(resolved.absolutePath)?.id ?? "", context);
    throw error;
  }
  const base = { kind: "lsp" as const, action: input.action, ...(resolved ? { path: resolved.displayPath } : {}) };
  if (answers.length === 0) {
    return {
      content: "No language server is running yet: pass path (any file of the language, e.g. src/index.ts) to start one, then search.",
      details: { ...base, total: 0 },
    };
  }
  const items: Array<LspLocation & { label: string }> = [];
  for (const { result } of answers) {
    for (const symbol of result ?? []) {
      const uri = symbol.location?.uri;
      if (typeof uri !== "string") continue;
      const range = symbol.location?.range ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
      const container = typeof symbol.containerName === "string" && symbol.containerName !== "" ? ` (in ${symbol.containerName})` : "";
      items.push({ uri, range, label: `${symbolKindName(symbol.kind)} ${String(symbol.name)}${container}` });
    }
  }
  const rendered = await renderLocations(items, { environment, context, files: new FileLines(environment) });
  const header = rendered.total === 0 ? `No symbols match "${query}".` : `${rendered.total} symbol(s) match "${query}":`;
  return {
    content: [header, rendered.text].filter((part) => part !== "").join("\n"),
    details: { ...base, total: rendered.total, locations: [...rendered.shown], leftOut: rendered.leftOut },
  };
}
