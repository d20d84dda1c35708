import { describe, expect, it } from "vitest";
import {
  hostAllowed,
  listedExplicitly,
  narrowHosts,
  normalizeHost,
  parseAllowedHosts,
} from "../../src/sandbox/network-hosts.ts";

const allows = (entries: string[], host: string) => {
  const normalized = normalizeHost(host);
  return normalized !== undefined && hostAllowed(parseAllowedHosts(entries), normalized);
};

describe("sandbox.network.allowedHosts", () => {
  it("reads an entry with spaces around it as the entry", () => {
    expect(allows([" registry.npmjs.org "], "registry.npmjs.org")).toBe(true);
    expect(allows(["\t*.github.com\n"], "api.github.com")).toBe(true);
    expect(parseAllowedHosts([" 10.0.0.7 "])).toEqual([{ kind: "address", address: "10.0.0.7" }]);
  });

  it("matches an exact name, case-insensitively and with or without a trailing dot", () => {
    expect(allows(["registry.npmjs.org"], "registry.npmjs.org")).toBe(true);
    expect(allows(["Registry.NPMJS.org"], "registry.npmjs.org.")).toBe(true);
    expect(allows(["registry.npmjs.org"], "REGISTRY.npmjs.org")).toBe(true);
    expect(allows(["registry.npmjs.org"], "npmjs.org")).toBe(false);
    expect(allows(["registry.npmjs.org"], "registry.npmjs.org.evil.com")).toBe(false);
    expect(allows(["registry.npmjs.org"], "xregistry.npmjs.org")).toBe(false);
  });

  it("matches *.example.com to subdomains at any depth, not to example.com or look-alikes", () => {
    const rules = ["*.github.com"];
    expect(allows(rules, "api.github.com")).toBe(true);
    expect(allows(rules, "a.b.GITHUB.com")).toBe(true);
    expect(allows(rules, "github.com")).toBe(false);
    expect(allows(rules, "evilgithub.com")).toBe(false);
    expect(allows(rules, "github.com.evil.com")).toBe(false);
  });

  it("admits an IP literal only when it is listed literally, in any spelling of the same address", () => {
    expect(allows(["localhost"], "127.0.0.1")).toBe(false);
    expect(allows(["127.0.0.1"], "127.0.0.1")).toBe(true);
    expect(allows(["127.0.0.1"], "2130706433")).toBe(true);
    expect(allows(["127.0.0.1"], "0x7f.1")).toBe(true);
    expect(allows(["127.0.0.1"], "127.0.0.2")).toBe(false);
    expect(allows(["::1"], "[0:0::1]")).toBe(true);
    expect(allows(["[::1]"], "::1")).toBe(true);
    expect(allows(["::ffff:127.0.0.1"], "::ffff:7f00:1")).toBe(true);
  });

  it("refuses entries that are not a host, an address or a leading *. pattern", () => {
    for (const entry of [
      "*",
      "*.",
      "example.com:443",
      "https://example.com",
      "ex*ample.com",
      "a.*.com",
      "",
      "user@host",
      "a^b.example",
      "a<b.example",
    ]) {
      expect(() => parseAllowedHosts([entry]), entry).toThrow(/sandbox\.network\.allowedHosts/);
    }
    for (const entry of [".", "*.."])
      expect(() => parseAllowedHosts([entry]), entry).toThrow(/not a host name/);
    for (const entry of ["*.127.0.0.1", "*.0.0.1"])
      expect(() => parseAllowedHosts([entry])).toThrow(/not a host name/);
  });

  it("counts a host as listed explicitly by its own name or its address, never through a pattern", () => {
    const rules = parseAllowedHosts(["*.corp.example", "db.corp.example", "10.0.0.7"]);
    expect(listedExplicitly(rules, "db.corp.example", "10.0.0.5")).toBe(true);
    expect(listedExplicitly(rules, "api.corp.example", "10.0.0.5")).toBe(false);
    expect(listedExplicitly(rules, "api.corp.example", "10.0.0.7")).toBe(true);
  });
});

describe("an allowlist entry", () => {
  it("that cannot be read is named, with the forms it may take; one in brackets must be a whole IPv6 address", () => {
    expect(() => parseAllowedHosts(["github.com:443"])).toThrow(
      'sandbox.network.allowedHosts: "github.com:443" is not a host name, an IP address or a "*.example.com" pattern',
    );
    expect(() => parseAllowedHosts(["[abc"])).toThrow(/not a host name/);
  });
});

describe("narrowHosts: an agent's own allowedHosts under its parent's", () => {
  it("keeps what the parent allows, trimmed; drops what either side cannot read", () => {
    expect(
      narrowHosts([" a.example ", "bad:443", "10.0.0.7"], [" a.example ", "x:1", "10.0.0.7", "b.example"]),
    ).toEqual(["a.example", "10.0.0.7"]);
  });

  it("a pattern is kept under an equal or wider pattern of the parent, and gives the parent's entries under it otherwise", () => {
    expect(narrowHosts(["*.a.example"], ["*.b.a.example", "*.xa.example"])).toEqual(["*.b.a.example"]);
    expect(narrowHosts(["a.example", "x.example"], ["*.a.example"])).toEqual([]);
    expect(narrowHosts([" db.a.example ", " *.api.a.example "], ["*.a.example"])).toEqual([
      "db.a.example",
      "*.api.a.example",
    ]);
    expect(narrowHosts(["*.api.a.example", "*.x.example", "db.a.example"], ["*.a.example"])).toEqual([
      "*.api.a.example",
      "db.a.example",
    ]);
  });
});
