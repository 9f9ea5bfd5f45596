/**
 * Helpers of hardening/lazy-read-stale.attack.test.ts: a large numbered log,
 * same-size changes with the mtime set back, a FileHandle hook, and writer
 * processes (a plain one, and one writing through a shared memory mapping).
 */
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from "node:child_process";
import { closeSync, fstatSync, openSync, readFileSync, readSync, statSync, utimesSync, writeSync } from "node:fs";
import { open } from "node:fs/promises";

/** Bytes of one line of {@link rows}. */
export const LINE_BYTES = 32;
/** Lines of the big log: 1.3 MB, over the 1 MiB count budget. */
export const BIG_LINES = 40_000;
/** `count` numbered lines of {@link LINE_BYTES} bytes each. */
export const rows = (count: number) => Array.from({ length: count }, (_, index) => `row ${String(index + 1).padStart(7, "0")} of the big log file\n`).join("");
/** A round mtime (whole seconds), so that utimes sets exactly the same value again. */
export const ROUND_SECONDS = Math.floor(Date.now() / 1000) - 60;
/** {@link ROUND_SECONDS} as a Date. */
export const ROUND_MTIME = new Date(ROUND_SECONDS * 1000);
/** Byte offset of the last digit of line `line`'s number (`row 000000N`): changing it keeps the size. */
export const digitOffset = (line: number) => (line - 1) * LINE_BYTES + 10;
/** python3 with mmap (for a writer through a shared memory mapping), when this machine has it. */
export const HAS_PYTHON = spawnSync("python3", ["-c", "import mmap"], { stdio: "ignore" }).status === 0;

/** Changes one byte in place (same size) at `offset` to another digit ("7" or "8") and sets the mtime back to {@link ROUND_MTIME}. */
export function changeInPlace(file: string, offset: number): void {
  const fd = openSync(file, "r+");
  try {
    const byte = Buffer.alloc(1);
    readSync(fd, byte, 0, 1, offset);
    byte[0] = byte[0] === 0x37 ? 0x38 : 0x37;
    writeSync(fd, byte, 0, 1, offset);
  } finally {
    closeSync(fd);
  }
  utimesSync(file, ROUND_MTIME, ROUND_MTIME);
}

/** The stat identity of `file` as one comparable string (mtime, ctime, inode, size). */
export function identityOf(file: string): string {
  const { mtimeMs, ctimeMs, ino, size } = statSync(file);
  return JSON.stringify({ mtimeMs, ctimeMs, ino, size });
}

/**
 * Runs `run` with FileHandle.prototype[method] calling `hook` once, after the
 * first call on the file with inode `ino`; returns `run`'s result and whether
 * the hook ran.
 */
export async function withHandleHook<T>(
  target: { method: "stat" | "read"; ino: number },
  hook: () => void,
  run: () => Promise<T>,
): Promise<{ result: T; fired: boolean }> {
  const probe = await open(new URL(import.meta.url), "r");
  const prototype = Object.getPrototypeOf(probe) as Record<string, (...args: unknown[]) => Promise<unknown>>;
  await probe.close();
  const original = prototype[target.method]!;
  let fired = false;
  prototype[target.method] = async function (this: { fd: number }, ...args: unknown[]) {
    const result = await original.apply(this, args);
    if (!fired && fstatSync(this.fd).ino === target.ino) {
      fired = true;
      hook();
    }
    return result;
  };
  try {
    return { result: await run(), fired };
  } finally {
    prototype[target.method] = original;
  }
}

/** Characters this process has read so far (/proc/self/io `rchar`, which counts the worker thread's reads too). */
export function readChars(): number {
  const match = /rchar: (\d+)/.exec(readFileSync("/proc/self/io", "utf8"));
  return Number(match?.[1] ?? 0);
}

/** A child process answering each line written to it with one line; `send` resolves when the answer came. */
export interface LineChild {
  readonly child: ChildProcessWithoutNullStreams;
  send(command: string): Promise<void>;
}

function lineChild(command: string, args: string[]): LineChild {
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"] });
  const waiting: (() => void)[] = [];
  let out = "";
  child.stdout.on("data", (data: Buffer) => {
    out += data.toString();
    for (let at = out.indexOf("\n"); at !== -1; at = out.indexOf("\n")) {
      out = out.slice(at + 1);
      waiting.shift()?.();
    }
  });
  return {
    child,
    send: (line) =>
      new Promise<void>((resolve) => {
        waiting.push(resolve);
        child.stdin.write(`${line}\n`);
      }),
  };
}

/**
 * A writer process on `file`: `w <offset>` changes the digit there (same
 * size, mtime set back), `loop` writes at changing offsets until `stop`,
 * which writes once more. Each command is answered once done.
 */
export function startWriter(file: string): LineChild {
  const script = `
    const fs = require("node:fs");
    const file = ${JSON.stringify(file)}, round = ${ROUND_SECONDS};
    const flip = (offset) => {
      const fd = fs.openSync(file, "r+"); const byte = Buffer.alloc(1);
      fs.readSync(fd, byte, 0, 1, offset); byte[0] = byte[0] === 0x37 ? 0x38 : 0x37;
      fs.writeSync(fd, byte, 0, 1, offset); fs.closeSync(fd); fs.utimesSync(file, round, round);
    };
    let looping = false, n = 0;
    const loop = () => { if (!looping) return; flip(${LINE_BYTES} * (n++ % ${BIG_LINES}) + 10); setImmediate(loop); };
    let buffered = "";
    process.stdin.on("data", (data) => {
      buffered += data; let at;
      while ((at = buffered.indexOf("\\n")) !== -1) {
        const [command, offset] = buffered.slice(0, at).split(" "); buffered = buffered.slice(at + 1);
        if (command === "w") flip(Number(offset));
        if (command === "loop") { looping = true; setImmediate(loop); }
        if (command === "stop") { looping = false; flip(${LINE_BYTES} * 5 + 10); }
        process.stdout.write("ok\\n");
      }
    });`;
  return lineChild(process.execPath, ["-e", script]);
}

/**
 * A python3 process that maps `file` shared and writes `<offset> <byte>`
 * commands through the mapping. Its first write (byte 0 set to "r" again)
 * dirties the first page now: the write fault sets mtime and ctime; later
 * writes to that page change no stat field until it is written back.
 */
export async function startMappedWriter(file: string): Promise<LineChild> {
  const script = [
    "import mmap, os, sys",
    `fd = os.open(${JSON.stringify(file)}, os.O_RDWR); m = mmap.mmap(fd, 0)`,
    "while True:",
    "    line = sys.stdin.readline()",
    "    if not line: break",
    "    offset, value = map(int, line.split()); m[offset] = value; sys.stdout.write('ok\\n'); sys.stdout.flush()",
  ].join("\n");
  const mapped = lineChild("python3", ["-u", "-c", script]);
  await mapped.send("0 114");
  return mapped;
}
