import { APP_CONFIG, AppConfig } from '@app/config';
import { DomainError } from '@app/kernel';
import { CanActivate, ExecutionContext, Inject, Injectable, Type } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  ANY_SCOPE,
  AUTH_KIND,
  AuthKind,
  CONNECT_SESSION_ALLOWED,
  SCOPE_RESOURCE,
  ScopeResource,
} from './auth.decorators';
import { bearerToken, safeEqual } from './bearer';
import { CredentialResolvers } from './credential-resolvers';
import { Principal, RequestWithPrincipal } from './principal';

/** A controller method, as Nest's execution context and the reflector know it. */
type RouteHandler = ReturnType<ExecutionContext['getHandler']>;

/** What a route's decorators say about its credentials; read once per handler, not per request. */
interface RouteAuth {
  kind: AuthKind;
  connectSessionAllowed: boolean;
  scope: ScopeResource | typeof ANY_SCOPE | undefined;
}

interface AuthRequest extends RequestWithPrincipal {
  method: string;
  headers: Record<string, string | string[] | undefined>;
  params?: Record<string, string | undefined>;
}

/** Default-deny: every route needs a workspace credential unless marked @Public() or @AdminOnly(). */
@Injectable()
export class AuthGuard implements CanActivate {
  /** By controller class, then handler (a handler inherited by two controllers gets two entries). */
  private readonly routes = new WeakMap<object, WeakMap<object, RouteAuth>>();

  constructor(
    private readonly reflector: Reflector,
    private readonly credentials: CredentialResolvers,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const { kind, connectSessionAllowed, scope } = this.routeAuth(context);
    if (kind === 'public') return true;
    const request = context.switchToHttp().getRequest<AuthRequest>();
    const token = bearerToken(request.headers.authorization);
    if (kind === 'admin') return this.checkAdmin(token);
    if (!token) throw new DomainError('unauthorized', 'Missing bearer token: send Authorization: Bearer <token>');
    const principal = await this.credentials.authenticate(token);
    if (!principal) throw new DomainError('unauthorized', 'Invalid, expired or revoked bearer token');
    const denied = this.denial(principal, request, { kind, connectSessionAllowed, scope });
    if (denied) throw denied;
    request.principal = principal;
    return true;
  }

  /**
   * For a fast path that answers before Nest's pipeline: sets the principal and answers true when
   * the route takes a workspace credential, the token's principal is known in memory and the route
   * admits it; answers false otherwise (the request then meets this guard as usual, which
   * authenticates it or answers the error).
   */
  authorizeCached(request: AuthRequest, controller: Type, handler: RouteHandler): boolean {
    const route = this.routeAuthOf(controller, handler);
    if (route.kind !== 'workspace') return false;
    const token = bearerToken(request.headers.authorization);
    const principal = token ? this.credentials.cached(token) : undefined;
    if (!principal || this.denial(principal, request, route)) return false;
    request.principal = principal;
    return true;
  }

  private denial(principal: Principal, request: AuthRequest, route: RouteAuth): DomainError | undefined {
    return (
      this.connectSessionDenial(principal, request, route.connectSessionAllowed) ??
      this.scopeDenial(principal, request.method, route.scope)
    );
  }

  private routeAuth(context: ExecutionContext): RouteAuth {
    return this.routeAuthOf(context.getClass(), context.getHandler());
  }

  private routeAuthOf(controller: Type, handler: RouteHandler): RouteAuth {
    let handlers = this.routes.get(controller);
    if (!handlers) this.routes.set(controller, (handlers = new WeakMap()));
    let route = handlers.get(handler);
    if (!route) {
      const targets = [handler, controller];
      route = {
        kind: this.reflector.getAllAndOverride<AuthKind | undefined>(AUTH_KIND, targets) ?? 'workspace',
        connectSessionAllowed: this.reflector.getAllAndOverride<boolean>(CONNECT_SESSION_ALLOWED, targets) ?? false,
        scope: this.reflector.getAllAndOverride<ScopeResource | typeof ANY_SCOPE>(SCOPE_RESOURCE, targets),
      };
      handlers.set(handler, route);
    }
    return route;
  }

  private connectSessionDenial(principal: Principal, request: AuthRequest, allowed: boolean): DomainError | undefined {
    if (principal.kind !== 'connect_session') return undefined;
    if (!allowed) return new DomainError('forbidden', 'A connect-session token cannot call this endpoint');
    if (request.params?.id !== principal.domainId) {
      return new DomainError('forbidden', 'This connect-session token is scoped to another domain');
    }
    return undefined;
  }

  private scopeDenial(
    principal: Principal,
    method: string,
    resource: ScopeResource | typeof ANY_SCOPE | undefined,
  ): DomainError | undefined {
    if (!principal.scopes || principal.kind === 'connect_session' || resource === ANY_SCOPE) return undefined;
    if (!resource) return new DomainError('forbidden', 'This endpoint is not available to scoped tokens');
    const needed = `${resource}:${method === 'GET' || method === 'HEAD' ? 'read' : 'write'}`;
    if (!principal.scopes.includes(needed)) {
      return new DomainError('forbidden', `This token lacks the ${needed} scope`, { requiredScope: needed });
    }
    return undefined;
  }

  private checkAdmin(token: string | undefined): boolean {
    if (!this.config.adminToken) {
      throw new DomainError('forbidden', 'The admin API is disabled: set ADMIN_TOKEN to enable it');
    }
    if (!token || !safeEqual(token, this.config.adminToken)) {
      throw new DomainError('unauthorized', 'Missing or invalid admin token');
    }
    return true;
  }
}
