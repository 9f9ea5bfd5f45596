import type { McpResourceUpdate } from "@agent-tools/core/mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type McpTestSetup, everythingStdio, setupMcp, textOf } from "../__fixtures__/test-servers.js";
import { FIXTURE_PNG_BASE64, resourceStdio } from "./__fixtures__/resource-servers.js";
import type { ListMcpResourcesDetails } from "./list-mcp-resources-tool.js";
import type { ReadMcpResourceDetails } from "./read-mcp-resource-tool.js";

describe("ListMcpResources and ReadMcpResource against real stdio servers", () => {
  let setup: McpTestSetup;
  const updates: McpResourceUpdate[] = [];
  const waiters: Array<() => void> = [];
  beforeAll(async () => {
    setup = await setupMcp([resourceStdio("res"), resourceStdio("plain", { RES_SUBSCRIBE: "0" })], {
      onResourceUpdated: (update) => {
        updates.push(update);
        for (const wake of waiters.splice(0)) wake();
      },
    });
  }, 60_000);
  afterAll(() => setup?.close());
  const run = (name: string, args: Record<string, unknown>) => setup.registry.executeToolCall({ id: name, name, arguments: args });

  it("lists both tools while a server offers resources, read-only", () => {
    const names = setup.registry.tools.map((tool) => tool.name);
    expect(names).toContain("ListMcpResources");
    expect(names).toContain("ReadMcpResource");
    expect(setup.registry.metadataByName.ReadMcpResource).toMatchObject({ isReadOnly: true, groupId: "mcp" });
    expect(setup.registry.approvalDecision("ReadMcpResource")).toBe("allow");
  });

  it("pages through the server's cursor and lists the templates on the first page", async () => {
    const first = await run("ListMcpResources", { server: "res" });
    expect(first.isError).toBe(false);
    const details = first.details as ListMcpResourcesDetails;
    expect(details.servers).toHaveLength(1);
    expect(details.servers[0]!.resources.map((resource) => resource.uri)).toEqual(["mem://notes/readme", "mem://big", "mem://counter"]);
    expect(details.servers[0]!.templates).toEqual([{ uriTemplate: "mem://notes/{name}", name: "note", title: "A note by name", mimeType: "text/plain" }]);
    expect(details.servers[0]!.nextCursor).toBe("page-2");
    expect(textOf(first)).toContain('More: call ListMcpResources with server="res" and cursor="page-2".');
    expect(textOf(first)).toContain('- mem://notes/readme  "Readme" (text/plain) - The fixture\'s readme');

    const second = await run("ListMcpResources", { server: "res", cursor: "page-2" });
    const page = (second.details as ListMcpResourcesDetails).servers[0]!;
    expect(page.resources.map((resource) => resource.uri)).toEqual(["mem://logo.png", "mem://data.bin", "mem://fake.png", "mem://broken.png"]);
    expect(page.nextCursor).toBeUndefined();
    expect(page.templates).toEqual([]);
    expect(textOf(second)).not.toContain("More:");
  });

  it("lists every resource server without server, and refuses a cursor without server", async () => {
    const all = await run("ListMcpResources", {});
    expect((all.details as ListMcpResourcesDetails).servers.map((server) => server.serverId).sort()).toEqual(["plain", "res"]);
    const bad = await run("ListMcpResources", { cursor: "page-2" });
    expect(bad.error?.code).toBe("invalid_arguments");
  });

  it("reads text, and a template filled in", async () => {
    const result = await run("ReadMcpResource", { server: "res", uri: "mem://notes/readme" });
    expect(result.isError).toBe(false);
    expect(textOf(result)).toBe("[MCP:res] resource mem://notes/readme (text/plain)\nThe readme of the fixture.");
    const details = result.details as ReadMcpResourceDetails;
    expect(details).toMatchObject({ serverId: "res", uri: "mem://notes/readme", truncated: false, subscribed: false, updatedSinceLastRead: false });
    expect(details.contents).toEqual([{ uri: "mem://notes/readme", mimeType: "text/plain", kind: "text", bytes: 26 }]);
    const note = await run("ReadMcpResource", { server: "res", uri: "mem://notes/todo" });
    expect(textOf(note)).toContain("Note todo.");
  });

  it("cuts text over 256 KiB with a note", async () => {
    const result = await run("ReadMcpResource", { server: "res", uri: "mem://big" });
    expect(result.isError).toBe(false);
    const details = result.details as ReadMcpResourceDetails;
    expect(details.truncated).toBe(true);
    expect(details.contents[0]).toMatchObject({ kind: "text", bytes: 327_680, shownBytes: 262_144 });
    const text = textOf(result);
    expect(text).toContain("[truncated: 262144 of 327680 bytes shown; a read shows at most 256 KiB of text");
    expect(text.length).toBeLessThan(262_144 + 500);
  });

  it("shows a PNG as an image, and describes other blobs, a lying image and invalid base64 without inlining them", async () => {
    const png = await run("ReadMcpResource", { server: "res", uri: "mem://logo.png" });
    expect(png.content).toEqual([
      { type: "text", text: "[MCP:res] resource mem://logo.png (image/png)" },
      { type: "image", data: FIXTURE_PNG_BASE64, mimeType: "image/png" },
    ]);
    expect((png.details as ReadMcpResourceDetails).contents[0]).toMatchObject({ kind: "image", bytes: 70 });

    const blob = await run("ReadMcpResource", { server: "res", uri: "mem://data.bin" });
    expect(blob.content).toHaveLength(1);
    expect(textOf(blob)).toMatch(/^\[MCP:res\] resource mem:\/\/data\.bin \(application\/octet-stream\): binary, 10 bytes; not shown/);
    expect((blob.details as ReadMcpResourceDetails).contents[0]).toMatchObject({ kind: "blob", bytes: 10 });

    const fake = await run("ReadMcpResource", { server: "res", uri: "mem://fake.png" });
    expect(fake.content.every((block) => block.type === "text")).toBe(true);
    expect(textOf(fake)).toContain("its bytes are not a image/png image although the server says so");
    const broken = await run("ReadMcpResource", { server: "res", uri: "mem://broken.png" });
    expect(broken.content.every((block) => block.type === "text")).toBe(true);
    expect(textOf(broken)).toContain("its base64 is not valid");
  });

  it("fails not_found for an unknown URI (the server's words) and for an unknown server (naming the closest)", async () => {
    const missing = await run("ReadMcpResource", { server: "res", uri: "mem://nothing" });
    expect(missing.error?.code).toBe("not_found");
    expect(missing.error?.message).toContain("Resource not found: mem://nothing");
    expect(missing.error?.message).toContain('Call ListMcpResources with server="res"');
    const wrong = await run("ReadMcpResource", { server: "rse", uri: "mem://notes/readme" });
    expect(wrong.error?.code).toBe("not_found");
    expect(wrong.error?.message).toContain('Did you mean "res"?');
    const listWrong = await run("ListMcpResources", { server: "plian" });
    expect(listWrong.error?.message).toContain('Did you mean "plain"?');
  });

  it("subscribes where the server supports it: updates reach onResourceUpdated and mark the resource until it is read", async () => {
    const first = await run("ReadMcpResource", { server: "res", uri: "mem://counter", subscribe: true });
    expect(first.isError).toBe(false);
    expect((first.details as ReadMcpResourceDetails).subscribed).toBe(true);
    const arrived = new Promise<void>((resolve) => waiters.push(resolve));
    const bump = await run("mcp_res_bump", {});
    expect(textOf(bump)).toContain("subscribed=mem://counter");
    await arrived;
    expect(updates).toEqual([{ serverId: "res", uri: "mem://counter" }]);

    const listed = await run("ListMcpResources", { server: "res" });
    expect((listed.details as ListMcpResourcesDetails).servers[0]!.resources.find((resource) => resource.uri === "mem://counter")).toMatchObject({
      updatedSinceLastRead: true,
    });
    expect(textOf(listed)).toContain('mem://counter  "counter" (text/plain) [updated since last read]');
    const again = await run("ReadMcpResource", { server: "res", uri: "mem://counter" });
    expect((again.details as ReadMcpResourceDetails).updatedSinceLastRead).toBe(true);
    expect(textOf(again)).toContain("counter=1");
    expect(textOf(again)).toContain("(mem://counter was updated since it was last read.)");
    const third = await run("ReadMcpResource", { server: "res", uri: "mem://counter" });
    expect((third.details as ReadMcpResourceDetails).updatedSinceLastRead).toBe(false);
  });

  it("ends a read whose signal is aborted as cancelled", async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await setup.registry.executeToolCall(
      { id: "x", name: "ReadMcpResource", arguments: { server: "res", uri: "mem://big" } },
      { signal: controller.signal },
    );
    expect(result.error?.code).toBe("cancelled");
  });

  it("refuses subscribe on a server without resources.subscribe (invalid_arguments), reading nothing", async () => {
    const result = await run("ReadMcpResource", { server: "plain", uri: "mem://counter", subscribe: true });
    expect(result.error?.code).toBe("invalid_arguments");
    expect(result.error?.message).toContain("does not support resource subscriptions");
  });
});

describe("the resource tools without a resource server", () => {
  let setup: McpTestSetup;
  beforeAll(async () => {
    setup = await setupMcp([resourceStdio("bare", { RES_RESOURCES: "0" })]);
  }, 60_000);
  afterAll(() => setup?.close());

  it("are not listed while no enabled server offers resources", () => {
    const names = setup.registry.tools.map((tool) => tool.name);
    expect(names).toContain("mcp_bare_bump");
    expect(names).not.toContain("ListMcpResources");
    expect(names).not.toContain("ReadMcpResource");
  });
});

describe("the resource tools on the everything reference server", () => {
  let setup: McpTestSetup;
  beforeAll(async () => {
    setup = await setupMcp([everythingStdio("everything")]);
  }, 60_000);
  afterAll(() => setup?.close());

  it("list and read its resources", async () => {
    const listed = await setup.registry.executeToolCall({ id: "1", name: "ListMcpResources", arguments: { server: "everything" } });
    expect(listed.isError).toBe(false);
    const first = (listed.details as ListMcpResourcesDetails).servers[0]!.resources[0]!;
    const read = await setup.registry.executeToolCall({ id: "2", name: "ReadMcpResource", arguments: { server: "everything", uri: first.uri } });
    expect(read.isError).toBe(false);
    expect((read.details as ReadMcpResourceDetails).contents.length).toBeGreaterThan(0);
  });
});
