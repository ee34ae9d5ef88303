/**
 * The dashboard's data requests: the API's endpoints under `dashboard/data/`, relative to the
 * page, carrying only the session cookie (the browser adds it; no script can read it). On a
 * shared link's page (`share/<token>/`) the same relative paths carry the link's token.
 */
import type { FilterCondition } from '@siteline/core';

export interface SiteInfo {
  id: string;
  name: string;
  domain: string | null;
  timezone: string;
  /** The days that count as imported daily totals (a Plausible import's, without native events), as runs; absent without any. */
  imported?: { from: string; to: string }[];
}

export interface SitesResponse {
  sites: SiteInfo[];
  /** Path of the tracker script on this server, for the install snippet. */
  tracker: string;
  /** What the server's storage answers: filters (`capabilities.selection`), hour buckets, event properties, goals and funnels. */
  can: Capabilities;
  /** A shared link's segment: conditions the server adds to every request, which the viewer cannot remove. */
  segment?: FilterCondition[];
  /** The server's clock (epoch ms): the API's "today" is by it, so the dashboard's dates are too. */
  now: number;
  /** Who is signed in, for what the page may offer: an owner adds sites on the Sites page, a viewer or a Cloud key cannot, the Community key's holder runs the server. */
  you: SignedInAs;
}

/** Who reads the page: a user by role, a key, or anyone with a shared link's address. */
export type SignedInAs = 'owner' | 'viewer' | 'community key' | 'cloud key' | 'shared link';

export interface Capabilities {
  filters: boolean;
  hours: boolean;
  properties: boolean;
  goals: boolean;
  funnels: boolean;
}

/** A request the server refused: its status and the API's `error` message. */
export class DataError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/**
 * GETs `dashboard/data/<path>` and returns its JSON. A 401 means the session ended (expired,
 * signed out elsewhere, key revoked): the page reloads, and the server answers with the
 * sign-in form, keeping the view in the URL.
 */
export async function getData<T>(path: string, params?: URLSearchParams, signal?: AbortSignal): Promise<T> {
  const url = `dashboard/data/${path}${params ? `?${params}` : ''}`;
  const response = await fetch(url, { credentials: 'same-origin', headers: { Accept: 'application/json' }, signal });
  if (response.status === 401) {
    location.reload();
    throw new DataError(401, 'Signed out.');
  }
  const body = (await response.json().catch(() => ({}))) as { error?: string };
  if (!response.ok) {
    const wait = response.headers.get('Retry-After');
    const message = response.status === 429 && wait ? `Too many requests for this key; try again in ${wait} s.` : (body.error ?? `Request failed (${response.status}).`);
    throw new DataError(response.status, message);
  }
  return body as T;
}
