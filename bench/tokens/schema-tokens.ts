/**
 * Tokens of the tool schemas a model sees: each tool's name, description and
 * JSON Schema of its parameters, serialised as a provider receives it
 * (`JSON.stringify` of the tool's entry in `toOpenAITools(registry)`),
 * counted with the o200k encoding (gpt-tokenizer).
 *
 * Prints every tool of a chat-scope registry with the file tools and the
 * shell tools, the total of "file tools + Bash" against the 2,800-token
 * target (Gemini CLI's newest set of the same tools is 2,756), the total of
 * every tool, and the cron-scope (synchronous) Bash for reference. Then the
 * default chat tools of the SDK (`buildBuiltinToolRegistry` with defaults in
 * chat scope: the file and shell tools, the task tools and MemoryManager)
 * one by one and their total against the 4,000-token target of issue 34 (4,100 since Edit's `edits` form, issue 37; 4,350 since NotebookEdit joined the defaults, issue 38).
 *
 * Run: npx tsx --conditions=@agent-tools/source bench/tokens/schema-tokens.ts
 */
import os from "node:os";
import path from "node:path";
import { createToolRegistry, type OpenAITool, type RuntimeScope, toOpenAITools } from "@agent-tools/core";
import { createFsToolBundle } from "@agent-tools/tools-fs";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { createShellToolBundle } from "@agent-tools/tools-shell";
import { encode } from "gpt-tokenizer/encoding/o200k_base";

const TARGET = 2_800;
/** The default chat tools of the SDK (issue 34). */
const DEFAULT_CHAT_TARGET = 4_350;

/** The provider tools of a registry with the file and the shell tools in `scope`. */
async function providerTools(scope: RuntimeScope): Promise<{ tools: OpenAITool[]; fileTools: Set<string> }> {
  const fsBundle = createFsToolBundle();
  const fileTools = new Set(fsBundle.listTools().map((tool) => tool.name));
  const registry = createToolRegistry({
    workdir: process.cwd(),
    dataDir: path.join(os.tmpdir(), "agent-tools-bench-data"),
    runtimeScope: scope,
    bundles: [fsBundle, createShellToolBundle()],
    loopBreaker: false,
  });
  try {
    return { tools: toOpenAITools(registry), fileTools };
  } finally {
    await registry.close();
  }
}

/** The provider tools of the SDK's registry with its defaults in chat scope. */
async function defaultChatTools(): Promise<OpenAITool[]> {
  const registry = await buildBuiltinToolRegistry({
    workdir: process.cwd(),
    dataDir: path.join(os.tmpdir(), "agent-tools-bench-data"),
    runtimeScope: "chat",
  });
  try {
    return toOpenAITools(registry);
  } finally {
    await registry.close();
  }
}

const tokensOf = (tool: OpenAITool): number => encode(JSON.stringify(tool)).length;
const row = (label: string, tokens: number | string, note = ""): string => `${label.padEnd(24)}${String(tokens).padStart(7)}${note ? `  ${note}` : ""}`;

const chat = await providerTools("chat");
let fileToolsAndBash = 0;
let all = 0;
console.log(row("tool (chat scope)", "tokens"));
for (const tool of chat.tools) {
  const tokens = tokensOf(tool);
  const counted = chat.fileTools.has(tool.function.name) || tool.function.name === "Bash";
  if (counted) fileToolsAndBash += tokens;
  all += tokens;
  console.log(row(tool.function.name, tokens, counted ? "" : "(not in file tools + Bash)"));
}
console.log("");
const verdict = fileToolsAndBash <= TARGET ? "within" : `over by ${fileToolsAndBash - TARGET}`;
console.log(row("file tools + Bash", fileToolsAndBash, `target <= ${TARGET}: ${verdict}`));
console.log(row("every tool", all));

const cron = await providerTools("cron");
const cronBash = cron.tools.find((tool) => tool.function.name === "Bash");
if (cronBash) console.log(row("Bash (cron scope)", tokensOf(cronBash), "the synchronous Bash, for reference"));

const defaults = await defaultChatTools();
let defaultTotal = 0;
console.log("");
console.log(row("tool (SDK default chat)", "tokens"));
for (const tool of defaults) {
  const tokens = tokensOf(tool);
  defaultTotal += tokens;
  console.log(row(tool.function.name, tokens));
}
const defaultVerdict = defaultTotal <= DEFAULT_CHAT_TARGET ? "within" : `over by ${defaultTotal - DEFAULT_CHAT_TARGET}`;
console.log("");
console.log(row(`${defaults.length} default chat tools`, defaultTotal, `target <= ${DEFAULT_CHAT_TARGET}: ${defaultVerdict}`));
