import { ALL_SCOPES, Public } from '@app/auth';
import { APP_CONFIG, AppConfig } from '@app/config';
import { Controller, Get, Header, Inject, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { GRANT_TYPES } from './oauth-request';

/** RFC 8414 authorization server metadata. */
@Public()
@Controller('.well-known/oauth-authorization-server')
export class DiscoveryController {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  @Get()
  @Header('cache-control', 'public, max-age=3600')
  metadata(@Req() request: FastifyRequest) {
    // PUBLIC_BASE_URL when set; otherwise the request's own address (X-Forwarded-* only from trusted proxies).
    const issuer = this.config.publicBaseUrl ?? `${request.protocol}://${request.host}`;
    const authMethods = ['client_secret_basic', 'client_secret_post'];
    return {
      issuer,
      token_endpoint: `${issuer}/oauth/token`,
      revocation_endpoint: `${issuer}/oauth/revoke`,
      introspection_endpoint: `${issuer}/oauth/introspect`,
      grant_types_supported: [...GRANT_TYPES],
      response_types_supported: [],
      token_endpoint_auth_methods_supported: authMethods,
      revocation_endpoint_auth_methods_supported: authMethods,
      introspection_endpoint_auth_methods_supported: authMethods,
      scopes_supported: ALL_SCOPES,
    };
  }
}
