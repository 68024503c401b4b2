import { RegistrarRefusedError, RegistrarUnavailableError } from '../registrar.port';

/** Namecheap's numbers for "we do not hold this domain" (getInfo, getHosts, renew...). */
export const DOMAIN_NOT_FOUND = new Set(['2019166', '2016166']);

/**
 * Numbers that say Namecheap or its upstream provider failed, not that the request was wrong: the same call
 * may succeed later. Namecheap's published lists use 4xxxxxx for its own internal failures ("Failed to update
 * years", "Error occured while domain renewal"), 5xxxxxx for unhandled exceptions, and a few "unknown
 * response from provider" numbers. Everything else (1xxxxxx account/auth, 2xxxxxx validation and policy,
 * 3xxxxxx provider refusals such as 3031510) is a permanent refusal carrying the registrar's own text.
 */
const TRANSIENT = new Set(['1050900', '3011511', '3031900', '3050511', '3050900']);

export interface NamecheapError {
  number: string;
  text: string;
}

function isTransient(error: NamecheapError): boolean {
  return TRANSIENT.has(error.number) || /^[45]/.test(error.number);
}

export function mapNamecheapError(command: string, error: NamecheapError): Error {
  if (isTransient(error)) {
    return new RegistrarUnavailableError(`Namecheap ${command} failed (${error.number}): ${error.text}`);
  }
  return new RegistrarRefusedError(error.text, error.number);
}

/** Namecheap answers with errors inside an HTTP 200; the client throws this and callers decide. */
export class NamecheapApiError extends Error {
  constructor(
    readonly command: string,
    readonly errors: NamecheapError[],
  ) {
    super(errors.map((e) => `${e.text} (${e.number})`).join('; '));
    this.name = 'NamecheapApiError';
  }

  has(numbers: Set<string>): boolean {
    return this.errors.some((e) => numbers.has(e.number));
  }

  /** The port's error for this answer: transient if any error is, otherwise a refusal with the first text. */
  toPortError(): Error {
    const transient = this.errors.find(isTransient);
    return mapNamecheapError(this.command, transient ?? this.errors[0] ?? { number: '', text: 'Unknown error' });
  }
}
