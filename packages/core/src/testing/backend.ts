import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashCloudKey } from '../accounts/keys.js';
import type { Backend } from '../backend.js';
import { type CountRows, peopleCases } from './people.js';
import { sharingCases } from './sharing.js';

export interface TestBackendOptions {
  /** Shown in the test names. */
  name: string;
  /**
   * Opens the backend under test. Every call must open the SAME data again (a second
   * process would), so what one instance writes the others read.
   */
  open: () => Promise<Backend>;
  /** The clock `open` gives the backend (its salts expire by it); the suite sets it. */
  clock: { set(ms: number): void };
  /** Rows of a people table whose `column` is `value`, counted in the backend's own storage (to see that removed rows are gone). */
  countRows: CountRows;
  /** Whether the people store decides each change in a transaction (`PeopleCasesOptions`). */
  transactions: boolean;
}

/**
 * The backend conformance suite: accounts, API keys (created, listed masked, used,
 * revoked for every instance at once), daily salts (one per day, the same for every
 * instance), people, shared links and email reports, through two instances opened on the same data, as two server processes
 * would. A backend factory is proven by one call in its test file.
 *
 * @example
 * let now = Date.now();
 * testBackend({ name: 'sqlite file', open: async () => openSqliteBackend(file, { now: () => now }), clock: { set: (ms) => (now = ms) }, countRows, transactions: true });
 */
export function testBackend({ name, open, clock, countRows, transactions }: TestBackendOptions): void {
  describe(`backend conformance: ${name}`, () => {
    let a: Backend;
    let b: Backend;
    beforeAll(async () => {
      a = await open();
      b = await open();
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
    });

    it('creates accounts that every instance lists, oldest first', async () => {
      const acme = await a.accounts.createAccount('  Acme  ');
      expect(acme).toEqual({ id: expect.stringMatching(/^acct_[a-z0-9]{16}$/), name: 'Acme', createdAt: expect.any(String) });
      await new Promise((r) => setTimeout(r, 5)); // distinct creation instants
      const globex = await b.accounts.createAccount('Globex');
      expect(await b.accounts.getAccount(acme.id)).toEqual(acme);
      expect(await a.accounts.getAccount('acct_nosuchaccount00')).toBeUndefined();
      expect((await a.accounts.listAccounts()).map((x) => x.id)).toEqual([acme.id, globex.id]);
      await expect(a.accounts.createAccount('   ')).rejects.toThrow('An account needs a descriptive name of 1 to 100 characters.');
      await expect(a.accounts.createAccount('x'.repeat(101))).rejects.toThrow('An account needs a descriptive name of 1 to 100 characters.');
    });

    it('shows a key once, lists it masked, and authenticates it on every instance', async () => {
      const [acme] = await a.accounts.listAccounts();
      const { key, info } = await a.accounts.createKey(acme!.id, 'reporting');
      expect(key).toMatch(/^st_[0-9a-f]{64}$/);
      expect(info).toEqual({
        id: expect.stringMatching(/^key_[a-z0-9]{12}$/), accountId: acme!.id, name: 'reporting',
        masked: `${key.slice(0, 4)}…${key.slice(-4)}`, createdAt: expect.any(String), lastUsedAt: null, revokedAt: null,
      });
      expect(await b.accounts.authenticate(key)).toEqual({ keyId: info.id, accountId: acme!.id });
      expect(await a.accounts.authenticate(key)).toEqual({ keyId: info.id, accountId: acme!.id });
      const [listed] = await b.accounts.listKeys(acme!.id);
      expect(listed).toMatchObject({ id: info.id, masked: info.masked, revokedAt: null });
      expect(listed!.lastUsedAt).not.toBeNull();
      expect(JSON.stringify(await b.accounts.listKeys(acme!.id))).not.toContain(key.slice(4, -4));
      expect(JSON.stringify(await b.accounts.listKeys(acme!.id))).not.toContain(hashCloudKey(key).toString('hex'));
      expect(await a.accounts.isActive(info.id)).toBe(true);
      await expect(a.accounts.createKey('acct_nosuchaccount00', 'x')).rejects.toThrow('No account acct_nosuchaccount00.');
      await expect(a.accounts.createKey(acme!.id, ' ')).rejects.toThrow('A key needs a descriptive name of 1 to 100 characters.');
    });

    it('refuses malformed, unknown and nearly-right keys', async () => {
      const [acme] = await a.accounts.listAccounts();
      const { key } = await a.accounts.createKey(acme!.id, 'second');
      const oneOff = `${key.slice(0, -1)}${key.endsWith('0') ? '1' : '0'}`;
      for (const bad of ['', 'st_', `st_${'A'.repeat(64)}`, `st_${'a'.repeat(63)}`, `st_${'a'.repeat(65)}`, `xx_${key.slice(3)}`, `st_${'b'.repeat(64)}`, oneOff, `${key} `]) {
        expect(await a.accounts.authenticate(bad)).toBeNull();
      }
    });

    it('revokes a key for every instance at once; a revocation cannot be undone or repeated', async () => {
      const [, globex] = await a.accounts.listAccounts();
      const { key, info } = await b.accounts.createKey(globex!.id, 'dashboard');
      expect(await a.accounts.authenticate(key)).not.toBeNull();
      expect(await a.accounts.revokeKey(globex!.id, 'key_nosuchkey000')).toBe(false);
      const [acme] = await a.accounts.listAccounts();
      expect(await a.accounts.revokeKey(acme!.id, info.id)).toBe(false); // another account's key
      expect(await a.accounts.revokeKey(globex!.id, info.id)).toBe(true);
      expect(await b.accounts.isActive(info.id)).toBe(false);
      expect(await b.accounts.authenticate(key)).toBeNull();
      expect(await a.accounts.authenticate(key)).toBeNull();
      expect(await b.accounts.revokeKey(globex!.id, info.id)).toBe(false);
      const [listed] = await a.accounts.listKeys(globex!.id);
      expect(listed!.revokedAt).not.toBeNull();
      expect(await a.accounts.isActive('key_nosuchkey000')).toBe(false);
    });

    it('gives every instance the same salt for a day and a different one for another day', async () => {
      clock.set(Date.parse('2026-11-01T10:00:00Z'));
      const first = await a.salts.saltFor('2026-11-01');
      expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(await b.salts.saltFor('2026-11-01')).toBe(first);
      clock.set(Date.parse('2026-11-01T10:05:00Z'));
      expect(await b.salts.saltFor('2026-11-01')).toBe(first);
      expect(await a.salts.saltFor('2026-11-01')).toBe(first);
      // Both instances proposed 11-02 in the background when they first read 11-01 (a salt is proposed a day ahead), so on a
      // store without transactions two candidates may race: they agree once the first-stored one has settled (ClickHouse:
      // SALT_SETTLE_SECONDS, its docs), so the check asks again for up to 15 s until they agree.
      let next = await b.salts.saltFor('2026-11-02');
      for (let tries = 0; tries < 30 && (await a.salts.saltFor('2026-11-02')) !== next; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        next = await b.salts.saltFor('2026-11-02');
      }
      expect(next).not.toBe(first);
      expect(await a.salts.saltFor('2026-11-02')).toBe(next);
      const reopened = await open();
      expect(await reopened.salts.saltFor('2026-11-01')).toBe(first); // kept across a restart
      await reopened.close();
    });

    describe('people', () => peopleCases(() => [a, b], { countRows, transactions }));
    describe('sharing and email reports', () => sharingCases(() => [a, b], { transactions }));
  });
}
