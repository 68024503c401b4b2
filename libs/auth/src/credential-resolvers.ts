import { Injectable } from '@nestjs/common';
import { Principal } from './principal';

/** Turns a bearer token into a principal, or undefined when the token is not one of its kind or not valid. */
export interface CredentialResolver {
  /** Cheap check (a prefix) so the guard asks only the resolver that can know the token. */
  recognizes(token: string): boolean;
  authenticate(token: string): Promise<Principal | undefined>;
  /**
   * The principal when it is already known in memory and trusted (no I/O), else undefined: lets a
   * fast path answer without waiting. Optional; a resolver without it never takes a fast path.
   */
  cached?(token: string): Principal | undefined;
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
    return this.resolverOf(token)?.authenticate(token);
  }

  /** A principal known in memory (see CredentialResolver.cached), without I/O. */
  cached(token: string): Principal | undefined {
    return this.resolverOf(token)?.cached?.(token);
  }

  private resolverOf(token: string): CredentialResolver | undefined {
    return this.resolvers.find((candidate) => candidate.recognizes(token));
  }
}
