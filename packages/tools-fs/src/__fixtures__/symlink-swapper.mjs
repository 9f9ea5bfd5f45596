// A second process for the symlink race tests: keeps replacing <workdir>/sub,
// as fast as it can, until it is killed.
//   mode "link": sub is a symlink whose target flips between <workdir>/real and <outside>
//   mode "dir":  sub is the real directory, then a symlink to <outside>, and back
// Prints "ready" once the first swap is done, and on SIGTERM the number of swaps.
import { renameSync, rmSync, symlinkSync } from "node:fs";
import path from "node:path";

const [workdir, outside, mode] = process.argv.slice(2);
const sub = path.join(workdir, "sub");
const spare = path.join(workdir, "sub.next");
let swaps = 0;
let stop = false;
process.on("SIGTERM", () => (stop = true));

function link(target) {
  rmSync(spare, { force: true });
  symlinkSync(target, spare);
  renameSync(spare, sub); // atomic: sub always exists
}

/** Removes whatever is at sub, retrying while a file tool keeps writing into a directory there. */
function clearSub() {
  for (;;) {
    try {
      return rmSync(sub, { recursive: true, force: true });
    } catch (error) {
      if (error.code !== "ENOTEMPTY" && error.code !== "EEXIST") throw error;
    }
  }
}

/** Retries `step` after clearing sub: a file tool may create sub (legitimately, inside) while it is missing. */
function placeAtSub(step) {
  for (;;) {
    try {
      return step();
    } catch (error) {
      if (error.code !== "EEXIST" && error.code !== "ENOTEMPTY" && error.code !== "EISDIR") throw error;
      clearSub();
    }
  }
}

function flipDirectory(toOutside) {
  const away = path.join(workdir, "sub.away");
  if (toOutside) {
    renameSync(sub, away);
    placeAtSub(() => symlinkSync(outside, sub));
  } else {
    clearSub();
    placeAtSub(() => renameSync(away, sub));
  }
}

/** Busy-waits up to `maxMicros` (random), so each state lasts long enough for some calls to start in it. */
function dwell(maxMicros) {
  const until = process.hrtime.bigint() + BigInt(Math.floor(Math.random() * maxMicros * 1000));
  while (process.hrtime.bigint() < until);
}

let toOutside = true;
function swap() {
  if (mode === "link") link(toOutside ? outside : path.join(workdir, "real"));
  else flipDirectory(toOutside);
  // Inside states last longer than outside ones: calls then start inside and race the flip outside.
  dwell(toOutside ? 100 : 400);
  toOutside = !toOutside;
  swaps += 1;
}

swap();
process.stdout.write("ready\n");
function loop() {
  const until = Date.now() + 20;
  while (!stop && Date.now() < until) swap();
  if (stop) {
    if (mode === "dir" && !toOutside) flipDirectory(false); // leave the real directory in place
    process.stdout.write(`swaps ${swaps}\n`);
    process.exit(0);
  }
  setImmediate(loop);
}
loop();
