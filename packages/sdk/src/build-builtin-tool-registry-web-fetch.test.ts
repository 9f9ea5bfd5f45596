import fs from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { SdkError, toolResultText } from "@agent-tools/core";
import { afterAll, describe, expect, it } from "vitest";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-web-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

function directories() {
  const base = fs.mkdtempSync(path.join(temporary, "case-"));
  fs.mkdirSync(path.join(base, "project"));
  return { workdir: path.join(base, "project"), dataDir: path.join(base, "data"), memory: false as const };
}

/** A minimal valid PDF with one line of text per page (the shape tools-fs's Read tests use). */
function makePdf(pages: string[]): Buffer {
  const objects: string[] = [];
  const kids = pages.map((_, index) => `${4 + index * 2} 0 R`).join(" ");
  objects.push("<< /Type /Catalog /Pages 2 0 R >>");
  objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`);
  objects.push("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  pages.forEach((text, index) => {
    const stream = `BT /F1 12 Tf 72 720 Td (${text}) Tj ET`;
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + index * 2} 0 R >>`);
    objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  });
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(out.length);
    out += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

describe("buildBuiltinToolRegistry: webFetch", () => {
  it("is off by default", async () => {
    const registry = await buildBuiltinToolRegistry(directories());
    expect(registry.hasTool("WebFetch")).toBe(false);
    await registry.close();
  });

  it("webFetch: true lists WebFetch, which refuses loopback", async () => {
    const registry = await buildBuiltinToolRegistry({ ...directories(), webFetch: true });
    expect(registry.metadataByName.WebFetch).toMatchObject({ groupId: "web", kind: "http_get", isReadOnly: true });
    const result = await registry.executeToolCall({ id: "1", name: "WebFetch", arguments: { url: "http://127.0.0.1:9/" } });
    expect(result.isError).toBe(true);
    expect(toolResultText(result, "")).toContain("loopback");
    await registry.close();
  });

  it("reads a fetched PDF with tools-fs's PDF reader", async () => {
    const pdf = makePdf(["First page text", "Second page text"]);
    const server = createServer((_request, response) => response.writeHead(200, { "content-type": "application/pdf" }).end(pdf));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const registry = await buildBuiltinToolRegistry({ ...directories(), webFetch: { allowHosts: [`127.0.0.1:${port}`] } });
      const result = await registry.executeToolCall({ id: "1", name: "WebFetch", arguments: { url: `http://127.0.0.1:${port}/doc.pdf` } });
      const text = toolResultText(result, "");
      expect(result.isError).toBe(false);
      expect(text).toContain("--- Page 1 ---\nFirst page text");
      expect(text).toContain("Second page text");
      await registry.close();
    } finally {
      server.close();
    }
  });

  it("fails closed on unknown keys, wrong types and malformed allow-list entries", async () => {
    await expect(buildBuiltinToolRegistry({ ...directories(), webFetch: { allowHost: ["x"] } as never })).rejects.toThrow(/webFetch\.allowHost.*allowHosts/);
    await expect(buildBuiltinToolRegistry({ ...directories(), webFetch: "on" as never })).rejects.toThrow(/webFetch must be true or an object/);
    const error = await buildBuiltinToolRegistry({ ...directories(), webFetch: { allowHosts: ["http://intranet"] } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SdkError);
    expect((error as SdkError).message).toContain("webFetch.allowHosts[0]");
  });
});
