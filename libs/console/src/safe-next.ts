/** Where a sign-in lands when `next` is missing or not a console page. */
const CONSOLE_HOME = '/console';

/** A fixed base: `next` is resolved against it and must stay on it. */
const BASE = new URL('http://console.invalid');
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * The page to return to after sign-in (password or SSO): only a path of this console, parsed as a
 * URL (WHATWG, against a fixed base) and given back normalized, so neither an open redirect
 * (`//evil.com`, `/console/../..//evil.com`, `/console\evil.com`) nor a header injection (CR/LF)
 * gets through. Anything else is the console's home.
 */
export function safeNext(next: string | undefined): string {
  if (!next || next.length > 2048 || !next.startsWith('/') || next.includes('\\') || CONTROL.test(next)) {
    return CONSOLE_HOME;
  }
  let url: URL;
  try {
    url = new URL(next, BASE);
  } catch {
    return CONSOLE_HOME;
  }
  const path = url.pathname;
  if (url.origin !== BASE.origin || path.includes('//')) return CONSOLE_HOME;
  if (path !== CONSOLE_HOME && !path.startsWith(`${CONSOLE_HOME}/`)) return CONSOLE_HOME;
  return `${path}${url.search}`;
}

/**
 * Where a form posted without a live session came from (its Referer, sent same-origin only by the
 * console's referrer policy), as a page to return to after sign-in; the console's home otherwise.
 */
export function returnAfterPost(referer: string | undefined): string {
  if (!referer) return CONSOLE_HOME;
  try {
    const url = new URL(referer);
    return safeNext(`${url.pathname}${url.search}`);
  } catch {
    return CONSOLE_HOME;
  }
}
