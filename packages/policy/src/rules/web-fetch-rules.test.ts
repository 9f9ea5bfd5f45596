import { SdkError } from "@agent-tools/core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type ShellParser, loadShellParser } from "../shell/shell-parser.js";
import { type TestWorkspace, compileTest, createTestWorkspace, decideCall } from "./__fixtures__/rule-fixtures.js";
import type { PermissionSettings } from "./permission-settings.js";

let shell: ShellParser;
let workspace: TestWorkspace;
beforeAll(async () => {
  shell = await loadShellParser();
  workspace = createTestWorkspace();
});
afterAll(() => {
  shell.close();
  workspace.remove();
});

const fetchUrl = (settings: PermissionSettings, url: string) =>
  decideCall(compileTest(settings, shell), workspace.environment(), { tool: "WebFetch", input: { url } });

const RULES: PermissionSettings = {
  allow: ["WebFetch(domain:docs.example.com)", "WebFetch(domain:*.nodejs.org)"],
  deny: ["WebFetch(domain:evil.example)", "WebFetch(domain:*.internal.example)"],
  ask: ["WebFetch(domain:pastebin.com)"],
};

describe("WebFetch(domain:...) rules", () => {
  test.each([
    ["https://docs.example.com/guide", "allow", "WebFetch(domain:docs.example.com)"],
    ["https://DOCS.Example.COM./guide", "allow", "WebFetch(domain:docs.example.com)"],
    ["https://api.nodejs.org/dist", "allow", "WebFetch(domain:*.nodejs.org)"],
    ["https://a.b.nodejs.org/", "allow", "WebFetch(domain:*.nodejs.org)"],
    ["https://evil.example/x", "deny", "WebFetch(domain:evil.example)"],
    ["http://evil.example:8443/x", "deny", "WebFetch(domain:evil.example)"],
    ["https://wiki.internal.example/", "deny", "WebFetch(domain:*.internal.example)"],
    ["https://pastebin.com/raw/1", "ask", "WebFetch(domain:pastebin.com)"],
  ])("%s is %s by %s", (url, decision, rule) => {
    const verdict = fetchUrl(RULES, url);
    expect(verdict.decision).toBe(decision);
    expect(verdict.rule).toBe(rule);
  });

  test.each([
    ["https://example.com/", "a sibling of the allowed host"],
    ["https://docs.example.com.evil.example/", "a longer name ending elsewhere"],
    ["https://nodejs.org/", "the apex of a *. rule"],
    ["https://xnodejs.org/", "a name that only ends with the text"],
    ["not a url", "no host at all"],
  ])("%s is decided by no rule (%s)", (url) => {
    expect(fetchUrl(RULES, url).rule).toBeUndefined();
  });

  test("a deny names the host it matched", () => {
    expect(fetchUrl(RULES, "https://evil.example/").reason).toContain('for the host "evil.example"');
  });

  test.each([
    ["WebFetch(example.com)", "WebFetch(domain:example.com)"],
    ["WebFetch(https://example.com/docs)", "WebFetch(domain:example.com)"],
    ["WebFetch(domain:https://example.com)", "WebFetch(domain:example.com)"],
    ["WebFetch(domain:example.com:443)", "WebFetch(domain:example.com)"],
    ["WebFetch(domain:example.com/docs)", "WebFetch(domain:example.com)"],
    ["WebFetch(domain:ex*.com)", undefined],
    ["WebFetch(domain:*.com)", undefined],
    ["WebFetch(domain:)", undefined],
    ["WebFetch(domain:exa mple.com)", undefined],
  ])("%s fails closed with an SdkError", (rule, suggestion) => {
    let error: unknown;
    try {
      compileTest({ deny: [rule] }, shell);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SdkError);
    expect((error as SdkError).message).toContain("WebFetch(domain:example.com)");
    if (suggestion !== undefined) expect((error as SdkError).details.suggestion).toBe(suggestion);
  });

  test("WebFetch is read-only: no rule allows it; approval policies WebFetch: ask makes unlisted hosts ask while allow rules still allow theirs", () => {
    expect(fetchUrl(RULES, "https://example.com/").decision).toBe("allow");
    const compiled = compileTest(RULES, shell);
    const environment = workspace.environment({ approval: { policies: { WebFetch: "ask" } } });
    const decide = (url: string) => decideCall(compiled, environment, { tool: "WebFetch", input: { url } });
    expect(decide("https://example.com/").decision).toBe("ask");
    expect(decide("https://docs.example.com/").decision).toBe("allow");
    expect(decide("https://evil.example/").decision).toBe("deny");
  });

  test("a bare WebFetch rule still covers every call", () => {
    expect(fetchUrl({ deny: ["WebFetch"] }, "https://docs.example.com/").decision).toBe("deny");
  });
});
