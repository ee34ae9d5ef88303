import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { localDay, shiftDay } from '@siteline/core';
import { deploymentSetup, sqliteEngine } from './engines.js';
import { command, serve, siteline } from './processes.js';

/**
 * Issue 26: a server whose column cache is far smaller than one day of the data, on a day of
 * 2,000 unique ~2 KB URLs (4 MB of rows, against a 1 MiB cache: too large to cache, read from
 * the raw tables) beside an ordinary day (cached), answers exactly from its first request,
 * while its background warming runs.
 */
const { dir, tls, stops } = deploymentSetup('memory', ['SQLite']);
const KEY = 'memory-test-key-0123456789abcdef';

describe('siteline serve with COLUMN_CACHE_MB=1 on a day of 2 KB URLs', () => {
  it('answers filtered reads exactly from the first request, the long day from the raw tables', async () => {
    const engine = sqliteEngine(join(dir, 'long.db'));
    const env = { ...engine.env, SERVICE_API_KEY: KEY };
    await command(['sites', 'add', '--name', 'Long', '--id', 'ST-long'], dir, env);
    // Two days ago (UTC): one visitor views /u/0/xxx.. to /u/1999/xxx.., a second apart (one session, 1,999 s).
    // Yesterday: three visitors, one pageview each of /home (three bounces).
    const long = shiftDay(localDay(Date.now(), 'UTC'), -2);
    const short = shiftDay(long, 1);
    const pad = 'x'.repeat(2000);
    const lines = [
      ...Array.from({ length: 2000 }, (_, i) => ({ site_id: 'ST-long', type: 'pageview', ts: new Date(Date.parse(`${long}T01:00:00Z`) + i * 1000).toISOString(), url: `/u/${i}/${pad}`, visitor_id: 'reader', country_code: 'DE' })),
      ...['a', 'b', 'c'].map((v) => ({ site_id: 'ST-long', type: 'pageview', ts: `${short}T12:00:00Z`, url: '/home', visitor_id: v, country_code: 'FR' })),
    ];
    writeFileSync(join(dir, 'long.ndjson'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    await command(['import', 'long.ndjson'], dir, env);

    const server = await serve(dir, { ...env, COLUMN_CACHE_MB: '1' }, tls);
    stops.push(() => server.stop());
    const get = async (path: string, params: Record<string, string>) => {
      const { status, body } = await server.get(`/api/v1${path}?${new URLSearchParams({ site_id: 'ST-long', period: '7d', ...params })}`, KEY);
      expect({ path, status }).toEqual({ path, status: 200 });
      return JSON.parse(body) as unknown;
    };
    const filter = (...conditions: unknown[]) => ({ filters: JSON.stringify(conditions) });
    // /u/1, /u/10../u/19, /u/100../u/199, /u/1000../u/1999: 1,111 of the 2,000 views, all in the one session.
    expect(await get('/stats', filter(['contains', 'page', ['/u/1']]))).toEqual({ visitors: 1, pageviews: 1111, sessions: 1, bounce_rate: 0, avg_duration: 1999 });
    expect(await get('/stats', filter(['is', 'country', ['FR']]))).toEqual({ visitors: 3, pageviews: 3, sessions: 3, bounce_rate: 100, avg_duration: 0 });
    expect(await get('/stats', filter(['contains', 'page', ['/u/1999/']]))).toEqual({ visitors: 1, pageviews: 1, sessions: 1, bounce_rate: 0, avg_duration: 1999 });
    expect(await get('/pages', { ...filter(['contains', 'page', ['/u/7/', '/home']]), limit: '5' })).toEqual({
      pages: [
        { url: '/home', pageviews: 3, visitors: 3, bounce_rate: 100, avg_duration: 0 },
        { url: `/u/7/${pad}`, pageviews: 1, visitors: 1, bounce_rate: 0, avg_duration: 1 },
      ],
    });
    expect(await get('/stats/timeseries', filter(['is_not', 'country', ['XX']]))).toMatchObject({
      timeseries: expect.arrayContaining([
        { date: long, visitors: 1, pageviews: 2000, sessions: 1 },
        { date: short, visitors: 3, pageviews: 3, sessions: 3 },
      ]),
    });
    expect(await get('/stats', {})).toEqual({ visitors: 4, pageviews: 2003, sessions: 4, bounce_rate: 75, avg_duration: 499.8 });
    expect(await server.stop()).toBe(0);
    expect(server.out.stderr).toBe('');
  }, 120_000);

  it('refuses a COLUMN_CACHE_MB that is not a whole number of MiB from 1, naming it', async () => {
    const run = siteline(['serve'], dir, { ...sqliteEngine(join(dir, 'bad.db')).env, SERVICE_API_KEY: KEY, PORT: '0', TLS_CERT_FILE: tls.certFile, TLS_KEY_FILE: tls.keyFile, COLUMN_CACHE_MB: '0.5' });
    expect(await run.exited).toBe(1);
    expect(run.out.stderr).toContain('COLUMN_CACHE_MB must be an integer from 1 to 1048576 (got "0.5").');
  }, 60_000);
});
