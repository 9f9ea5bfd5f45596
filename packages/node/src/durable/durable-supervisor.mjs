// The supervisor of one durable session: `node durable-supervisor.mjs <sessionDir>`.
//
// Started detached (its own session) by NodeDurableProcessLauncher, it reads
// `spec.json`, starts the command in its own session and process group with
// stdout and stderr both appended to `output.log` (the command writes the file
// itself, so no byte passes through this process and none is lost if it dies),
// and keeps `state.json` current, always written whole (temporary file, then
// rename). After the command exits it stays while processes of the tree live
// on (`descendantsAlive`), then records `treeEnded` and exits.
//
// Plain JavaScript on purpose: it runs with no loader from the package's
// sources and from dist alike, and imports nothing but Node's own modules.
import { spawn } from "node:child_process";
import { closeSync, constants, fsyncSync, openSync, readFileSync, readdirSync, renameSync, writeSync } from "node:fs";
import path from "node:path";

const TREE_VARIABLE = "AGENT_TOOLS_PROCESS_TREE";
const TAG_VARIABLE = "AGENT_TOOLS_DURABLE_TAG";
const WATCH_MS = 200;
/** After this long of watching descendants, they are checked once a second (a daemon may live for days). */
const WATCH_SLOW_AFTER_MS = 5_000;
const WATCH_SLOW_MS = 1_000;
const KILL_GRACE_MS = 300;

const directory = process.argv[2];
if (!directory || !path.isAbsolute(directory)) process.exit(2);
const spec = JSON.parse(readText(path.join(directory, "spec.json")));
const tag = process.env[TAG_VARIABLE];
if (!tag) process.exit(2);
// A hangup or an interrupt meant for the host's terminal is not a reason to stop watching.
for (const signal of ["SIGHUP", "SIGINT", "SIGPIPE"]) process.on(signal, () => undefined);

let writes = 0;
let exitRecorded = false;
const state = {
  version: 1,
  supervisorPid: process.pid,
  supervisorStartTime: startTimeOf(process.pid),
  pid: 0,
  pidStartTime: null,
  tag,
  startedAt: Date.now(),
  status: "starting",
  exitCode: null,
  signal: null,
  endedAt: null,
  descendantsAlive: [],
  treeEnded: false,
  updatedAt: Date.now(),
};

// The command's environment comes on stdin (JSON), so no secret of it is written to the session directory.
const commandEnvironment = JSON.parse(readFileSync(0, "utf8"));
const log = openSync(path.join(directory, "output.log"), constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
const environment = { ...commandEnvironment, [TREE_VARIABLE]: tag };
// Recorded before the command can run: a command that kills this process at once still leaves its tag on disk,
// so a host finds (and stops) what it started even though its pid was never written.
writeState();
const file = spec.shell ? spec.shell : spec.command;
const args = spec.shell ? ["-c", spec.command] : Array.isArray(spec.args) ? spec.args : [];
let child;
try {
  child = spawn(file, args, { cwd: spec.cwd, env: environment, detached: true, stdio: ["ignore", log, log] });
} catch (error) {
  startFailed(error);
}
if (child) {
  child.on("error", (error) => startFailed(error));
  if (child.pid) {
    state.pid = child.pid;
    state.pidStartTime = startTimeOf(child.pid);
    state.status = "running";
    writeState();
  }
  let timer;
  if (typeof spec.timeoutMs === "number" && spec.timeoutMs > 0) {
    timer = setTimeout(() => {
      state.timedOut = true;
      void killTree();
    }, spec.timeoutMs);
  }
  child.on("exit", (code, signal) => {
    clearTimeout(timer);
    if (state.status !== "running") return;
    state.status = state.timedOut ? "timed_out" : "exited";
    state.exitCode = code;
    state.signal = signal;
    state.endedAt = Date.now();
    watchDescendants();
  });
}

function startFailed(error) {
  if (state.status === "exited") return;
  const message = error instanceof Error ? error.message : String(error);
  writeSync(log, `The command could not start: ${message}\n`);
  state.status = "exited";
  state.exitCode = 127;
  state.startError = message;
  state.endedAt = Date.now();
  watchDescendants();
}

/** Records the processes the command left running until none is left, then exits. */
function watchDescendants() {
  const alive = treeMembers();
  const changed = !exitRecorded || alive.join(",") !== state.descendantsAlive.join(",");
  exitRecorded = true;
  state.descendantsAlive = alive;
  if (alive.length === 0) {
    state.treeEnded = true;
    writeState();
    closeSync(log);
    process.exit(0);
  }
  if (changed) writeState();
  setTimeout(watchDescendants, Date.now() - (state.endedAt ?? Date.now()) > WATCH_SLOW_AFTER_MS ? WATCH_SLOW_MS : WATCH_MS);
}

async function killTree() {
  for (const pid of treeMembers()) sendSignal(pid, "SIGTERM");
  if (state.pid > 0) sendSignal(-state.pid, "SIGTERM");
  await new Promise((resolve) => setTimeout(resolve, KILL_GRACE_MS));
  for (let round = 0; round < 20; round += 1) {
    const alive = treeMembers();
    if (alive.length === 0) return;
    for (const pid of alive) sendSignal(pid, "SIGKILL");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function sendSignal(pid, signal) {
  try {
    process.kill(pid, signal);
  } catch {
    // gone already
  }
}

/** Live processes of the tree: the tag's carriers, the group and session of the command, and their descendants. */
function treeMembers() {
  let entries;
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  const table = [];
  for (const entry of entries) {
    if (!/^[0-9]+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    const info = statOf(pid);
    if (info) table.push(info);
  }
  const members = new Set();
  for (const info of table) {
    if (state.pid > 0 && (info.pid === state.pid || info.group === state.pid || info.session === state.pid)) members.add(info.pid);
    else if (carriesTag(info.pid)) members.add(info.pid);
  }
  let grew = true;
  while (grew) {
    grew = false;
    for (const info of table) {
      if (!members.has(info.pid) && members.has(info.parent)) {
        members.add(info.pid);
        grew = true;
      }
    }
  }
  const dead = new Set(table.filter((info) => info.state === "Z" || info.state === "X").map((info) => info.pid));
  return [...members].filter((pid) => !dead.has(pid)).sort((a, b) => a - b);
}

function carriesTag(pid) {
  try {
    // Each entry ends with a NUL; the leading one makes the first entry match like the others.
    return `\u0000${readFileSync(`/proc/${pid}/environ`, "latin1")}`.includes(`\u0000${TREE_VARIABLE}=${tag}\u0000`);
  } catch {
    return false;
  }
}

function statOf(pid) {
  let text;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return { pid, state: fields[0], parent: Number(fields[1]), group: Number(fields[2]), session: Number(fields[3]), startTime: fields[19] };
}

function startTimeOf(pid) {
  return statOf(pid)?.startTime ?? null;
}

function readText(file) {
  const descriptor = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    return readFileSync(descriptor, "utf8");
  } finally {
    closeSync(descriptor);
  }
}

/** Writes state.json whole: a new temporary file (never an existing one), then rename. */
function writeState() {
  writes += 1;
  state.updatedAt = Date.now();
  const temporary = path.join(directory, `.state.${process.pid}.${writes}.tmp`);
  const descriptor = openSync(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    writeSync(descriptor, `${JSON.stringify(state)}\n`);
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
  renameSync(temporary, path.join(directory, "state.json"));
}
