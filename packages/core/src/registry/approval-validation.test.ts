import os from "node:os";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { SdkError } from "../errors.js";
import type { BundleApprovalTargets, Logger, ToolBundle, ToolDefinition } from "../types.js";
import { resolveApproval } from "./approval-policy.js";
import { snapshotApprovalOptions } from "./approval-validation.js";
import { closestName } from "./closest-name.js";
import { type ToolRegistryOptions, createToolRegistry } from "./create-tool-registry.js";
import { defineTool } from "./define-tool.js";

const workdir = os.tmpdir();

const tool = (name: string, metadata: Partial<ToolDefinition["metadata"]> = {}): ToolDefinition =>
  defineTool({ name, description: `${name}.`, inputSchema: z.object({}), metadata, execute: () => ({ content: `${name} ran` }) });

const shellLike = tool("Bash", { groupId: "shell", isReadOnly: false });
const readLike = tool("Read", { groupId: "fs", isReadOnly: true });

function bundle(tools: ToolDefinition[], targets?: BundleApprovalTargets): ToolBundle {
  return { id: "b", trusted: true, listTools: () => tools, ...(targets === undefined ? {} : { approvalTargets: () => targets }) };
}

const build = (approval: unknown, more: Partial<ToolRegistryOptions> = {}) =>
  createToolRegistry({ workdir, bundles: [bundle([shellLike, readLike])], approval: approval as ToolRegistryOptions["approval"], ...more });

/** The SdkError `run` throws (fails the test when it throws nothing or something else). */
function sdkErrorOf(run: () => unknown): SdkError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SdkError);
    return error as SdkError;
  }
  throw new Error("expected an SdkError");
}

describe("approval rules are checked when the registry is created", () => {
  it.each([
    ["bash", "Bash"],
    ["Bsh", "Bash"],
    ["BASH", "Bash"],
    ["Raed", "Read"],
  ])("refuses the key %j, naming it and suggesting %j", (key, suggestion) => {
    const error = sdkErrorOf(() => build({ policies: { [key]: "deny" } }));
    expect(error.code).toBe("invalid_options");
    expect(error.message).toContain(`"${key}" names no tool of this registry; did you mean \`${suggestion}\`?`);
    expect(error.details).toMatchObject({ key, suggestion });
  });

  it("refuses a key that is close to nothing, without a suggestion", () => {
    const error = sdkErrorOf(() => build({ policies: { DeployToProduction: "deny" } }));
    expect(error.message).toContain('"DeployToProduction" names no tool');
    expect(error.message).not.toContain("did you mean");
  });

  it.each([
    ["Deny", "deny"],
    ["block", undefined],
    [true, undefined],
    [undefined, undefined],
    ["", undefined],
  ])("refuses the value %j (suggesting %j)", (value, suggestion) => {
    const error = sdkErrorOf(() => build({ policies: { Bash: value } }));
    expect(error.message).toContain('must be exactly "allow", "ask" or "deny"');
    expect(error.details.suggestion).toBe(suggestion);
    expect(sdkErrorOf(() => build({ defaultDecision: value ?? null })).message).toContain("approval.defaultDecision");
  });

  it("refuses unknown options, shapes and a non-function onAsk", () => {
    expect(sdkErrorOf(() => build({ policy: { Bash: "deny" } })).message).toContain("did you mean `policies`?");
    expect(sdkErrorOf(() => build({ policies: [] })).message).toContain("approval.policies must be an object");
    expect(sdkErrorOf(() => build("deny")).message).toContain("approval must be an object");
    expect(sdkErrorOf(() => build({ onAsk: "yes" })).message).toContain("onAsk must be a function");
  });

  it("checks server: and group: keys against the servers and groups the bundles have or declare", () => {
    const mcp = tool("mcp_srv_echo", { groupId: "mcp", serverId: "srv" });
    const withServers = (policies: Record<string, string>) =>
      createToolRegistry({
        workdir,
        bundles: [bundle([shellLike]), bundle([mcp], { serverIds: ["srv", "offline"], groupIds: ["web"] })],
        approval: { policies: policies as never },
      });
    expect(() =>
      withServers({ "server:srv": "deny", "server:offline": "ask", "group:shell": "ask", "group:task": "allow", "group:web": "deny" }),
    ).not.toThrow();
    const server = sdkErrorOf(() => withServers({ "server:SRV": "deny" }));
    expect(server.message).toContain('"server:SRV" names no MCP server of this registry; did you mean `server:srv`?');
    expect(sdkErrorOf(() => withServers({ "Server:srv": "deny" })).message).toContain("did you mean `server:srv`?");
    expect(sdkErrorOf(() => withServers({ "group:files": "deny" })).message).toContain('"group:files" names no tool group');
  });

  it("accepts the host's knownApprovalKeys and names a bundle declares (tools listed later)", () => {
    expect(() => build({ policies: { Deploy: "deny" } }, { knownApprovalKeys: ["Deploy"] })).not.toThrow();
    const later = createToolRegistry({ workdir, bundles: [bundle([], { toolNames: ["ToolSearch"] })], approval: { policies: { ToolSearch: "deny" } } });
    expect(later.approvalDecision("ToolSearch")).toBe("deny"); // no such tool yet: deny, as for any unknown name
  });

  it("reads a copy: changing the host's rules afterwards changes nothing", async () => {
    const policies: Record<string, string> = { Bash: "deny" };
    const registry = build({ policies });
    policies.Bash = "allow";
    policies.bash = "allow";
    expect(registry.approvalDecision("Bash")).toBe("deny");
    expect((await registry.executeToolCall({ id: "1", name: "Bash", arguments: {} })).isError).toBe(true);
  });

  it("accepts a rule for a tool that has not arrived by its declared prefix, and warns once when its server's tools arrive without it", async () => {
    const warnings: string[] = [];
    const logger: Logger = { debug: () => undefined, info: () => undefined, error: () => undefined, warn: (message) => warnings.push(message) };
    let tools: ToolDefinition[] = [];
    const lateBundle: ToolBundle = { id: "late", trusted: false, listTools: () => tools, approvalTargets: () => ({ toolNamePrefixes: ["mcp_gh_"] }) };
    const registry = createToolRegistry({
      workdir,
      bundles: [bundle([readLike]), lateBundle],
      logger,
      approval: { policies: { mcp_gh_create_issue: "deny", mcp_gh_create_isue: "deny" } },
    });
    expect(sdkErrorOf(() => createToolRegistry({ workdir, bundles: [lateBundle], approval: { policies: { mcp_other_x: "deny" } } })).message).toContain(
      "names no tool",
    );
    await registry.executeToolCall({ id: "1", name: "Read", arguments: {} });
    expect(warnings).toEqual([]);
    tools = [tool("mcp_gh_create_issue", { groupId: "mcp", serverId: "gh" })];
    await registry.executeToolCall({ id: "2", name: "Read", arguments: {} });
    await registry.executeToolCall({ id: "3", name: "Read", arguments: {} });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('"mcp_gh_create_isue" names no tool');
    expect(warnings[0]).toContain("did you mean `mcp_gh_create_issue`?");
    expect(registry.approvalDecision("mcp_gh_create_issue")).toBe("deny");
  });
});

describe("resolveApproval", () => {
  const metadata = { groupId: "custom", kind: "x", isReadOnly: false, displayCategory: "other" } as const;
  it("never takes an inherited property for a rule", () => {
    expect(resolveApproval("toString", metadata, { policies: {} })).toBe("allow");
    expect(resolveApproval("constructor", metadata, { policies: {}, defaultDecision: "ask" })).toBe("ask");
  });
  it("fails closed on a value that is not a decision (a caller that skipped the registry's check)", () => {
    expect(resolveApproval("X", metadata, { policies: { X: "Allow" as never } })).toBe("deny");
    expect(resolveApproval("X", metadata, { defaultDecision: "maybe" as never })).toBe("deny");
  });
});

describe("closestName", () => {
  it("prefers a case-insensitive match, then the nearest within a third of the length", () => {
    expect(closestName("bash", ["Read", "Bash"])).toBe("Bash");
    expect(closestName("Bsh", ["Read", "Bash"])).toBe("Bash");
    expect(closestName("TaskCreat", ["TaskList", "TaskCreate"])).toBe("TaskCreate");
    expect(closestName("Deploy", ["Read", "Bash"])).toBeUndefined();
    expect(closestName("x", [])).toBeUndefined();
  });
});

describe("snapshotApprovalOptions", () => {
  it("reads own properties once into frozen objects without a prototype", () => {
    let reads = 0;
    const policies = {
      get Bash() {
        reads += 1;
        return reads === 1 ? "deny" : "allow";
      },
    };
    const copy = snapshotApprovalOptions({ policies }) as { policies: Record<string, string> };
    expect(copy.policies.Bash).toBe("deny");
    expect(copy.policies.Bash).toBe("deny");
    expect(reads).toBe(1);
    expect(Object.getPrototypeOf(copy)).toBeNull();
    expect(Object.getPrototypeOf(copy.policies)).toBeNull();
    expect(Object.isFrozen(copy) && Object.isFrozen(copy.policies)).toBe(true);
  });

  it("keeps an own __proto__ key as a key (the check then names it) and passes other values through", () => {
    const copy = snapshotApprovalOptions(JSON.parse('{"__proto__": {"onAsk": 1}}')) as Record<string, unknown>;
    expect(Object.keys(copy)).toEqual(["__proto__"]);
    expect(() => createToolRegistry({ workdir, bundles: [bundle([shellLike])], approval: JSON.parse('{"__proto__": {}}') })).toThrow(SdkError);
    expect(snapshotApprovalOptions("x")).toBe("x");
    expect(snapshotApprovalOptions(undefined)).toBeUndefined();
  });
});
