import { describe, expect, it } from "vitest";
import { formatIpAddress, networkContains, parseIpAddress, parseIpNetwork, parseIpv4, parseIpv6 } from "./ip-address.js";

const bytesOf = (text: string) => [...(parseIpAddress(text)?.bytes ?? [])];

describe("parseIpv4", () => {
  it("reads dotted quads only", () => {
    expect(bytesOf("127.0.0.1")).toEqual([127, 0, 0, 1]);
    expect(bytesOf("255.255.255.255")).toEqual([255, 255, 255, 255]);
    // Numeric shorthands are the URL parser's job; here they are not addresses.
    for (const text of ["2130706433", "0x7f000001", "0177.0.0.1", "127.1", "256.0.0.1", "1.2.3.4.5", "1..2.3", "01.2.3.4", ""]) {
      expect(parseIpv4(text), text).toBeUndefined();
    }
  });
});

describe("parseIpv6", () => {
  it("reads compressed, full, bracketed, zoned and IPv4-tailed forms", () => {
    expect(bytesOf("::1")).toEqual([...new Array(15).fill(0), 1]);
    expect(bytesOf("[::1]")).toEqual(bytesOf("0:0:0:0:0:0:0:1"));
    expect(bytesOf("fe80::1%eth0")).toEqual(bytesOf("fe80:0:0:0:0:0:0:1"));
    expect(bytesOf("::ffff:127.0.0.1")).toEqual(bytesOf("::ffff:7f00:1"));
    expect(bytesOf("64:ff9b::127.0.0.1").slice(12)).toEqual([127, 0, 0, 1]);
  });

  it("refuses malformed text", () => {
    for (const text of ["1::2::3", ":::", "12345::", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7", "::ffff:1.2.3", "1.2.3.4::", "g::1", "::1.2.3.4:5"]) {
      expect(parseIpv6(text), text).toBeUndefined();
    }
  });
});

describe("formatIpAddress", () => {
  it("writes the canonical forms", () => {
    for (const text of ["127.0.0.1", "::1", "::", "fe80::1", "2001:db8::ff00:42:8329", "1:0:0:2::3", "::ffff:7f00:1"]) {
      expect(formatIpAddress(parseIpAddress(text) as never)).toBe(text);
    }
  });
});

describe("parseIpNetwork and networkContains", () => {
  it("matches by prefix within one family", () => {
    const ten = parseIpNetwork("10.0.0.0/8");
    expect(ten).toBeDefined();
    expect(networkContains(ten as never, parseIpAddress("10.200.3.4") as never)).toBe(true);
    expect(networkContains(ten as never, parseIpAddress("11.0.0.1") as never)).toBe(false);
    const cgnat = parseIpNetwork("100.64.0.0/10") as never;
    expect(networkContains(cgnat, parseIpAddress("100.127.255.255") as never)).toBe(true);
    expect(networkContains(cgnat, parseIpAddress("100.128.0.0") as never)).toBe(false);
    const single = parseIpNetwork("127.0.0.2") as never;
    expect(networkContains(single, parseIpAddress("127.0.0.2") as never)).toBe(true);
    expect(networkContains(single, parseIpAddress("127.0.0.1") as never)).toBe(false);
    expect(networkContains(parseIpNetwork("fc00::/7") as never, parseIpAddress("fd12::1") as never)).toBe(true);
    expect(networkContains(parseIpNetwork("0.0.0.0/0") as never, parseIpAddress("::1") as never)).toBe(false);
  });

  it("refuses bad prefixes and host bits past the prefix", () => {
    for (const text of ["10.0.0.0/33", "10.0.0.1/8", "10.0.0.0/", "10.0.0.0/08", "::/129", "fe80::1/10", "example.com/8", "10.0.0.0/-1"]) {
      expect(parseIpNetwork(text), text).toBeUndefined();
    }
  });
});
