/**
 * The gateway executes nothing: it runs in a child process confined by
 * bubblewrap, where the whole file system is read-only and the workspace's
 * folder is an empty tmpfs (the workspace does not exist for it), while the
 * executing host (this process) does the work. The child reports its own
 * failed `readdir` of the workspace and a failed write before it starts the
 * gateway. (Bubblewrap rather than another user: a clone in a 0700 temp
 * folder would be unreadable to that user.)
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type DemoProject, prepareDemoProject } from "@agent-tools/example-cli/demo/sample-project";
import { afterEach, describe, expect, it } from "vitest";
import { type StartedHost, startHost } from "../src/host/start-host.js";
import { createGatewayTokens } from "../src/gateway/gateway-token.js";
import { TestPage, waitFor } from "./gateway-test-client.js";

const REPOSITORY = fileURLToPath(new URL("../../../", import.meta.url));
const GATEWAY_MODULE = fileURLToPath(new URL("../src/gateway/start-gateway.ts", import.meta.url));
const GATEWAY_DIR = path.dirname(GATEWAY_MODULE);
const BWRAP = "/usr/bin/bwrap";

const CHILD_SCRIPT = `
import { readdir } from "node:fs/promises";
import { writeFile } from "node:fs/promises";
try {
  await readdir(process.env.WORKSPACE_PROBE);
  console.log(JSON.stringify({ probe: "readable" }));
} catch (error) {
  console.log(JSON.stringify({ probe: error.code }));
}
try {
  await writeFile(process.env.WRITE_PROBE, "x");
  console.log(JSON.stringify({ write: "written" }));
} catch (error) {
  console.log(JSON.stringify({ write: error.code }));
}
const { startGateway } = await import(process.env.GATEWAY_MODULE);
const gateway = await startGateway({ pageToken: process.env.GATEWAY_PAGE_TOKEN, hostToken: process.env.GATEWAY_HOST_TOKEN });
console.log(JSON.stringify({ url: gateway.url }));
process.on("SIGTERM", () => void gateway.close().then(() => process.exit(0)));
`;

// Setup installs bubblewrap; outside CI a machine without it skips, in CI it fails.
const hasBwrap = existsSync(BWRAP);

describe("gateway isolation", () => {
  let child: ChildProcess | undefined;
  let host: StartedHost | undefined;
  let page: TestPage | undefined;
  let project: DemoProject | undefined;
  let scratch: string | undefined;

  afterEach(async () => {
    await page?.close();
    await host?.close();
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    project?.remove();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
    scratch = undefined;
    child = undefined;
    host = undefined;
    page = undefined;
    project = undefined;
  });

  it("imports only Node, ws and the protocol (no registry, SDK or tool package)", () => {
    const files = readdirSync(GATEWAY_DIR)
      .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
      .map((name) => path.join(GATEWAY_DIR, name));
    files.push(path.join(GATEWAY_DIR, "../protocol/messages.ts"));
    let specifiers = 0;
    for (const file of files) {
      const source = readFileSync(file, "utf8");
      for (const match of source.matchAll(/^\s*(import|export)\s[^;]*?from\s+"([^"]+)"/gms)) {
        const specifier = match[2]!;
        const typeOnly = /^\s*(import|export)\s+type\s/.test(match[0]);
        specifiers += 1;
        const allowed = specifier.startsWith("node:") || specifier === "ws" || specifier.startsWith("./") || specifier === "../protocol/messages.js";
        expect({ file, specifier, allowed: allowed || typeOnly }).toEqual({ file, specifier, allowed: true });
      }
    }
    expect(specifiers).toBeGreaterThan(10);
  });

  it.skipIf(!hasBwrap && !process.env.CI)("a fix turn completes through a gateway that cannot see the workspace or write anywhere", async () => {
    const { pageToken, hostToken } = createGatewayTokens();
    project = prepareDemoProject();
    const workdir = project.workdir;
    // tsx keeps a transpile cache in TMPDIR: the one writable folder the child gets.
    scratch = realpathSync(mkdtempSync(path.join(os.tmpdir(), "gateway-isolation-")));
    const confinement = [
      "--ro-bind",
      "/",
      "/",
      "--dev",
      "/dev",
      "--proc",
      "/proc",
      "--tmpfs",
      path.dirname(workdir),
      "--bind",
      scratch,
      scratch,
      "--die-with-parent",
    ];
    const running = spawn(BWRAP, [...confinement, "--", process.execPath, "--import", "tsx", "--input-type=module", "-e", CHILD_SCRIPT], {
      cwd: REPOSITORY,
      env: {
        PATH: process.env.PATH,
        HOME: scratch,
        TMPDIR: scratch,
        GATEWAY_MODULE,
        GATEWAY_PAGE_TOKEN: pageToken,
        GATEWAY_HOST_TOKEN: hostToken,
        WORKSPACE_PROBE: workdir,
        WRITE_PROBE: path.join(REPOSITORY, "gateway-write-probe.txt"),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child = running;
    const lines: Array<Record<string, unknown>> = [];
    let stderr = "";
    let partial = "";
    running.stdout!.on("data", (chunk: Buffer) => {
      partial += chunk.toString();
      const complete = partial.split("\n");
      partial = complete.pop()!;
      for (const line of complete) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
    });
    running.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const started = await waitFor(
      () => lines.find((line) => typeof line.url === "string") ?? (running.exitCode !== null ? { failed: stderr } : undefined),
      "the gateway child to start",
    );
    expect(started).not.toHaveProperty("failed");
    expect(lines[0]).toEqual({ probe: "ENOENT" });
    expect(lines[1]).toEqual({ write: "EROFS" });

    host = await startHost({ gatewayUrl: started.url as string, hostToken, workdir });
    await host.connected;
    page = await TestPage.connect(started.url as string, pageToken, "isolated");
    const events = await page.runTurn("m1", "fix the cart");
    expect(events.at(-1)).toEqual({ type: "turn-end", messageId: "m1", status: "answered" });
    expect(events.some((event) => event.type === "tool-end" && event.toolName === "Edit" && !event.isError)).toBe(true);
    expect(readFileSync(path.join(workdir, "src/pricing.js"), "utf8")).toContain("amount - (amount * percent) / 100");
  });
});
