import { ChargeRequest, PaymentDeclinedError, RefundRefusedError, SandboxPayments } from '@app/payments';
import { ProviderModule, startProviderModule } from './fakes';

function chargeOf(paymentMethod: string, idempotencyKey: string, amountCents = 2598): ChargeRequest {
  return {
    paymentMethod,
    amountCents,
    currency: 'USD',
    idempotencyKey,
    description: 'Domain registration example.com (1 year)',
    metadata: { purchaseId: 'dp_test', step: 'charge' },
  };
}

async function rejection<T>(promise: Promise<unknown>, type: new (...args: any[]) => T): Promise<T> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(type);
  return error as T;
}

describe('Sandbox payments (PostgreSQL-backed)', () => {
  let env: ProviderModule;
  beforeAll(async () => {
    env = await startProviderModule();
  });
  afterAll(() => env?.close());

  const chargeRows = (key: string) =>
    env.db.query('select id, status, amount_cents from sandbox_charges where idempotency_key = $1', [key]);

  it('is the default payment provider', () => {
    expect(env.payments).toBeInstanceOf(SandboxPayments);
    expect(env.payments.name).toBe('sandbox');
  });

  it('describes a saved card as Stripe names its test cards; any other pm_ id is a card it cannot name', async () => {
    await expect(env.payments.card('pm_card_mastercard')).resolves.toEqual({
      paymentMethod: 'pm_card_mastercard',
      brand: 'mastercard',
      last4: '4444',
      expMonth: 12,
      expYear: 2034,
    });
    await expect(env.payments.card('pm_card_chargeDeclined')).resolves.toMatchObject({ brand: 'visa', last4: '0002' });
    await expect(env.payments.card('pm_1Abc')).resolves.toMatchObject({ brand: 'unknown', last4: '0000' });
    expect((await rejection(env.payments.card('card 4242'), PaymentDeclinedError)).reason).toBe('no_payment_method');
  });

  it('charges pm_card_visa once per idempotency key, even across nodes and concurrent twins', async () => {
    const first = await env.payments.charge(chargeOf('pm_card_visa', 'purchase:a:charge'));
    expect(first).toEqual({ chargeId: expect.stringMatching(/^pi_/), amountCents: 2598 });
    await expect(env.payments.charge(chargeOf('pm_card_visa', 'purchase:a:charge'))).resolves.toEqual(first);

    const other = await env.restart();
    try {
      await expect(other.payments.charge(chargeOf('pm_card_visa', 'purchase:a:charge'))).resolves.toEqual(first);
      const twins = await Promise.all([
        env.payments.charge(chargeOf('pm_card_visa', 'purchase:b:charge')),
        other.payments.charge(chargeOf('pm_card_visa', 'purchase:b:charge')),
      ]);
      expect(twins[0]).toEqual(twins[1]);
    } finally {
      await other.close();
    }
    expect(await chargeRows('purchase:a:charge')).toHaveLength(1);
    expect(await chargeRows('purchase:b:charge')).toHaveLength(1);
    const another = await env.payments.charge(chargeOf('pm_card_visa', 'purchase:c:charge'));
    expect(another.chargeId).not.toBe(first.chargeId);
  });

  it('refuses a reused key with different parameters, like Stripe', async () => {
    await env.payments.charge(chargeOf('pm_card_visa', 'purchase:d:charge', 1000));
    await expect(env.payments.charge(chargeOf('pm_card_visa', 'purchase:d:charge', 2000))).rejects.toThrow(
      /same parameters/,
    );
    expect(await chargeRows('purchase:d:charge')).toEqual([expect.objectContaining({ amount_cents: 1000 })]);
  });

  it.each([
    ['pm_card_chargeDeclined', 'card_declined', /declined/],
    ['pm_card_chargeDeclinedInsufficientFunds', 'insufficient_funds', /insufficient funds/],
    ['pm_card_authenticationRequired', 'authentication_required', /requires authentication/],
    ['pm_card_chargeDeclinedExpiredCard', 'card_declined', /expired/],
    ['pm_card_chargeDeclinedIncorrectCvc', 'card_declined', /security code/],
  ])('%s declines with %s, and a replay declines the same way', async (pm, reason, message) => {
    const key = `decline:${pm}`;
    const error = await rejection(env.payments.charge(chargeOf(pm, key)), PaymentDeclinedError);
    expect(error.reason).toBe(reason);
    expect(error.message).toMatch(message);
    const replay = await rejection(env.payments.charge(chargeOf(pm, key)), PaymentDeclinedError);
    expect(replay.reason).toBe(reason);
    expect(await chargeRows(key)).toEqual([expect.objectContaining({ status: 'failed' })]);
  });

  it.each(['', 'card_1234', 'tok_visa'])('%p is no saved card: no_payment_method, nothing recorded', async (pm) => {
    const error = await rejection(env.payments.charge(chargeOf(pm, `nocard:${pm}`)), PaymentDeclinedError);
    expect(error.reason).toBe('no_payment_method');
    expect(await chargeRows(`nocard:${pm}`)).toEqual([]);
  });

  it('refunds a charge once: same key replays, another key is refused', async () => {
    const charge = await env.payments.charge(chargeOf('pm_card_visa', 'purchase:r:charge'));
    const refund = await env.payments.refund({ chargeId: charge.chargeId, idempotencyKey: 'purchase:r:refund' });
    expect(refund.refundId).toMatch(/^re_/);
    await expect(
      env.payments.refund({ chargeId: charge.chargeId, idempotencyKey: 'purchase:r:refund' }),
    ).resolves.toEqual(refund);
    const twice = await rejection(
      env.payments.refund({ chargeId: charge.chargeId, idempotencyKey: 'purchase:r:refund-again' }),
      RefundRefusedError,
    );
    expect(twice.reason).toBe('charge_already_refunded');
    const rows = await env.db.query('select amount_cents from sandbox_refunds where charge_id = $1', [charge.chargeId]);
    expect(rows).toEqual([{ amount_cents: 2598 }]);
  });

  it('refunds once when twins race, and refuses unknown or failed charges', async () => {
    const charge = await env.payments.charge(chargeOf('pm_card_visa', 'purchase:t:charge'));
    const twins = await Promise.all([
      env.payments.refund({ chargeId: charge.chargeId, idempotencyKey: 'purchase:t:refund' }),
      env.payments.refund({ chargeId: charge.chargeId, idempotencyKey: 'purchase:t:refund' }),
    ]);
    expect(twins[0]).toEqual(twins[1]);

    const missing = await rejection(
      env.payments.refund({ chargeId: 'pi_doesnotexist', idempotencyKey: 'r:missing' }),
      RefundRefusedError,
    );
    expect(missing.reason).toBe('resource_missing');
    await rejection(env.payments.charge(chargeOf('pm_card_chargeDeclined', 'purchase:f:charge')), PaymentDeclinedError);
    const [failed] = await chargeRows('purchase:f:charge');
    const notRefundable = await rejection(
      env.payments.refund({ chargeId: failed.id, idempotencyKey: 'r:failed' }),
      RefundRefusedError,
    );
    expect(notRefundable.reason).toBe('charge_not_refundable');
    // A refused refund records nothing: its key stays free for a real refund.
    const fresh = await env.payments.charge(chargeOf('pm_card_visa', 'purchase:u:charge'));
    await expect(env.payments.refund({ chargeId: fresh.chargeId, idempotencyKey: 'r:missing' })).resolves.toEqual({
      refundId: expect.stringMatching(/^re_/),
    });
  });

  it('refuses a refund key reused for another charge', async () => {
    const a = await env.payments.charge(chargeOf('pm_card_visa', 'purchase:x:charge'));
    const b = await env.payments.charge(chargeOf('pm_card_visa', 'purchase:y:charge'));
    await env.payments.refund({ chargeId: a.chargeId, idempotencyKey: 'shared-refund-key' });
    await expect(env.payments.refund({ chargeId: b.chargeId, idempotencyKey: 'shared-refund-key' })).rejects.toThrow(
      /same parameters/,
    );
  });
});
