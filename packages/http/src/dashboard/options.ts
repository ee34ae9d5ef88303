/** What the dashboard handler is given, and what it is (handler.ts puts it together). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AccountStore, EmailReportStore, People, ShareStore, SignInThrottle, Storage, ThrottleOptions, UserRow, WebSessionRow } from '@siteline/core';
import type { Authenticator, Principal } from '../auth.js';
import type { ApiHandler } from '../handler.js';
import type { Logger } from '../log.js';
import type { RateLimitOptions } from '../rate-limit.js';
import type { DashboardAssets } from './assets.js';

export interface DashboardHandlerOptions {
  /** The API handler whose rules the dashboard's data requests go through (validation, site access, rate limit, reports). */
  api: ApiHandler;
  /** Decides which keys may sign in: the same authenticator as the API's. */
  authenticate: Authenticator;
  /**
   * Where the site picker's sites come from (a Cloud key sees its account's only), and what
   * the storage can answer: without `capabilities.selection` (filters), `hourBuckets`
   * (hours), `capabilities.properties` or `capabilities.goals` the dashboard does not offer
   * them, as the API would refuse them.
   */
  storage: Storage;
  /**
   * Users and web sessions (the backend's `people`): every session, by password or by key,
   * lives there, so any server process on the backend serves it.
   */
  people: People;
  /** Cloud: the account store (key pages for owners; key sessions end when their key is revoked). Absent in the Community edition. */
  accounts?: AccountStore;
  /**
   * What a session started with the Community key records instead of the key (`communityKeyTag`):
   * a session whose tag is not the current key's ends, so changing `SERVICE_API_KEY` signs those browsers out.
   */
  communityKeyTag?: string;
  /** Path the dashboard is served at; default `''` (the page is `/`, the rest under `/dashboard/`). */
  basePath?: string;
  /** As for the API: behind a TLS-terminating proxy you control. Also reads `X-Forwarded-Host` for the origin check. */
  trustProxy?: boolean;
  /**
   * The origin browsers use to reach the dashboard (`https://stats.example.com`). Sign-in and
   * sign-out accept only posts whose `Origin` is this; default: `https://` and the request's host.
   */
  publicOrigin?: string;
  /** Sign-in attempts per client network (an IPv4 address, an IPv6 /64; counted in this process); default 10 a minute; `false` turns the limit off. */
  signInRateLimit?: RateLimitOptions | false;
  /** Password attempts per email and client network (`SignInThrottle`, counted in the backend before each check); default `THROTTLE_DEFAULTS`. */
  throttle?: ThrottleOptions;
  /** Shared links (the backend's `shares`): `share/<token>/` pages and the owners' Sites page. Absent: no links. */
  shares?: ShareStore;
  /** Email reports (the backend's `emailReports`): the owners' Sites page and the unsubscribe page. Absent: no reports. */
  emailReports?: EmailReportStore;
  /** Whether reports can be mailed (`SMTP_URL`); the Sites page says so when they cannot. */
  mailsReports?: boolean;
  /** Sends a one-time link by mail; resolves false when mail is not set up (`SMTP_URL`). */
  mailLink?: (to: string, url: string) => Promise<boolean>;
  /** Path of the tracker script shown in the install snippet; default `/tracker.js`. */
  trackerPath?: string;
  logger?: Logger;
  /** Clock, for tests; default `Date.now`. */
  now?: () => number;
}

export type DashboardHandler = ((req: IncomingMessage, res: ServerResponse, next?: () => void) => Promise<void>) & {
  /** Resolves once the assets are loaded (rejects when they are missing). */
  ready(): Promise<void>;
};

/** A live session as the routes see it: the row, its user (password sign-in) and the principal it reads as. */
export interface SignedIn {
  session: WebSessionRow;
  user?: UserRow;
  principal: Principal;
}

/** What every part of the dashboard handler shares (made once in `createDashboardHandler`). */
export interface DashboardContext {
  options: DashboardHandlerOptions;
  /** `basePath` without a trailing slash. */
  base: string;
  now: () => number;
  logger: Logger;
  trustProxy: boolean;
  people: People;
  /** Every password check (sign-in, and the current password on the account pages) goes through it. */
  throttle: SignInThrottle;
  assets: Promise<DashboardAssets>;
  /** The request's live session (a session whose key was revoked, or whose Community key changed, ends here). */
  current(req: IncomingMessage): Promise<SignedIn | undefined>;
  /** Clears a cookie the browser sent that no longer names a session. */
  staleCookie(req: IncomingMessage): Record<string, string>;
}
