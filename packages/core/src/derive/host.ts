/**
 * Host extraction shared by page URLs and referrers (one definition of "the host of a URL"),
 * and what a host is part of: its registrable domain, or the publisher an Android app's
 * package name spells.
 *
 * Hosts are cut by hand instead of `new URL()` because the import calls it ~100k times a
 * second, `new URL()` throws on garbage, and it re-encodes the path, which decisions.md
 * section 4 forbids ("percent-encoding left as recorded"). Registrable domains come from the
 * Public Suffix List as `tldts` (MIT) ships it: `a.b.co.uk` is under `b.co.uk`, not `co.uk`.
 */
import { parse } from 'tldts';

/** `scheme://` at the start of a string (RFC 3986 scheme characters). */
const SCHEME_PREFIX = /^[a-z][a-z0-9+.-]*:\/\//i;
/** Characters no host contains; seeing one means the input is not a URL. */
const NOT_IN_HOST = /[\s<>"{}|\\^`]/;

/** An absolute URL cut in two: its host and everything after the authority. */
export interface SplitUrl {
  /** Lower-cased, without user info, port or trailing dot; `null` when empty (`file:///x`). */
  host: string | null;
  /** Path, query and fragment exactly as recorded (may be empty). */
  rest: string;
}

/**
 * Splits `scheme://authority/rest`; `undefined` when `url` has no `scheme://` or its
 * authority holds characters no host can have.
 * @example splitAbsoluteUrl('https://User@Example.COM:8080/a?b') // { host: 'example.com', rest: '/a?b' }
 */
export function splitAbsoluteUrl(url: string): SplitUrl | undefined {
  const scheme = SCHEME_PREFIX.exec(url);
  if (scheme === null) return undefined;
  const start = scheme[0].length;
  let end = url.length;
  for (let i = start; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 47 /* / */ || c === 63 /* ? */ || c === 35 /* # */) {
      end = i;
      break;
    }
  }
  const host = hostFromAuthority(url.slice(start, end));
  return host === undefined ? undefined : { host, rest: url.slice(end) };
}

/**
 * The host of a URL authority (`user@host:port`): lower-cased, without user info, port or
 * trailing dot. `null` when empty, `undefined` when it is not a host.
 * @example hostFromAuthority('me@WWW.Example.com.:443') // 'www.example.com'
 */
export function hostFromAuthority(authority: string): string | null | undefined {
  let host = authority.slice(authority.lastIndexOf('@') + 1);
  if (host.charCodeAt(0) === 91 /* [ */) {
    const close = host.indexOf(']');
    if (close < 0) return undefined;
    host = host.slice(0, close + 1);
  } else {
    const colon = host.indexOf(':');
    if (colon >= 0) host = host.slice(0, colon);
  }
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (host === '') return null;
  return NOT_IN_HOST.test(host) ? undefined : host.toLowerCase();
}

/**
 * Removes one leading `www.`. A bare `www.<tld>` keeps its name, since stripping it would
 * leave only a top-level domain.
 * @example stripWww('www.google.com') // 'google.com'
 */
export function stripWww(host: string): string {
  return host.startsWith('www.') && host.indexOf('.', 4) > 0 ? host.slice(4) : host;
}

/** A registrable domain (`skype.co.uk`) and its name, the label before the public suffix (`skype`). */
export interface Registrable {
  domain: string;
  name: string;
}

/**
 * The registrable domain of a lower-cased host under a suffix of the ICANN section of the
 * Public Suffix List: `join.skype.co.uk` -> `skype.co.uk` (name `skype`). `null` for IP
 * addresses, bare suffixes (`co.uk`) and hosts whose last label is no top-level domain (an
 * Android package such as `com.slack`). The list's private section is left out on purpose:
 * `someone.blogspot.com` is part of `blogspot.com`, the service source lists name.
 * @example registrableDomain('lm.facebook.com') // { domain: 'facebook.com', name: 'facebook' }
 * @example registrableDomain('facebook.com.evil.test') // null (`test` is no public suffix)
 */
export function registrableDomain(host: string): Registrable | null {
  const parsed = parse(host, { extractHostname: false });
  if (parsed.isIcann !== true || parsed.domain === null || parsed.domainWithoutSuffix === null) return null;
  return { domain: parsed.domain, name: parsed.domainWithoutSuffix };
}

/** First label of an Android package name: a generic or country top-level domain (`com`, `org`, `jp`). */
const PACKAGE_ROOT = /^[a-z]{2,3}$/;

/**
 * The publisher's domain that an Android app's package name spells backwards, by Java's
 * naming convention (`com.facebook.katana` is published by `facebook.com`), or `null` when
 * `id` is not shaped like a package: its first label must be a 2- or 3-letter top-level
 * domain and its first two labels, reversed, a registrable domain. Apps refer as
 * `android-app://<package>/`, and `referrerHost` keeps the package.
 * @example appPublisherDomain('org.telegram.messenger') // 'telegram.org'
 * @example appPublisherDomain('example.com') // null (`example` is no top-level domain)
 */
export function appPublisherDomain(id: string): string | null {
  const dot = id.indexOf('.');
  if (dot < 2 || dot > 3) return null; // most hosts end here, without a cut string
  const root = id.slice(0, dot);
  const next = id.indexOf('.', dot + 1);
  const name = next < 0 ? id.slice(dot + 1) : id.slice(dot + 1, next);
  if (name === '' || !PACKAGE_ROOT.test(root)) return null;
  const domain = `${name}.${root}`;
  return registrableDomain(domain)?.domain === domain ? domain : null;
}

/**
 * The name of the site a host or an Android package belongs to: its registrable domain's
 * name, else, for a package, its publisher's (`google` for `news.google.co.uk` and for
 * `com.google.android.googlequicksearchbox`). `null` when it has neither.
 * @example siteName('lm.facebook.com') // 'facebook'
 */
export function siteName(host: string): string | null {
  const publisher = appPublisherDomain(host);
  return registrableDomain(host)?.name ?? (publisher === null ? null : (registrableDomain(publisher)?.name ?? null));
}
