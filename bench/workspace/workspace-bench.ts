/**
 * Workspace benchmark (not a test): the file and shell tools on an SSH
 * workspace against plain OpenSSH commands doing the same work, and the
 * file tools with a local workspace against the same registry without one.
 * Every figure is the median of N runs after a warm-up, the sides
 * interleaved run by run; ratios are tool / peer. Nothing is asserted.
 *
 *   npx tsx --conditions=@agent-tools/source bench/workspace/workspace-bench.ts [--runs=N] [--local-runs=N] [--quick] [--only=ssh,local]
 *
 * - ssh: the test sshd of `@agent-tools/ssh/testing` on 127.0.0.1 with the
 *   rules-3k tree (bench/fs: 3,028 tracked files of real package sources,
 *   real ignore rules) copied into its root as the ssh account. A registry
 *   built with `buildBuiltinToolRegistry({ workspace: createSshWorkspace(..),
 *   workdir })` runs Read, Edit, Glob, Grep and Bash through
 *   `executeToolCall`; the peers are `ssh` commands with the same key and
 *   host-key pinning (`cat`, `cat > file`, `rg -n`, `rg -l`, `rg --files`,
 *   `sh -c true`), a fresh `ssh` process per operation and one multiplexed
 *   over a ControlMaster connection.
 * - local: Read, Edit, Glob and Grep on a copy of rules-3k through a
 *   registry without a workspace and one with `createLocalWorkspace`.
 *
 * `--runs=N`: runs per SSH figure (default 7; `--quick` 3); the local
 * figures take `--local-runs=N` (default three times `--runs`).
 * `--quick` also leaves out the common-literal Grep. Needs /usr/sbin/sshd
 * and ssh (Debian: openssh-server, openssh-client); run as root, the test
 * sshd logs in as its own account (see startTestSshd).
 */
import os from "node:os";
import type { BenchSettings } from "../fs/bench-util.js";
import { ensureBenchRepositories } from "../fs/make-repository.js";
import { benchLocal } from "./local-figures.js";
import { loads } from "./timing.js";

const option = (name: string) => process.argv.find((argument) => argument.startsWith(`--${name}=`))?.slice(name.length + 3);
const quick = process.argv.includes("--quick");
const settings: BenchSettings = { quick, runs: Number(option("runs") ?? (quick ? 3 : 7)) };
/** The local figures are cheap and their ratios near 1: three times the runs unless `--local-runs=N`. */
const localRuns = Number(option("local-runs") ?? settings.runs * 3);
const only = new Set((option("only") ?? "ssh,local").split(","));
for (const name of only) if (name !== "ssh" && name !== "local") throw new Error(`--only: unknown part "${name}"; the parts are ssh and local`);

const { rules } = ensureBenchRepositories();
console.log(`rules-3k: ${rules.tracked3k} tracked files, ${rules.ignoreFiles3k} ignore files (${rules.rules3k})`);
console.log(`Node ${process.version}, ${os.cpus().length} CPUs, load ${loads()}, median of ${settings.runs} runs per figure\n`);

if (only.has("ssh")) {
  // Loaded only here: the local part runs without the ssh package's workspace.
  const { startRemoteTree } = await import("./remote-tree.js");
  const { benchSsh } = await import("./ssh-figures.js");
  const started = performance.now();
  const tree = await startRemoteTree(rules.rules3k);
  console.log(`test sshd on 127.0.0.1:${tree.sshd.port}, tree copied in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  try {
    await benchSsh(tree, settings);
  } finally {
    await tree.stop();
  }
  console.log("");
}
if (only.has("local")) {
  console.log(`local: median of ${localRuns} runs per figure`);
  await benchLocal(rules.rules3k, { ...settings, runs: localRuns });
}
console.log(`\nload at the end ${loads()}`);
