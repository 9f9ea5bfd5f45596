import { describe, expect, it } from "vitest";
import { classifyAddress, mappedIpv4Of } from "./address-ranges.js";
import { formatIpAddress, parseIpAddress } from "./ip-address.js";

const rangeOf = (text: string) => {
  const address = parseIpAddress(text);
  if (address === undefined) throw new Error(`not an address: ${text}`);
  return classifyAddress(address)?.range;
};

describe("classifyAddress", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "link-local (cloud metadata)"],
    ["100.64.0.1", "shared (carrier-grade NAT)"],
    ["0.0.0.0", '"this network"'],
    ["0.1.2.3", '"this network"'],
    ["224.0.0.251", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["240.0.0.1", "reserved"],
    ["198.18.0.1", "benchmarking"],
    ["192.0.2.1", "documentation"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fc00::1", "unique local (private)"],
    ["fd12:3456::1", "unique local (private)"],
    ["fe80::1", "link-local"],
    ["ff02::1", "multicast"],
    ["::ffff:127.0.0.1", "IPv4-mapped IPv6"],
    ["::ffff:10.0.0.1", "IPv4-mapped IPv6"],
    ["::127.0.0.1", "IPv4-compatible IPv6 (deprecated)"],
    ["::8.8.8.8", "IPv4-compatible IPv6 (deprecated)"],
    ["64:ff9b::127.0.0.1", "NAT64"],
    ["64:ff9b::169.254.169.254", "NAT64"],
    ["64:ff9b:1::1", "local-use NAT64"],
    ["2002:7f00:1::", "6to4"],
    ["2001:0:4136:e378::1", "Teredo tunnel"],
    ["2001:db8::1", "documentation"],
  ])("%s is %s", (address, range) => {
    expect(rangeOf(address)).toBe(range);
  });

  it.each(["8.8.8.8", "93.184.216.34", "172.32.0.1", "100.128.0.1", "::ffff:8.8.8.8", "64:ff9b::8.8.8.8", "2002:808:808::", "2606:4700::1111"])(
    "%s is public",
    (address) => {
      expect(rangeOf(address)).toBeUndefined();
    },
  );

  it("describes embedded addresses with the IPv4 range", () => {
    const mapped = classifyAddress(parseIpAddress("::ffff:127.0.0.1") as never);
    expect(mapped?.description).toBe("an IPv4-mapped IPv6 address embedding 127.0.0.1 (loopback)");
    expect(formatIpAddress(mapped?.embeddedIpv4 as never)).toBe("127.0.0.1");
    expect(classifyAddress(parseIpAddress("169.254.169.254") as never)?.description).toBe("a link-local (cloud metadata) address");
  });

  it("dials IPv4-mapped addresses as IPv4", () => {
    expect(formatIpAddress(mappedIpv4Of(parseIpAddress("::ffff:7f00:1") as never) as never)).toBe("127.0.0.1");
    expect(mappedIpv4Of(parseIpAddress("64:ff9b::7f00:1") as never)).toBeUndefined();
  });
});
