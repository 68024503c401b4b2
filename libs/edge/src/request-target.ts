/** A request's origin-form target: the path without dot-segments (never decoded otherwise) and the query. */
export interface RequestTarget {
  path: string;
  /** Without the `?`; empty when there is none. */
  query: string;
}

/**
 * Splits `req.url` and removes the path's dot-segments; undefined (the edge answers 400) for the
 * asterisk and absolute forms, and for a path that hides a climb in an encoded separator.
 */
export function parseRequestTarget(url: string | undefined): RequestTarget | undefined {
  if (!url || url[0] !== '/') return undefined;
  const hash = url.indexOf('#');
  const target = hash === -1 ? url : url.slice(0, hash);
  const mark = target.indexOf('?');
  const raw = mark === -1 ? target : target.slice(0, mark);
  const path = withoutDotSegments(raw);
  if (path === undefined) return undefined;
  return { path, query: mark === -1 ? '' : target.slice(mark + 1) };
}

/** `.` or `..`, also percent-encoded (`%2e`, RFC 3986 section 6.2.2.2 makes them the same). */
const dotSegment = (segment: string): '.' | '..' | undefined => {
  const plain = segment.replace(/%2e/gi, '.');
  return plain === '.' || plain === '..' ? plain : undefined;
};

/** A segment that an origin decoding `%2f` or `%5c` (or treating `\` as `/`) would read as a climb. */
const hiddenClimb = (segment: string): boolean => {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    decoded = segment;
  }
  return decoded.split(/[/\\]/).some((part, _i, parts) => parts.length > 1 && (part === '..' || part === '.'));
};

/**
 * RFC 3986 section 5.2.4 on the raw path: `/a/./b/../c` -> `/a/c`, never above `/`, so a proxied
 * request stays under the origin's base path (`/../456` at `https://o/tenants/123` must not reach
 * `/tenants/456`). Undefined when a segment hides `..` behind an encoded separator (`..%2f`).
 */
export function withoutDotSegments(path: string): string | undefined {
  const segments = path.split('/').slice(1);
  const out: string[] = [];
  for (const [index, segment] of segments.entries()) {
    if (hiddenClimb(segment)) return undefined;
    const dot = dotSegment(segment);
    const last = index === segments.length - 1;
    if (dot === '..') out.pop();
    if (dot) {
      if (last) out.push('');
      continue;
    }
    out.push(segment);
  }
  return `/${out.join('/')}`;
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
