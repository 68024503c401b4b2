import { corsMethodsFor } from './widget-cors';
import { WIDGET_JS } from './widget.script';

describe('corsMethodsFor', () => {
  it.each([
    ['/widget.js', ['GET']],
    ['/v1/domains/dom_1', ['GET']],
    ['/v1/domains/dom_1?x=1', ['GET']],
    ['/v1/domains/dom_1/instructions?redirect_uri=x', ['GET']],
    ['/v1/domains/dom_1/check', ['POST']],
    ['/v1/domains/dom_1/dns/apply', ['POST']],
    ['/v1/domains', []],
    ['/v1/domains/bulk', []],
    ['/v1/domains/dom_1/connect-session', []],
    ['/v1/domain-purchases/p_1', []],
    ['/widget/demo', []],
    ['/admin/workspaces', []],
  ])('%s -> %j', (url, methods) => expect(corsMethodsFor(url)).toEqual(methods));
});

describe('the widget script', () => {
  it('is one self-contained classic script with no template syntax leaking from the TS source', () => {
    expect(WIDGET_JS).toContain('global.CustomDomainWidget = {');
    expect(WIDGET_JS).not.toMatch(/\bimport\b|\brequire\(/);
  });
});
