import { BadRequestException, NotFoundException } from '@nestjs/common';
import { DomainError, ErrorCode } from '@app/kernel';
import { mapError } from './error-envelope';
import { statusOf } from './error-status';

describe('mapError', () => {
  it('maps domain errors by code and keeps details', () => {
    const mapped = mapError(new DomainError('conflict', 'taken', { hostname: 'a.example.com' }));
    expect(mapped).toEqual({
      status: 409,
      body: { error: 'conflict', message: 'taken', details: { hostname: 'a.example.com' } },
      unexpected: false,
    });
  });

  it.each<[ErrorCode, number]>([
    ['bad_request', 400],
    ['preflight_failed', 400],
    ['unauthorized', 401],
    ['billing_required', 402],
    ['forbidden', 403],
    ['not_found', 404],
    ['unavailable', 409],
    ['price_changed', 409],
    ['idempotency_key_reused', 422],
    ['rate_limited', 429],
    ['internal_error', 500],
    ['registration_failed', 502],
    ['service_unavailable', 503],
  ])('gives %s the status %i', (code, status) => {
    expect(statusOf(code)).toBe(status);
  });

  it('maps Fastify request errors', () => {
    expect(mapError({ code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 }).status).toBe(413);
    expect(mapError({ code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', statusCode: 415 }).body.error).toBe('bad_request');
  });

  it('maps Nest HTTP exceptions', () => {
    expect(mapError(new NotFoundException()).body).toEqual({ error: 'not_found', message: 'No such route' });
    expect(mapError(new BadRequestException('x')).status).toBe(400);
  });

  it('answers 400 to a value PostgreSQL can never store, 503 only to a database that is away', () => {
    const pg = (code: string, message: string) => Object.assign(new Error(message), { code });
    for (const code of ['22021', '22P05', '08P01', '22008', '22009', '22003', '22001']) {
      const mapped = mapError(pg(code, 'from postgres'));
      expect([code, mapped.status, mapped.body.error, mapped.retryAfter]).toEqual([
        code,
        400,
        'bad_request',
        undefined,
      ]);
      expect(mapped.body.message).not.toContain('from postgres');
    }
    for (const code of ['ECONNREFUSED', '57P01', '57P03', '53300', '08006']) {
      expect([code, mapError(pg(code, 'down')).status]).toEqual([code, 503]);
    }
    expect(mapError(new Error('Knex: Timeout acquiring a connection. The pool is probably full.')).status).toBe(503);
  });

  it('hides anything unexpected behind internal_error', () => {
    const mapped = mapError(new Error('select * from secrets'));
    expect(mapped).toEqual({
      status: 500,
      body: { error: 'internal_error', message: 'Something went wrong on our side' },
      unexpected: true,
    });
  });
});
