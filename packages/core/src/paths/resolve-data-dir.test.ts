import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveDataDir } from "./resolve-data-dir.js";

describe("resolveDataDir", () => {
  it("defaults to ~/.agent-tools", () => {
    expect(resolveDataDir()).toBe(path.join(os.homedir(), ".agent-tools"));
  });

  it("expands ~ and ~/", () => {
    expect(resolveDataDir("~")).toBe(os.homedir());
    expect(resolveDataDir("~/x/y")).toBe(path.join(os.homedir(), "x", "y"));
  });

  it("makes relative paths absolute and leaves ~user and ~x alone as names", () => {
    expect(resolveDataDir("data")).toBe(path.resolve("data"));
    expect(resolveDataDir("~other")).toBe(path.resolve("~other"));
    expect(resolveDataDir("/srv/agent/")).toBe("/srv/agent");
  });
});
