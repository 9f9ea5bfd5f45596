import { REMOTE_TREE_TAG_VARIABLE } from "./remote-command.js";
import { SUPERVISOR_LABEL } from "./remote-supervisor.js";

/** One process tree on the remote machine. */
export interface RemoteTreeSelector {
  /** The root pid, also its process-group (and, under OpenSSH, session) id. */
  readonly rootPid: number;
  /** The value of the tree tag its processes inherited (letters, digits, `_`). */
  readonly tag: string;
  /**
   * The pid of the remote supervisor the tree runs under (a Linux child
   * subreaper: everything the command started stays below it). Used only
   * while `/proc/<pid>/cmdline` still names it `agent-tools-supervisor <tag>`.
   */
  readonly supervisorPid?: number | undefined;
}

/** The awk program that turns `/proc/<pid>/stat` lines and tag matches into `<root> <pid>` lines. */
const TREE_AWK = [
  'BEGIN { n = split(roots, R, " "); split(tags, T, " "); for (i = 1; i <= n; i++) { isroot[R[i]] = 1; bytag[T[i]] = R[i] }',
  '  n = split(sups, S, " "); for (i = 1; i <= n; i++) { split(S[i], q, ":"); supof[q[2]] = q[1] } }',
  '/^\\/proc\\// { p = $0; sub(/^\\/proc\\//, "", p); sub(/\\/.*/, "", p); t = $0; sub(/^[^=]*=/, "", t); if (t in bytag) tagged[p] = bytag[t]; next }',
  '/^[0-9]/ { pid = $1 + 0; r = $0; sub(/.*\\) /, "", r); split(r, f, " "); st[pid] = f[1]; par[pid] = f[2] + 0; g = f[3] + 0; s = f[4] + 0;',
  "  if (pid == 1) next; if (pid in isroot) m[pid] = pid; else if (g in isroot) m[pid] = g; else if (s in isroot) m[pid] = s }",
  "END { for (p in tagged) if ((p in st) && !(p in m)) m[p] = tagged[p];",
  // The supervisor itself is no member (it must live to clean up); what is below it is.
  "  do { c = 0; for (p in par) if (p != 1 && !(p in m) && ((par[p] in m) || (par[p] in supof))) { m[p] = (par[p] in m) ? m[par[p]] : supof[par[p]]; c = 1 } } while (c);",
  "  for (p in m) if ((p in st) && st[p] !~ /^[ZX]/) print m[p], p }",
].join("\n");

function checkSelectors(selectors: readonly RemoteTreeSelector[]): RemoteTreeSelector[] {
  return selectors
    .filter((selector) => Number.isSafeInteger(selector.rootPid) && selector.rootPid > 1 && /^[A-Za-z0-9_]+$/.test(selector.tag))
    .map((selector) => (isPid(selector.supervisorPid) ? selector : { rootPid: selector.rootPid, tag: selector.tag }));
}

function isPid(value: number | undefined): value is number {
  return value !== undefined && Number.isSafeInteger(value) && value > 1;
}

/**
 * Shell functions over the trees' supervisors (`<root> <supervisor> <tag>`
 * triples), each used only while its `/proc/<pid>/cmdline` has the record
 * `agent-tools-supervisor <tag>` (so a reused pid is left alone): `sups`
 * prints `<root>:<supervisor>` words, `sup SIG` continues each (a model may
 * have stopped it) and sends it SIG (TERM: forward SIGTERM below it; USR1:
 * freeze and kill everything below it).
 */
function supervisorFunctions(selectors: readonly RemoteTreeSelector[]): string {
  const triples = selectors
    .filter((selector) => isPid(selector.supervisorPid))
    .map((selector) => `${selector.rootPid} ${selector.supervisorPid} ${selector.tag}`)
    .join(" ");
  const each = (body: string) =>
    `set -- ${triples}; while [ $# -ge 3 ]; do if grep -q -a -z -x -F "${SUPERVISOR_LABEL} $3" /proc/$2/cmdline 2>/dev/null; then ${body}; fi; shift 3; done`;
  return [`sups() { v=''; ${each('v="$v $1:$2"')}; echo "$v"; }`, `sup() { g=$1; ${each('kill -s CONT "$2"; kill -s "$g" "$2"')} 2>/dev/null; }`].join("\n");
}

/**
 * A shell function `snap` printing `<root> <pid>` for every live
 * (non-zombie) process of the trees: members of the root's process group or
 * session, processes carrying the tree's tag (they left via setsid or a
 * double fork), everything below the tree's supervisor, and every descendant
 * of those by parent pid. Reads `/proc`;
 * without it (not Linux) falls back to `ps` (group and descent only).
 */
function snapshotFunction(selectors: readonly RemoteTreeSelector[]): string {
  const roots = selectors.map((selector) => selector.rootPid).join(" ");
  const tags = selectors.map((selector) => selector.tag).join(" ");
  const tagPattern = `${REMOTE_TREE_TAG_VARIABLE}=(${selectors.map((selector) => selector.tag).join("|")})`;
  const awk = `awk -v roots='${roots}' -v tags='${tags}' -v sups="$(sups)" '${TREE_AWK.replace(/'/g, "'\\''")}'`;
  return [
    supervisorFunctions(selectors),
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
 * side in one round trip: first the supervisors are asked (SIGTERM: they
 * forward it below them), then SIGTERM to each group and to every member
 * (once each, members found later too), polled every 25 ms for `graceMs`,
 * then SIGUSR1 to the supervisors (they freeze and kill everything below
 * them) and SIGKILL to groups and members until nothing is left (or about
 * 5 s of SIGKILL passed). Finally prints what is still alive as `<root> <pid>`
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
    "sup TERM",
    groups("TERM"),
    "while :; do",
    "  pids=$(snap | awk '{ print $2 }')",
    '  [ -z "$pids" ] && break',
    "  now; e=$((t - start))",
    `  if [ "$e" -lt ${grace} ]; then`,
    '    for p in $pids; do case "$sent" in *" $p "*) ;; *) kill -s TERM "$p" 2>/dev/null; sent="$sent$p ";; esac; done',
    "  else",
    `    sup USR1; ${groups("KILL")}; kill -s KILL $pids 2>/dev/null`,
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
