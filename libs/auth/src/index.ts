export {
  ALL_SCOPES,
  ANY_SCOPE,
  AUTH_KIND,
  AdminOnly,
  AnyScope,
  type AuthKind,
  CONNECT_SESSION_ALLOWED,
  ConnectSessionAllowed,
  Public,
  SCOPE_RESOURCE,
  type ScopeResource,
  ScopeResourceOf,
} from './auth.decorators';
export { AuthGuard } from './auth.guard';
export { AuthModule } from './auth.module';
export { safeEqual } from './bearer';
export { type CredentialResolver, CredentialResolvers } from './credential-resolvers';
export { CurrentPrincipal, type Principal, type RequestWithPrincipal } from './principal';
