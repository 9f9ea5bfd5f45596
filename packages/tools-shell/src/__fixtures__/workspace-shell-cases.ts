/**
 * The shell tools' behaviour cases, run on any workspace that runs
 * processes: each case calls Bash, ProcessWait, ProcessStop and
 * ManagedProcess through `registry.executeToolCall` and asserts the exact
 * result text after an explicit normalisation (see {@link normaliseShellText}:
 * session and process ids, pids, durations, the root, the dataDir and the
 * workspace label a non-local workspace adds), so the local disk and the
 * SSH workspace are held to one answer.
 *
 * @example
 * runWorkspaceShellCases("local disk", async () => localShellHarness());
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type ToolRegistry, type ToolResult, toolResultText } from "@agent-tools/core";
import { describe, expect, it } from "vitest";

/** A registry whose commands run in `root` (a folder holding an empty `sub` folder). */
export interface ShellHarness {
  readonly registry: ToolRegistry;
  /** The workdir as the commands see it (absolute). */
  readonly root: string;
  /** The registry's dataDir on this host (managed process logs live there). */
  readonly dataDir: string;
  /** The workspace label a non-local workspace prints (`workspace: <label>`); undefined on the local disk. */
  readonly workspaceLabel: string | undefined;
  close(): Promise<void>;
}

/** Makes a harness on a fresh root. */
export type ShellHarnessFactory = () => Promise<ShellHarness>;

/** A tool result with its normalised text. */
export type ShellCallResult = ToolResult<any> & { text: string; raw: string };

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

/**
 * The normalisation, spelled out: `bash-<uuid>` -> `<session>`, other UUIDs
 * -> `<process>`, `pid: N` -> `pid: <pid>`, `session_duration_ms: N` ->
 * `<ms>`, the dataDir -> `<data>`, the root -> `<root>`, and the label of a
 * non-local workspace removed where the tools add it: the line
 * `workspace: <label>` (checked present on every successful result there)
 * and ` on <label>` in an error (a missing cwd). Nothing else is touched.
 */
export function normaliseShellText(text: string, harness: ShellHarness): string {
  let out = text;
  if (harness.workspaceLabel !== undefined) {
    out = out.split(`workspace: ${harness.workspaceLabel}\n`).join("").split(` on ${harness.workspaceLabel}`).join("");
  }
  return out
    .split(harness.dataDir)
    .join("<data>")
    .split(harness.root)
    .join("<root>")
    .replace(new RegExp(`bash-${UUID}`, "g"), "<session>")
    .replace(new RegExp(UUID, "g"), "<process>")
    .replace(/^pid: \d+$/gm, "pid: <pid>")
    .replace(/session_duration_ms: \d+/g, "session_duration_ms: <ms>");
}

/** What a case gets. */
export interface ShellTools {
  call(name: string, args: Record<string, unknown>): Promise<ShellCallResult>;
  harness: ShellHarness;
}

/** One shell case. */
export interface ShellCase {
  readonly name: string;
  run(tools: ShellTools): Promise<void>;
}

let counter = 0;

function shellTools(harness: ShellHarness): ShellTools {
  return {
    harness,
    async call(name, args) {
      const result = await harness.registry.executeToolCall({ id: `shell_${++counter}`, name, arguments: args });
      const raw = toolResultText(result, "");
      if (harness.workspaceLabel !== undefined && !result.isError) expect(raw).toContain(`workspace: ${harness.workspaceLabel}\n`);
      return { ...result, raw, text: normaliseShellText(raw, harness) };
    },
  };
}

const SHELL_LINE = "shell: /bin/bash (platform: linux, profile: non-interactive, shell_family: posix, sandbox: none)";

/** The cases (exact texts after {@link normaliseShellText}). */
export const WORKSPACE_SHELL_CASES: readonly ShellCase[] = [
  {
    name: "Bash: stdout, stderr and a failing exit code",
    async run({ call }) {
      const result = await call("Bash", { command: "echo out; echo err >&2; exit 3" });
      expect(result.isError).toBe(true);
      expect(result.text).toBe(
        `# Shell Session\nstatus: failed\nsession_id: <session>\ncursor: 8\n${SHELL_LINE}\ncwd: .\nexit_code: 3\nsession_duration_ms: <ms>\n\nstdout:\nout\nstderr:\nerr\n`,
      );
      expect(result.details).toMatchObject({ status: "failed", exit_code: 3, cursor: 8 });
    },
  },
  {
    name: "Bash: the cwd (a sub folder, a missing one) and the command environment",
    async run({ call, harness }) {
      // The root's path differs between machines (and so would the cursor): print the folder's name, check the path apart.
      const sub = await call("Bash", { command: 'basename "$(pwd)"', cwd: "sub" });
      expect(sub.text).toBe(
        "# Shell Session\nstatus: completed\nsession_id: <session>\ncursor: 4\nshell: /bin/bash (platform: linux, profile: non-interactive, shell_family: posix, sandbox: none)\ncwd: sub\nexit_code: 0\nsession_duration_ms: <ms>\n\nstdout:\nsub\n",
      );
      expect((await call("Bash", { command: "pwd", cwd: "sub" })).raw).toContain(`\nstdout:\n${harness.root}/sub\n`);
      const missing = await call("Bash", { command: "pwd", cwd: "nope" });
      expect(missing.isError).toBe(true);
      expect(missing.text).toBe(
        "Bash cwd nope does not exist. Pass an existing directory (workspace-relative or absolute), or omit cwd to run in the workspace root.",
      );
      const environment = await call("Bash", { command: 'echo "$PAGER|$GIT_PAGER|$GIT_TERMINAL_PROMPT"; printf "%s\\n" "ünï code" >&2' });
      expect(environment.text).toBe(
        "# Shell Session\nstatus: completed\nsession_id: <session>\ncursor: 21\nshell: /bin/bash (platform: linux, profile: non-interactive, shell_family: posix, sandbox: none)\ncwd: .\nexit_code: 0\nsession_duration_ms: <ms>\n\nstdout:\ncat|cat|0\nstderr:\nünï code\n",
      );
    },
  },
  {
    name: "Bash: a timeout ends the command and says so",
    async run({ call }) {
      const result = await call("Bash", { command: "echo begun; sleep 30; echo never", timeout_ms: 1_000 });
      expect(result.isError).toBe(true);
      expect(result.text).toBe(
        "# Shell Session\nstatus: timed_out\nsession_id: <session>\ncursor: 6\nshell: /bin/bash (platform: linux, profile: non-interactive, shell_family: posix, sandbox: none)\ncwd: .\nexit_code: -1\ntimeout_ms: 1000\nsession_duration_ms: <ms>\n\nstdout:\nbegun\n\nThe command hit its hard timeout of 1000 ms and its whole process tree was killed.\n",
      );
      expect(result.details).toMatchObject({ status: "timed_out", exit_code: -1, timeout_ms: 1000, cursor: 6 });
    },
  },
  {
    name: "A Bash session: started, read with ProcessWait from its cursor, stopped with ProcessStop",
    async run({ call }) {
      const started = await call("Bash", { command: "echo first; sleep 30; echo never", yield_time_ms: 500 });
      expect(started.text).toBe(
        '# Shell Session\nstatus: running\nsession_id: <session>\ncursor: 6\nshell: /bin/bash (platform: linux, profile: non-interactive, shell_family: posix, sandbox: none)\ncwd: .\nsession_duration_ms: <ms>\n\noutput:\nfirst\n\nCommand is still running. Continue with ProcessWait(session_id="<session>", cursor=6). Do not call Bash sleep and do not start the command again.\n',
      );
      const sessionId = (started.details as { session_id: string }).session_id;
      const waited = await call("ProcessWait", { session_id: sessionId, cursor: 0, yield_time_ms: 300 });
      expect(waited.text).toBe(
        '# Shell Session\nstatus: running\nsession_id: <session>\ncursor: 6\nshell: /bin/bash (platform: linux, profile: non-interactive, shell_family: posix, sandbox: none)\ncwd: .\nsession_duration_ms: <ms>\n\noutput:\nfirst\n\nCommand is still running. Continue with ProcessWait(session_id="<session>", cursor=6). Do not call Bash sleep and do not start the command again.\n',
      );
      const nothingNew = await call("ProcessWait", { session_id: sessionId, cursor: 6, yield_time_ms: 300 });
      expect(nothingNew.text).toBe(
        '# Shell Session\nstatus: running\nsession_id: <session>\ncursor: 6\nshell: /bin/bash (platform: linux, profile: non-interactive, shell_family: posix, sandbox: none)\ncwd: .\nsession_duration_ms: <ms>\n\noutput: (no new output)\n\nCommand is still running. Continue with ProcessWait(session_id="<session>", cursor=6). Do not call Bash sleep and do not start the command again.\n',
      );
      const stopped = await call("ProcessStop", { session_id: sessionId });
      expect(stopped.text).toBe(
        "# Shell Session\nstatus: cancelled\nsession_id: <session>\ncursor: 6\nshell: /bin/bash (platform: linux, profile: non-interactive, shell_family: posix, sandbox: none)\ncwd: .\nexit_code: -1\nsession_duration_ms: <ms>\n\noutput:\nfirst\n",
      );
      expect(stopped.details).toMatchObject({ status: "cancelled" });
      const after = await call("ProcessWait", { session_id: sessionId, cursor: 6 });
      expect(after.text).toBe(
        "# Shell Session\nstatus: cancelled\nsession_id: <session>\ncursor: 6\nshell: /bin/bash (platform: linux, profile: non-interactive, shell_family: posix, sandbox: none)\ncwd: .\nexit_code: -1\nsession_duration_ms: <ms>\n\noutput: (no new output)\n",
      );
      expect((await call("ProcessWait", { session_id: "bash-unknown" })).text).toBe(
        "shell session not found or expired: bash-unknown. Sessions are kept for 10 minutes after they end; start the command again with Bash only if you still need it.",
      );
    },
  },
  {
    name: "A Bash session that finishes while ProcessWait waits",
    async run({ call }) {
      const started = await call("Bash", { command: "echo a; sleep 1; echo b", yield_time_ms: 200 });
      expect(started.text).toBe(
        '# Shell Session\nstatus: running\nsession_id: <session>\ncursor: 2\nshell: /bin/bash (platform: linux, profile: non-interactive, shell_family: posix, sandbox: none)\ncwd: .\nsession_duration_ms: <ms>\n\noutput:\na\n\nCommand is still running. Continue with ProcessWait(session_id="<session>", cursor=2). Do not call Bash sleep and do not start the command again.\n',
      );
      const done = await call("ProcessWait", { session_id: (started.details as { session_id: string }).session_id, yield_time_ms: 20_000 });
      expect(done.text).toBe(
        "# Shell Session\nstatus: completed\nsession_id: <session>\ncursor: 4\nshell: /bin/bash (platform: linux, profile: non-interactive, shell_family: posix, sandbox: none)\ncwd: .\nexit_code: 0\nsession_duration_ms: <ms>\n\noutput:\na\nb\n",
      );
    },
  },
  {
    name: "ManagedProcess: start, wait for output, read_log, status, stop",
    async run({ call, harness }) {
      const started = await call("ManagedProcess", { action: "start", command: "sleep 1; echo managed-line; sleep 30", label: "srv" });
      expect(started.text).toBe(
        '# ManagedProcess started\nprocess_id: <process>\nlabel: srv\nstatus: running\npid: <pid>\nisolated: false\nsandbox: none\ncommand: sleep 1; echo managed-line; sleep 30\nlog_path: <data>/process-logs/<process>.log\nlog_bytes: 0\n\nFollow it with ManagedProcess(action="wait" or "read_log", process_id="<process>", cursor=...) and end it with ManagedProcess(action="stop", process_id="<process>"). Do not use ProcessWait or ProcessStop with this id.',
      );
      const process = (started.details as { process: { process_id: string; pid: number } }).process;
      expect(process.pid).toBeGreaterThan(0);
      // The record a later host reads names the same process.
      const record = JSON.parse(readFileSync(join(harness.dataDir, "process-logs", `${process.process_id}.json`), "utf8")) as { pid: number };
      expect(record.pid).toBe(process.pid);
      const waited = await call("ManagedProcess", { action: "wait", process_id: process.process_id, yield_time_ms: 20_000, max_bytes: 13 });
      expect(waited.text).toBe(
        '# ManagedProcess wait\nprocess_id: <process>\nlabel: srv\nstatus: running\npid: <pid>\nisolated: false\nsandbox: none\ncommand: sleep 1; echo managed-line; sleep 30\nlog_path: <data>/process-logs/<process>.log\nlog_bytes: 13\ncursor: 13\n\nlog:\nmanaged-line\n\nContinue with ManagedProcess(action="wait", process_id="<process>", cursor=13).\n',
      );
      expect((await call("ManagedProcess", { action: "read_log", process_id: process.process_id, cursor: 8 })).text).toBe(
        '# ManagedProcess read_log\nprocess_id: <process>\nlabel: srv\nstatus: running\npid: <pid>\nisolated: false\nsandbox: none\ncommand: sleep 1; echo managed-line; sleep 30\nlog_path: <data>/process-logs/<process>.log\nlog_bytes: 13\ncursor: 13\n\nlog:\nline\n\nContinue with ManagedProcess(action="wait", process_id="<process>", cursor=13).\n',
      );
      expect((await call("ManagedProcess", { action: "status", process_id: process.process_id })).text).toBe(
        "# ManagedProcess status\nprocess_id: <process>\nlabel: srv\nstatus: running\npid: <pid>\nisolated: false\nsandbox: none\ncommand: sleep 1; echo managed-line; sleep 30\nlog_path: <data>/process-logs/<process>.log\nlog_bytes: 13",
      );
      const stopped = await call("ManagedProcess", { action: "stop", process_id: process.process_id });
      expect(stopped.text).toBe(
        "# ManagedProcess stopped\nprocess_id: <process>\nlabel: srv\nstatus: stopped\nexit_code: -1\npid: <pid>\nisolated: false\nsandbox: none\ncommand: sleep 1; echo managed-line; sleep 30\nlog_path: <data>/process-logs/<process>.log\nlog_bytes: 13",
      );
      expect((await call("ManagedProcess", { action: "status", process_id: "nope" })).text).toBe(
        'managed process not found: nope. Call ManagedProcess(action="status") to list known processes.',
      );
    },
  },
];

/** Registers every case of {@link WORKSPACE_SHELL_CASES} under `label`, each on a fresh harness. */
export function runWorkspaceShellCases(label: string, factory: ShellHarnessFactory): void {
  describe(label, () => {
    for (const shellCase of WORKSPACE_SHELL_CASES) {
      it(shellCase.name, async () => {
        const harness = await factory();
        try {
          await shellCase.run(shellTools(harness));
        } finally {
          await harness.close();
        }
      });
    }
  });
}
