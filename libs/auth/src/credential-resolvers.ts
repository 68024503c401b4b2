import { Injectable } from '@nestjs/common';
import { Principal } from './principal';

/** Turns a bearer token into a principal, or undefined when the token is not one of its kind or not valid. */
export interface CredentialResolver {
  /** Cheap check (a prefix) so the guard asks only the resolver that can know the token. */
  recognizes(token: string): boolean;
  authenticate(token: string): Promise<Principal | undefined>;
}

/**
 * Every credential kind registers here at module init (API keys, OAuth access tokens, connect sessions),
 * so the guard stays one piece and a new kind needs no change to it.
 */
@Injectable()
export class CredentialResolvers {
  private readonly resolvers: CredentialResolver[] = [];

  register(resolver: CredentialResolver): void {
    this.resolvers.push(resolver);
  }

  async authenticate(token: string): Promise<Principal | undefined> {
    const resolver = this.resolvers.find((candidate) => candidate.recognizes(token));
    return resolver ? resolver.authenticate(token) : undefined;
  }
}
