/** A request's origin-form target: the raw path (never decoded or normalized) and the query. */
export interface RequestTarget {
  path: string;
  /** Without the `?`; empty when there is none. */
  query: string;
}

/** Splits `req.url`; undefined for the asterisk and absolute forms, which the edge refuses (400). */
export function parseRequestTarget(url: string | undefined): RequestTarget | undefined {
  if (!url || url[0] !== '/') return undefined;
  const hash = url.indexOf('#');
  const target = hash === -1 ? url : url.slice(0, hash);
  const mark = target.indexOf('?');
  return mark === -1 ? { path: target, query: '' } : { path: target.slice(0, mark), query: target.slice(mark + 1) };
}

/**
 * The path and query to use at an origin URL: the origin's path without its trailing slashes,
 * then the request path; the origin's query, then the request's, joined by `&`. The origin URL's
 * fragment is dropped. `https://o.example/base?a=1` + `/x/y?b=2` -> `/base/x/y?a=1&b=2`;
 * `https://o.example` + `/` -> `/`. Plain concatenation: a request path like `//evil.example`
 * stays a path on the origin, never a new host.
 */
export function originPath(origin: URL, target: RequestTarget): string {
  const path = origin.pathname.replace(/\/+$/, '') + target.path;
  const query = [origin.search.slice(1), target.query].filter(Boolean).join('&');
  return query ? `${path}?${query}` : path;
}

/** Redirect mode's Location: the origin's scheme, host and port, then `originPath`. */
export function redirectLocation(origin: URL, target: RequestTarget): string {
  return `${origin.protocol}//${origin.host}${originPath(origin, target)}`;
}

/** The same request on HTTPS (port 443) of `hostname`. */
export function httpsLocation(hostname: string, target: RequestTarget): string {
  return `https://${hostname}${target.path}${target.query ? `?${target.query}` : ''}`;
}
