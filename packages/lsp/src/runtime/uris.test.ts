import { describe, expect, it } from "vitest";
import { extensionOf, normalizeFileUri, pathOfFileUri, uriOfFilePath } from "./uris.js";

describe("file URIs", () => {
  it("round-trips paths with spaces, unicode and reserved characters", () => {
    for (const path of ["/w/a b/c.ts", "/w/é/ü.py", "/w/x(1)/y#z?.ts", "/w/%41.ts", "/"]) expect(pathOfFileUri(uriOfFilePath(path))).toBe(path);
  });

  it("one key for the spellings servers use (encoded or not, localhost)", () => {
    const ours = uriOfFilePath("/w/b(c)@d.py");
    expect(normalizeFileUri("file:///w/b%28c%29%40d.py")).toBe(ours);
    expect(normalizeFileUri("file:///w/b(c)@d.py")).toBe(ours);
    expect(normalizeFileUri("file://localhost/w/b(c)@d.py")).toBe(ours);
  });

  it("refuses other schemes, hosts, malformed escapes and NUL", () => {
    expect(pathOfFileUri("https://x/y")).toBeUndefined();
    expect(pathOfFileUri("file://server/share/a.ts")).toBeUndefined();
    expect(pathOfFileUri("file:///a/%E0%A4%A.ts")).toBeUndefined();
    expect(pathOfFileUri("file:///a/%00.ts")).toBeUndefined();
    expect(extensionOf("/a/B.TS")).toBe(".ts");
    expect(extensionOf("/a/.bashrc")).toBeUndefined();
  });
});
