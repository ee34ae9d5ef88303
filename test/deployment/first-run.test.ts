/**
 * A newcomer's first commands in one directory, as real processes: `siteline start` writes
 * down where the server is, and what runs after it (`serve`, `users add`, the link it prints,
 * opened in Chromium) agrees with it without a flag or a variable more.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { readEnvironment } from '../../packages/http/src/config.js';
import { signUpAndIn } from '../../packages/http/src/people/account-browser-steps.js';
import { deploymentSetup } from './engines.js';
import { command, freePort, siteline } from './processes.js';

const { dir, stops, engines } = deploymentSetup('first-run', ['SQLite']);

describe.each(engines)('siteline start, then the commands after it, on %s', (_name, make) => {
  it('start writes the key, port, PUBLIC_URL and certificate into .env; serve then starts with the same environment; the link users add prints opens the set-password page of that server', async () => {
    const cwd = join(dir, 'newcomer');
    mkdirSync(cwd);
    const engine = await make('newcomer');
    const port = await freePort();
    const env = { ...engine.env, PORT: String(port) };

    const started = siteline(['start'], cwd, env);
    stops.push(async () => (started.child.kill('SIGTERM'), started.exited));
    await started.waitFor('stderr', /^ {2}curl .+$/m, 60_000);
    expect(started.out.stderr).toContain('Wrote PORT, PUBLIC_URL, TLS_CERT_FILE, TLS_KEY_FILE to .env: every siteline command run in this directory uses them.\n');
    expect(readEnvironment(cwd, {})).toEqual({
      SERVICE_API_KEY: expect.stringMatching(/^[0-9a-f]{64}$/),
      PORT: String(port),
      PUBLIC_URL: `https://localhost:${port}`,
      TLS_CERT_FILE: '.siteline/dev-cert.pem',
      TLS_KEY_FILE: '.siteline/dev-key.pem',
    });
    started.child.kill('SIGTERM');
    expect(await started.exited).toBe(0);

    // The same directory and environment: serve needs no certificate paths or key by hand.
    const served = siteline(['serve'], cwd, env);
    stops.push(async () => (served.child.kill('SIGTERM'), served.exited));
    const [line] = await served.waitFor('stdout', /^.*"server started".*$/m);
    expect(JSON.parse(line)).toMatchObject({ url: `https://localhost:${port}/api/v1`, tls: 'direct' });
    expect(served.out.stdout + served.out.stderr).not.toMatch(/"level":"warn"/);

    // users add without PORT in its environment: .env alone says where the server is.
    const { stdout } = await command(['users', 'add', '--email', 'owner@example.com', '--role', 'owner'], cwd, engine.env);
    const link = stdout.trim();
    expect(link).toMatch(new RegExp(`^https://localhost:${port}/dashboard/set-password\\?token=[A-Za-z0-9_-]{43}$`));

    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
    try {
      const context = await browser.newContext({ ignoreHTTPSErrors: true }); // the development certificate is self-signed
      const page = await context.newPage();
      await page.goto(link);
      expect(await page.textContent('h1')).toBe('Set your password');
      // The password set there signs in to the dashboard of the same server, demo data and all.
      await signUpAndIn(page, link, `https://localhost:${port}`, 'owner@example.com', 'a long and unusual passphrase 7');
      expect(page.url()).toBe(`https://localhost:${port}/?site_id=ST-demo`);
      expect(await page.textContent('[data-panel=stats]')).toMatch(/Visitors\s*[1-9]/);
    } finally {
      await browser.close();
    }
    served.child.kill('SIGTERM');
    expect(await served.exited).toBe(0);
  }, 180_000);
});
