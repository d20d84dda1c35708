import { describe, expect, it } from "vitest";
import { addressKind } from "../../src/sandbox/network-address.ts";

describe("addressKind", () => {
  it.each([
    ["8.8.8.8", "public"],
    ["140.82.112.3", "public"],
    ["2606:4700:4700::1111", "public"],
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["::1", "loopback"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["169.254.169.254", "link-local"],
    ["fe80::1", "link-local"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["172.32.0.1", "public"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "private"],
    ["fd00::1", "private"],
    ["::ffff:10.0.0.1", "private"],
    ["0.0.0.0", "unspecified"],
    ["::", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["ff02::1", "multicast"],
    ["255.255.255.255", "reserved"],
  ])("%s is %s", (address, kind) => {
    expect(addressKind(address)).toBe(kind);
  });

  it("throws on what is not an IP address, rather than calling it public", () => {
    for (const host of ["example.com", "localhost", ""]) {
      expect(() => addressKind(host)).toThrow(`not an IP address: ${host}`);
    }
  });
});
