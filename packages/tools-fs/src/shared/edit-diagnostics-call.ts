/**
 * Diagnostics after a change: the one place where Write, Edit, ApplyPatch
 * and Delete ask the registry's diagnostics provider (contributed to
 * `EDIT_DIAGNOSTICS_SLOT`, e.g. by `@agent-tools/lsp`) what their change
 * broke. The tools themselves stay unaware of it: the bundle wraps them.
 *
 * Invariants: the provider never fails a call (a throw becomes a
 * `status: "unavailable"` report), never holds it longer than
 * {@link PROVIDER_CEILING_MS} per step even if it breaks its own budget, and
 * is skipped once the call is cancelled. Without a provider the tool's
 * output is returned unchanged (same object).
 */
import type { ToolContext, ToolDefinition, ToolOutput } from "@agent-tools/core";
import type { DiagnosticsFileChange, EditDiagnostics, EditDiagnosticsBaseline, EditDiagnosticsDetails } from "@agent-tools/core/diagnostics";

/** Where a tool finds the registry's diagnostics provider, read at call time (undefined: none). */
export type EditDiagnosticsSource = () => EditDiagnostics | undefined;

/**
 * The longest one provider step (`before` or `after`) may hold a call. A
 * provider keeps its own, smaller budget (1.5 s for the language servers);
 * this ceiling only protects the tools from a provider that ignores it.
 */
export const PROVIDER_CEILING_MS = 10_000;

/** What one tool tells the helper: the paths it may change, and what its result says changed. */
export interface DiagnosedTool<Input, Details> {
  /** Absolute workspace paths the call may change, before it runs (throws when a path does not resolve: the provider is then skipped). */
  paths(input: Input, context: ToolContext): readonly string[];
  /** What the committed call changed, from its result's details. */
  changes(details: Details, context: ToolContext): readonly DiagnosticsFileChange[];
}

type Step<T> = { readonly value: T } | { readonly failure: string } | { readonly aborted: true };

/** Runs one provider step: its value, its failure (throw or ceiling), or the call's abort. */
async function step<T>(run: () => Promise<T>, signal: AbortSignal): Promise<Step<T>> {
  if (signal.aborted) return { aborted: true };
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<Step<T>>((resolve) => {
    timer = setTimeout(() => resolve({ failure: `the diagnostics provider took longer than ${PROVIDER_CEILING_MS} ms` }), PROVIDER_CEILING_MS);
    timer.unref?.();
    onAbort = () => resolve({ aborted: true });
    signal.addEventListener("abort", onAbort, { once: true });
  });
  // A late rejection after the ceiling or an abort must not go unhandled.
  const work = Promise.resolve()
    .then(run)
    .then(
      (value): Step<T> => ({ value }),
      (error: unknown): Step<T> => ({ failure: error instanceof Error ? error.message : String(error) }),
    );
  try {
    return await Promise.race([work, stop]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener("abort", onAbort);
  }
}

function unavailable(reason: string, waitedMs: number): EditDiagnosticsDetails {
  return { status: "unavailable", introduced: [], resolvedCount: 0, waitedMs, reason };
}

/** The output with the report appended: text after a blank line, details under `diagnostics`. */
function withReport<Details>(output: ToolOutput<Details>, text: string, diagnostics: EditDiagnosticsDetails): ToolOutput<Details> {
  const details = { ...(output.details as object), diagnostics } as Details;
  if (text === "") return { ...output, details };
  const content = typeof output.content === "string" ? `${output.content}\n\n${text}` : [...output.content, { type: "text" as const, text }];
  return { ...output, content, details };
}

/**
 * The tool, whose `execute` asks the provider `before` the change and
 * `after` a successful one (see the module's invariants).
 *
 * @example
 * const write = withEditDiagnostics(createWriteTool(environment), () => provider, writeDiagnosed);
 */
export function withEditDiagnostics<Input, Details>(
  tool: ToolDefinition<Input, Details>,
  source: EditDiagnosticsSource | undefined,
  diagnosed: DiagnosedTool<Input, Details>,
): ToolDefinition<Input, Details> {
  if (!source) return tool;
  return {
    ...tool,
    async execute(input, context) {
      const provider = source();
      if (!provider) return tool.execute(input, context);
      let paths: readonly string[];
      try {
        paths = diagnosed.paths(input, context);
      } catch {
        // A path that does not resolve: the tool reports it.
        return tool.execute(input, context);
      }
      const started = Date.now();
      const baseline: Step<EditDiagnosticsBaseline> = await step(() => provider.before(paths, { signal: context.signal }), context.signal);
      const output = await tool.execute(input, context);
      if (output.isError || context.signal.aborted) return output;
      let changes: readonly DiagnosticsFileChange[];
      try {
        changes = diagnosed.changes(output.details as Details, context);
      } catch {
        return output;
      }
      if (changes.length === 0) return output;
      if ("aborted" in baseline) return output;
      if ("failure" in baseline) return withReport(output, "", unavailable(baseline.failure, Date.now() - started));
      const report = await step(() => provider.after(baseline.value, changes, { signal: context.signal }), context.signal);
      if ("aborted" in report) return output;
      if ("failure" in report) return withReport(output, "", unavailable(report.failure, Date.now() - started));
      if (report.value === undefined) return output;
      return withReport(output, report.value.text, report.value.details);
    },
  };
}
