import { AppConfig } from '@app/config';
import { DomainError } from '@app/kernel';
import type { FastifyReply } from 'fastify';
import { timingSafeEqual, createHash } from 'node:crypto';
import { ConsoleRequest } from './console-request';
import { ConsoleSessions } from './console-sessions.store';
import { SESSION_COOKIE, serializeCookie } from './cookies';

/** Secure cookies when the browser talks TLS to us (directly, or through a trusted proxy) or the public URL is https. */
export function consoleCookieSecure(request: ConsoleRequest, config: AppConfig): boolean {
  return request.protocol === 'https' || Boolean(config.publicBaseUrl?.startsWith('https:'));
}

/** Opens a server-side session and sets its cookie; a disabled user gets none (403). */
export async function startSession(
  sessions: ConsoleSessions,
  request: ConsoleRequest,
  reply: FastifyReply,
  config: AppConfig,
  userId: string,
): Promise<void> {
  const opened = await sessions.open(userId);
  if (!opened) throw new DomainError('forbidden', 'This console user is disabled. Ask an operator to enable it.');
  const { token, maxAgeSeconds } = opened;
  void reply.header(
    'set-cookie',
    serializeCookie(SESSION_COOKIE, token, { secure: consoleCookieSecure(request, config), maxAge: maxAgeSeconds }),
  );
}

/** Compares secrets by their hashes, so neither their content nor their length leaks through timing. */
export function bearerSafeEqual(given: string | undefined, expected: string): boolean {
  if (!given) return false;
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
