import { isIP } from "node:net";

/**
 * One entry of `sandbox.network.allowedHosts`: an exact host name, an IP literal, or `*.example.com`
 * (its subdomains at any depth, not `example.com` itself).
 */
export type HostRule =
  | { kind: "name"; name: string }
  | { kind: "address"; address: string }
  | { kind: "subdomains"; suffix: string };

/**
 * Parses the allowlist, throwing on an entry that is none of the three forms (a port, a path, a `*`
 * anywhere but a leading `*.`), so that a typo is reported instead of silently matching nothing.
 */
export function parseAllowedHosts(entries: readonly string[]): HostRule[] {
  return entries.map((entry) => {
    const rule = parseEntry(entry.trim());
    if (rule === undefined) {
      throw new Error(
        `sandbox.network.allowedHosts: ${JSON.stringify(entry)} is not a host name, an IP address or a ` +
          `"*.example.com" pattern`,
      );
    }
    return rule;
  });
}

function parseEntry(entry: string): HostRule | undefined {
  if (entry.startsWith("*.")) {
    const suffix = normalizeHost(entry.slice(2));
    return suffix === undefined || isIP(suffix) !== 0 ? undefined : { kind: "subdomains", suffix };
  }
  const host = entry.includes("*") ? undefined : normalizeHost(entry);
  if (host === undefined) return undefined;
  return isIP(host) === 0 ? { kind: "name", name: host } : { kind: "address", address: host };
}

/**
 * The canonical form of a host as a URL parser sees it: lower case, IDNs in punycode, no trailing dot,
 * IPv6 without brackets and compressed, IPv4 in dotted decimal — `0x7f.1` and `2130706433` are
 * `127.0.0.1`, so an address cannot slip past a rule by being spelt differently. Undefined when `host`
 * is not a valid host.
 */
export function normalizeHost(host: string): string | undefined {
  const bare = unbracket(host);
  const ipv6 = isIP(bare) === 6;
  // Characters that would make the URL parser read a port, credentials or a path instead.
  if (!ipv6 && (bare === "" || /[/:@?#\\%\s[\]]/.test(bare))) return undefined;
  let hostname: string;
  try {
    hostname = new URL(`http://${ipv6 ? `[${bare}]` : bare}/`).hostname;
  } catch {
    return undefined;
  }
  const name = unbracket(hostname).replace(/\.$/, "");
  return name === "" ? undefined : name;
}

function unbracket(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

/** Whether a rule admits the host (already normalized). An IP literal matches only an `address` rule. */
export function hostAllowed(rules: readonly HostRule[], host: string): boolean {
  const literal = isIP(host) !== 0;
  return rules.some((rule) => ruleMatches(rule, host, literal));
}

function ruleMatches(rule: HostRule, host: string, literal: boolean): boolean {
  switch (rule.kind) {
    case "address":
      return rule.address === host;
    case "name":
      return !literal && rule.name === host;
    case "subdomains":
      return !literal && host.endsWith(`.${rule.suffix}`);
  }
}

/**
 * Whether the user named this host or this address on its own — not through a `*.` pattern — which is
 * what it takes to reach a loopback, link-local or private address.
 */
export function listedExplicitly(rules: readonly HostRule[], host: string, address: string): boolean {
  return rules.some(
    (rule) =>
      (rule.kind === "name" && rule.name === host) || (rule.kind === "address" && rule.address === address),
  );
}

/**
 * The entries of `requested` that `granted` covers, as entries: an agent's own list narrows its
 * parent's and never widens it. `*.a.com` under a parent's `api.a.com` gives `api.a.com`; entries
 * that cannot be read are dropped (they could only have narrowed).
 */
export function narrowHosts(granted: readonly string[], requested: readonly string[]): string[] {
  const parent = granted.flatMap((entry) => {
    const rule = parseEntry(entry.trim());
    return rule === undefined ? [] : [{ entry: entry.trim(), rule }];
  });
  const rules = parent.map((item) => item.rule);
  const kept = new Set<string>();
  for (const entry of requested) {
    const rule = parseEntry(entry.trim());
    if (rule === undefined) continue;
    if (rule.kind === "subdomains") {
      // Kept as far as the parent allows: the parent's own entries that fall under the pattern.
      if (
        rules.some(
          (r) =>
            r.kind === "subdomains" && (r.suffix === rule.suffix || rule.suffix.endsWith(`.${r.suffix}`)),
        )
      )
        kept.add(`*.${rule.suffix}`);
      for (const item of parent) {
        const inside =
          (item.rule.kind === "name" && item.rule.name.endsWith(`.${rule.suffix}`)) ||
          (item.rule.kind === "subdomains" && item.rule.suffix.endsWith(`.${rule.suffix}`));
        if (inside) kept.add(item.entry);
      }
    } else {
      const host = rule.kind === "name" ? rule.name : rule.address;
      if (hostAllowed(rules, host)) kept.add(entry.trim());
    }
  }
  return [...kept];
}
