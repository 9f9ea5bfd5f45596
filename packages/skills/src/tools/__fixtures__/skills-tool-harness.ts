import fs from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { type ToolRegistry, type ToolResult, createToolRegistry, toolResultText } from "@agent-tools/core";
import { GitCliClient } from "@agent-tools/git";
import { ExecaProcessRunner } from "@agent-tools/node";
import { createFsToolBundle } from "@agent-tools/tools-fs";
import { createShellToolBundle } from "@agent-tools/tools-shell";
import type { SkillAccessPolicy } from "../../domain/skill-types.js";
import type { SkillRegistry } from "../../ports/skill-registry.js";
import { type SkillToolBundle, createSkillToolBundle } from "../skill-tool-bundle.js";
import type { ManagedSkillsChange } from "../skills-manager-tool.js";
import { runTestGit } from "@agent-tools/git/testing";

/** A fresh case folder: `<base>/project` (the workspace, created) and `<base>/data/skills` (the skills root, not created). */
export function caseDirs(parent: string): { base: string; workdir: string; rootDir: string } {
  const base = fs.mkdtempSync(path.join(parent, "case-"));
  const workdir = path.join(base, "project");
  fs.mkdirSync(workdir);
  return { base, workdir, rootDir: path.join(base, "data", "skills") };
}

/** Writes a skill folder `<dir>/<name>` with a SKILL.md, extra files and optionally an executable script. */
export function writeSkill(
  dir: string,
  name: string,
  options: { description?: string; body?: string; files?: Record<string, string>; script?: string } = {},
): string {
  const folder = path.join(dir, name);
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(
    path.join(folder, "SKILL.md"),
    `---\nname: ${name}\ndescription: ${options.description ?? `The ${name} skill.`}\n---\n\n${options.body ?? `# ${name}\n\nUse it well.\n`}`,
  );
  for (const [relative, text] of Object.entries(options.files ?? {})) {
    fs.mkdirSync(path.dirname(path.join(folder, relative)), { recursive: true });
    fs.writeFileSync(path.join(folder, relative), text);
  }
  if (options.script !== undefined) {
    fs.mkdirSync(path.join(folder, "scripts"), { recursive: true });
    fs.writeFileSync(path.join(folder, "scripts", "run.sh"), `#!/bin/sh\necho "${options.script}"\n`, { mode: 0o755 });
  }
  return folder;
}

/** Runs git in `cwd` with a fixed identity and no global or system config. */
export const git = runTestGit;

/** A running byte server. */
export interface ByteServer {
  readonly url: string;
  /** Paths requested so far. */
  readonly requests: string[];
  close(): Promise<void>;
}

/** Serves fixed bodies by path on 127.0.0.1 (404 for anything else). */
export async function serveBytes(routes: Record<string, { body: Uint8Array | string; type: string }>): Promise<ByteServer> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(request.url ?? "");
    const route = routes[request.url ?? ""];
    if (route === undefined) {
      response.writeHead(404, { "content-type": "text/plain" });
      response.end("not found");
      return;
    }
    response.writeHead(200, { "content-type": route.type });
    response.end(route.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** A registry the way a host builds it, with the skills bundle and what it was told. */
export interface SkillsHarness {
  readonly registry: ToolRegistry;
  readonly skills: SkillToolBundle;
  readonly workdir: string;
  readonly rootDir: string;
  /** Every `onManagedSkillsChanged` call, in order. */
  readonly changes: ManagedSkillsChange[];
  /** Calls SkillsManager. */
  manage(args: Record<string, unknown>): Promise<ToolResult & { text: string }>;
  /** Calls any tool. */
  tool(name: string, args: Record<string, unknown>): Promise<ToolResult & { text: string }>;
  close(): Promise<void>;
}

/** Options of {@link openSkillsHarness}. */
export interface SkillsHarnessOptions {
  readonly workdir: string;
  readonly rootDir: string;
  readonly policy?: SkillAccessPolicy;
  readonly registry?: SkillRegistry;
}

/** fs + shell (with the skill guard) + skills bundles over real ports, like a host. */
export function openSkillsHarness(options: SkillsHarnessOptions): SkillsHarness {
  const changes: ManagedSkillsChange[] = [];
  const skills = createSkillToolBundle({
    rootDir: options.rootDir,
    gitClient: new GitCliClient(),
    workdir: options.workdir,
    ...(options.policy === undefined ? {} : { policy: options.policy }),
    ...(options.registry === undefined ? {} : { registry: options.registry }),
    onManagedSkillsChanged: (change) => void changes.push(change),
  });
  const registry = createToolRegistry({
    workdir: options.workdir,
    dataDir: path.dirname(options.rootDir),
    bundles: [createFsToolBundle(), createShellToolBundle({ commandPolicies: [skills.commandPolicy()] }), skills],
    skills: skills.pathOptions(),
    ports: { processRunner: new ExecaProcessRunner(), gitClient: new GitCliClient() },
    loopBreaker: false,
  });
  let calls = 0;
  const tool = async (name: string, args: Record<string, unknown>) => {
    const result = await registry.executeToolCall({ id: `call_${++calls}`, name, arguments: args });
    return { ...result, text: toolResultText(result, "") };
  };
  return {
    registry,
    skills,
    workdir: options.workdir,
    rootDir: options.rootDir,
    changes,
    manage: (args) => tool("SkillsManager", args),
    tool,
    close: () => registry.close(),
  };
}

/** A temp parent folder (real path) for one test file; remove it in afterAll. */
export function tempParent(prefix: string): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}
