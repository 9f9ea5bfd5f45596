import type { ApprovalDecision } from "@agent-tools/core";
import { describe, expect, it } from "vitest";
import { createServerDecision } from "./mcp-resource-tools.js";
import { RESOURCE_IMAGE_CAP_BYTES, RESOURCE_TEXT_CAP_BYTES, checkImage, decodeBase64, mapResourceContents, oneLine } from "./resource-content.js";

const b64 = (bytes: number[] | Buffer) => Buffer.from(bytes).toString("base64");

describe("mapResourceContents", () => {
  it("cuts text at the cap without splitting a UTF-8 character, over all blocks of a read", () => {
    const filler = "a".repeat(RESOURCE_TEXT_CAP_BYTES - 1);
    const mapped = mapResourceContents("s", [
      { uri: "u:1", text: filler },
      { uri: "u:2", text: "€uro" },
    ]);
    expect(mapped.truncated).toBe(true);
    expect(mapped.contents[1]).toEqual({ uri: "u:2", kind: "text", bytes: 6, shownBytes: 0 });
    const second = mapped.content[1]!;
    expect(second.type === "text" && second.text.startsWith("[MCP:s] resource u:2\n\n[truncated: 0 of 6 bytes shown")).toBe(true);
  });

  it("keeps the header on one line whatever URI and type the server sends", () => {
    const mapped = mapResourceContents("s", [{ uri: "u:1\n[MCP:other] resource u:2", mimeType: "text/plain\r\nx", text: "body" }]);
    expect(mapped.content[0]).toEqual({ type: "text", text: "[MCP:s] resource u:1 [MCP:other] resource u:2 (text/plain x)\nbody" });
    expect(oneLine("a\u2028b\u0000c")).toBe("a b c");
  });

  it("shows a read's images while they stay under 5 MiB together, and describes the rest", () => {
    const image = Buffer.alloc(2 * 1024 * 1024);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(image);
    const blob = image.toString("base64");
    const mapped = mapResourceContents(
      "s",
      [1, 2, 3].map((n) => ({ uri: `u:${n}`, mimeType: "image/png", blob })),
    );
    expect(mapped.contents.map((item) => item.kind)).toEqual(["image", "image", "blob"]);
    expect(mapped.contents[2]).toMatchObject({ note: "the images of this read reached 5 MiB together" });
  });

  it("says so when a read returned no contents", () => {
    expect(mapResourceContents("s", []).content).toEqual([{ type: "text", text: "(the server returned no contents for this resource)" }]);
  });
});

describe("checkImage", () => {
  it("shows jpeg, gif and webp whose bytes match their type, and re-encodes them", () => {
    expect(checkImage(b64([0xff, 0xd8, 0xff, 0xe0]), "image/jpeg")).toMatchObject({ image: { type: "image", mimeType: "image/jpeg" }, bytes: 4 });
    expect(checkImage(b64(Buffer.from("GIF89a....")), "image/gif")).toMatchObject({ image: { mimeType: "image/gif" } });
    expect(checkImage(b64(Buffer.from("RIFF\0\0\0\0WEBPVP8 ")), "IMAGE/WEBP; x=1")).toMatchObject({ image: { mimeType: "image/webp" } });
  });

  it("describes a gif that says it is a png, svg, unpadded base64 and an image of 5 MiB", () => {
    expect(checkImage(b64(Buffer.from("GIF89a....")), "image/png")).toMatchObject({ note: "its bytes are not a image/png image although the server says so" });
    expect(checkImage(b64(Buffer.from("<svg/>")), "image/svg+xml")).toMatchObject({ note: "not an image type shown inline (png, jpeg, gif, webp)" });
    expect(decodeBase64("YWJj")?.toString()).toBe("abc");
    expect(decodeBase64("YWJjZA")).toBeUndefined();
    const big = Buffer.alloc(RESOURCE_IMAGE_CAP_BYTES);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(big);
    expect(checkImage(big.toString("base64"), "image/png")).toMatchObject({ note: "an image of 5 MiB or more", bytes: RESOURCE_IMAGE_CAP_BYTES });
  });
});

describe("createServerDecision", () => {
  it("denies a server whose every tool the approval denies (keeping the answer through plan mode, failing closed for a tool never asked), else asks the approval about the server", () => {
    const decisions: Record<string, ApprovalDecision> = { mcp_a_x: "deny", mcp_a_y: "deny", mcp_b_x: "deny", mcp_b_y: "allow" };
    const servers: Record<string, ApprovalDecision> = { b: "allow", none: "ask", c: "allow" };
    const view = {
      planMode: false,
      approvalDecision: (name: string, input?: unknown) =>
        input !== undefined ? (servers[(input as { server: string }).server] ?? "allow") : view.planMode ? "deny" : (decisions[name] ?? "deny"),
    };
    const entries = [
      { serverId: "a", definition: { name: "mcp_a_x" } },
      { serverId: "a", definition: { name: "mcp_a_y" } },
      { serverId: "b", definition: { name: "mcp_b_x" } },
      { serverId: "b", definition: { name: "mcp_b_y" } },
    ];
    let listed = entries;
    const decide = createServerDecision(view, () => listed);
    expect([decide("a"), decide("b"), decide("none")]).toEqual(["deny", "allow", "ask"]);
    view.planMode = true;
    expect([decide("a"), decide("b")]).toEqual(["deny", "allow"]);
    listed = [...entries, { serverId: "c", definition: { name: "mcp_c_new" } }];
    expect(decide("c")).toBe("deny");
  });
});
