import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHostWithoutPeer } from "./__fixtures__/host-without-peer.js";

const run = promisify(execFile);
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const work = realpathSync(mkdtempSync(path.join(os.tmpdir(), "sdk-without-ssh-")));
const app = path.join(work, "app");
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A host project with the built sdk and its runtime dependencies, but not @agent-tools/ssh. */
const createHostWithoutSsh = () => createHostWithoutPeer({ sdkDir: packageDir, app, missing: "@agent-tools/ssh" });

const built = existsSync(path.join(packageDir, "dist", "plugins", "sdk-ssh-plugin.js"));

describe.skipIf(!built && !process.env.CI)("@agent-tools/sdk without @agent-tools/ssh installed", () => {
  beforeAll(createHostWithoutSsh);

  it("rejects the ssh option with SdkError naming @agent-tools/ssh and its install command", async () => {
    const script = `
      import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
      const host = { id: "dev", host: "127.0.0.1", username: "dev", agent: true, hostKey: "SHA256:${"A".repeat(43)}" };
      const plain = await buildBuiltinToolRegistry({ workdir: ${JSON.stringify(app)}, dataDir: ${JSON.stringify(path.join(work, "data"))}, memory: false });
      const tools = plain.tools.map((tool) => tool.name);
      await plain.close();
      try {
        await buildBuiltinToolRegistry({ workdir: ${JSON.stringify(app)}, dataDir: ${JSON.stringify(path.join(work, "data"))}, memory: false, ssh: { hosts: [host] } });
        console.log(JSON.stringify({ built: true }));
      } catch (error) {
        console.log(JSON.stringify({ tools, name: error.name, code: error.code, message: error.message, details: error.details }));
      }
    `;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: app, timeout: 60_000 });
    const output = JSON.parse(stdout.trim().split("\n").pop()!);
    const { version } = JSON.parse(readFileSync(path.join(packageDir, "../ssh/package.json"), "utf8")) as { version: string };
    expect(output.tools).not.toContain("SSHManager");
    expect(output.name).toBe("SdkError");
    expect(output.code).toBe("unsupported");
    expect(output.message).toContain(`npm install @agent-tools/ssh@${version}`);
    expect(output.details).toMatchObject({ option: "ssh", package: "@agent-tools/ssh", version });
  });
});
