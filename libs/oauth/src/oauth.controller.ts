import { Public } from '@app/auth';
import { DomainError } from '@app/kernel';
import { Body, Controller, Header, Headers, HttpCode, Post, UseFilters } from '@nestjs/common';
import { OAuthErrorFilter } from './oauth-error.filter';
import { OAuthBody, checkGrantType, clientCredentials, param } from './oauth-request';
import { OAuthTokens } from './oauth-tokens.service';

/**
 * The token (RFC 6749, client credentials), revocation (RFC 7009) and introspection (RFC 7662)
 * endpoints. Bodies are form-encoded (JSON accepted too) and parsed by hand: RFC 6749 asks to
 * ignore unknown parameters, which the global pipe would refuse.
 */
@Public()
@Controller('oauth')
@UseFilters(OAuthErrorFilter)
export class OAuthController {
  constructor(private readonly tokens: OAuthTokens) {}

  @Post('token')
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  @Header('pragma', 'no-cache')
  async token(@Headers('authorization') authorization: string | undefined, @Body() body: OAuthBody) {
    const credentials = clientCredentials(authorization, body);
    const scope = param(body, 'scope');
    const client = await this.tokens.authenticateClient(credentials);
    checkGrantType(body);
    return this.tokens.issue(client, scope);
  }

  @Post('revoke')
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  async revoke(@Headers('authorization') authorization: string | undefined, @Body() body: OAuthBody) {
    const client = await this.tokens.authenticateClient(clientCredentials(authorization, body));
    await this.tokens.revoke(client, requiredToken(body));
    return {};
  }

  @Post('introspect')
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  @Header('pragma', 'no-cache')
  async introspect(@Headers('authorization') authorization: string | undefined, @Body() body: OAuthBody) {
    const client = await this.tokens.authenticateClient(clientCredentials(authorization, body));
    return this.tokens.introspect(client, requiredToken(body));
  }
}

/** `token` is required; `token_type_hint` may be anything (RFC 7009 2.1: the server may ignore it). */
function requiredToken(body: OAuthBody): string {
  param(body, 'token_type_hint');
  const token = param(body, 'token');
  if (!token) throw new DomainError('invalid_request', 'The token parameter is required', { parameter: 'token' });
  return token;
}
