import { SetMetadata } from '@nestjs/common';

export const AUTH_KIND = 'auth:kind';
/** Routes are workspace-authenticated unless marked otherwise. */
export type AuthKind = 'workspace' | 'public' | 'admin';

/** No credentials needed (health, keyless tools). */
export const Public = () => SetMetadata(AUTH_KIND, 'public' satisfies AuthKind);
/** Only the operator's ADMIN_TOKEN; workspace keys never pass. */
export const AdminOnly = () => SetMetadata(AUTH_KIND, 'admin' satisfies AuthKind);
