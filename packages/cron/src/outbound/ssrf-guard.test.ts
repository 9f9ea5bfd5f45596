import { SdkError, ToolError } from "@agent-tools/core";
import { describe, expect, it } from "vitest";
import { type ResolveHost, createSsrfGuard, isSsrfRefusal, parseAllowedPrivateNetworks } from "./ssrf-guard.js";

async function refusalOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(isSsrfRefusal(error), String(error)).toBe(true);
  return (error as ToolError).message;
}

/** Every way of writing a loopback target in a URL. */
const LOOPBACK_FORMS = [
  "http://127.0.0.1/",
  "http://2130706433/",
  "http://0x7f000001/",
  "http://0177.0.0.1/",
  "http://127.1/",
  "http://0x7f.1/",
  "http://[::1]/",
  "http://[::ffff:127.0.0.1]/",
  "http://[::ffff:7f00:1]/",
  "http://[0:0:0:0:0:ffff:127.0.0.1]/",
  "http://[::127.0.0.1]/",
  "http://[64:ff9b::127.0.0.1]/",
  "http://[2002:7f00:1::]/",
];

describe("createSsrfGuard", () => {
  it("refuses every numeric, mapped and embedded form of loopback", async () => {
    const guard = createSsrfGuard();
    for (const url of LOOPBACK_FORMS) expect(await refusalOf(guard.check(url)), url).toMatch(/loopback|IPv4-compatible/);
  });

  it("refuses private, link-local, CGNAT, this-network, multicast and broadcast targets", async () => {
    const guard = createSsrfGuard();
    const cases: Array<[string, RegExp]> = [
      ["http://10.0.0.5/", /10\.0\.0\.5 is a private address/],
      ["http://172.20.1.1/", /private/],
      ["http://192.168.0.10:8080/", /private/],
      ["http://169.254.169.254/latest/meta-data/", /169\.254\.169\.254 is a link-local \(cloud metadata\) address, not a public address/],
      ["http://100.100.100.200/", /carrier-grade NAT/],
      ["http://0.0.0.0/", /"this network"/],
      ["http://0/", /"this network"/],
      ["http://224.0.0.1/", /multicast/],
      ["http://255.255.255.255/", /broadcast/],
      ["http://[fd00::1]/", /unique local/],
      ["http://[fe80::1]/", /link-local/],
      ["http://[::ffff:169.254.169.254]/", /embedding 169\.254\.169\.254 \(link-local/],
    ];
    for (const [url, reason] of cases) expect(await refusalOf(guard.check(url)), url).toMatch(reason);
  });

  it("refuses other schemes and credentials in the URL", async () => {
    const guard = createSsrfGuard();
    for (const url of ["file:///etc/passwd", "ftp://example.com/", "gopher://127.0.0.1/", "data:text/plain,hi", "javascript:alert(1)"]) {
      expect(await refusalOf(guard.check(url)), url).toMatch(/only http: and https: URLs/);
    }
    expect(await refusalOf(guard.check("http://user:secret@93.184.216.34/"))).toMatch(/credentials/);
    expect(await refusalOf(guard.check("not a url"))).toMatch(/not an absolute URL/);
  });

  it("resolves names itself and refuses when any address is not public", async () => {
    const calls: string[] = [];
    const resolveHost: ResolveHost = async (hostname) => {
      calls.push(hostname);
      if (hostname === "mixed.test")
        return [
          { address: "93.184.216.34", family: 4 },
          { address: "10.0.0.1", family: 4 },
        ];
      if (hostname === "public.test")
        return [
          { address: "93.184.216.34", family: 4 },
          { address: "::ffff:8.8.8.8", family: 6 },
        ];
      if (hostname === "metadata.test") return [{ address: "169.254.169.254", family: 4 }];
      throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
    };
    const guard = createSsrfGuard({ resolveHost });
    expect(await refusalOf(guard.check("https://mixed.test/"))).toBe("mixed.test resolves to 10.0.0.1, a private address, not a public address");
    expect(await refusalOf(guard.check("http://metadata.test/"))).toMatch(/metadata\.test resolves to 169\.254\.169\.254, a link-local/);
    const checked = await guard.check("https://public.test/path?q=1");
    // The mapped address is dialled as IPv4.
    expect(checked.addresses).toEqual([
      { address: "93.184.216.34", family: 4 },
      { address: "8.8.8.8", family: 4 },
    ]);
    expect(checked.url.href).toBe("https://public.test/path?q=1");
    const missing = await guard.check("http://missing.test/").catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(ToolError);
    expect((missing as ToolError).code).toBe("not_found");
    expect((missing as ToolError).message).toMatch(/missing\.test could not be resolved \(ENOTFOUND\)/);
    expect(calls).toEqual(["mixed.test", "metadata.test", "public.test", "missing.test"]);
  });

  it("refuses `localhost` through the system resolver", async () => {
    expect(await refusalOf(createSsrfGuard().check("http://localhost:8080/"))).toMatch(/localhost resolves to (127\.0\.0\.1|::1), a loopback address/);
  });

  it("lets allowed private networks through, matching embedded IPv4 forms by their IPv4 address", async () => {
    const guard = createSsrfGuard({ allowedPrivateNetworks: ["127.0.0.0/8", "::1", "10.20.0.0/16"] });
    for (const url of [
      "http://127.0.0.1/",
      "http://2130706433/",
      "http://127.1/",
      "http://[::1]/",
      "http://[::ffff:127.0.0.1]/",
      "http://[64:ff9b::127.0.0.1]/",
      "http://10.20.3.4/",
    ]) {
      expect((await guard.check(url)).addresses, url).toHaveLength(1);
    }
    expect((await guard.check("http://[::ffff:127.0.0.1]/")).addresses).toEqual([{ address: "127.0.0.1", family: 4 }]);
    expect(await refusalOf(guard.check("http://10.21.0.1/"))).toMatch(/private/);
    expect(await refusalOf(guard.check("http://169.254.169.254/"))).toMatch(/link-local/);
    // The deprecated compatible form is judged by its IPv4 address too, so an allowed network lets it through.
    expect((await guard.check("http://[::127.0.0.1]/")).addresses).toHaveLength(1);
  });
});

describe("parseAllowedPrivateNetworks", () => {
  it("fails closed on anything but an array of CIDR blocks or addresses, naming the option and the entry", () => {
    expect(parseAllowedPrivateNetworks(undefined)).toEqual([]);
    expect(parseAllowedPrivateNetworks(["10.0.0.0/8", " ::1 "]).map((network) => network.prefixLength)).toEqual([8, 128]);
    expect(() => parseAllowedPrivateNetworks("10.0.0.0/8", "cron.http.allowedPrivateNetworks")).toThrow(SdkError);
    expect(() => parseAllowedPrivateNetworks("10.0.0.0/8", "cron.http.allowedPrivateNetworks")).toThrow(/cron\.http\.allowedPrivateNetworks must be an array/);
    for (const entry of ["10.0.0.0/33", "10.0.0.1/8", "intranet.local", "", 10]) {
      expect(() => parseAllowedPrivateNetworks(["10.0.0.0/8", entry], "x.allow"), String(entry)).toThrow(/x\.allow\[1\] .* is not a CIDR block or IP address/);
    }
    expect(() => createSsrfGuard({ allowedPrivateNetworks: ["bad"] })).toThrow(SdkError);
  });
});
