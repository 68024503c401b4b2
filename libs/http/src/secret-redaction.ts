/**
 * Secrets never reach a log line. Three nets, all applied to every line written (log-output.ts) and
 * to the request line's URL (request-log.ts):
 * - by shape: the credentials this service issues carry a prefix (`sk_live_` API keys of
 *   libs/api-keys, `whsec_` webhook secrets of libs/webhooks, `ocs_` OAuth client secrets and
 *   `oat_` access tokens of libs/oauth, `cs_` + a JWT for connect sessions of libs/connect-sessions),
 *   and any other JWT (an SSO id token) is found by its `eyJ...` header;
 * - by name: the value of a query parameter whose name says it is secret (`token`, `access_token`,
 *   `api_key`, `client_secret`, `password`, `code` of an OAuth/OIDC callback, ...);
 * - by value: secrets the process holds without a shape (the admin token, signing and encryption
 *   keys), registered at start with `registerLogSecret`.
 */
const REDACTED = '[Redacted]';

/** Prefixed credentials (prefix kept, so a reader still sees which kind it was) and bare JWTs. */
const SHAPES =
  /\b(sk_(?:live|test)_|whsec_|ocs_|oat_)[0-9A-Za-z]{16,}|\b(cs_)eyJ[\w-]*\.[\w-]*\.[\w-]*|\beyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]*/g;

/** `?name=value` / `&name=value` where the name says secret; the value ends at `&`, `#`, a quote or a space. */
const SECRET_PARAMS =
  /([?&;](?:[\w.-]*(?:token|secret|password|passwd|api[_-]?key|apikey|credential|signature)|key|code|code_verifier|sig|session)=)[^&#;\s"'\\]*/gi;

const known = new Set<string>();

/** A secret without a recognizable shape (the admin token): its value is cut from every line. */
export function registerLogSecret(value: string | undefined): void {
  if (!value || value.length < 8) return;
  known.add(value);
  // As it appears inside a JSON string, should it hold a quote or a backslash.
  known.add(JSON.stringify(value).slice(1, -1));
}

export function redactSecrets(text: string): string {
  let out = text
    .replace(SHAPES, (_match, prefix?: string, sessionPrefix?: string) => `${prefix ?? sessionPrefix ?? ''}${REDACTED}`)
    .replace(SECRET_PARAMS, `$1${REDACTED}`);
  for (const secret of known) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

/** A request URL as the request log shows it. */
export const redactUrl = (url: string): string => redactSecrets(url);
