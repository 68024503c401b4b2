import type { ServerResponse } from 'node:http';
import { FailureQueue, InjectedFailure, applyTransportFailure, startFakeHttpServer } from './http-fake';
import { FakeNamecheapAccount, NamecheapFakeError, xmlEscape } from './namecheap-commands';

export const FAKE_NAMECHEAP_CREDENTIALS = {
  apiUser: 'apiexample',
  apiKey: '56b4c87ef4fd49cb96d915c0db68194',
  username: 'apiexample',
  clientIp: '192.0.2.15',
};

export interface RecordedNamecheapRequest {
  method: string;
  command: string;
  contentType: string;
  /** Query and form parameters together, as Namecheap reads them. */
  params: Record<string, string>;
}

/** A transport failure, or an API error (`<Error Number>` inside an HTTP 200). */
export type NamecheapFailure = InjectedFailure | { kind: 'error'; number: string; text: string };

export interface FakeNamecheap {
  url: string;
  /** The env that points the service's Namecheap adapter at this fake. */
  env: Record<string, string>;
  account: FakeNamecheapAccount;
  requests: RecordedNamecheapRequest[];
  /** The next `times` calls of `command` fail this way instead of running. */
  failNext(command: string, failure: NamecheapFailure, times?: number): void;
  close(): Promise<void>;
}

function envelope(status: 'OK' | 'ERROR', command: string, inner: string): string {
  const errors = status === 'OK' ? '<Errors />' : inner;
  const response = status === 'OK' ? `<CommandResponse Type="${xmlEscape(command)}">${inner}</CommandResponse>` : '';
  return `<?xml version="1.0" encoding="utf-8"?>
<ApiResponse Status="${status}" xmlns="http://api.namecheap.com/xml.response">
  ${errors}
  <Warnings />
  <RequestedCommand>${xmlEscape(command.toLowerCase())}</RequestedCommand>
  ${response}
  <Server>PHX01SBAPIEXT05</Server>
  <GMTTimeDifference>--5:00</GMTTimeDifference>
  <ExecutionTime>0.011</ExecutionTime>
</ApiResponse>`;
}

function sendXml(res: ServerResponse, xml: string): void {
  res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' });
  res.end(xml);
}

const errorXml = (command: string, number: string, text: string) =>
  envelope('ERROR', command, `<Errors><Error Number="${xmlEscape(number)}">${xmlEscape(text)}</Error></Errors>`);

/**
 * A local stand-in for api.namecheap.com/xml.response that speaks its wire format: GET query or form POST
 * with the global parameters, answers an `ApiResponse` XML (errors inside HTTP 200). It keeps an account
 * (domains, hosts, nameservers, prices) so a test can drive the adapter through a whole life cycle.
 */
export async function startNamecheapServer(): Promise<FakeNamecheap> {
  const account = new FakeNamecheapAccount();
  const requests: RecordedNamecheapRequest[] = [];
  const failures = new FailureQueue<NamecheapFailure>();
  const server = await startFakeHttpServer((req, body, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (url.pathname !== '/xml.response') {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html><body>Not Found</body></html>');
      return;
    }
    const contentType = req.headers['content-type'] ?? '';
    const form = contentType.startsWith('application/x-www-form-urlencoded') ? new URLSearchParams(body) : undefined;
    const params: Record<string, string> = Object.fromEntries(url.searchParams);
    for (const [key, value] of form ?? []) params[key] = value;
    const command = params.Command ?? '';
    requests.push({ method: req.method ?? '', command, contentType, params });

    const failure = failures.take(command);
    if (failure && failure.kind !== 'error' && applyTransportFailure(failure, res)) return;
    if (!command) return sendXml(res, errorXml(command, '1010104', 'Parameter Command is missing'));
    const c = FAKE_NAMECHEAP_CREDENTIALS;
    if (params.ApiUser !== c.apiUser || params.UserName !== c.username) {
      return sendXml(res, errorXml(command, '1019103', 'Parameter UserName is not available'));
    }
    if (params.ApiKey !== c.apiKey) {
      return sendXml(res, errorXml(command, '1011102', 'API Key is invalid or API access has not been enabled'));
    }
    if (params.ClientIp !== c.clientIp) return sendXml(res, errorXml(command, '1011150', 'Invalid request IP'));
    if (failure?.kind === 'error') return sendXml(res, errorXml(command, failure.number, failure.text));
    try {
      sendXml(res, envelope('OK', command, account.run(command, params)));
    } catch (error) {
      if (!(error instanceof NamecheapFakeError)) throw error;
      sendXml(res, errorXml(command, error.number, error.text));
    }
  });
  return {
    url: `${server.url}/xml.response`,
    env: {
      REGISTRAR: 'namecheap',
      NAMECHEAP_API_URL: `${server.url}/xml.response`,
      NAMECHEAP_API_USER: FAKE_NAMECHEAP_CREDENTIALS.apiUser,
      NAMECHEAP_API_KEY: FAKE_NAMECHEAP_CREDENTIALS.apiKey,
      NAMECHEAP_USERNAME: FAKE_NAMECHEAP_CREDENTIALS.username,
      NAMECHEAP_CLIENT_IP: FAKE_NAMECHEAP_CREDENTIALS.clientIp,
    },
    account,
    requests,
    failNext: (command, failure, times) => failures.push(command, failure, times),
    close: () => server.close(),
  };
}
