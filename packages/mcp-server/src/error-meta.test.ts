import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestClient, connectStdio, tempWorkdir } from "./testing-helpers.js";

const ERROR_META_KEY = "agent-tools/error";

describe("tools/call error results carry the result's error (code, recoverable) in _meta", () => {
  const work = tempWorkdir();
  let connection: TestClient;
  beforeAll(async () => {
    connection = await connectStdio({ workdir: work.dir, excludeTools: ["managedprocess"], approval: { policies: { Delete: "deny" } } });
  }, 60_000);
  afterAll(async () => {
    await connection?.close();
    work.cleanup();
  });

  it("maps the registry's error and the server's own refusals", async () => {
    const call = (name: string, args: Record<string, unknown>) => connection.client.callTool({ name, arguments: args });
    const cases: [string, Record<string, unknown>, { code: string; recoverable: boolean }][] = [
      ["Read", { path: "nowhere.txt" }, { code: "not_found", recoverable: true }],
      ["Read", { nope: 1 }, { code: "invalid_arguments", recoverable: true }],
      ["NoSuchTool", {}, { code: "unknown_tool", recoverable: true }],
      ["ManagedProcess", {}, { code: "unknown_tool", recoverable: true }],
      ["Delete", { path: "a.md" }, { code: "permission_denied", recoverable: false }],
    ];
    for (const [name, args, error] of cases) {
      const result = await call(name, args);
      expect(result.isError).toBe(true);
      expect(result._meta).toEqual({ [ERROR_META_KEY]: error });
    }
    const written = await call("Write", { path: "a.md", content: "x\n" });
    expect(written.isError).toBe(false);
    expect(written._meta).toBeUndefined();
  });
});
