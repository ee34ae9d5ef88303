/**
 * The rules of shared links, written once over a `ShareStore` (SQLite here, ClickHouse in
 * its package): creating (the token given once, its SHA-256 stored), listing, revoking,
 * opening by token, and the sessions a password opens (web sessions of `People` whose key
 * is the link's id, so they expire, are cleaned up and are stored like every other).
 */
import { newSharedLinkId } from '../accounts/rules.js';
import { ValidationError } from '../errors.js';
import type { People } from '../people/people.js';
import { TOKEN_PATTERN } from '../people/rules.js';
import { hashPassword, passwordProblem } from '../people/passwords.js';
import { SignInThrottle } from '../people/throttle.js';
import { newToken, tokenHash } from '../people/tokens.js';
import { parseFilters } from '../query/filters.js';
import type { Site } from '../types.js';
import type { SharedLinkRow, ShareStore } from './types.js';

/** Longest link name. */
export const MAX_LINK_NAME_LENGTH = 100;
/** Most live links a site keeps; most origins one link may be framed by. */
export const MAX_LINKS_PER_SITE = 100;
export const MAX_FRAME_ANCESTORS = 20;

/** An origin a page may frame a link from: `https://host`, `http://host:port`, or `https://*.host` (its subdomains), lower-case. */
const FRAME_ANCESTOR = /^https?:\/\/(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(:\d{1,5})?$/;

/** A rule of shared links was broken; the message says what to do. */
export class ShareError extends Error {
  override readonly name = 'ShareError';
}

/** What an owner gives when creating a link. */
export interface NewSharedLink {
  name: string;
  /** A password the viewer must enter once (the policy of users' passwords); none when empty or absent. */
  password?: string;
  /** Origins allowed to embed the link in an `<iframe>` (only without a password). */
  frameAncestors?: readonly string[];
  /** The `filters` JSON of the API: conditions the viewer cannot remove. */
  segment?: string;
}

export interface SharedLinksOptions {
  /** Clock, for tests; default `Date.now`. */
  now?: () => number;
  /** The throttle of password guesses: the sign-in's (its options); default one with `THROTTLE_DEFAULTS` over the people store. */
  throttle?: SignInThrottle;
}

/** A password typed for a link: right, wrong, or held by the throttle (`waitMs`; no hash was computed). */
export type LinkPasswordCheck = { right: true } | { right: false; waitMs?: number };

/**
 * What the sign-in throttle counts a link's password guesses under, in place of an email
 * (no email has this form: it has no `@`), so they are throttled per link and client
 * network and per link, apart from every user's sign-ins.
 * @example linkThrottleSubject({ id: 'lnk_7c2m9x0q4v1b' }) // 'share:lnk_7c2m9x0q4v1b'
 */
export const linkThrottleSubject = (link: Pick<SharedLinkRow, 'id'>): string => `share:${link.id}`;

/**
 * One origin of an embedding allow-list, normalised (lower-case, no trailing slash), or a
 * `ShareError` saying what one looks like. `*` alone is refused: an owner lists who may frame.
 * @example frameAncestor('https://Blog.Example.com/') // 'https://blog.example.com'
 */
export function frameAncestor(text: string): string {
  const origin = text.trim().toLowerCase().replace(/\/$/, '');
  const port = /:(\d+)$/.exec(origin)?.[1];
  if (!FRAME_ANCESTOR.test(origin) || (port !== undefined && Number(port) > 65535)) {
    throw new ShareError(`An embedding origin is https://host (or http://host:port, or https://*.host for its subdomains), without a path; got ${JSON.stringify(text.slice(0, 100))}.`);
  }
  return origin;
}

/**
 * Shared links of one backend.
 *
 * @example
 * const links = new SharedLinks(backend.shares, new People(backend.people));
 * const { link, token } = await links.create(site, { name: 'Client Acme' });
 * // the viewer opens https://stats.example.com/share/<token>/
 */
export class SharedLinks {
  private readonly now: () => number;
  private readonly throttle: SignInThrottle;

  constructor(readonly store: ShareStore, private readonly people: People, options: SharedLinksOptions = {}) {
    this.now = options.now ?? Date.now;
    this.throttle = options.throttle ?? new SignInThrottle(people.store);
  }

  /** Creates a link to the site; returns the row and the token (shown once: only its hash is kept). */
  async create(site: Site, input: NewSharedLink): Promise<{ link: SharedLinkRow; token: string }> {
    const name = input.name.trim();
    if (name.length < 1 || name.length > MAX_LINK_NAME_LENGTH) throw new ShareError(`A shared link needs a name of 1 to ${MAX_LINK_NAME_LENGTH} characters.`);
    const password = input.password ?? '';
    if (password !== '') {
      const problem = await passwordProblem(password);
      if (problem) throw new ShareError(problem);
    }
    const origins = [...new Set((input.frameAncestors ?? []).filter((o) => o.trim() !== '').map(frameAncestor))];
    if (origins.length > MAX_FRAME_ANCESTORS) throw new ShareError(`A link may be embedded by at most ${MAX_FRAME_ANCESTORS} origins.`);
    // A password form inside another site's frame invites phishing, and its cookie would be a third-party one.
    if (origins.length > 0 && password !== '') throw new ShareError('A link with a password cannot be embedded: leave the embedding origins empty, or the password.');
    let segment: SharedLinkRow['segment'] = [];
    try {
      segment = input.segment?.trim() ? parseFilters(input.segment.trim()) : [];
    } catch (error) {
      if (error instanceof ValidationError) throw new ShareError(`The segment is a filters value of the API: ${error.message}`);
      throw error;
    }
    if ((await this.list(site.id)).length >= MAX_LINKS_PER_SITE) throw new ShareError(`A site keeps at most ${MAX_LINKS_PER_SITE} shared links: revoke one first.`);
    const token = newToken();
    const link: SharedLinkRow = {
      id: newSharedLinkId(), site_id: site.id, name, token_hash: tokenHash(token), password_hash: password === '' ? '' : await hashPassword(password),
      frame_ancestors: origins, segment, created_at: new Date(this.now()).toISOString(), revoked_ms: 0,
    };
    await this.store.saveSharedLink(link);
    return { link, token };
  }

  /** The site's links that work, oldest first. */
  async list(siteId: string): Promise<SharedLinkRow[]> {
    const rows = (await this.store.sharedLinksOf(siteId)).filter((l) => l.revoked_ms === 0);
    return rows.sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : 1));
  }

  /** Revokes a link of the site: every page and session opened with it fails at its next request. False when there is no such working link. */
  async revoke(siteId: string, linkId: string): Promise<boolean> {
    const link = await this.store.sharedLinkById(linkId);
    if (!link || link.site_id !== siteId || link.revoked_ms !== 0) return false;
    await this.store.saveSharedLink({ ...link, revoked_ms: this.now() });
    return true;
  }

  /** The working link a token opens, else undefined (malformed, unknown or revoked: told apart to no one). */
  async open(token: string | undefined): Promise<SharedLinkRow | undefined> {
    if (token === undefined || !TOKEN_PATTERN.test(token)) return undefined;
    const link = await this.store.sharedLinkByTokenHash(tokenHash(token));
    return link && link.revoked_ms === 0 ? link : undefined;
  }

  /**
   * Checks a password typed for the link from `client` (a client network, `clientNetwork`:
   * an IPv6 client's /64), throttled exactly as a sign-in is: the guess is counted in the
   * backend before its hash (`SignInThrottle.reserve`, under `linkThrottleSubject(link)` in
   * place of an email), so guesses sent at once are as many counted guesses whichever
   * process takes them, and a held one computes no hash (`waitMs`: try again then). The
   * hash is one scrypt, counted in `People.hashChecks` as a user's is; a link without a
   * password never matches. The right password clears the count of the link and client.
   */
  async checkPassword(link: SharedLinkRow, password: string, client: string): Promise<LinkPasswordCheck> {
    const { waitMs, attempt } = await this.throttle.reserve(linkThrottleSubject(link), client, this.now());
    if (!attempt) return { right: false, waitMs };
    if (!(await this.people.matchesHash(password, link.password_hash))) return { right: false }; // the reservation stays a failure
    await this.throttle.succeeded(attempt, this.now());
    return { right: true };
  }

  /** Starts a session for a viewer who gave the link's password; returns the id for the cookie. */
  async startSession(link: SharedLinkRow): Promise<string> {
    return (await this.people.startSession({ keyId: link.id, accountId: '' })).id;
  }

  /** Whether `id` names a live session opened with this link (expiry as for every web session). */
  async hasSession(link: SharedLinkRow, id: string | undefined): Promise<boolean> {
    const found = await this.people.session(id);
    return found !== undefined && found.session.key_id === link.id && found.session.user_id === '';
  }

  /** Ends a link session (the viewer leaves). */
  endSession(id: string | undefined): Promise<void> {
    return this.people.endSession(id);
  }
}
