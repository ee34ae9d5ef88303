/**
 * Shared links (issue 37): a secret address that opens a read-only dashboard of one site
 * for people without an account, optionally behind a password, optionally embeddable in
 * other sites' pages. Stores keep rows; the rules are `SharedLinks`' (links.ts).
 */
import type { FilterCondition } from '../types.js';

/** A shared link as stores keep it: the SHA-256 of its token, never the token. */
export interface SharedLinkRow {
  /** `lnk_` and 12 lowercase letters or digits; not secret (listed, logged, used to revoke). */
  id: string;
  site_id: string;
  /** What the owner calls it ("Client Acme", "Public"), 1 to 100 characters. */
  name: string;
  /** SHA-256 hex of the token (base64url of 32 random bytes). */
  token_hash: string;
  /** `passwords.ts` form; `''`: no password. */
  password_hash: string;
  /** Origins whose pages may frame the link (`frame-ancestors`); empty: none may. Never with a password. */
  frame_ancestors: string[];
  /** Conditions every read through the link carries, which its viewer cannot remove; empty: the whole site. */
  segment: FilterCondition[];
  created_at: string;
  /** When it was revoked (ms); 0 while it works. A revoked link stays revoked. */
  revoked_ms: number;
}

/** What a backend stores for shared links: rows in, rows out. */
export interface ShareStore {
  /** Inserts or replaces the whole row; a row once revoked stays revoked (the largest `revoked_ms` wins). */
  saveSharedLink(row: SharedLinkRow): Promise<void>;
  sharedLinkById(id: string): Promise<SharedLinkRow | undefined>;
  sharedLinkByTokenHash(tokenHash: string): Promise<SharedLinkRow | undefined>;
  /** The site's links, revoked ones included, in any order. */
  sharedLinksOf(siteId: string): Promise<SharedLinkRow[]>;
}
