import { IssuanceError, classifyIssuanceError } from './issuance-failure';

const now = new Date('2026-11-27T10:00:00Z');
const problem = (kinds: string[], step: string, extra: Partial<IssuanceError> = {}): IssuanceError => ({
  source: 'problem',
  kinds,
  status: 403,
  detail: 'detail',
  step,
  ...extra,
});

describe('classifyIssuanceError', () => {
  it.each([
    ['a network error', { source: 'network' as const, kinds: [], detail: 'ECONNREFUSED' }, 'ca_unavailable', true],
    ['a rate limit', problem(['rateLimited'], 'new order', { status: 429 }), 'ca_rate_limited', true],
    ['HTTP-01 refused', problem(['connection'], 'validation of a.example.com'), 'validation_failed', false],
    ['a wrong answer', problem(['unauthorized'], 'validation of a.example.com'), 'validation_failed', false],
    ['CAA seen by the CA', problem(['caa'], 'validation of a.example.com'), 'ca_refused', true],
    ['a policy refusal', problem(['rejectedIdentifier'], 'new order'), 'ca_refused', true],
    ['a refusal in a subproblem', problem(['malformed', 'rejectedIdentifier'], 'new order'), 'ca_refused', true],
    ['EAB missing', problem(['externalAccountRequired'], 'account registration'), 'ca_account', true],
    ['EAB wrong', problem(['unauthorized'], 'account registration'), 'ca_account', true],
    ['a CA error', problem(['serverInternal'], 'finalization', { status: 500 }), 'ca_unavailable', true],
    ['an unknown problem', problem(['badCSR'], 'finalization', { status: 400 }), 'ca_error', true],
    ['our own failure', { source: 'internal' as const, kinds: [], detail: 'database down' }, 'internal_error', false],
  ])('%s', (_case, error, code, tryNextIssuer) => {
    expect(classifyIssuanceError(error, 1, now)).toMatchObject({ code, tryNextIssuer });
  });

  it('waits as long as the CA says, else by its own back-off', () => {
    const retryAfter = new Date('2026-11-27T13:00:00Z');
    expect(classifyIssuanceError(problem(['rateLimited'], 'new order', { retryAfter }), 1, now).retryAt).toEqual(
      retryAfter,
    );
    expect(classifyIssuanceError(problem(['rateLimited'], 'new order'), 1, now).retryAt).toEqual(
      new Date('2026-11-27T11:00:00Z'),
    );
    const network: IssuanceError = { source: 'network', kinds: [], detail: 'x' };
    expect(classifyIssuanceError(network, 1, now).retryAt).toEqual(new Date('2026-11-27T10:01:00Z'));
    expect(classifyIssuanceError(network, 3, now).retryAt).toEqual(new Date('2026-11-27T10:04:00Z'));
    expect(classifyIssuanceError(network, 30, now).retryAt).toEqual(new Date('2026-11-27T11:00:00Z'));
  });
});
