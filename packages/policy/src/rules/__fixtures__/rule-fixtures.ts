/**
 * Test fixtures of the rules: the vocabulary and metadata of the SDK's
 * tools, a real temp workspace with a path policy, and a helper that
 * compiles settings and decides one call.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type ApprovalOptions, type ToolMetadata, createPathPolicy } from "@agent-tools/core";
import type { ApprovalVocabulary } from "@agent-tools/core/internal";
import type { ShellParser } from "../../shell/shell-parser.js";
import { type CompiledPermissions, compilePermissions } from "../compile-permissions.js";
import { type RuleEnvironment, type RuleVerdict, evaluatePermissions } from "../evaluate-permissions.js";
import type { LayeredPermissionSettings, PermissionSettings } from "../permission-settings.js";

const fs = (kind: ToolMetadata["kind"], readOnly: boolean): ToolMetadata => ({
  groupId: "fs",
  kind,
  isReadOnly: readOnly,
  displayCategory: "file",
  annotations: { readOnly, listedInPlanMode: readOnly, openWorld: false },
});

/** Metadata of the tools the tests call. */
export const METADATA: Readonly<Record<string, ToolMetadata>> = {
  Read: fs("read", true),
  Image: fs("image", true),
  List: fs("list", true),
  Glob: fs("search", true),
  Grep: fs("search", true),
  Write: fs("write", false),
  Edit: fs("edit", false),
  ApplyPatch: fs("edit", false),
  NotebookEdit: fs("edit", false),
  LSP: {
    groupId: "lsp",
    kind: "search",
    isReadOnly: true,
    displayCategory: "search",
    annotations: { readOnly: true, listedInPlanMode: true, openWorld: false },
  },
  Delete: fs("delete", false),
  Bash: { groupId: "shell", kind: "execute", isReadOnly: false, displayCategory: "terminal" },
  ManagedProcess: { groupId: "shell", kind: "process", isReadOnly: false, displayCategory: "terminal" },
  ProcessStop: { groupId: "shell", kind: "stop", isReadOnly: false, displayCategory: "terminal" },
  AskUser: { groupId: "system", kind: "ask_user", isReadOnly: false, displayCategory: "system" },
  WebFetch: {
    groupId: "web",
    kind: "http_get",
    isReadOnly: true,
    displayCategory: "system",
    annotations: { readOnly: true, listedInPlanMode: true, openWorld: true },
  },
  mcp_github_create_issue: { groupId: "mcp", kind: "mcp", isReadOnly: false, displayCategory: "mcp", serverId: "github" },
  mcp_github_list_issues: { groupId: "mcp", kind: "mcp", isReadOnly: true, displayCategory: "mcp", serverId: "github" },
  mcp_slack_post: { groupId: "mcp", kind: "mcp", isReadOnly: false, displayCategory: "mcp", serverId: "slack" },
};

/** What the registry of the tests has: every tool above except Slack's, whose server loads later (`mcp_slack_`). */
export function testVocabulary(): ApprovalVocabulary {
  return {
    toolNames: new Set(Object.keys(METADATA).filter((name) => !name.startsWith("mcp_slack_"))),
    toolNamePrefixes: ["mcp_slack_"],
    serverIds: new Set(["github"]),
    groupIds: new Set(["fs", "shell", "skill", "system", "mcp", "subagent", "memory", "task", "custom", "web"]),
    knownKeys: new Set(),
  };
}

/** A real temp workspace (`<base>/work`), a home (`<base>/home`), a data dir inside the workspace, and an extra root (`<base>/extra`). */
export interface TestWorkspace {
  readonly base: string;
  readonly workdir: string;
  readonly home: string;
  readonly dataDir: string;
  readonly extra: string;
  environment(options?: { approval?: ApprovalOptions; paths?: boolean }): RuleEnvironment;
  remove(): void;
}

/** Creates a {@link TestWorkspace} (canonical paths). */
export function createTestWorkspace(): TestWorkspace {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), "policy-rules-")));
  const workdir = path.join(base, "work");
  const home = path.join(base, "home");
  const extra = path.join(base, "extra");
  const dataDir = path.join(workdir, ".agent-data");
  for (const dir of [workdir, home, extra, dataDir]) mkdirSync(dir, { recursive: true });
  return {
    base,
    workdir,
    home,
    dataDir,
    extra,
    environment(options = {}) {
      const paths = options.paths === false ? undefined : createPathPolicy({ workdir, additionalRoots: [{ alias: "extra", path: extra, access: "write" }] });
      return {
        workdir,
        dataDir,
        home,
        ...(paths === undefined ? {} : { paths }),
        ...(options.approval === undefined ? {} : { approval: options.approval }),
        metadataOf: (name) => METADATA[name],
      };
    },
    remove: () => rmSync(base, { recursive: true, force: true }),
  };
}

/** Compiles settings against {@link testVocabulary}. */
export function compileTest(settings: PermissionSettings | LayeredPermissionSettings, shell: ShellParser): CompiledPermissions {
  return compilePermissions(settings, { vocabulary: testVocabulary(), shell });
}

/** Decides one call of `toolName` with `input` (metadata from {@link METADATA}). */
export function decideCall(compiled: CompiledPermissions, environment: RuleEnvironment, call: { tool: string; input: Record<string, unknown> }): RuleVerdict {
  const metadata = METADATA[call.tool];
  if (metadata === undefined) throw new Error(`no metadata for ${call.tool}`);
  return evaluatePermissions(compiled, { toolName: call.tool, input: call.input, metadata }, environment);
}
