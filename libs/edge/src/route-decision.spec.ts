import { EdgeRoute, certificateAllowed } from './edge-route';
import { PAGES, pageBody } from './pages';
import { decide } from './route-decision';

const route = (over: Partial<EdgeRoute> = {}): EdgeRoute => ({
  domainId: 'dom_1',
  hostname: 'shop.example.com',
  twin: false,
  status: 'verified',
  monitorStatus: 'active_ssl',
  mode: 'proxy',
  originUrl: 'https://origin.example/app',
  keepHost: false,
  redirectStatus: 301,
  ...over,
});
const target = { path: '/a/b', query: 'x=1' };

describe('decide', () => {
  it.each<[string, EdgeRoute | undefined, 'http' | 'https', ReturnType<typeof decide>]>([
    ['unknown host (http)', undefined, 'http', { kind: 'page', page: 'unknown_host' }],
    ['unknown host (https)', undefined, 'https', { kind: 'page', page: 'unknown_host' }],
    ['failed domain', route({ status: 'failed' }), 'https', { kind: 'page', page: 'not_active' }],
    ['expired domain over http', route({ status: 'expired' }), 'http', { kind: 'page', page: 'not_active' }],
    [
      'served domain over http',
      route({ status: 'pending' }),
      'http',
      { kind: 'redirect', status: 308, location: 'https://shop.example.com/a/b?x=1', outcome: 'https_redirect' },
    ],
    [
      'proxy mode',
      route({ keepHost: true }),
      'https',
      { kind: 'proxy', originUrl: 'https://origin.example/app', target, keepHost: true },
    ],
    [
      'redirect mode',
      route({ mode: 'redirect', redirectStatus: 302 }),
      'https',
      { kind: 'redirect', status: 302, location: 'https://origin.example/app/a/b?x=1', outcome: 'redirected' },
    ],
    [
      'www twin over https',
      route({ twin: true, redirectStatus: 302 }),
      'https',
      { kind: 'redirect', status: 302, location: 'https://shop.example.com/a/b?x=1', outcome: 'www_redirect' },
    ],
    [
      'www twin over http goes straight to the domain',
      route({ twin: true, mode: 'redirect' }),
      'http',
      { kind: 'redirect', status: 301, location: 'https://shop.example.com/a/b?x=1', outcome: 'www_redirect' },
    ],
    [
      'unparseable origin in redirect mode',
      route({ mode: 'redirect', originUrl: 'not a url' }),
      'https',
      { kind: 'page', page: 'origin_unreachable' },
    ],
  ])('%s', (_name, r, scheme, expected) => expect(decide(r, scheme, target)).toEqual(expected));
});

describe('certificateAllowed', () => {
  it.each<[string, EdgeRoute | undefined, boolean]>([
    ['no domain', undefined, false],
    ['dns correct, waiting for a certificate', route({ status: 'pending', monitorStatus: 'pending_ssl' }), true],
    ['active', route({ status: 'pending', monitorStatus: 'active_ssl' }), true],
    ['verified, DNS drifting', route({ status: 'verified', monitorStatus: 'dns_incorrect' }), true],
    ['dns missing', route({ status: 'pending', monitorStatus: 'dns_not_resolving' }), false],
    ['not probed yet', route({ status: 'pending', monitorStatus: 'unknown' }), false],
    ['failed', route({ status: 'failed', monitorStatus: 'dns_incorrect' }), false],
    ['a www twin', route({ twin: true }), false],
  ])('%s -> %s', (_name, r, expected) => expect(certificateAllowed(r)).toBe(expected));
});

describe('pages', () => {
  it('never names an internal reason', () => {
    for (const name of Object.keys(PAGES) as (keyof typeof PAGES)[]) {
      const html = pageBody(name).toString();
      expect(html).toContain(`<title>${PAGES[name].status} `);
      expect(html).not.toMatch(/10\.|127\.|private|ssrf|blocked/i);
    }
  });
});
