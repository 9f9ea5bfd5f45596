import { describe, expect, it } from "vitest";
import type { CheckpointEntry } from "./checkpoint-types.js";
import type { FileImageSummary } from "./file-image.js";
import { planRewind } from "./rewind-plan.js";

const EMPTY = new Uint8Array(0);
const file = (sha256: string, mode = 0o644): FileImageSummary => ({ kind: "file", mode, sha256, linkTarget: "" });
const absent: FileImageSummary = { kind: "absent", mode: 0, sha256: "", linkTarget: "" };
const directory: FileImageSummary = { kind: "directory", mode: 0o755, sha256: "", linkTarget: "" };

function entry(path: string, pre: FileImageSummary, post?: FileImageSummary, rewoundAt?: number): CheckpointEntry {
  return {
    checkpointId: "cp",
    path,
    toolName: "Write",
    callId: "c",
    pre: { ...pre, content: EMPTY },
    ...(post ? { post } : {}),
    recordedAt: 1,
    ...(rewoundAt === undefined ? {} : { rewoundAt }),
  };
}

const summary = (actions: ReturnType<typeof planRewind>) =>
  actions.map((action) => [action.type, action.entry.path, ...("forced" in action ? [action.forced] : []), ...("reason" in action ? [action.reason] : [])]);

describe("planRewind", () => {
  it("restores paths still holding the post-image, removes created ones, skips those already back", () => {
    const entries = [
      entry("/w/modified", file("old"), file("new")),
      entry("/w/created", absent, file("new")),
      entry("/w/deleted", file("old", 0o755), absent),
      entry("/w/back", file("old"), file("new")),
      entry("/w/done", file("old"), file("new"), 5),
    ];
    const now: Record<string, FileImageSummary> = {
      "/w/modified": file("new"),
      "/w/created": file("new"),
      "/w/deleted": absent,
      "/w/back": file("old"),
      "/w/done": file("whatever"),
    };
    expect(summary(planRewind(entries, (path) => now[path]!))).toEqual([
      ["remove", "/w/created", false],
      ["restore", "/w/deleted", false],
      ["restore", "/w/modified", false],
      ["unchanged", "/w/back"],
      ["unchanged", "/w/done"],
    ]);
  });

  it("reports an outside change of content, mode or kind as a conflict, and force restores it anyway", () => {
    const entries = [
      entry("/w/content", file("old"), file("new")),
      entry("/w/mode", file("old"), file("new", 0o644)),
      entry("/w/kind", absent, file("new")),
      entry("/w/unfinished", file("old")),
    ];
    const now: Record<string, FileImageSummary> = {
      "/w/content": file("other"),
      "/w/mode": file("new", 0o600),
      "/w/kind": directory,
      "/w/unfinished": file("half"),
    };
    const plain = planRewind(entries, (path) => now[path]!);
    expect(plain.every((action) => action.type === "conflict")).toBe(true);
    const reasons = Object.fromEntries(plain.map((action) => [action.entry.path, action.type === "conflict" ? action.reason : ""]));
    expect(reasons["/w/content"]).toMatch(
      /^changed after the checkpoint's last change: found a file \(mode 0644, sha256 other\), expected a file \(mode 0644, sha256 new\)$/,
    );
    expect(reasons["/w/mode"]).toContain("mode 0600");
    expect(reasons["/w/kind"]).toContain("found a directory");
    expect(reasons["/w/unfinished"]).toMatch(/never finished/);
    expect(summary(planRewind(entries, (path) => now[path]!, { force: true }))).toEqual([
      ["remove", "/w/kind", true],
      ["restore", "/w/content", true],
      ["restore", "/w/mode", true],
      ["restore", "/w/unfinished", true],
    ]);
  });

  it("treats a change that never finished but left the pre-image as unchanged", () => {
    expect(summary(planRewind([entry("/w/a", file("old"))], () => file("old")))).toEqual([["unchanged", "/w/a"]]);
  });

  it("removes deepest first and restores shallowest first (a deleted folder before its files)", () => {
    const entries = [
      entry("/w/tree/sub/b", file("b"), absent),
      entry("/w/tree", directory, absent),
      entry("/w/tree/sub", directory, absent),
      entry("/w/new/x", absent, file("x")),
      entry("/w/new/x/y", absent, file("y")),
    ];
    const now = (path: string) => (path.startsWith("/w/new") ? file(path.endsWith("y") ? "y" : "x") : absent);
    expect(summary(planRewind(entries, now)).map((row) => `${row[0]} ${row[1]}`)).toEqual([
      "remove /w/new/x/y",
      "remove /w/new/x",
      "restore /w/tree",
      "restore /w/tree/sub",
      "restore /w/tree/sub/b",
    ]);
  });
});
