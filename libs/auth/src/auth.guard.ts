import { APP_CONFIG, AppConfig } from '@app/config';
import { DomainError } from '@app/http';
import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiKeyService } from './api-key.service';
import { AUTH_KIND, AuthKind } from './auth.decorators';
import { bearerToken, safeEqual } from './bearer';
import { RequestWithPrincipal } from './principal';

interface AuthRequest extends RequestWithPrincipal {
  headers: Record<string, string | string[] | undefined>;
}

/** Default-deny: every route needs a workspace credential unless marked @Public() or @AdminOnly(). */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeyService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const kind =
      this.reflector.getAllAndOverride<AuthKind | undefined>(AUTH_KIND, [context.getHandler(), context.getClass()]) ??
      'workspace';
    if (kind === 'public') return true;
    const request = context.switchToHttp().getRequest<AuthRequest>();
    const token = bearerToken(request.headers.authorization);
    if (kind === 'admin') return this.checkAdmin(token);
    if (!token) throw new DomainError('unauthorized', 'Missing bearer token: send Authorization: Bearer <api key>');
    const principal = await this.apiKeys.authenticate(token);
    if (!principal) throw new DomainError('unauthorized', 'Invalid or revoked bearer token');
    request.principal = principal;
    return true;
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
