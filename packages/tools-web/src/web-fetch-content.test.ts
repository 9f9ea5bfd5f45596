import { gzipSync } from "node:zlib";
import { ScriptedModelClient } from "@agent-tools/core/testing";
import { describe, expect, it } from "vitest";
import { setup, startServer } from "./__fixtures__/web-fixture.js";
import { webFetchUserAgent } from "./web-tools-plugin.js";

const PAGE = `<!doctype html><html><head><title>Release notes</title><style>body{color:red}</style>
<script>window.secret = "SCRIPT_TEXT"</script></head><body>
<noscript>NOSCRIPT_TEXT</noscript><iframe src="/frame">IFRAME_TEXT</iframe>
<h1>Version 2</h1><p>See the <a href="../guide/start.html">guide</a> and <a href="javascript:alert(1)">this</a>.</p>
<img src="/img/logo.png" alt="Logo"><ul><li>one</li><li>two</li></ul></body></html>`;

describe("WebFetch content", () => {
  it("turns HTML into Markdown: scripts, styles, noscript and iframes gone, the title kept, links absolute", async () => {
    const server = await startServer((_request, response) => response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE));
    const { call } = setup({ allowHosts: [server.host] });
    const result = await call({ url: `${server.origin}/docs/notes/index.html` });
    expect(result.isError).toBe(false);
    expect(result.text).toContain("Title: Release notes");
    expect(result.text).toContain("# Version 2");
    expect(result.text).toContain(`[guide](${server.origin}/docs/guide/start.html)`);
    expect(result.text).toContain(`![Logo](${server.origin}/img/logo.png)`);
    expect(result.text).toMatch(/^-\s+one$/m);
    expect(result.text).not.toMatch(/SCRIPT_TEXT|NOSCRIPT_TEXT|IFRAME_TEXT|color:red|javascript:/);
    expect(result.details).toMatchObject({ kind: "web_fetch", status: 200, format: "markdown", title: "Release notes", fromCache: false, truncated: false });
  });

  it("pretty-prints JSON and shows text as it is", async () => {
    const server = await startServer((request, response) => {
      if (request.url === "/data") response.writeHead(200, { "content-type": "application/json" }).end('{"a":1,"b":[true,null]}');
      else response.writeHead(200, { "content-type": "text/plain" }).end("  plain <b>text</b>\n");
    });
    const { call } = setup({ allowHosts: [server.host] });
    const json = await call({ url: `${server.origin}/data` });
    expect(json.text).toContain('{\n  "a": 1,\n  "b": [\n    true,\n    null\n  ]\n}');
    expect(json.details.format).toBe("json");
    const text = await call({ url: `${server.origin}/text` });
    expect(text.text.endsWith("  plain <b>text</b>\n")).toBe(true);
    expect(text.details.format).toBe("text");
  });

  it("reads a PDF through pdfText, and refuses one without it", async () => {
    const pdf = Buffer.from("%PDF-1.4\n% a tiny pdf\n%%EOF\n", "latin1");
    const server = await startServer((_request, response) => response.writeHead(200, { "content-type": "application/pdf" }).end(pdf));
    const seen: Buffer[] = [];
    const withReader = setup({
      allowHosts: [server.host],
      pdfText: async (bytes) => {
        seen.push(Buffer.from(bytes));
        return "--- Page 1 ---\nHello PDF";
      },
    });
    const result = await withReader.call({ url: `${server.origin}/doc.pdf` });
    expect(result.text).toContain("Hello PDF");
    expect(result.details.format).toBe("pdf");
    expect(seen[0]?.equals(pdf)).toBe(true);
    const without = await setup({ allowHosts: [server.host] }).call({ url: `${server.origin}/doc.pdf` });
    expect(without.isError).toBe(true);
    expect(without.error?.code).toBe("unsupported_target");
    expect(without.text).toContain("is a PDF");
  });

  it("refuses other binary types, naming the content type", async () => {
    const server = await startServer((_request, response) =>
      response.writeHead(200, { "content-type": "image/png" }).end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0])),
    );
    const result = await setup({ allowHosts: [server.host] }).call({ url: `${server.origin}/logo.png` });
    expect(result.error?.code).toBe("unsupported_target");
    expect(result.text).toContain("image/png");
  });

  it("sends the SDK's User-Agent and asks for compressed bodies", async () => {
    const server = await startServer((_request, response) => response.writeHead(200, { "content-type": "text/plain" }).end("ok"));
    await setup({ allowHosts: [server.host] }).call({ url: `${server.origin}/` });
    expect(server.requests[0]?.headers["user-agent"]).toBe(webFetchUserAgent());
    expect(webFetchUserAgent()).toMatch(/^agent-tools\/\d+\.\d+\.\d+ \(\+https:\/\/github\.com\/agent-tools\)$/);
    expect(server.requests[0]?.headers.host).toBe(server.host);
  });

  it("pages long text: the first page, then offset to read on", async () => {
    const body = `${"a".repeat(50_000)}${"b".repeat(10)}`;
    const server = await startServer((_request, response) => response.writeHead(200, { "content-type": "text/plain" }).end(body));
    const { call } = setup({ allowHosts: [server.host] });
    const first = await call({ url: `${server.origin}/long` });
    expect(first.text).toContain("continue with offset=50000");
    expect(first.text).not.toContain("ab");
    const second = await call({ url: `${server.origin}/long`, offset: 50_000 });
    expect(second.text.endsWith("bbbbbbbbbb")).toBe(true);
    expect(second.details).toMatchObject({ offset: 50_000, shownChars: 10, totalChars: 50_010, fromCache: true });
  });

  it("answers a prompt through the model client, and says when there is none", async () => {
    const server = await startServer((_request, response) => response.writeHead(200, { "content-type": "text/html" }).end(PAGE));
    const model = new ScriptedModelClient({ responses: ["The latest version is 2."] });
    const withModel = await setup({ allowHosts: [server.host] }, model).call({ url: `${server.origin}/`, prompt: "Which version?" });
    expect(withModel.text).toContain("The latest version is 2.");
    expect(withModel.details.prompt).toBe("applied");
    const sent = model.requests[0]?.messages.at(-1)?.content ?? "";
    expect(sent).toContain("# Version 2");
    expect(sent).toContain("Request: Which version?");
    const without = await setup({ allowHosts: [server.host] }).call({ url: `${server.origin}/`, prompt: "Which version?" });
    expect(without.text).toContain("The prompt was not applied");
    expect(without.text).toContain("# Version 2");
    expect(without.details.prompt).toBe("not_applied");
  });

  it("decompresses gzip and caps the decompressed bytes (a gzip bomb stops at max_bytes)", async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, "a"));
    expect(bomb.length).toBeLessThan(200 * 1024);
    const server = await startServer((_request, response) => response.writeHead(200, { "content-type": "text/plain", "content-encoding": "gzip" }).end(bomb));
    const result = await setup({ allowHosts: [server.host] }).call({ url: `${server.origin}/bomb`, max_bytes: 1024 * 1024 });
    expect(result.isError).toBe(false);
    expect(result.details).toMatchObject({ bytes: 1024 * 1024, truncated: true, totalChars: 1024 * 1024 });
    expect(result.text).toContain("cut at max_bytes");
  });

  it("stops an oversized body at max_bytes without reading the rest", async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/plain" });
      response.end(Buffer.alloc(3 * 1024 * 1024, "x"));
    });
    const result = await setup({ allowHosts: [server.host] }).call({ url: `${server.origin}/big`, max_bytes: 1000 });
    expect(result.details).toMatchObject({ bytes: 1000, truncated: true });
  });
});

describe("WebFetch schema", () => {
  it("is read-only, open-world, in plan mode, with a stable JSON Schema", () => {
    const { registry } = setup();
    expect(registry.tools.map((tool) => [tool.name, tool.description, tool.inputSchema])).toMatchSnapshot();
    expect(registry.metadataByName.WebFetch).toMatchObject({
      groupId: "web",
      kind: "http_get",
      isReadOnly: true,
      annotations: { readOnly: true, listedInPlanMode: true, openWorld: true },
    });
  });
});

describe("WebFetch on a very large page", () => {
  it("cuts the HTML before converting it and says so, inline scripts not counted", async () => {
    const script = `<script>${"x".repeat(2 * 1024 * 1024)}</script>`;
    const small = `<html><head><title>Small</title>${script}</head><body><p>short page</p></body></html>`;
    const big = `<html><head><title>Big</title></head><body>${`<p>${"word ".repeat(200)}</p>`.repeat(1100)}<p>THE END</p></body></html>`;
    const server = await startServer((request, response) =>
      response.writeHead(200, { "content-type": "text/html" }).end(request.url === "/small" ? small : big),
    );
    const { call } = setup({ allowHosts: [server.host] });
    const smallResult = await call({ url: `${server.origin}/small` });
    expect(smallResult.text).toContain("short page");
    expect(smallResult.text).not.toContain("cut at 1 Mi characters");
    const bigResult = await call({ url: `${server.origin}/big` });
    expect(bigResult.text).toContain("The HTML was cut at 1 Mi characters");
    expect(bigResult.details.title).toBe("Big");
    const last = await call({ url: `${server.origin}/big`, offset: bigResult.details.totalChars - 100 });
    expect(last.text).not.toContain("THE END");
  });
});

describe("WebFetch on markup that makes the parser slow", () => {
  it("ends at the time cap and leaves the host's event loop free meanwhile", async () => {
    // 200 open formatting elements, then paragraphs: the parser rebuilds all 200 for each paragraph (seconds for 80 KB).
    const formatting = Array.from({ length: 200 }, (_, index) => `<b id=${index}>`).join("");
    const html = `<html><body>${formatting}${"<p>x".repeat(100_000)}</body></html>`;
    const server = await startServer((_request, response) => response.writeHead(200, { "content-type": "text/html" }).end(html));
    let ticks = 0;
    const timer = setInterval(() => {
      ticks += 1;
    }, 20);
    try {
      const result = await setup({ allowHosts: [server.host], timeoutMs: 1000 }).call({ url: `${server.origin}/` });
      expect(result.error?.code).toBe("timeout");
      expect(result.text).toContain("did not finish within 1000 ms");
    } finally {
      clearInterval(timer);
    }
    // The loop ran while the page was being converted (a synchronous conversion would have held it the whole time).
    expect(ticks).toBeGreaterThan(5);
  });
});
