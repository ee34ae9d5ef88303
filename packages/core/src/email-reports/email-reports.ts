/**
 * The rules of email reports, written once over an `EmailReportStore`: who is subscribed,
 * which sends are due, and the claim that makes each go out once. A report is due for a
 * subscription when the latest period of its kind has become due (periods.ts) after the
 * address was subscribed, and no attempt has sent it. An attempt is claimed before the mail
 * is sent and finished after; an attempt neither sent nor failed within `CLAIM_TIMEOUT_MS`
 * (its sender died, or on ClickHouse its winner stepped back) is followed by the next, as is
 * a failed one after `RETRY_AFTER_MS`, up to `MAX_FAILURES` failures. Only the latest period
 * is sent: after a long stop a server sends last week's report, not every week it missed.
 */
import { normalEmail, PeopleError, TOKEN_PATTERN } from '../people/rules.js';
import { newToken, tokenHash } from '../people/tokens.js';
import type { Site } from '../types.js';
import { latestPeriod, type ReportPeriod } from './periods.js';
import type { EmailReportStore, ReportKind, SendAttemptRow, SendKey, SubscriptionRow } from './types.js';

/** An attempt neither sent nor failed this long after its claim is given up, and the next one claimed. */
export const CLAIM_TIMEOUT_MS = 15 * 60_000;
/** A failed attempt is followed by the next this long after its claim. */
export const RETRY_AFTER_MS = 30 * 60_000;
/** Failed deliveries after which a report is not tried again. */
export const MAX_FAILURES = 3;
/** Addresses one site's reports may go to (per kind). */
export const MAX_SUBSCRIBERS = 50;

/** A send the scheduler should make now: which report, to whom, and which attempt to claim. */
export interface DueSend {
  key: SendKey;
  period: ReportPeriod;
  site: Site;
  attempt: number;
}

const keyText = (k: SendKey) => `${k.site_id}\n${k.kind}\n${k.period}\n${k.email}`;

/**
 * The attempt to claim next for one send, given its attempts so far (by hand ones excluded), or
 * undefined when it is sent, being sent, waiting to be retried, or given up.
 * @example nextAttempt([], now) // 1
 */
export function nextAttempt(attempts: readonly SendAttemptRow[], nowMs: number): number | undefined {
  if (attempts.some((a) => a.outcome === 'sent')) return undefined;
  if (attempts.filter((a) => a.outcome === 'failed').length >= MAX_FAILURES) return undefined;
  const last = attempts.reduce<SendAttemptRow | undefined>((top, a) => (!top || a.attempt > top.attempt ? a : top), undefined);
  if (!last) return 1;
  const wait = last.outcome === 'failed' ? RETRY_AFTER_MS : CLAIM_TIMEOUT_MS;
  return nowMs - last.claimed_ms < wait ? undefined : last.attempt + 1;
}

/**
 * Subscriptions and sends of one backend.
 *
 * @example
 * const reports = new EmailReports(backend.emailReports);
 * await reports.subscribe('ST-blog', 'ann@example.com', ['week']);
 * for (const send of await reports.due(await backend.storage.listSites())) { … }
 */
export class EmailReports {
  private readonly now: () => number;

  constructor(readonly store: EmailReportStore, options: { now?: () => number } = {}) {
    this.now = options.now ?? Date.now;
  }

  /** Subscribes the address to the kinds given (an existing subscription is kept as it is); returns the site's subscriptions. */
  async subscribe(siteId: string, email: string, kinds: readonly ReportKind[]): Promise<SubscriptionRow[]> {
    const address = normalEmail(email);
    if (kinds.length === 0) throw new PeopleError('Choose weekly, monthly or both.');
    const current = await this.list(siteId);
    for (const kind of kinds) {
      const ofKind = current.filter((s) => s.kind === kind);
      if (ofKind.some((s) => s.email === address)) continue;
      if (ofKind.length >= MAX_SUBSCRIBERS) throw new PeopleError(`A site's ${kind === 'week' ? 'weekly' : 'monthly'} report goes to at most ${MAX_SUBSCRIBERS} addresses.`);
      await this.store.saveSubscription({ site_id: siteId, kind, email: address, created_ms: this.now(), removed: false });
    }
    return this.list(siteId);
  }

  /** Stops one kind of a site's report to an address; false when it was not subscribed. */
  async unsubscribe(siteId: string, kind: ReportKind, email: string): Promise<boolean> {
    const found = (await this.store.subscriptions(siteId)).find((s) => s.kind === kind && s.email === email);
    if (!found) return false;
    await this.store.saveSubscription({ ...found, removed: true });
    return true;
  }

  /** The site's subscriptions, by kind (weekly first) and address. */
  async list(siteId: string): Promise<SubscriptionRow[]> {
    const rows = await this.store.subscriptions(siteId);
    return rows.sort((a, b) => (a.kind !== b.kind ? (a.kind === 'week' ? -1 : 1) : a.email < b.email ? -1 : a.email > b.email ? 1 : 0));
  }

  /** Every send due now for the subscriptions of these sites (see the file's comment). */
  async due(sites: readonly Site[]): Promise<DueSend[]> {
    const now = this.now();
    const byId = new Map(sites.map((s) => [s.id, s]));
    const wanted: DueSend[] = [];
    for (const sub of await this.store.subscriptions()) {
      const site = byId.get(sub.site_id);
      if (!site) continue;
      const period = latestPeriod(sub.kind, now, site.timezone);
      if (period.dueMs < sub.created_ms) continue; // subscribed after it went out
      wanted.push({ key: { site_id: site.id, kind: sub.kind, period: period.from, email: sub.email }, period, site, attempt: 0 });
    }
    if (wanted.length === 0) return [];
    const earliest = wanted.reduce((min, w) => (w.key.period < min ? w.key.period : min), wanted[0]!.key.period);
    const attempts = new Map<string, SendAttemptRow[]>();
    for (const row of await this.store.sendAttempts(earliest)) {
      if (row.attempt === 0) continue; // by hand: not the scheduled report
      const list = attempts.get(keyText(row)) ?? [];
      list.push(row);
      attempts.set(keyText(row), list);
    }
    return wanted.flatMap((w) => {
      const attempt = nextAttempt(attempts.get(keyText(w.key)) ?? [], now);
      return attempt === undefined ? [] : [{ ...w, attempt }];
    });
  }

  /**
   * Claims a due send; the unsubscribe token for its mail when this caller won, else
   * undefined (another process has it).
   */
  async claim(send: DueSend): Promise<string | undefined> {
    const token = newToken();
    return (await this.store.claimSend(send.key, send.attempt, this.now(), tokenHash(token))) ? token : undefined;
  }

  /** Records how a claimed send ended. */
  finish(send: DueSend, sent: boolean): Promise<void> {
    return this.store.finishSend(send.key, send.attempt, sent ? 'sent' : 'failed', this.now());
  }

  /** Records a send by hand (attempt 0, not claimed: it goes out whatever the scheduler did); returns its unsubscribe token. */
  async recordByHand(key: SendKey): Promise<string> {
    const token = newToken();
    await this.store.claimSend({ ...key, email: normalEmail(key.email) }, 0, this.now(), tokenHash(token));
    return token;
  }

  /** The send an unsubscribe token was mailed with, if any (for the page that asks to confirm). */
  async sendOf(token: string | undefined): Promise<SendKey | undefined> {
    if (token === undefined || !TOKEN_PATTERN.test(token)) return undefined;
    return this.store.sendByUnsubscribeHash(tokenHash(token));
  }

  /** Unsubscribes the address a token was mailed to from that kind of that site's report; the send, or undefined for an unknown token. Repeating it is harmless. */
  async unsubscribeWith(token: string | undefined): Promise<SendKey | undefined> {
    const send = await this.sendOf(token);
    if (send) await this.unsubscribe(send.site_id, send.kind, send.email);
    return send;
  }
}
