/**
 * The gateway executes nothing: it runs as `nobody` in a child process that
 * cannot even list the workspace, while the executing host (this process)
 * does the work. The child reports its own failed `readdir` of the workspace
 * before it starts the gateway.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type DemoProject, prepareDemoProject } from "@agent-tools/example-cli/demo/sample-project";
import { afterEach, describe, expect, it } from "vitest";
import { type StartedHost, startHost } from "../src/host/start-host.js";
import { createGatewayToken } from "../src/start-web-example.js";
import { TestPage, waitFor } from "./gateway-test-client.js";

const REPOSITORY = fileURLToPath(new URL("../../../", import.meta.url));
const GATEWAY_MODULE = fileURLToPath(new URL("../src/gateway/start-gateway.ts", import.meta.url));
const GATEWAY_DIR = path.dirname(GATEWAY_MODULE);
const NOBODY = 65534;

const CHILD_SCRIPT = `
import { readdir } from "node:fs/promises";
try {
  await readdir(process.env.WORKSPACE_PROBE);
  console.log(JSON.stringify({ probe: "readable" }));
} catch (error) {
  console.log(JSON.stringify({ probe: error.code }));
}
const { startGateway } = await import(process.env.GATEWAY_MODULE);
const gateway = await startGateway({ token: process.env.GATEWAY_TOKEN });
console.log(JSON.stringify({ url: gateway.url, uid: process.getuid() }));
process.on("SIGTERM", () => void gateway.close().then(() => process.exit(0)));
`;

const isRoot = process.getuid?.() === 0;

describe("gateway isolation", () => {
  let child: ChildProcess | undefined;
  let host: StartedHost | undefined;
  let page: TestPage | undefined;
  let project: DemoProject | undefined;

  afterEach(async () => {
    await page?.close();
    await host?.close();
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    project?.remove();
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

  it.skipIf(!isRoot)("a fix turn completes through a gateway that runs as nobody and cannot read the workspace", async () => {
    // Skipped when not root: only root can start a child as another user.
    const token = createGatewayToken();
    project = prepareDemoProject();
    const workdir = project.workdir;
    chmodSync(path.dirname(workdir), 0o700);
    chmodSync(workdir, 0o700);
    expect(statSync(workdir).uid).toBe(0);

    const running = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", CHILD_SCRIPT], {
      cwd: REPOSITORY,
      uid: NOBODY,
      gid: NOBODY,
      env: { PATH: process.env.PATH, HOME: "/tmp", GATEWAY_MODULE, GATEWAY_TOKEN: token, WORKSPACE_PROBE: workdir },
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
    expect(started).toMatchObject({ uid: NOBODY });
    expect(lines[0]).toEqual({ probe: "EACCES" });

    host = await startHost({ gatewayUrl: started.url as string, token, workdir });
    await host.connected;
    page = await TestPage.connect(started.url as string, token, "isolated");
    const events = await page.runTurn("m1", "fix the cart");
    expect(events.at(-1)).toEqual({ type: "turn-end", messageId: "m1", status: "answered" });
    expect(events.some((event) => event.type === "tool-end" && event.toolName === "Edit" && !event.isError)).toBe(true);
    expect(readFileSync(path.join(workdir, "src/pricing.js"), "utf8")).toContain("amount - (amount * percent) / 100");
  });
});
