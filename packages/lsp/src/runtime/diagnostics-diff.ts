/**
 * What a change introduced: the diagnostics after it minus those before,
 * as multisets keyed by severity, code and message (never by position, so
 * a problem that only moved because lines were inserted above it is not
 * new), and the text the model reads.
 */
import type { EditDiagnostic } from "@agent-tools/core/diagnostics";
import type { LspDiagnostic } from "./lsp-types.js";

const SEVERITIES = ["error", "warning", "information", "hint"] as const;

function keyOf(diagnostic: LspDiagnostic): string {
  return `${diagnostic.severity ?? 1}\u0000${diagnostic.code ?? ""}\u0000${diagnostic.message}`;
}

/** The diagnostics of `after` not matched by one of `before` (each before-entry matches once), and how many of `before` went. */
export function diffDiagnostics(before: readonly LspDiagnostic[], after: readonly LspDiagnostic[]): { introduced: LspDiagnostic[]; resolvedCount: number } {
  const remaining = new Map<string, number>();
  for (const diagnostic of before) remaining.set(keyOf(diagnostic), (remaining.get(keyOf(diagnostic)) ?? 0) + 1);
  const introduced: LspDiagnostic[] = [];
  for (const diagnostic of after) {
    const key = keyOf(diagnostic);
    const count = remaining.get(key) ?? 0;
    if (count > 0) remaining.set(key, count - 1);
    else introduced.push(diagnostic);
  }
  let resolvedCount = 0;
  for (const count of remaining.values()) resolvedCount += count;
  return { introduced, resolvedCount };
}

/** A server diagnostic as the file tools report it (1-based line and character). */
export function toEditDiagnostic(displayPath: string, diagnostic: LspDiagnostic): EditDiagnostic {
  return {
    path: displayPath,
    line: diagnostic.range.start.line + 1,
    character: diagnostic.range.start.character + 1,
    severity: SEVERITIES[(diagnostic.severity ?? 1) - 1] ?? "error",
    message: diagnostic.message,
    ...(diagnostic.code !== undefined ? { code: diagnostic.code } : {}),
    ...(diagnostic.source !== undefined ? { source: diagnostic.source } : {}),
  };
}

function codeLabel(diagnostic: EditDiagnostic): string {
  if (diagnostic.code === undefined || diagnostic.code === "") return "";
  const typescript = typeof diagnostic.code === "number" && /^(ts|typescript)$/i.test(diagnostic.source ?? "");
  return ` ${typescript ? `TS${diagnostic.code}` : diagnostic.code}`;
}

/** One line of the report: ` src/a.ts:12:5 error TS2322 Type 'string' is not assignable to type 'number'.` */
export function renderDiagnosticLine(diagnostic: EditDiagnostic): string {
  const message = diagnostic.message.replace(/\s*\n\s*/g, " ").slice(0, 500);
  return ` ${diagnostic.path}:${diagnostic.line}:${diagnostic.character} ${diagnostic.severity}${codeLabel(diagnostic)} ${message}`;
}

/** The report's text for introduced errors (capped at `maxLines`) plus a count of new warnings. */
export function renderNewProblems(languages: readonly string[], errors: readonly EditDiagnostic[], warningCount: number, maxLines = 20): string {
  const lines = [`New problems after this change (${languages.join(", ")}):`];
  for (const error of errors.slice(0, maxLines)) lines.push(renderDiagnosticLine(error));
  if (errors.length > maxLines) lines.push(` ... and ${errors.length - maxLines} more errors`);
  if (warningCount > 0) lines.push(` (and ${warningCount} new warning${warningCount === 1 ? "" : "s"}, not listed)`);
  return lines.join("\n");
}
