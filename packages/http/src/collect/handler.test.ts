import http from 'node:http';
import { gunzipSync, gzipSync } from 'node:zlib';
import { createSite } from '@siteline/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLECT_MESSAGES, MAX_BODY_BYTES } from './payload.js';
import { startCollector, type TestCollector } from './test-helpers.js';
import { TRACKER_SCRIPT } from './tracker-script.js';

const beacon = { site_id: 'ST-blog', type: 'pageview', url: 'https://blog.example/', referrer: '' };

describe('collect handler: protocol', () => {
  let c: TestCollector;
  const stored = () => (c.db.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n;

  beforeAll(async () => {
    c = await startCollector({ batch: { maxEvents: 1000 } });
    await createSite(c.storage, { id: 'ST-blog', name: 'Blog', domain: 'blog.example' });
  });
  afterAll(() => c.close());

  it('serves the tracker under 2 KB gzipped, cacheable, gzip when asked', async () => {
    expect(gzipSync(TRACKER_SCRIPT).length).toBeLessThan(2048);
    const plain = await c.request('/tracker.js');
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(plain.body).toBe(TRACKER_SCRIPT);
    const zipped = await new Promise<Buffer>((resolve) =>
      http.get(`${c.url}/tracker.js`, { headers: { 'Accept-Encoding': 'gzip, br' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (b: Buffer) => chunks.push(b)).on('end', () => resolve(Buffer.concat(chunks)));
      }),
    );
    expect(zipped.length).toBeLessThan(2048);
    expect(gunzipSync(zipped).toString()).toBe(TRACKER_SCRIPT);
    const again = await c.request('/tracker.js', { headers: { 'If-None-Match': plain.headers.etag! } });
    expect(again.status).toBe(304);
    expect((await c.request('/tracker.js', { method: 'POST' })).status).toBe(405);
  });

  it('answers the CORS preflight and allows any origin', async () => {
    const pre = await c.request('/collect', { method: 'OPTIONS', headers: { Origin: 'https://blog.example' } });
    expect(pre.status).toBe(204);
    expect(pre.headers).toMatchObject({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'POST, OPTIONS',
      'access-control-allow-headers': 'Content-Type',
      'access-control-max-age': '86400',
    });
    const post = await c.beacon(beacon);
    expect(post.status).toBe(202);
    expect(post.headers['access-control-allow-origin']).toBe('*');
    const json = await c.beacon(beacon, { 'Content-Type': 'application/json' });
    expect(json.status).toBe(202);
    expect(c.handler.stats.totals().accepted).toBe(2);
  });

  it('rejects oversized, malformed and foreign-typed bodies with a clear reason', async () => {
    const big = JSON.stringify({ ...beacon, referrer: 'x'.repeat(MAX_BODY_BYTES) });
    const tooBig = await c.beacon(big);
    expect([tooBig.status, JSON.parse(tooBig.body)]).toEqual([413, { error: 'Payload Too Large' }]);
    const chunked = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${c.url}/collect`, { method: 'POST', headers: { 'Content-Type': 'text/plain' } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.write('{"a":"'); // no Content-Length: the limit must hold while streaming too
      req.end(`${'x'.repeat(MAX_BODY_BYTES)}"}`);
    });
    expect(chunked).toBe(413);
    const bad = await c.beacon('{"site_id":');
    expect([bad.status, JSON.parse(bad.body)]).toEqual([400, { error: COLLECT_MESSAGES.json }]);
    const noName = await c.beacon({ ...beacon, type: 'event' });
    expect([noName.status, JSON.parse(noName.body)]).toEqual([400, { error: COLLECT_MESSAGES.name }]);
    const form = await c.beacon('a=b', { 'Content-Type': 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(415);
    expect((await c.request('/collect')).status).toBe(405);
    expect((await c.request('/elsewhere')).status).toBe(404);
  });

  it('answers 404 for an unknown site', async () => {
    const reply = await c.beacon({ ...beacon, site_id: 'ST-nope' });
    expect([reply.status, JSON.parse(reply.body)]).toEqual([404, { error: 'Site not found.' }]);
  });

  it('drops bots and pages of other hosts silently (202) and counts them', async () => {
    const before = c.handler.stats.totals();
    const googlebot = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
    const headless = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36';
    expect((await c.beacon(beacon, { 'User-Agent': googlebot })).status).toBe(202);
    expect((await c.beacon(beacon, { 'User-Agent': headless })).status).toBe(202);
    expect((await c.beacon({ ...beacon, url: 'https://blog.example.evil.test/' })).status).toBe(202);
    expect((await c.beacon({ ...beacon, url: 'https://www.blog.example/' })).status).toBe(202); // subdomain: kept
    const after = c.handler.stats.totals();
    expect(after.bot - before.bot).toBe(2);
    expect(after.foreign_host - before.foreign_host).toBe(1);
    expect(after.accepted - before.accepted).toBe(1);
    await c.handler.flush();
    expect(stored()).toBe(after.accepted);
  });
});
