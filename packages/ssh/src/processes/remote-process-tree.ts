import { REMOTE_TREE_TAG_VARIABLE } from "./remote-command.js";

/** One process tree on the remote machine. */
export interface RemoteTreeSelector {
  /** The root pid, also its process-group (and, under OpenSSH, session) id. */
  readonly rootPid: number;
  /** The value of the tree tag its processes inherited (letters, digits, `_`). */
  readonly tag: string;
}

/** The awk program that turns `/proc/<pid>/stat` lines and tag matches into `<root> <pid>` lines. */
const TREE_AWK = [
  'BEGIN { n = split(roots, R, " "); split(tags, T, " "); for (i = 1; i <= n; i++) { isroot[R[i]] = 1; bytag[T[i]] = R[i] } }',
  '/^\\/proc\\// { p = $0; sub(/^\\/proc\\//, "", p); sub(/\\/.*/, "", p); t = $0; sub(/^[^=]*=/, "", t); if (t in bytag) tagged[p] = bytag[t]; next }',
  '/^[0-9]/ { pid = $1 + 0; r = $0; sub(/.*\\) /, "", r); split(r, f, " "); st[pid] = f[1]; par[pid] = f[2] + 0; g = f[3] + 0; s = f[4] + 0;',
  "  if (pid == 1) next; if (pid in isroot) m[pid] = pid; else if (g in isroot) m[pid] = g; else if (s in isroot) m[pid] = s }",
  "END { for (p in tagged) if ((p in st) && !(p in m)) m[p] = tagged[p];",
  "  do { c = 0; for (p in par) if (p != 1 && !(p in m) && (par[p] in m)) { m[p] = m[par[p]]; c = 1 } } while (c);",
  "  for (p in m) if ((p in st) && st[p] !~ /^[ZX]/) print m[p], p }",
].join("\n");

function checkSelectors(selectors: readonly RemoteTreeSelector[]): RemoteTreeSelector[] {
  return selectors.filter((selector) => Number.isSafeInteger(selector.rootPid) && selector.rootPid > 1 && /^[A-Za-z0-9_]+$/.test(selector.tag));
}

/**
 * A shell function `snap` printing `<root> <pid>` for every live
 * (non-zombie) process of the trees: members of the root's process group or
 * session, processes carrying the tree's tag (they left via setsid or a
 * double fork), and every descendant of those by parent pid. Reads `/proc`;
 * without it (not Linux) falls back to `ps` (group and descent only).
 */
function snapshotFunction(selectors: readonly RemoteTreeSelector[]): string {
  const roots = selectors.map((selector) => selector.rootPid).join(" ");
  const tags = selectors.map((selector) => selector.tag).join(" ");
  const tagPattern = `${REMOTE_TREE_TAG_VARIABLE}=(${selectors.map((selector) => selector.tag).join("|")})`;
  const awk = `awk -v roots='${roots}' -v tags='${tags}' '${TREE_AWK.replace(/'/g, "'\\''")}'`;
  return [
    "snap() {",
    "  { if [ -r /proc/self/stat ]; then",
    "      cat /proc/[0-9]*/stat 2>/dev/null",
    `      grep -a -z -x -H -E '${tagPattern}' /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n'`,
    `    else ps -A -o pid= -o ppid= -o pgid= -o stat= 2>/dev/null | awk '{ print $1 " (ps) " $4 " " $2 " " $3 " " $3 }'; fi`,
    `  } | ${awk}`,
    "}",
  ].join("\n");
}

/**
 * A script for a separate exec channel: prints the live processes of the
 * trees as `<root> <pid>` lines (see {@link parseTreeSnapshot}).
 *
 * @example
 * connection.exec(treeSnapshotScript([{ rootPid: 4242, tag: "r1a2b_1" }]));
 */
export function treeSnapshotScript(selectors: readonly RemoteTreeSelector[]): string {
  const valid = checkSelectors(selectors);
  if (valid.length === 0) return "exit 0";
  return `${snapshotFunction(valid)}\nsnap`;
}

/**
 * The shell command sending `signal` to the process group `processGroupId`.
 * `kill -s SIG -- -<pgid>`: dash's `kill` rejects the `-SIG -- -<pgid>` form.
 */
export function groupSignalCommand(processGroupId: number, signal: "TERM" | "KILL"): string {
  return `kill -s ${signal} -- -${processGroupId} 2>/dev/null`;
}

/**
 * A script for a separate exec channel that ends the trees on the remote
 * side in one round trip: SIGTERM to each group and to every member (once
 * each, members found later too), polled every 25 ms for `graceMs`, then
 * SIGKILL to groups and members until nothing is left (or about 5 s of
 * SIGKILL passed). Finally prints what is still alive as `<root> <pid>`
 * lines (normally nothing).
 */
export function treeKillScript(selectors: readonly RemoteTreeSelector[], graceMs: number): string {
  const valid = checkSelectors(selectors);
  if (valid.length === 0) return "exit 0";
  const grace = Math.max(0, Math.ceil(graceMs / 10));
  const groups = (signal: "TERM" | "KILL") => valid.map((selector) => groupSignalCommand(selector.rootPid, signal)).join("; ");
  return [
    snapshotFunction(valid),
    // Centiseconds from /proc/uptime, or a tick count (one tick ~ 4 cs) where it is missing.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansions, not a template.
    "now() { if read -r u x 2>/dev/null </proc/uptime; then t=${u%.*}${u#*.}; while case $t in 0?*) true ;; *) false ;; esac; do t=${t#0}; done; else t=$((i * 4)); fi; }",
    `i=0; now; start=$t; sent=' '`,
    groups("TERM"),
    "while :; do",
    "  pids=$(snap | awk '{ print $2 }')",
    '  [ -z "$pids" ] && break',
    "  now; e=$((t - start))",
    `  if [ "$e" -lt ${grace} ]; then`,
    '    for p in $pids; do case "$sent" in *" $p "*) ;; *) kill -s TERM "$p" 2>/dev/null; sent="$sent$p ";; esac; done',
    "  else",
    `    ${groups("KILL")}; kill -s KILL $pids 2>/dev/null`,
    `    [ "$e" -gt ${grace + 500} ] && break`,
    "  fi",
    "  i=$((i + 1)); sleep 0.025 2>/dev/null || sleep 1",
    "done",
    "snap",
  ].join("\n");
}

/**
 * Parses the `<root> <pid>` lines of the scripts above into live pids per
 * root (every selector gets an entry, empty when nothing of it is alive).
 */
export function parseTreeSnapshot(text: string, selectors: readonly RemoteTreeSelector[]): Map<number, number[]> {
  const result = new Map<number, number[]>();
  for (const selector of selectors) result.set(selector.rootPid, []);
  for (const line of text.split("\n")) {
    const match = /^(\d+) (\d+)$/.exec(line.trim());
    if (!match) continue;
    result.get(Number(match[1]))?.push(Number(match[2]));
  }
  for (const pids of result.values()) pids.sort((a, b) => a - b);
  return result;
}
