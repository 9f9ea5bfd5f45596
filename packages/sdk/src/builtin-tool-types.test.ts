import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ToolResult } from "@agent-tools/core";
import type { McpManagerDetails, McpManagerInput } from "@agent-tools/mcp";
import type { MemoryManagerDetails } from "@agent-tools/memory";
import type { memoryManagerInputSchema } from "@agent-tools/memory/internal";
import type { ApplyPatchDetails } from "@agent-tools/tools-fs/apply-patch";
import type { NotebookEditDetails } from "@agent-tools/tools-fs/notebook-edit";
import type { DeleteDetails, EditDetails, GlobDetails, GrepDetails, ImageDetails, ListDetails, ReadDetails, WriteDetails } from "@agent-tools/tools-fs";
import type {
  applyPatchInputSchema,
  deleteInputSchema,
  editInputSchema,
  globInputSchema,
  grepInputSchema,
  imageInputSchema,
  listInputSchema,
  notebookEditInputSchema,
  readInputSchema,
  writeInputSchema,
} from "@agent-tools/tools-fs/internal";
import type { ManagedProcessDetails, ShellSessionResponse, ShellSyncDetails } from "@agent-tools/tools-shell";
import type { TaskListDetails } from "@agent-tools/tools-tasks";
import type { taskCreateInputSchema, taskListInputSchema, taskUpdateInputSchema } from "@agent-tools/tools-tasks/internal";
import ts from "typescript";
import { afterAll, describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
// The shell and ToolSearch schemas are not exported by their packages: compare the documented inputs with the real ones.
import type { toolSearchInputSchema } from "../../mcp/src/tool-search.js";
import type { bashSessionInputSchema } from "../../tools-shell/src/bash-session-tool.js";
import type { bashSyncInputSchema } from "../../tools-shell/src/bash-sync-tool.js";
import type { managedProcessInputSchema } from "../../tools-shell/src/managed-process-tool.js";
import type { processStopInputSchema } from "../../tools-shell/src/process-stop-tool.js";
import type { processWaitInputSchema } from "../../tools-shell/src/process-wait-tool.js";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";
import type {
  BashInput,
  BuiltinToolDetails,
  BuiltinToolInput,
  BuiltinToolName,
  BuiltinToolRegistry,
  BuiltinToolResult,
  ManagedProcessInput,
  ProcessStopInput,
  ProcessWaitInput,
  ToolSearchDetails,
  ToolSearchInput,
} from "./builtin-tool-types.js";
import type { HttpGetTestDetails, httpGetTestInputSchema } from "./system-tools/http-get-test.js";
import type { WebFetchDetails } from "@agent-tools/tools-web";
import type { WebFetchInput } from "@agent-tools/tools-web/internal";
import type { LspDetails } from "@agent-tools/lsp";
import type { lspInputSchema } from "@agent-tools/lsp/internal";

// Vitest does not type-check: these assertions are checked by the first test, which compiles this file with the TypeScript API.
function mapAssertions(): void {
  expectTypeOf<BuiltinToolDetails<"Read">>().toEqualTypeOf<ReadDetails>();
  expectTypeOf<BuiltinToolDetails<"Image">>().toEqualTypeOf<ImageDetails>();
  expectTypeOf<BuiltinToolDetails<"Write">>().toEqualTypeOf<WriteDetails>();
  expectTypeOf<BuiltinToolDetails<"Edit">>().toEqualTypeOf<EditDetails>();
  expectTypeOf<BuiltinToolDetails<"ApplyPatch">>().toEqualTypeOf<ApplyPatchDetails>();
  expectTypeOf<BuiltinToolDetails<"NotebookEdit">>().toEqualTypeOf<NotebookEditDetails>();
  expectTypeOf<BuiltinToolDetails<"Delete">>().toEqualTypeOf<DeleteDetails>();
  expectTypeOf<BuiltinToolDetails<"List">>().toEqualTypeOf<ListDetails>();
  expectTypeOf<BuiltinToolDetails<"Glob">>().toEqualTypeOf<GlobDetails>();
  expectTypeOf<BuiltinToolDetails<"Grep">>().toEqualTypeOf<GrepDetails>();
  expectTypeOf<BuiltinToolDetails<"Bash">>().toEqualTypeOf<ShellSessionResponse | ShellSyncDetails>();
  expectTypeOf<BuiltinToolDetails<"ProcessWait">>().toEqualTypeOf<ShellSessionResponse>();
  expectTypeOf<BuiltinToolDetails<"ProcessStop">>().toEqualTypeOf<ShellSessionResponse>();
  expectTypeOf<BuiltinToolDetails<"ManagedProcess">>().toEqualTypeOf<ManagedProcessDetails>();
  expectTypeOf<BuiltinToolDetails<"TaskCreate">>().toEqualTypeOf<TaskListDetails>();
  expectTypeOf<BuiltinToolDetails<"TaskUpdate">>().toEqualTypeOf<TaskListDetails>();
  expectTypeOf<BuiltinToolDetails<"TaskList">>().toEqualTypeOf<TaskListDetails>();
  expectTypeOf<BuiltinToolDetails<"MemoryManager">>().toEqualTypeOf<MemoryManagerDetails>();
  expectTypeOf<BuiltinToolDetails<"McpManager">>().toEqualTypeOf<McpManagerDetails>();
  expectTypeOf<BuiltinToolDetails<"ToolSearch">>().toEqualTypeOf<ToolSearchDetails>();
  expectTypeOf<BuiltinToolDetails<"HttpGetTest">>().toEqualTypeOf<HttpGetTestDetails>();
  expectTypeOf<BuiltinToolDetails<"WebFetch">>().toEqualTypeOf<WebFetchDetails>();

  expectTypeOf<BuiltinToolInput<"Read">>().toEqualTypeOf<z.input<typeof readInputSchema>>();
  expectTypeOf<BuiltinToolInput<"Image">>().toEqualTypeOf<z.input<typeof imageInputSchema>>();
  expectTypeOf<BuiltinToolInput<"Write">>().toEqualTypeOf<z.input<typeof writeInputSchema>>();
  expectTypeOf<BuiltinToolInput<"Edit">>().toEqualTypeOf<z.input<typeof editInputSchema>>();
  expectTypeOf<BuiltinToolInput<"ApplyPatch">>().toEqualTypeOf<z.input<typeof applyPatchInputSchema>>();
  expectTypeOf<BuiltinToolInput<"NotebookEdit">>().toEqualTypeOf<z.input<typeof notebookEditInputSchema>>();
  expectTypeOf<BuiltinToolInput<"Delete">>().toEqualTypeOf<z.input<typeof deleteInputSchema>>();
  expectTypeOf<BuiltinToolInput<"List">>().toEqualTypeOf<z.input<typeof listInputSchema>>();
  expectTypeOf<BuiltinToolInput<"Glob">>().toEqualTypeOf<z.input<typeof globInputSchema>>();
  expectTypeOf<BuiltinToolInput<"Grep">>().toEqualTypeOf<z.input<typeof grepInputSchema>>();
  expectTypeOf<BuiltinToolInput<"Bash">>().toEqualTypeOf<BashInput>();
  expectTypeOf<BashInput>().toEqualTypeOf<z.input<typeof bashSessionInputSchema>>();
  expectTypeOf<z.input<typeof bashSyncInputSchema>>().toExtend<BashInput>();
  expectTypeOf<BuiltinToolInput<"ProcessWait">>().toEqualTypeOf<ProcessWaitInput>();
  expectTypeOf<ProcessWaitInput>().toEqualTypeOf<z.input<typeof processWaitInputSchema>>();
  expectTypeOf<BuiltinToolInput<"ProcessStop">>().toEqualTypeOf<ProcessStopInput>();
  expectTypeOf<ProcessStopInput>().toEqualTypeOf<z.input<typeof processStopInputSchema>>();
  expectTypeOf<BuiltinToolInput<"ManagedProcess">>().toEqualTypeOf<ManagedProcessInput>();
  expectTypeOf<ManagedProcessInput>().toEqualTypeOf<z.input<typeof managedProcessInputSchema>>();
  expectTypeOf<BuiltinToolInput<"TaskCreate">>().toEqualTypeOf<z.input<typeof taskCreateInputSchema>>();
  expectTypeOf<BuiltinToolInput<"TaskUpdate">>().toEqualTypeOf<z.input<typeof taskUpdateInputSchema>>();
  expectTypeOf<BuiltinToolInput<"TaskList">>().toEqualTypeOf<z.input<typeof taskListInputSchema>>();
  expectTypeOf<BuiltinToolInput<"MemoryManager">>().toEqualTypeOf<z.input<typeof memoryManagerInputSchema>>();
  expectTypeOf<BuiltinToolInput<"McpManager">>().toEqualTypeOf<McpManagerInput>();
  expectTypeOf<BuiltinToolInput<"ToolSearch">>().toEqualTypeOf<ToolSearchInput>();
  expectTypeOf<ToolSearchInput>().toEqualTypeOf<z.input<typeof toolSearchInputSchema>>();
  expectTypeOf<BuiltinToolInput<"HttpGetTest">>().toEqualTypeOf<z.input<typeof httpGetTestInputSchema>>();
  expectTypeOf<BuiltinToolInput<"WebFetch">>().toEqualTypeOf<WebFetchInput>();
  expectTypeOf<BuiltinToolInput<"LSP">>().toEqualTypeOf<z.input<typeof lspInputSchema>>();
  expectTypeOf<BuiltinToolDetails<"LSP">>().toEqualTypeOf<LspDetails>();
}

// The tools-shell.md and README patterns, and what stays untyped.
async function registryAssertions(registry: BuiltinToolRegistry, someName: string): Promise<void> {
  const started = await registry.executeToolCall({ id: "1", name: "Bash", arguments: { command: "npm test" } });
  expectTypeOf(started).toEqualTypeOf<BuiltinToolResult<"Bash">>();
  // @ts-expect-error details is not narrowed before isError is checked
  started.details.session_id;
  if (!started.isError) {
    // @ts-expect-error Bash details are a session response (chat) or a synchronous result (cron)
    started.details.session_id;
    if ("session_id" in started.details) expectTypeOf(started.details.session_id).toEqualTypeOf<string>();
    else expectTypeOf(started.details.exitCode).toEqualTypeOf<number>();
  } else {
    expectTypeOf(started.details).toEqualTypeOf<Record<string, unknown>>();
  }
  const next = await registry.executeToolCall({ id: "2", name: "ProcessWait", arguments: { session_id: "bash-1", cursor: 65536 } });
  if (!next.isError) expectTypeOf(next.details.session_id).toEqualTypeOf<string>();
  const read = await registry.executeToolCall({ id: "3", name: "Read", arguments: '{"path":"src/index.ts"}' }, { signal: AbortSignal.timeout(1000) });
  if (!read.isError) expectTypeOf(read.details).toEqualTypeOf<ReadDetails>();
  // Names that are not a literal built-in name (other case, host tools, a string variable) keep the plain ToolResult.
  expectTypeOf(await registry.executeToolCall({ id: "4", name: "bash" })).toEqualTypeOf<ToolResult>();
  expectTypeOf(await registry.executeToolCall({ id: "5", name: "Greet", arguments: { who: "Ada" } })).toEqualTypeOf<ToolResult>();
  expectTypeOf(await registry.executeToolCall({ id: "6", name: someName })).toEqualTypeOf<ToolResult>();
  expectTypeOf(buildBuiltinToolRegistry).returns.resolves.toEqualTypeOf<BuiltinToolRegistry>();
}
void mapAssertions;
void registryAssertions;

const work = mkdtempSync(path.join(os.tmpdir(), "sdk-builtin-types-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("built-in tool types", () => {
  it("compile: the map matches every tool's exported details and input types", () => {
    const file = fileURLToPath(import.meta.url);
    const config = ts.getParsedCommandLineOfConfigFile(
      path.join(path.dirname(file), "..", "tsconfig.json"),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
    );
    if (config === undefined) throw new Error("cannot read the sdk tsconfig");
    const options: ts.CompilerOptions = {
      ...config.options,
      noEmit: true,
      composite: false,
      declaration: false,
      declarationMap: false,
      incremental: false,
      rootDir: undefined,
      // The workspace packages' sources, as vitest resolves them: no build needed.
      customConditions: ["@agent-tools/source"],
    };
    const program = ts.createProgram({ rootNames: [file], options });
    // This file's errors only (every other file is type-checked by `tsc -b`).
    const source = program.getSourceFile(file);
    if (source === undefined) throw new Error("the type test is not in its own program");
    const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map((diagnostic) => {
      const where = diagnostic.file
        ? `${path.basename(diagnostic.file.fileName)}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1}: `
        : "";
      return where + ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
    });
    expect(diagnostics).toEqual([]);
  }, 120_000); // a program over the workspace sources: ~10 s alone, more next to other test files

  it("names every tool a registry registers (chat with HttpGetTest, WebFetch and LSP, cron)", async () => {
    const known: Record<BuiltinToolName, true> = {
      Read: true,
      Image: true,
      Write: true,
      Edit: true,
      ApplyPatch: true,
      NotebookEdit: true,
      Delete: true,
      List: true,
      Glob: true,
      Grep: true,
      Bash: true,
      ProcessWait: true,
      ProcessStop: true,
      ManagedProcess: true,
      TaskCreate: true,
      TaskUpdate: true,
      TaskList: true,
      MemoryManager: true,
      McpManager: true,
      ToolSearch: true,
      HttpGetTest: true,
      WebFetch: true,
      LSP: true,
      AskUserQuestion: true,
      ExitPlanMode: true,
    };
    const registered = new Set<string>();
    for (const runtimeScope of ["chat", "cron"] as const) {
      const registry = await buildBuiltinToolRegistry({
        workdir: work,
        dataDir: path.join(work, ".data"),
        runtimeScope,
        editSurface: "both",
        systemTools: ["HttpGetTest"],
        webFetch: true,
        lsp: true,
        interaction: {
          planMode: runtimeScope === "chat",
          onAskUserQuestion: async () => ({ declined: true }),
          onExitPlanMode: async () => ({ approved: false }),
        },
      });
      // Plan mode lists only the read-only tools (plus ExitPlanMode): add the rest as they are outside it.
      if (registry.planMode) {
        for (const tool of registry.tools) registered.add(tool.name);
        registry.setPlanMode(false);
      }
      for (const tool of registry.tools) registered.add(tool.name);
      await registry.close();
    }
    expect([...registered].filter((name) => !(name in known))).toEqual([]);
    // McpManager and ToolSearch need MCP settings; everything else is registered here.
    expect(Object.keys(known).filter((name) => !registered.has(name))).toEqual(["McpManager", "ToolSearch"]);
  });

  it("runs the tools-shell.md pattern: started.details.session_id after isError and the session check", async () => {
    const registry = await buildBuiltinToolRegistry({ workdir: work, dataDir: path.join(work, ".data"), runtimeScope: "chat" });
    try {
      const started = await registry.executeToolCall({ id: "1", name: "Bash", arguments: { command: "echo typed" } });
      if (started.isError || !("session_id" in started.details)) throw new Error("expected a Bash session response");
      expect(started.details.session_id).toMatch(/^bash-/);
      const stopped = await registry.executeToolCall({ id: "2", name: "ProcessStop", arguments: { session_id: started.details.session_id } });
      expect(stopped.isError).toBe(false);
    } finally {
      await registry.close();
    }
  });
});
