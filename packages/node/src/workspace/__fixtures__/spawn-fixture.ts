/**
 * Starts one of the fixtures of this folder in a child Node process (tsx,
 * the packages' source condition) and waits for its first line of output.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const packageDirectory = path.resolve(here, "../../..");

/** A started fixture and the promise of its exit. */
export interface StartedFixture {
  readonly child: ChildProcess;
  readonly exited: Promise<void>;
}

/** Starts `__fixtures__/<script>` with `args`, writes `input` to its stdin, and resolves once it printed `readyLine`. */
export async function startFixture(script: string, args: readonly string[], readyLine: string, input?: Uint8Array): Promise<StartedFixture> {
  const child = spawn(process.execPath, ["--import", "tsx", "--conditions=@agent-tools/source", path.join(here, script), ...args], {
    cwd: packageDirectory,
    stdio: ["pipe", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.stdin.end(input === undefined ? undefined : Buffer.from(input));
  await new Promise<void>((resolve, reject) => {
    let text = "";
    child.stdout.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      if (text.includes(`${readyLine}\n`)) resolve();
    });
    child.once("exit", (code, signal) => reject(new Error(`${script} exited (${code ?? signal}) before printing ${readyLine}`)));
  });
  return { child, exited };
}

/** SIGKILLs a started fixture and waits until it is gone. */
export async function killFixture(fixture: StartedFixture): Promise<void> {
  fixture.child.kill("SIGKILL");
  await fixture.exited;
}
