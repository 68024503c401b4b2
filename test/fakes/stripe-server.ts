import type { ServerResponse } from 'node:http';
import { FailureQueue, InjectedFailure, applyTransportFailure, startFakeHttpServer } from './http-fake';
import { FakeStripeAccount } from './stripe-account';
import { StripeForm, fingerprint, parseStripeForm } from './stripe-form';
import { FakeStripeReply, stripeError } from './stripe-objects';

export const FAKE_STRIPE_SECRET_KEY = 'sk_test_51FakeStripeKeyForLocalTests0123456789';

export interface RecordedStripeRequest {
  method: string;
  path: string;
  authorization?: string;
  idempotencyKey?: string;
  contentType?: string;
  form: StripeForm;
  /** The answer was a replay of an earlier request with the same Idempotency-Key. */
  replayed: boolean;
}

export interface FakeStripe {
  url: string;
  /** The env that points the service's Stripe adapter at this fake. */
  env: Record<string, string>;
  account: FakeStripeAccount;
  requests: RecordedStripeRequest[];
  /** The next `times` requests to `path` (e.g. `/v1/payment_intents`) fail this way; nothing is stored for them. */
  failNext(
    path: string,
    failure: InjectedFailure | { kind: 'json'; status: number; body: unknown },
    times?: number,
  ): void;
  close(): Promise<void>;
}

function sendJson(res: ServerResponse, reply: FakeStripeReply, headers: Record<string, string> = {}): void {
  res.writeHead(reply.status, { 'content-type': 'application/json', 'request-id': `req_${Date.now()}`, ...headers });
  res.end(JSON.stringify(reply.body, null, 2));
}

/**
 * A local stand-in for api.stripe.com speaking its REST wire format: form-encoded bodies with bracketed
 * nesting, Bearer secret key, JSON objects and the `{error: {...}}` envelope, and Idempotency-Key replays
 * (same key and parameters: the first answer again; other parameters: 400 idempotency_error).
 */
export async function startStripeServer(): Promise<FakeStripe> {
  const account = new FakeStripeAccount();
  const requests: RecordedStripeRequest[] = [];
  const failures = new FailureQueue<InjectedFailure | { kind: 'json'; status: number; body: unknown }>();
  const idempotent = new Map<string, { fingerprint: string; reply: FakeStripeReply }>();

  const route = (method: string, path: string, form: StripeForm): FakeStripeReply => {
    const retrieve = /^\/v1\/(payment_intents|refunds)\/([\w]+)$/.exec(path);
    if (method === 'POST' && path === '/v1/payment_intents') return account.createPaymentIntent(form);
    if (method === 'POST' && path === '/v1/refunds') return account.createRefund(form);
    const paymentMethod = /^\/v1\/payment_methods\/([\w]+)$/.exec(path);
    if (method === 'GET' && paymentMethod) return account.retrievePaymentMethod(paymentMethod[1]);
    if (method === 'GET' && retrieve)
      return account.retrieve(retrieve[1] as 'payment_intents' | 'refunds', retrieve[2]);
    return stripeError(404, {
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${method}: ${path}).`,
    });
  };

  const server = await startFakeHttpServer((req, body, res) => {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const method = req.method ?? 'GET';
    const header = (name: string) => (req.headers[name] as string | undefined) ?? undefined;
    const form = parseStripeForm(body);
    const key = header('idempotency-key');
    const record: RecordedStripeRequest = {
      method,
      path,
      authorization: header('authorization'),
      idempotencyKey: key,
      contentType: header('content-type'),
      form,
      replayed: false,
    };
    requests.push(record);

    const failure = failures.take(path);
    if (failure?.kind === 'json') return sendJson(res, { status: failure.status, body: failure.body });
    if (failure && applyTransportFailure(failure, res)) return;

    const auth = /^Bearer (.+)$/.exec(record.authorization ?? '');
    if (!auth) {
      return sendJson(
        res,
        stripeError(401, { type: 'invalid_request_error', message: 'You did not provide an API key.' }),
      );
    }
    if (auth[1] !== FAKE_STRIPE_SECRET_KEY) {
      const masked = `${auth[1].slice(0, 8)}${'*'.repeat(Math.max(0, auth[1].length - 12))}${auth[1].slice(-4)}`;
      return sendJson(
        res,
        stripeError(401, { type: 'invalid_request_error', message: `Invalid API Key provided: ${masked}` }),
      );
    }
    if (method === 'POST' && !record.contentType?.startsWith('application/x-www-form-urlencoded')) {
      return sendJson(
        res,
        stripeError(400, {
          type: 'invalid_request_error',
          message: 'Invalid request: expected form-encoded parameters.',
        }),
      );
    }
    if (method !== 'POST' || !key) return sendJson(res, route(method, path, form));

    const print = fingerprint({ method, path, form });
    const earlier = idempotent.get(key);
    if (earlier && earlier.fingerprint !== print) {
      return sendJson(
        res,
        stripeError(400, {
          type: 'idempotency_error',
          message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
        }),
      );
    }
    if (earlier) {
      record.replayed = true;
      return sendJson(res, earlier.reply, { 'idempotent-replayed': 'true', 'original-request': 'req_original' });
    }
    const reply = route(method, path, form);
    idempotent.set(key, { fingerprint: print, reply });
    sendJson(res, reply);
  });

  return {
    url: server.url,
    env: { PAYMENTS: 'stripe', STRIPE_API_URL: server.url, STRIPE_SECRET_KEY: FAKE_STRIPE_SECRET_KEY },
    account,
    requests,
    failNext: (path, failure, times) => failures.push(path, failure, times),
    close: () => server.close(),
  };
}
