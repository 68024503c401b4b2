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

  it('hides anything unexpected behind internal_error', () => {
    const mapped = mapError(new Error('select * from secrets'));
    expect(mapped).toEqual({
      status: 500,
      body: { error: 'internal_error', message: 'Something went wrong on our side' },
      unexpected: true,
    });
  });
});
