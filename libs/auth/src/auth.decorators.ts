import { SetMetadata } from '@nestjs/common';

export const AUTH_KIND = 'auth:kind';
/** Routes are workspace-authenticated unless marked otherwise. */
export type AuthKind = 'workspace' | 'public' | 'admin';

/** No credentials needed (health, keyless tools). */
export const Public = () => SetMetadata(AUTH_KIND, 'public' satisfies AuthKind);
/** Only the operator's ADMIN_TOKEN; workspace keys never pass. */
export const AdminOnly = () => SetMetadata(AUTH_KIND, 'admin' satisfies AuthKind);

export const SCOPE_RESOURCE = 'auth:scope-resource';
/** The scope resources a scoped credential (OAuth token) can be granted, as `<resource>:read|write`. */
const SCOPE_RESOURCES = ['domains', 'purchases', 'webhooks', 'projects', 'dns'] as const;
export type ScopeResource = (typeof SCOPE_RESOURCES)[number];
/** Every scope there is, e.g. `domains:read`, `domains:write`. */
export const ALL_SCOPES: readonly string[] = SCOPE_RESOURCES.flatMap((r) => [`${r}:read`, `${r}:write`]);

/**
 * The resource a controller (or handler) acts on. A scoped token needs `<resource>:read` for GET/HEAD and
 * `<resource>:write` for everything else; a route without a resource refuses scoped tokens (default deny).
 */
export const ScopeResourceOf = (resource: ScopeResource) => SetMetadata(SCOPE_RESOURCE, resource);

/** Marks a route any workspace credential may read whatever its scopes (it shows only who the caller is). */
export const ANY_SCOPE = '*';
export const AnyScope = () => SetMetadata(SCOPE_RESOURCE, ANY_SCOPE);

export const CONNECT_SESSION_ALLOWED = 'auth:connect-session-allowed';
/**
 * Connect-session tokens may call this route, and only for the domain in the route's `:id`.
 * Every other route answers them 403 (SPEC 4.2 rule 3).
 */
export const ConnectSessionAllowed = () => SetMetadata(CONNECT_SESSION_ALLOWED, true);
