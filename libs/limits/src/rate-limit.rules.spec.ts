import { RULES, rulesFor, windowOf } from './rate-limit.rules';

describe('rulesFor', () => {
  it.each([
    ['GET', '/v1/domains', ['api']],
    ['GET', '/v1/domains?limit=5', ['api']],
    ['POST', '/v1/domains', ['api', 'domains.create']],
    ['POST', '/v1/domains/', ['api', 'domains.create']],
    ['POST', '/v1/domains/bulk', ['api', 'domains.bulk']],
    ['POST', '/v1/domains/dom_1/check', ['api', 'domains.check']],
    ['GET', '/v1/domains/dom_1/check', ['api']],
    ['POST', '/v1/dns/check-records-batch', ['api', 'dns.check_records']],
    ['GET', '/v1/tools/dns-lookup', ['tools', 'tools.daily']],
    ['GET', '/healthz', []],
    ['POST', '/admin/workspaces', []],
  ])('%s %s counts against %j', (method, url, actions) => {
    expect(rulesFor(method, url).map((r) => r.action)).toEqual(actions);
  });

  it('has the limits of SPEC section 8', () => {
    expect([RULES.api.limit, RULES.api.windowSeconds]).toEqual([60, 60]);
    expect([RULES.domainsCreate.limit, RULES.domainsCreate.windowSeconds]).toEqual([100, 3600]);
    expect([RULES.domainsBulk.limit, RULES.domainsBulk.windowSeconds]).toEqual([5, 3600]);
    expect([RULES.toolsMinute.limit, RULES.toolsDay.limit, RULES.toolsDay.windowSeconds]).toEqual([30, 500, 86400]);
  });
});

describe('windowOf', () => {
  it('aligns windows and counts whole seconds to the reset', () => {
    expect(windowOf(60_000 * 10 + 1_500, 60)).toEqual({ start: 600_000, resetSeconds: 59 });
    expect(windowOf(600_000, 60)).toEqual({ start: 600_000, resetSeconds: 60 });
    expect(windowOf(600_000 + 59_999, 60).resetSeconds).toBe(1);
  });
});
