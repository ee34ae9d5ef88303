/**
 * Addresses that belong to no country: private, loopback, link-local, shared (CGNAT),
 * documentation, benchmarking, multicast and reserved ranges (IANA special-purpose
 * registries, RFC 6890). Hand-written because `net.BlockList#check` costs ~3 µs, more than
 * the country lookup itself.
 */

/** IPv4 special-purpose ranges as [first address, prefix length]. */
const RESERVED_V4: readonly (readonly [string, number])[] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared address space (carrier-grade NAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation (TEST-NET-1)
  ['192.88.99.0', 24], // deprecated 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation (TEST-NET-2)
  ['203.0.113.0', 24], // documentation (TEST-NET-3)
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
];

/** [network as an unsigned 32-bit number, mask] pairs, computed once. */
const RESERVED_V4_MASKS = RESERVED_V4.map(([first, bits]) => {
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return [(ipv4ToNumber(first) & mask) >>> 0, mask] as const;
});

/**
 * Whether a valid address (as `net.isIP` reports it: 4 or 6) is in a special-purpose range.
 * @example isReservedIp('192.168.1.1', 4) // true
 * @example isReservedIp('8.8.8.8', 4) // false
 */
export function isReservedIp(ip: string, version: 4 | 6 | number): boolean {
  if (version === 4) {
    const value = ipv4ToNumber(ip);
    return RESERVED_V4_MASKS.some(([network, mask]) => ((value & mask) >>> 0) === network);
  }
  const lower = ip.toLowerCase();
  if (lower === '::' || lower === '::1') return true; // unspecified, loopback
  const firstColon = lower.indexOf(':');
  const first = firstColon === 0 ? 0 : parseInt(lower.slice(0, firstColon), 16);
  if ((first & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((first & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  if ((first & 0xff00) === 0xff00) return true; // ff00::/8 multicast
  if (first === 0x2001) {
    const second = parseInt(lower.slice(firstColon + 1, lower.indexOf(':', firstColon + 1)), 16);
    if (second === 0x0db8) return true; // 2001:db8::/32 documentation
  }
  return false;
}

/** `a.b.c.d` as an unsigned 32-bit number; the input is already validated. */
function ipv4ToNumber(ip: string): number {
  const [a = 0, b = 0, c = 0, d = 0] = ip.split('.').map(Number);
  return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
}
