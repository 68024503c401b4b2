/** The session cookie: scoped to /console so the browser never sends it to /v1 or /admin. */
export const SESSION_COOKIE = 'cd_console';
/** The double-submit token of the sign-in form (a login CSRF guard before any session exists). */
export const SIGNIN_COOKIE = 'cd_console_signin';
const CONSOLE_PATH = '/console';

export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (!name || name in out) continue;
    try {
      out[name] = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      // a malformed value is ignored like an absent cookie
    }
  }
  return out;
}

export interface CookieOptions {
  secure: boolean;
  /** Seconds; 0 deletes the cookie. Unset: a browser-session cookie. */
  maxAge?: number;
}

/** HttpOnly and SameSite=Lax always (Lax so an SSO redirect back still carries it), Secure behind TLS. */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${CONSOLE_PATH}`, 'HttpOnly', 'SameSite=Lax'];
  if (options.maxAge !== undefined) parts.push(`Max-Age=${options.maxAge}`);
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}
