/**
 * The SSH figures of the workspace benchmark: the tools of a
 * `buildBuiltinToolRegistry({ workspace: createSshWorkspace(..), workdir })`
 * registry through `executeToolCall`, against the same work done by OpenSSH
 * commands, fresh and multiplexed (openssh-peer.ts), on the rules-3k tree in
 * the test sshd's root (remote-tree.ts).
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Workspace } from "@agent-tools/core/workspace";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { createSshWorkspace } from "@agent-tools/ssh";
import { type BenchSettings, format, ratio, row } from "../fs/bench-util.js";
import { freshPeer, multiplexedPeer, type OpenSshPeer, shellQuote } from "./openssh-peer.js";
import { callTool, EditToggle, grepPatterns, grepTotals, LARGE_FILE, RG_WALK, SOURCE_FILE, toolEdit } from "./operations.js";
import type { RemoteTree } from "./remote-tree.js";
import { measureSides, type Side } from "./timing.js";

type Registry = Awaited<ReturnType<typeof buildBuiltinToolRegistry>>;

/**
 * One figure: the tool's work and the peer's remote command (or work, for
 * the edit). Each may note what it found (`notes`, printed after the
 * times), so the sides are seen to do the same work.
 */
interface Operation {
  readonly label: string;
  readonly tool: () => Promise<unknown>;
  readonly toolPrepare?: () => Promise<unknown>;
  readonly peer: (peer: OpenSshPeer) => Promise<unknown>;
}

function openWorkspace(tree: RemoteTree): Promise<Workspace> {
  const { sshd } = tree;
  return createSshWorkspace({
    host: sshd.host,
    port: sshd.port,
    username: sshd.username,
    privateKey: sshd.privateKey,
    hostKey: sshd.hostKeyFingerprint,
    root: tree.root,
  });
}

/** Lines of a peer's output (its count of files or matches). */
const lineCount = (output: Buffer): number => output.toString("utf8").split("\n").filter(Boolean).length;

function operations(registry: Registry, tree: RemoteTree, settings: BenchSettings, notes: string[]): Operation[] {
  const inRoot = (command: string) => `cd ${shellQuote(tree.root)} && ${command}`;
  const rg = (args: string[]) => inRoot(["rg", ...RG_WALK, ...args].map((arg) => (/^[\w.=/-]+$/.test(arg) ? arg : shellQuote(arg))).join(" "));
  const toggle = new EditToggle();
  const list: Operation[] = [
    {
      label: `Read first page of ${SOURCE_FILE} (5 KB) | peer cat`,
      tool: () => callTool(registry, "Read", { path: SOURCE_FILE }),
      peer: (peer) => peer.run(inRoot(`cat ${SOURCE_FILE}`)),
    },
    {
      label: `Read first page of ${LARGE_FILE} (0.8 MB) | peer cat (whole file)`,
      tool: () => callTool(registry, "Read", { path: LARGE_FILE }),
      peer: (peer) => peer.run(inRoot(`cat ${LARGE_FILE}`)),
    },
    {
      label: "Edit one line of the 5 KB file, after a Read (untimed) | peer cat + cat > file",
      toolPrepare: () => callTool(registry, "Read", { path: SOURCE_FILE }),
      tool: () => toolEdit(registry, toggle),
      peer: async (peer) => {
        const text = (await peer.run(inRoot(`cat ${SOURCE_FILE}`))).toString("utf8");
        await peer.run(inRoot(`cat > ${SOURCE_FILE}`), Buffer.from(toggle.apply(text), "utf8"));
        toggle.done();
      },
    },
    {
      // A type, not -g '*.ts': rg's -g globs override the ignore rules (1,291 files here instead of 1,096).
      label: "Glob **/*.ts | peer rg --files --type-add 'bench:*.ts' -t bench",
      tool: async () => {
        const result = await callTool(registry, "Glob", { pattern: "**/*.ts" });
        notes[0] = `Glob found ${(result.details as { totalMatches: number }).totalMatches} files`;
      },
      peer: async (peer) => {
        const output = await peer.run(rg(["--files", "--type-add", "bench:*.ts", "-t", "bench"]));
        notes[1] = `rg --files ${lineCount(output)}`;
      },
    },
  ];
  for (const [kind, pattern] of grepPatterns(settings.quick)) {
    for (const mode of ["content", "files"] as const) {
      list.push({
        label: `Grep ${kind} ${mode} | peer rg ${mode === "content" ? "-n" : "-l"}`,
        tool: async () => {
          const result = grepTotals(await callTool(registry, "Grep", { pattern, output_mode: mode }));
          notes[2] = `Grep ${result.matchCount} matches in ${result.fileCount} files (${result.engine})`;
        },
        peer: async (peer) => {
          const output = await peer.run(rg(["-i", mode === "content" ? "-n" : "-l", "-e", pattern, "."]));
          notes[3] = `rg ${lineCount(output)} lines`;
        },
      });
    }
  }
  list.push({
    label: "Bash true | peer sh -c true",
    tool: () => callTool(registry, "Bash", { command: "true" }),
    peer: (peer) => peer.run("sh -c true"),
  });
  return list;
}

/** Runs and prints the SSH figures. */
export async function benchSsh(tree: RemoteTree, settings: BenchSettings): Promise<void> {
  const { runs } = settings;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "agent-tools-bench-workspace-data-"));
  const fresh = freshPeer(tree);
  const mux = await multiplexedPeer(tree);
  const workspace = await openWorkspace(tree);
  const registry = await buildBuiltinToolRegistry({ workspace, workdir: tree.root, dataDir, memory: false });
  try {
    console.log(`SSH workspace ${workspace.label}, root ${workspace.root}, ripgrep ${workspace.capabilities.ripgrep}\n`);
    // Opening: connect, authenticate, realpath of the root, probe (and close) against one fresh `ssh true`.
    const { medians: open } = await measureSides(runs, [
      { name: "tool", run: async () => (await openWorkspace(tree)).close() },
      { name: "fresh", run: () => fresh.run("true") },
    ]);
    row(
      "ssh",
      "open a workspace (connect, auth, root, probe) and close it | peer a fresh ssh true",
      `tool ${format(open.get("tool")!)}`,
      `ssh fresh ${format(open.get("fresh")!)} ${ratio(open.get("tool")!, open.get("fresh")!)}`,
    );
    const notes: string[] = [];
    for (const operation of operations(registry, tree, settings, notes)) {
      notes.length = 0;
      const sides: Side[] = [
        { name: "tool", run: operation.tool, prepare: operation.toolPrepare },
        { name: "fresh", run: () => operation.peer(fresh) },
        { name: "mux", run: () => operation.peer(mux) },
      ];
      const { medians } = await measureSides(runs, sides);
      const tool = medians.get("tool")!;
      row(
        "ssh",
        operation.label,
        `tool ${format(tool)}`,
        `ssh fresh ${format(medians.get("fresh")!)} ${ratio(tool, medians.get("fresh")!)}`,
        `ssh mux ${format(medians.get("mux")!)} ${ratio(tool, medians.get("mux")!)}`,
        ...notes.filter(Boolean),
      );
    }
  } finally {
    await registry.close();
    await workspace.close();
    await mux.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
