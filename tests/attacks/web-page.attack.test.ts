/**
 * Attacks on the web example's chat page through the real page in Debian's
 * Chromium: the model (a scripted one) writes hostile Markdown, calls a tool
 * whose name is HTML, runs Bash printing HTML and ANSI, writes a file whose
 * name is HTML, and a host tool reports hostile progress data (HTML, a string
 * of 8 MB, a `__proto__` key, a `message` that is not a string, deep nesting).
 * What must hold: nothing runs script in the page, navigates it, opens another
 * page or makes the browser fetch anything outside the gateway (an image or
 * CSS URL naming a listener of ours would carry the page token out), every
 * link opens with noopener/noreferrer, and the page is served with a
 * Content-Security-Policy and no referrer (its URL carries the page token).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { defineTool } from "@agent-tools/core";
import { ScriptedModelClient } from "@agent-tools/core/testing";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createGatewayToken } from "../../examples/web/src/gateway/gateway-token.js";
import { startGateway } from "../../examples/web/src/gateway/start-gateway.js";
import { connectExecutingHost } from "../../examples/web/src/host/connect-executing-host.js";
import { PAGE_TEST_IDS } from "../../examples/web/src/protocol/page-test-ids.js";
import { BROWSER_TEST_TIMEOUT_MS, useChromium } from "../../examples/web/test/browser/harness/browser-suite.js";
import { PAGE_TIMEOUT_MS, byTestId, sendMessage, shownText, toolCardOf, waitForTurnStatus } from "../../examples/web/test/browser/harness/chat-page.js";
import { chromiumAvailability } from "../../examples/web/test/browser/harness/chromium.js";
import { waitForConnectedHost } from "../../examples/web/test/browser/harness/example-session.js";
import { PAGE_DIST_DIR } from "../../examples/web/test/browser/harness/paths.js";
import { waitUntil } from "../../examples/web/test/browser/harness/wait-until.js";

const availability = chromiumAvailability();

/** A listener standing for the attacker's server: every request it gets is a leak. */
let attacker: http.Server;
let attackerUrl = "";
const attackerHits: string[] = [];

beforeAll(async () => {
  attacker = http.createServer((request, response) => {
    attackerHits.push(request.url ?? "");
    response.writeHead(200, { "content-type": "image/svg+xml" });
    response.end('<svg xmlns="http://www.w3.org/2000/svg"/>');
  });
  await new Promise<void>((resolve) => attacker.listen(0, "127.0.0.1", resolve));
  attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => attacker.close(() => resolve()));
});

/** The model's answer: every way known to get a script, a fetch or a navigation out of Markdown. */
function hostileMarkdown(leak: string): string {
  return [
    "# Report",
    "[plain](javascript:window.__pwned='plain')",
    "[cased](JaVaScRiPt:window.__pwned='cased')",
    "[entity](&#106;avascript:window.__pwned='entity')",
    "[hex entity](&#x6A;&#x61;vascript:window.__pwned='hex')",
    "[tab entity](java&#x09;script:window.__pwned='tab')",
    "[newline entity](java&#10;script:window.__pwned='newline')",
    "[nul](java\u0000script:window.__pwned='nul')",
    "[spaced]( javascript:window.__pwned='spaced')",
    "[angle](<javascript:window.__pwned='angle'>)",
    "<javascript:window.__pwned='autolink'>",
    "[vb](vbscript:msgbox(1))",
    "[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "[data image](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)",
    "[reference][evil]",
    "",
    "[evil]: javascript:window.__pwned='reference'",
    "",
    `![image](${leak}/markdown-image?t=1)`,
    `![reference image][pic]`,
    "",
    `[pic]: ${leak}/reference-image`,
    "",
    `[![linked image](${leak}/linked-image)](https://example.org/)`,
    `<img src="${leak}/raw-img" onerror="window.__pwned='raw-img'">`,
    `<svg onload="window.__pwned='svg'"><image href="${leak}/svg-image"/></svg>`,
    `<style>body { background: url(${leak}/style) }</style>`,
    `<a href="javascript:window.__pwned='raw-a'" target="_self">raw a</a>`,
    `<iframe src="${leak}/iframe"></iframe>`,
    `<meta http-equiv="refresh" content="0;url=${leak}/meta">`,
    `<base href="${leak}/">`,
    `[protocol relative](//${leak.replace("http://", "")}/protocol-relative)`,
    `[backslash](/\\${leak.replace("http://", "")}/backslash)`,
    `[slash backslash](/&#92;${leak.replace("http://", "")}/backslash-entity)`,
    `[title](https://example.org/titled "x\\" onmouseover=\\"window.__pwned='title'")`,
    "[fragment](#\" onclick=\"window.__pwned='fragment')",
    "```html",
    `<img src="${leak}/fenced" onerror="window.__pwned='fenced'">`,
    "```",
    "```\" onmouseover=\"window.__pwned='info'",
    "fenced with a hostile info string",
    "```",
    `\`<img src=${leak}/inline-code>\``,
    "www.example.org and https://example.org/ok and mailto:someone@example.org",
  ].join("\n");
}

interface ProgressStep {
  label: string;
  data: unknown;
  /** What the progress line must show (checked with toContain), or undefined for nothing. */
  shows: string | undefined;
}

function progressSteps(leak: string): ProgressStep[] {
  const withProto = JSON.parse(`{"__proto__": {"message": "from the prototype"}, "toString": "x", "files": 3}`) as unknown;
  let deep: unknown = "bottom";
  for (let level = 0; level < 3000; level++) deep = [deep];
  return [
    { label: "html", data: { message: `<img src="${leak}/progress" onerror="window.__pwned='progress'">` }, shows: "<img src=" },
    { label: "huge", data: { message: `${"A".repeat(8 * 1024 * 1024)}<b>tail</b>` }, shows: "AAAA" },
    { label: "proto", data: withProto, shows: "files: 3" },
    { label: "message object", data: { message: { toString: "x", valueOf: 1 }, scanned: 7 }, shows: "scanned: 7" },
    { label: "deep", data: { nested: deep }, shows: '{"nested":[[[' },
    { label: "string", data: `<script>window.__pwned='string'</script>`, shows: "<script>" },
  ];
}

describe.skipIf(availability.skip)(
  "web example page: what the model and tools control cannot script, navigate or leak",
  { timeout: BROWSER_TEST_TIMEOUT_MS },
  () => {
    const browser = useChromium();

    it("the gateway serves the page with a Content-Security-Policy and no referrer", async () => {
      const gateway = await startGateway({ pageToken: createGatewayToken(), hostToken: createGatewayToken(), port: 0, pageDir: PAGE_DIST_DIR });
      try {
        const response = await fetch(`${gateway.url}/`);
        await response.text();
        expect(response.status).toBe(200);
        const policy = response.headers.get("content-security-policy") ?? "";
        const directives = new Map(
          policy
            .split(";")
            .map((part) => part.trim().split(/\s+/))
            .filter((words) => words[0])
            .map(([name, ...values]) => [name, values]),
        );
        expect(directives.get("default-src")).toEqual(["'none'"]);
        expect(directives.get("script-src")).toEqual(["'self'"]);
        expect(directives.get("img-src")?.every((source) => source === "'self'" || source === "data:")).toBe(true);
        expect(directives.get("connect-src")).toEqual(["'self'"]);
        expect(directives.get("base-uri")).toEqual(["'none'"]);
        expect(directives.get("form-action")).toEqual(["'none'"]);
        expect(directives.get("frame-ancestors")).toEqual(["'none'"]);
        expect(response.headers.get("referrer-policy")).toBe("no-referrer");
      } finally {
        await gateway.close();
      }
    });

    it("hostile Markdown, tool names, Bash output, file names and progress data run nothing, fetch nothing outside, open nothing", async () => {
      const root = mkdtempSync(path.join(os.tmpdir(), "agent-tools-web-attack-"));
      const stepFile = (index: number) => path.join(root, `step-${index}`);
      const steps = progressSteps(attackerUrl);
      const Probe = defineTool({
        name: "Probe",
        description: "Reports hostile progress, one step at a time.",
        inputSchema: z.object({}),
        execute: async (_input, context) => {
          for (const [index, step] of steps.entries()) {
            context.onUpdate({ data: step.data });
            await waitUntil(`step ${index} to be checked`, () => existsSync(stepFile(index)) || context.signal.aborted, { timeoutMs: PAGE_TIMEOUT_MS });
          }
          return { content: `<img src="${attackerUrl}/result" onerror="window.__pwned='result'">` };
        },
      });
      const markdown = hostileMarkdown(attackerUrl);
      const htmlFile = `<img src=x onerror="window.__pwned='file'">.txt`;
      let calls = 0;
      const model = new ScriptedModelClient({
        id: "web-attack",
        respond: () => {
          calls += 1;
          if (calls === 1) {
            return {
              text: markdown,
              toolCalls: [
                { id: "ghost_1", name: `<img src="${attackerUrl}/tool-name" onerror="window.__pwned='tool-name'">`, arguments: "{}" },
                {
                  id: "bash_1",
                  name: "Bash",
                  arguments: JSON.stringify({
                    command: `printf '<img src="${attackerUrl}/bash" onerror="window.__pwned=1">\\033[31mred\\033[0m\\033]8;;${attackerUrl}/osc\\033\\\\link\\033]8;;\\033\\\\\\n'`,
                  }),
                },
                { id: "write_1", name: "Write", arguments: JSON.stringify({ path: htmlFile, content: `<script>window.__pwned='content'</script>` }) },
                { id: "probe_1", name: "Probe", arguments: "{}" },
              ],
              finishReason: "tool-calls",
            };
          }
          return { text: markdown, toolCalls: [], finishReason: "stop" };
        },
      });
      const pageToken = createGatewayToken();
      const hostToken = createGatewayToken();
      const gateway = await startGateway({ pageToken, hostToken, port: 0, pageDir: PAGE_DIST_DIR });
      const workdir = path.join(root, "work");
      const dataDir = path.join(root, "data");
      mkdirSync(workdir);
      mkdirSync(dataDir);
      const registry = await buildBuiltinToolRegistry({ workdir, dataDir, tools: [Probe] });
      const host = connectExecutingHost({ gatewayUrl: gateway.url, hostToken, registry, model, modelName: "web attack" });
      const context = await browser().newContext({ viewport: { width: 1000, height: 800 } });
      const foreignRequests: string[] = [];
      const dialogs: string[] = [];
      const pageErrors: string[] = [];
      try {
        const page = await context.newPage();
        const origin = new URL(gateway.url).origin;
        page.on("request", (request) => {
          const url = request.url();
          if (!url.startsWith(`${origin}/`) && !url.startsWith("ws://") && !url.startsWith("data:")) foreignRequests.push(url);
        });
        page.on("dialog", (dialog) => {
          dialogs.push(dialog.message());
          void dialog.dismiss();
        });
        page.on("pageerror", (error) => pageErrors.push(String(error)));
        // The page itself needs nothing its policy refuses (a refusal here means the policy broke the page).
        page.on("console", (message) => {
          if (message.text().includes("Content Security Policy")) pageErrors.push(message.text());
        });
        const pageUrl = `${gateway.url}/?token=${encodeURIComponent(pageToken)}`;
        await page.goto(pageUrl);
        await waitForConnectedHost(page);
        const urlBefore = page.url();
        await sendMessage(page, "attack");

        const card = toolCardOf(page, "probe_1");
        const progress = byTestId(card, PAGE_TEST_IDS.toolProgress);
        for (const [index, step] of steps.entries()) {
          if (step.shows === undefined) {
            await expect.poll(() => progress.count(), { timeout: PAGE_TIMEOUT_MS, message: step.label }).toBe(0);
          } else {
            await expect.poll(() => shownText(progress).catch(() => ""), { timeout: PAGE_TIMEOUT_MS, message: step.label }).toContain(step.shows);
            // Never more than one capped line, whatever the tool sent.
            expect((await shownText(progress)).length, step.label).toBeLessThanOrEqual(300);
            expect(await progress.locator("*").count(), step.label).toBe(0);
          }
          // The page still answers (no freeze) after each step.
          expect(await page.evaluate(() => document.readyState)).toBe("complete");
          writeFileSync(stepFile(index), "");
        }
        expect(await waitForTurnStatus(page, "answered", "aborted", "model-error", "max-turns")).toBe("answered");

        const chat = page.locator("#root");
        // Everything hostile arrived and shows as text.
        expect(await shownText(toolCardOf(page, "bash_1"))).toContain(`<img src="${attackerUrl}/bash"`);
        expect(await shownText(toolCardOf(page, "ghost_1"))).toContain("<img src=");
        expect(await shownText(toolCardOf(page, "write_1"))).toContain("<img src=x");
        expect(await shownText(byTestId(page, PAGE_TEST_IDS.assistantMarkdown).first())).toContain(`<img src="${attackerUrl}/raw-img"`);
        expect(await chat.locator("img, svg, image, script, style, iframe, object, embed, meta, base, link, form:not(.composer)").count()).toBe(0);
        expect(await chat.locator("[onerror], [onload], [onclick], [onmouseover], [style*='url']").count()).toBe(0);
        const links = await chat.locator("a").evaluateAll((anchors) =>
          anchors.map((anchor) => ({
            href: (anchor as HTMLAnchorElement).href,
            raw: anchor.getAttribute("href"),
            target: anchor.getAttribute("target"),
            rel: anchor.getAttribute("rel") ?? "",
            text: anchor.textContent,
          })),
        );
        expect(links.length).toBeGreaterThan(0);
        for (const link of links) {
          if (link.raw === null) continue;
          const url = new URL(link.href);
          expect(["http:", "https:", "mailto:"], JSON.stringify(link)).toContain(url.protocol);
          // A relative link may only stay on the page's origin.
          if (!link.raw.startsWith("http") && !link.raw.startsWith("mailto:")) expect(url.origin, JSON.stringify(link)).toBe(origin);
          expect(link.target, JSON.stringify(link)).toBe("_blank");
          expect(link.rel.split(/\s+/), JSON.stringify(link)).toEqual(expect.arrayContaining(["noopener", "noreferrer"]));
        }
        // A disabled image and a linkified URL stay links a person must click (no fetch on their own, no referrer).

        expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
        expect(dialogs).toEqual([]);
        expect(page.url()).toBe(urlBefore);
        expect(context.pages()).toHaveLength(1);
        expect(foreignRequests).toEqual([]);
        expect(attackerHits).toEqual([]);
        expect(pageErrors).toEqual([]);
        // The token never reaches the page's text or attributes (only its URL holds it).
        expect(await chat.evaluate((element) => element.outerHTML)).not.toContain(pageToken);
      } finally {
        for (const index of steps.keys()) writeFileSync(stepFile(index), "");
        await context.close();
        await host.close();
        await registry.close();
        await gateway.close();
        rmSync(root, { recursive: true, force: true });
      }
    });
  },
);
