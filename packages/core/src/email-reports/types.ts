/**
 * Email reports (issue 37): owners subscribe addresses to a site's weekly and monthly
 * summary by mail. Stores keep subscriptions and one row per send attempt (the claim that
 * makes a report go out once however many server processes share the backend); the rules
 * are `EmailReports`' (email-reports.ts).
 */

/** `week`: Monday to Sunday, sent on Monday; `month`: a calendar month, sent on the 1st (the site's time zone). */
export type ReportKind = 'week' | 'month';
export const REPORT_KINDS: readonly ReportKind[] = ['week', 'month'];

/** An address subscribed to one kind of a site's report. Replaced whole on change (ClickHouse keeps the newest version). */
export interface SubscriptionRow {
  site_id: string;
  kind: ReportKind;
  /** Normalised (`normalEmail`). */
  email: string;
  /** When it was (last) subscribed, ms: a report due before this is not sent to it. */
  created_ms: number;
  removed: boolean;
}

/** One report to one address: the site, the kind, the period (its first day, `YYYY-MM-DD`) and the address. */
export interface SendKey {
  site_id: string;
  kind: ReportKind;
  period: string;
  email: string;
}

/**
 * One attempt to send a report, as stores report it. Attempts 1, 2, … are the scheduler's,
 * claimed before sending; attempt 0 is a send by hand (`siteline reports send`), never claimed.
 */
export interface SendAttemptRow extends SendKey {
  attempt: number;
  /** Callers that claimed this attempt: 1 on SQLite; on ClickHouse more when processes raced (then at most one sent). */
  claims: number;
  /** When it was (first) claimed, ms. */
  claimed_ms: number;
  /** `''` while sending (or when the sender died), `sent`, or `failed` (the SMTP server refused or was unreachable). */
  outcome: '' | 'sent' | 'failed';
}

/** What a backend stores for email reports: rows in, rows out. */
export interface EmailReportStore {
  /** Inserts or replaces the subscription (site, kind, email). */
  saveSubscription(row: SubscriptionRow): Promise<void>;
  /** Subscriptions not removed: of one site, or of every site; in any order. */
  subscriptions(siteId?: string): Promise<SubscriptionRow[]>;
  /**
   * Claims attempt `attempt` (1 or more) of a send: true for at most one caller of a key and
   * attempt, whichever process it runs in, and for exactly one of callers racing unless a
   * store says otherwise (SQLite: one insert under a unique index; ClickHouse: the smallest of
   * the claims after a settling wait, a claimer too slow to be sure stepping back). Attempt 0
   * (a send by hand) is recorded and always true. `unsubscribeHash` is the SHA-256 of the
   * token the mail's unsubscribe link carries.
   */
  claimSend(key: SendKey, attempt: number, atMs: number, unsubscribeHash: string): Promise<boolean>;
  /** Records how a claimed attempt ended. */
  finishSend(key: SendKey, attempt: number, outcome: 'sent' | 'failed', atMs: number): Promise<void>;
  /** Every attempt (by hand ones included) of periods starting on or after `fromPeriod` (`YYYY-MM-DD`). */
  sendAttempts(fromPeriod: string): Promise<SendAttemptRow[]>;
  /** The send whose unsubscribe token has this hash, if any. */
  sendByUnsubscribeHash(hash: string): Promise<SendKey | undefined>;
}
