/**
 * Collect throughput: `wrk` posts pageview beacons, or custom events with or
 * without properties (varied pages, referrers and client IPs, so visitors and sessions vary) to `POST /collect` over
 * HTTPS keep-alive; the events/s counted are those stored once the batch
 * writer has caught up, so a writer falling behind shows as a lower rate.
 */
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

export interface CollectResult {
  requestsPerSecond: number;
  /** Stored events / (load time + time to write the backlog). */
  storedPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  stored: number;
  /**
   * CPU time of this process (every thread: the request thread, a collector worker, libuv)
   * per request while wrk ran, µs. The server runs in the bench's process, which is
   * otherwise idle then.
   */
  cpuMicrosPerRequest: number;
  /**
   * Time the request thread's event loop was busy per request while wrk ran, µs. Neither
   * figure counts the backlog a collector writes after wrk stops (`stored` vs `requests`).
   */
  requestThreadMicrosPerRequest: number;
}

/**
 * What each beacon is: a pageview (the default), a custom event, or a custom event with
 * properties (three keys, values skewed as the demo's), to measure what properties cost.
 */
export type BeaconKind = 'pageview' | 'event' | 'event with props';

const KIND_FIELDS: Record<BeaconKind, string> = {
  pageview: `'"type":"pageview"'`,
  event: `'"type":"event","name":"cta_click"'`,
  'event with props': `'"type":"event","name":"cta_click","props":{"button":"' .. buttons[math.random(#buttons)] .. '","position":"' .. positions[math.random(#positions)] .. '","plan":"' .. plans[math.random(#plans)] .. '"}'`,
};

const SCRIPT = (siteId: string, domain: string, kind: BeaconKind) => `
math.randomseed(7)
local paths = {"/", "/pricing", "/docs", "/blog/", "/about", "/docs/install", "/blog/launch", "/features", "/contact", "/signup"}
local refs = {"", "", "", "https://www.google.com/", "https://news.ycombinator.com/", "https://t.co/x"}
local buttons = {"Start free trial", "Start free trial", "Start free trial", "Talk to sales", "See a demo"}
local positions = {"hero", "hero", "pricing table", "footer"}
local plans = {"free", "free", "free", "pro", "team"}
request = function()
  local ip = "10." .. math.random(0, 3) .. "." .. math.random(0, 255) .. "." .. math.random(1, 254)
  local body = '{"site_id":"${siteId}",' .. ${KIND_FIELDS[kind]} .. ',"url":"https://${domain}' .. paths[math.random(#paths)] .. '","referrer":"' .. refs[math.random(#refs)] .. '"}'
  return wrk.format("POST", "/collect", {["Content-Type"] = "text/plain", ["X-Forwarded-For"] = ip,
    ["User-Agent"] = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36"}, body)
end
`;

const toMs = (value: string, unit: string) => Number(value) * (unit === 'us' ? 0.001 : unit === 's' ? 1000 : 1);

export const wrkInstalled = (): boolean => spawnSync('wrk', ['--version']).error === undefined;

/** Runs wrk for `seconds` with `connections`, then waits for the writer (`flush`) and counts stored events. */
export async function measureCollect(options: {
  url: string;
  siteId: string;
  domain: string;
  seconds: number;
  connections: number;
  dir: string;
  flush: () => Promise<void>;
  countStored: () => number;
  /** What the beacons are; default pageviews. */
  kind?: BeaconKind;
}): Promise<CollectResult> {
  const script = join(options.dir, 'collect.lua');
  writeFileSync(script, SCRIPT(options.siteId, options.domain, options.kind ?? 'pageview'));
  const before = options.countStored();
  const started = performance.now();
  const cpu = process.cpuUsage();
  const loop = performance.eventLoopUtilization();
  const output = await new Promise<string>((resolve, reject) => {
    const wrk = spawn('wrk', ['-t1', `-c${options.connections}`, `-d${options.seconds}s`, '--latency', '-s', script, `${options.url}/collect`]);
    let text = '';
    wrk.stdout.on('data', (c: Buffer) => (text += c.toString()));
    wrk.on('error', reject).on('close', (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk exited ${code}: ${text}`))));
  });
  const cpuUsed = process.cpuUsage(cpu);
  const busy = performance.eventLoopUtilization(loop);
  await options.flush();
  const elapsed = (performance.now() - started) / 1000;
  const stored = options.countStored() - before;
  const latency = (p: string) => {
    const m = new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s)`, 'm').exec(output);
    return m ? toMs(m[1]!, m[2]!) : NaN;
  };
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(output);
  if (/Non-2xx/.test(output)) throw new Error(`collect answered errors:\n${output}`);
  const requests = Number(/(\d+) requests in/.exec(output)?.[1] ?? NaN);
  return {
    requestsPerSecond: rps ? Number(rps[1]) : NaN,
    storedPerSecond: stored / elapsed,
    p50Ms: latency('50'),
    p99Ms: latency('99'),
    stored,
    cpuMicrosPerRequest: (cpuUsed.user + cpuUsed.system) / requests,
    requestThreadMicrosPerRequest: (busy.active * 1000) / requests,
  };
}
