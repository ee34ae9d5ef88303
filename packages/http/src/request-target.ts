/**
 * The request target (`req.url`) as the API reads it. Node hands over whatever the client
 * wrote after the method, `#fragment` and malformed `//authority` forms included, so it is
 * parsed once here and everything else (routing, the key, validation, the log) reads only
 * the parsed result.
 */

/** The parts of a request target the API uses. */
export interface RequestTarget {
  /** The path, dot segments resolved and percent-encoding kept (as the WHATWG URL parser gives it). */
  pathname: string;
  /** The query parameters, names and values percent-decoded. */
  searchParams: URLSearchParams;
}

/**
 * Parses an origin-form target (`/path?query`) or an absolute-form one
 * (`https://host/path?query`); `undefined` for anything else (`*`, `host:port`, an absolute
 * URL the parser refuses). An origin-form target is always a path on this server, also when
 * it starts with `//` (which a URL parser would read as another host): `//%zz/` is the path
 * `//%zz/`. The fragment is never part of the result.
 * @example parseRequestTarget('/api/v1/stats?site_id=ST-a#x')?.searchParams.get('site_id') // 'ST-a'
 * @example parseRequestTarget('//%zz/')?.pathname // '//%zz/'
 */
export function parseRequestTarget(target: string): RequestTarget | undefined {
  let url: URL;
  try {
    if (target.startsWith('/')) url = new URL(`https://localhost${target}`);
    else if (/^https?:\/\//i.test(target)) url = new URL(target);
    else return undefined;
  } catch {
    return undefined;
  }
  return { pathname: url.pathname, searchParams: url.searchParams };
}
