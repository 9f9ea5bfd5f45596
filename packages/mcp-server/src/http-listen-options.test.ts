import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_HTTP_SESSIONS, DEFAULT_SESSION_IDLE_MS, checkListenOptions } from "./http-listen-options.js";

describe("checkListenOptions", () => {
  it("fills in the defaults", () => {
    expect(checkListenOptions({ port: 0 })).toEqual({
      port: 0,
      host: "127.0.0.1",
      path: "/mcp",
      allowedHosts: [],
      allowedOrigins: [],
      maxSessions: DEFAULT_MAX_HTTP_SESSIONS,
      sessionIdleMs: DEFAULT_SESSION_IDLE_MS,
    });
    expect(DEFAULT_MAX_HTTP_SESSIONS).toBe(32);
  });

  it("keeps valid values, lower-casing hosts and origins", () => {
    const checked = checkListenOptions({
      port: 8123,
      host: "::1",
      path: "/tools",
      bearerToken: "t",
      allowedHosts: ["MyBox.lan", "[::1]:8123", "10.0.0.2"],
      allowedOrigins: ["http://LocalHost:5173"],
      maxSessions: 4,
      sessionIdleMs: 1000,
    });
    expect(checked).toMatchObject({
      allowedHosts: ["mybox.lan", "[::1]:8123", "10.0.0.2"],
      allowedOrigins: ["http://localhost:5173"],
      maxSessions: 4,
      bearerToken: "t",
    });
  });

  it("refuses an unknown key with the nearest known one, and invalid values naming the option", () => {
    const refuses = (options: unknown, message: RegExp) =>
      expect(() => checkListenOptions(options as never)).toThrow(
        expect.objectContaining({ name: "SdkError", code: "invalid_options", message: expect.stringMatching(message) }),
      );
    refuses({ port: 0, allowedHost: ["a"] }, /no option "allowedHost"; did you mean "allowedHosts"\?/);
    refuses({ port: 0, token: "t" }, /no option "token"; did you mean "bearerToken"\?/);
    refuses({ port: 0, max_sessions: 3 }, /did you mean "maxSessions"/);
    refuses({ port: 0, zzz: 1 }, /no option "zzz"\. Options: port, host/);
    refuses(null, /options object/);
    refuses({ port: -1 }, /integer port/);
    refuses({ port: 0, host: "" }, /host must be/);
    refuses({ port: 0, path: "mcp" }, /path must start with/);
    refuses({ port: 0, bearerToken: "" }, /bearerToken must be a non-empty string/);
    refuses({ port: 0, allowedHosts: "mybox" }, /allowedHosts must be an array/);
    refuses({ port: 0, allowedHosts: ["http://mybox"] }, /allowedHosts entry "http:\/\/mybox" is not valid/);
    refuses({ port: 0, allowedHosts: ["mybox/mcp"] }, /allowedHosts entry/);
    refuses({ port: 0, allowedOrigins: ["localhost:5173"] }, /allowedOrigins entry/);
    refuses({ port: 0, maxSessions: 0 }, /maxSessions must be a positive integer \(default 32\), not 0/);
    refuses({ port: 0, maxSessions: 1.5 }, /maxSessions/);
    refuses({ port: 0, sessionIdleMs: -5 }, /sessionIdleMs must be a positive integer/);
  });
});
