import { BlockList, isIP } from "node:net";

/**
 * Where an IP address leads. Only `public` addresses are reachable through a host pattern; the others
 * reach this machine or its networks (a router's admin page, a cloud metadata service at
 * 169.254.169.254, a database on localhost) and must be listed on their own.
 */
export type AddressKind =
  | "public"
  | "loopback"
  | "link-local"
  | "private"
  | "unspecified"
  | "multicast"
  | "reserved";

const RANGES: ReadonlyArray<readonly [Exclude<AddressKind, "public">, string, number, "ipv4" | "ipv6"]> = [
  // 0.0.0.0 and :: reach the local host when connected to.
  ["unspecified", "0.0.0.0", 8, "ipv4"],
  ["loopback", "127.0.0.0", 8, "ipv4"],
  ["link-local", "169.254.0.0", 16, "ipv4"],
  ["private", "10.0.0.0", 8, "ipv4"],
  ["private", "172.16.0.0", 12, "ipv4"],
  ["private", "192.168.0.0", 16, "ipv4"],
  // Carrier-grade NAT: not the internet either.
  ["private", "100.64.0.0", 10, "ipv4"],
  ["multicast", "224.0.0.0", 4, "ipv4"],
  ["reserved", "240.0.0.0", 4, "ipv4"],
  ["unspecified", "::", 128, "ipv6"],
  ["loopback", "::1", 128, "ipv6"],
  ["link-local", "fe80::", 10, "ipv6"],
  ["private", "fc00::", 7, "ipv6"],
  // Deprecated site-local addresses, still routed inside some networks.
  ["private", "fec0::", 10, "ipv6"],
  ["multicast", "ff00::", 8, "ipv6"],
  // IPv4-compatible addresses (::a.b.c.d), deprecated.
  ["reserved", "::", 96, "ipv6"],
];

const LISTS = new Map<AddressKind, BlockList>();
for (const [kind, network, prefix, family] of RANGES) {
  const list = LISTS.get(kind) ?? new BlockList();
  list.addSubnet(network, prefix, family);
  LISTS.set(kind, list);
}

/**
 * The kind of an IP address. IPv4-mapped IPv6 addresses (`::ffff:127.0.0.1`) are judged by their IPv4
 * address, as a connection to them is a connection to it (BlockList checks them against IPv4 ranges).
 */
export function addressKind(address: string): AddressKind {
  const family = isIP(address);
  if (family === 0) throw new Error(`not an IP address: ${address}`);
  for (const [kind, list] of LISTS) {
    if (list.check(address, family === 4 ? "ipv4" : "ipv6")) return kind;
  }
  return "public";
}
