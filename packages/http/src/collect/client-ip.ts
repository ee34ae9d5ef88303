/**
 * The visitor's IP address, needed for the visitor id and the country, never stored.
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

/**
 * The client address of a request. Without `trustProxy` it is the socket's peer address and
 * `X-Forwarded-For` is ignored (any client can write that header). With `trustProxy` it is
 * the left-most valid address of `X-Forwarded-For`: the client as the first proxy saw it,
 * right for any chain of proxies (CDN, then load balancer), as Express's `trust proxy: true`
 * does. A client can prepend a made-up address there, which only costs it a made-up visitor
 * id and country, as rotating its user agent would. IPv4-mapped IPv6 addresses
 * (`::ffff:1.2.3.4`) come out as IPv4, so one visitor hashes the same over IPv4 and dual
 * stack sockets. `''` when nothing usable is known.
 *
 * @example clientIp(req, true) // '203.0.113.7' for "X-Forwarded-For: 203.0.113.7, 10.0.0.2"
 */
export function clientIp(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const header = req.headers['x-forwarded-for'];
    const values = Array.isArray(header) ? header.join(',') : header;
    if (values) {
      for (const part of values.split(',')) {
        const ip = normalizeIp(part);
        if (ip) return ip;
      }
    }
  }
  return normalizeIp(req.socket.remoteAddress ?? '');
}

/**
 * An address from a header or socket, trimmed, without port or brackets, IPv4-mapped IPv6
 * as IPv4; `''` when it is not an IP address.
 * @example normalizeIp(' [2001:db8::1]:443 ') // '2001:db8::1'
 * @example normalizeIp('::ffff:192.0.2.1') // '192.0.2.1'
 */
export function normalizeIp(raw: string): string {
  let ip = raw.trim();
  if (ip.startsWith('[')) {
    const close = ip.indexOf(']');
    ip = close < 0 ? '' : ip.slice(1, close);
  } else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(ip)) ip = ip.slice(0, ip.lastIndexOf(':'));
  const version = isIP(ip);
  if (version === 6 && /^::ffff:/i.test(ip) && isIP(ip.slice(7)) === 4) return ip.slice(7);
  return version === 0 ? '' : ip.toLowerCase();
}

/**
 * The network a limit counts a client address in: an IPv4 address alone, an IPv6 address by
 * its /64 (one subscriber line usually gets a whole /64, so counting single addresses would
 * give each client billions of budgets). `''` (no usable address) is one network.
 * @example clientNetwork('2001:db8:1:2:aaaa::1') // '2001:db8:1:2::/64'
 * @example clientNetwork('203.0.113.7') // '203.0.113.7'
 */
export function clientNetwork(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  const [head = '', tail = ''] = ip.split('::', 2) as [string, string?];
  const left = head === '' ? [] : head.split(':');
  const right = ip.includes('::') ? (tail === '' ? [] : tail.split(':')) : [];
  // An embedded IPv4 tail (`::1.2.3.4`) takes two groups; only the first four groups matter here.
  const groups = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups.slice(0, 4).map((g) => Number.parseInt(g, 16).toString(16)).join(':')}::/64`;
}
