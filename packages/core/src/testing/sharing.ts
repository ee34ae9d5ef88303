import { expect, it } from 'vitest';
import type { Backend } from '../backend.js';
import { CLAIM_TIMEOUT_MS, type DueSend, EmailReports, MAX_FAILURES, RETRY_AFTER_MS } from '../email-reports/email-reports.js';
import { People } from '../people/people.js';
import { SESSION_LIMITS } from '../people/rules.js';
import { tokenHash } from '../people/tokens.js';
import { type LinkPasswordCheck, SharedLinks } from '../sharing/links.js';
import type { Site } from '../types.js';

/** What `sharingCases` needs beyond the instances. */
export interface SharingCasesOptions {
  /** Whether the store decides racing attempts one at a time (SQLite), so exactly the allowance goes on; else at most (`PeopleStore`). */
  transactions: boolean;
}

/**
 * Shared links and email reports through two instances opened on the same data (two server
 * processes): a link made or revoked through one is seen so by the other at once, a session
 * opened through one holds on the other, password guesses sent at once through both are
 * counted before their hash, and a report due to an address is claimed and sent once
 * whichever instances race for it. Part of `testBackend`.
 */
export function sharingCases(instances: () => [Backend, Backend], { transactions }: SharingCasesOptions): void {
  let t = Date.parse('2026-11-24T10:00:00Z');
  const clock = { now: () => t };
  const suffix = String(Date.now()).slice(-8);
  const site: Site = { id: `ST-share${suffix}`, name: 'Shared', timezone: 'Europe/Berlin', domain: null, accountId: null, createdAt: '2026-11-01T00:00:00Z' };
  const links = () => instances().map((b) => new SharedLinks(b.shares, new People(b.people, clock), clock)) as [SharedLinks, SharedLinks];
  /** A client network as `clientNetwork` gives it (an IPv4 address, or an IPv6 /64). */
  const CLIENT = '203.0.113.9';
  const reports = () => instances().map((b) => new EmailReports(b.emailReports, clock)) as [EmailReports, EmailReports];

  it('a link made through one instance opens through the other by its token only; revoked through either, it opens nowhere, and a stale copy saved later does not revive it', async () => {
    const [a, b] = links();
    const { link, token } = await a.create(site, { name: '  Client Acme ' });
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(link).toMatchObject({ id: expect.stringMatching(/^lnk_[a-z0-9]{12}$/), site_id: site.id, name: 'Client Acme', password_hash: '', frame_ancestors: [], segment: [], revoked_ms: 0 });
    expect(link.token_hash).toBe(tokenHash(token));
    expect(JSON.stringify(await b.store.sharedLinksOf(site.id))).not.toContain(token);
    expect((await b.open(token))?.id).toBe(link.id);
    for (const wrong of [undefined, '', 'short', `${token.slice(0, -1)}${token.endsWith('A') ? 'E' : 'A'}`, `${token}A`]) expect(await b.open(wrong)).toBeUndefined();

    t += 1_000;
    const origins = ['https://Blog.Example.com/', 'http://localhost:8080', 'https://*.example.org', 'https://blog.example.com'];
    const embedded = await b.create(site, { name: 'Public', frameAncestors: origins });
    expect(embedded.link.frame_ancestors).toEqual(['https://blog.example.com', 'http://localhost:8080', 'https://*.example.org']);
    expect((await a.open(embedded.token))?.frame_ancestors).toEqual(['https://blog.example.com', 'http://localhost:8080', 'https://*.example.org']);
    expect((await a.list(site.id)).map((l) => l.name)).toEqual(['Client Acme', 'Public']);

    expect(await b.revoke('ST-other', link.id)).toBe(false); // another site's owner cannot
    expect(await b.revoke(site.id, link.id)).toBe(true);
    expect(await a.open(token)).toBeUndefined();
    expect(await a.revoke(site.id, link.id)).toBe(false);
    await a.store.saveSharedLink({ ...link, name: 'renamed later' }); // a copy read before the revocation, saved after it
    expect(await b.open(token)).toBeUndefined();
    expect((await b.store.sharedLinkById(link.id))?.revoked_ms).toBe(t);
    expect((await b.list(site.id)).map((l) => l.name)).toEqual(['Public']);
  });

  it('refuses a link without a name, with a weak password, a malformed or wildcard origin, a password and embedding together, or a malformed segment; keeps a valid segment', async () => {
    const [a] = links();
    await expect(a.create(site, { name: '  ' })).rejects.toThrow('A shared link needs a name of 1 to 100 characters.');
    await expect(a.create(site, { name: 'x'.repeat(101) })).rejects.toThrow('A shared link needs a name of 1 to 100 characters.');
    await expect(a.create(site, { name: 'Weak', password: 'short' })).rejects.toThrow('A password needs at least 10 characters.');
    for (const origin of ['*', 'https://*', 'example.com', 'https://example.com/path', 'ftp://example.com', 'https://exa mple.com', 'https://example.com:99999']) {
      await expect(a.create(site, { name: 'Embed', frameAncestors: [origin] })).rejects.toThrow('An embedding origin is https://host');
    }
    await expect(a.create(site, { name: 'Both', password: 'harbour-lantern-77', frameAncestors: ['https://blog.example.com'] })).rejects.toThrow('A link with a password cannot be embedded');
    await expect(a.create(site, { name: 'Segment', segment: '[["is","nowhere",["x"]]]' })).rejects.toThrow('The segment is a filters value of the API:');
    await expect(a.create(site, { name: 'Segment', segment: 'not json' })).rejects.toThrow('The segment is a filters value of the API:');
    const { link } = await a.create(site, { name: 'Germany only', segment: ' [["is","country",["DE"]]] ' });
    expect(link.segment).toEqual([['is', 'country', ['DE']]]);
    expect(await a.revoke(site.id, link.id)).toBe(true);
  });

  it('a password link checks the password with scrypt; a session opened through one instance holds on the other, for that link only, until idle or ended', async () => {
    const [a, b] = links();
    const { link } = await a.create(site, { name: 'Board', password: 'harbour-lantern-77' });
    expect(link.password_hash).toMatch(/^scrypt\$15\$8\$1\$/);
    expect(await b.checkPassword(link, 'harbour-lantern-77', CLIENT)).toEqual({ right: true });
    expect(await b.checkPassword(link, 'harbour-lantern-78', CLIENT)).toEqual({ right: false });
    const open = (await b.create(site, { name: 'Open' })).link;
    expect(await a.checkPassword(open, '', CLIENT)).toEqual({ right: false }); // no password set: nothing matches

    const id = await a.startSession(link);
    expect(await b.hasSession(link, id)).toBe(true);
    expect(await b.hasSession(open, id)).toBe(false); // another link's pages
    expect(await b.hasSession(link, undefined)).toBe(false);
    t += SESSION_LIMITS.idleMs;
    expect(await a.hasSession(link, id)).toBe(false);
    const again = await b.startSession(link);
    await a.endSession(again);
    expect(await b.hasSession(link, again)).toBe(false);
  });

  it(`10 wrong passwords for one link at once through both instances from one client network, 3 rounds: ${transactions ? 'exactly 5' : 'at most 5'} are hashed, the rest held unhashed; then the right one is held too where 5 were hashed, and from another network it opens`, async () => {
    const people = instances().map((i) => new People(i.people, clock));
    const [a, b] = instances().map((i, n) => new SharedLinks(i.shares, people[n]!, clock)) as [SharedLinks, SharedLinks];
    const hashes = () => people[0]!.hashChecks + people[1]!.hashChecks;
    const waitOf = (r: LinkPasswordCheck) => (r.right ? undefined : r.waitMs);
    for (let round = 0; round < 3; round++) {
      const { link } = await a.create(site, { name: `Guessed ${round}`, password: 'harbour-lantern-77' });
      const before = hashes();
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).checkPassword(link, `wrong-guess-${i}`, CLIENT)));
      const hashed = results.filter((r) => waitOf(r) === undefined);
      const held = results.map(waitOf).filter((w) => w !== undefined);
      expect([round, hashes() - before, hashed.every((r) => !r.right)]).toEqual([round, hashed.length, true]);
      // 5 free failures per link and client network (the sign-in throttle's); the sixth waits 2^0 s after the last.
      if (transactions) expect([round, hashed.length, held]).toEqual([round, 5, Array(5).fill(1_000)]);
      // Without transactions a guess also counts the ones racing it (held ones too, until released): it may be held longer, never past 60 s.
      else expect([round, hashed.length <= 5, held.every((w) => w >= 1_000 && w <= 60_000)]).toEqual([round, true, true]);
      const right = await a.checkPassword(link, 'harbour-lantern-77', CLIENT);
      expect([round, right]).toEqual([round, hashed.length === 5 ? { right: false, waitMs: 1_000 } : { right: true }]);
      expect([round, hashes() - before]).toEqual([round, hashed.length + (right.right ? 1 : 0)]); // a held guess computes no hash
      expect([round, await b.checkPassword(link, 'harbour-lantern-77', '198.51.100.7')]).toEqual([round, { right: true }]);
    }
  });

  it('subscriptions made through one instance are listed through the other; one kind is unsubscribed alone; limits and addresses checked', async () => {
    const [a, b] = reports();
    const listed = await a.subscribe(site.id, ' Ann@Example.com ', ['week', 'month']);
    expect(listed.map((s) => [s.kind, s.email])).toEqual([['week', 'ann@example.com'], ['month', 'ann@example.com']]);
    await b.subscribe(site.id, 'bob@example.com', ['week']);
    expect((await a.list(site.id)).map((s) => `${s.kind} ${s.email}`)).toEqual(['week ann@example.com', 'week bob@example.com', 'month ann@example.com']);
    expect(await b.unsubscribe(site.id, 'week', 'ann@example.com')).toBe(true);
    expect(await b.unsubscribe(site.id, 'week', 'ann@example.com')).toBe(false);
    expect((await a.list(site.id)).map((s) => `${s.kind} ${s.email}`)).toEqual(['week bob@example.com', 'month ann@example.com']);
    await expect(a.subscribe(site.id, 'not an address', ['week'])).rejects.toThrow('An email address looks like name@example.com.');
    await expect(a.subscribe(site.id, 'ann@example.com', [])).rejects.toThrow('Choose weekly, monthly or both.');
    for (const s of await a.list(site.id)) await a.unsubscribe(site.id, s.kind, s.email);
    expect(await b.list(site.id)).toEqual([]);
  });

  /** Claims through both instances at once what each finds due, sends (counts) the won ones; returns the addresses sent to. */
  const race = async (pair: [EmailReports, EmailReports], sites: Site[], deliver = (_: DueSend) => true): Promise<string[]> => {
    const [dueA, dueB] = await Promise.all(pair.map((r) => r.due(sites)));
    const tries = [...dueA!.map((d) => [pair[0], d] as const), ...dueB!.map((d) => [pair[1], d] as const)];
    const won = await Promise.all(tries.map(async ([r, d]) => {
      if ((await r.claim(d)) === undefined) return undefined;
      const ok = deliver(d);
      await r.finish(d, ok);
      return ok ? `${d.key.kind} ${d.key.period} ${d.key.email}` : undefined;
    }));
    return won.filter((w): w is string => w !== undefined);
  };

  it('a weekly report is due from Monday 06:00 in the site time zone, to addresses subscribed before; racing instances send it once each; a restart days later catches up once', async () => {
    const pair = reports();
    const berlin = { ...site, id: `ST-week${suffix}` };
    t = Date.parse('2026-11-22T12:00:00Z'); // Sunday
    const addresses = ['a', 'b', 'c', 'd', 'e'].map((x) => `${x}@example.com`);
    for (const email of addresses) await pair[0].subscribe(berlin.id, email, ['week']);
    t = Date.parse('2026-11-23T04:59:00Z'); // Monday 05:59 in Berlin: last week not due yet; the week before went out before they subscribed
    expect(await pair[1].due([berlin])).toEqual([]);
    t = Date.parse('2026-11-23T05:00:00Z'); // 06:00 in Berlin
    const due = await pair[1].due([berlin]);
    expect(due.map((d) => [d.key.period, d.period.to, d.period.previous, d.attempt])).toEqual(addresses.map(() => ['2026-11-16', '2026-11-22', { from: '2026-11-09', to: '2026-11-15' }, 1]));
    const sent: string[] = [];
    for (let round = 0; round < 6 && sent.length < addresses.length; round++) {
      sent.push(...(await race(pair, [berlin])));
      t += CLAIM_TIMEOUT_MS; // a winner that stepped back (ClickHouse) is followed by the next attempt
    }
    expect(sent.sort()).toEqual(addresses.map((e) => `week 2026-11-16 ${e}`));
    expect(await race(pair, [berlin])).toEqual([]);

    // A server stopped from Sunday to Wednesday: the week's report goes out once when it is back.
    const late = { ...site, id: `ST-late${suffix}` };
    t = Date.parse('2026-11-29T12:00:00Z');
    await pair[1].subscribe(late.id, 'late@example.com', ['week']);
    t = Date.parse('2026-12-02T09:00:00Z');
    let caught: string[] = [];
    for (let round = 0; round < 6 && caught.length === 0; round++, t += CLAIM_TIMEOUT_MS) caught = await race(pair, [late]);
    expect(caught).toEqual(['week 2026-11-23 late@example.com']);
    expect(await race(pair, [late])).toEqual([]);
    t = Date.parse('2026-12-07T05:00:00Z'); // next Monday 06:00 in Berlin: the next week
    expect((await pair[0].due([late])).map((d) => d.key.period)).toEqual(['2026-11-30']);
  });

  it('a monthly report is due from the 1st 06:00 and compares with the calendar month before; a failed delivery is retried after 30 minutes, three times at most', async () => {
    const pair = reports();
    const utc = { ...site, id: `ST-month${suffix}`, timezone: 'UTC' };
    t = Date.parse('2026-11-30T12:00:00Z');
    await pair[0].subscribe(utc.id, 'm@example.com', ['month']);
    t = Date.parse('2026-12-01T06:00:00Z');
    const [first] = await pair[1].due([utc]);
    expect([first?.key.period, first?.period.to, first?.period.previous]).toEqual(['2026-11-01', '2026-11-30', { from: '2026-10-01', to: '2026-10-31' }]);
    let failures = 0;
    for (let round = 0; round < 12; round++, t += CLAIM_TIMEOUT_MS) {
      await race(pair, [utc], () => (failures++, false));
    }
    expect(failures).toBe(MAX_FAILURES); // one failure, 30 minutes, another, 30 minutes, the last; then given up
    expect(await pair[0].due([utc])).toEqual([]);
    expect(RETRY_AFTER_MS).toBe(2 * CLAIM_TIMEOUT_MS);
  });

  it('a claimed attempt neither sent nor failed (its process died) is followed by the next after 15 minutes, not before', async () => {
    const [a, b] = reports();
    const crash = { ...site, id: `ST-crash${suffix}`, timezone: 'UTC' };
    t = Date.parse('2026-12-05T12:00:00Z');
    await a.subscribe(crash.id, 'c@example.com', ['week']);
    t = Date.parse('2026-12-07T06:00:00Z');
    const [due] = await a.due([crash]);
    expect(await a.claim(due!)).toMatch(/^[A-Za-z0-9_-]{43}$/); // claimed, then the process died
    t += CLAIM_TIMEOUT_MS - 1;
    expect(await b.due([crash])).toEqual([]);
    t += 1;
    expect((await b.due([crash])).map((d) => d.attempt)).toEqual([2]);
  });

  it('the unsubscribe token of a mail sent through one instance unsubscribes that kind through the other; a send by hand is recorded without a claim and has a token too', async () => {
    const [a, b] = reports();
    const unsub = { ...site, id: `ST-unsub${suffix}`, timezone: 'UTC' };
    t = Date.parse('2026-12-12T12:00:00Z');
    await a.subscribe(unsub.id, 'u@example.com', ['week', 'month']);
    t = Date.parse('2026-12-14T06:00:00Z');
    const [due] = await a.due([unsub]);
    const token = (await a.claim(due!))!;
    await a.finish(due!, true);
    expect(await b.sendOf(token)).toEqual({ site_id: unsub.id, kind: 'week', period: '2026-12-07', email: 'u@example.com' });
    expect(await b.unsubscribeWith(token)).toEqual({ site_id: unsub.id, kind: 'week', period: '2026-12-07', email: 'u@example.com' });
    expect((await a.list(unsub.id)).map((s) => s.kind)).toEqual(['month']);
    expect(await a.unsubscribeWith(token)).toEqual({ site_id: unsub.id, kind: 'week', period: '2026-12-07', email: 'u@example.com' }); // again: harmless
    expect(await a.unsubscribeWith('x'.repeat(43))).toBeUndefined();

    const byHand = await b.recordByHand({ site_id: unsub.id, kind: 'month', period: '2026-11-01', email: 'U@Example.com' });
    const again = await a.recordByHand({ site_id: unsub.id, kind: 'month', period: '2026-11-01', email: 'u@example.com' });
    expect(byHand).not.toBe(again);
    expect(await a.unsubscribeWith(byHand)).toEqual({ site_id: unsub.id, kind: 'month', period: '2026-11-01', email: 'u@example.com' });
    expect(await b.list(unsub.id)).toEqual([]);
  });
}
