import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientIp, clientNetwork, normalizeIp } from './client-ip.js';

const req = (remoteAddress: string, xff?: string | string[]) =>
  ({ socket: { remoteAddress }, headers: xff === undefined ? {} : { 'x-forwarded-for': xff } }) as unknown as IncomingMessage;

describe('clientIp', () => {
  it('uses the socket address and ignores X-Forwarded-For unless the proxy is trusted', () => {
    expect(clientIp(req('::ffff:10.0.0.2', '8.8.8.8'), false)).toBe('10.0.0.2');
    expect(clientIp(req('10.0.0.2'), true)).toBe('10.0.0.2');
  });

  it('behind a trusted proxy takes the left-most valid X-Forwarded-For address', () => {
    expect(clientIp(req('10.0.0.2', '81.2.69.142, 172.16.0.1, 10.0.0.1'), true)).toBe('81.2.69.142');
    expect(clientIp(req('10.0.0.2', ['unknown, 2001:DB8::7', '10.0.0.1']), true)).toBe('2001:db8::7');
    expect(clientIp(req('10.0.0.2', 'garbage'), true)).toBe('10.0.0.2');
  });

  it('normalizes ports, brackets and IPv4-mapped addresses', () => {
    expect(normalizeIp(' 192.0.2.1:5678 ')).toBe('192.0.2.1');
    expect(normalizeIp('[2001:db8::1]:443')).toBe('2001:db8::1');
    expect(normalizeIp('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(normalizeIp('not-an-ip')).toBe('');
  });

  it('counts an IPv6 client by its /64 and an IPv4 client by its address', () => {
    expect(clientNetwork('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:db8::')).toBe('2001:db8:0:0::/64');
    expect(clientNetwork('::1')).toBe('0:0:0:0::/64');
    expect(clientNetwork('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
    expect(clientNetwork('192.0.2.1')).toBe('192.0.2.1');
    expect(clientNetwork('')).toBe('');
  });
});
