import type { AuditEntry } from '../console-audit.store';
import { auditDetail, auditTarget } from './audit-entry.view';
import { htmlText } from '../testing/html-text';

const entry = (over: Partial<AuditEntry>): AuditEntry => ({
  id: 'aud_1',
  workspaceId: 'ws_1',
  actor: 'admin token',
  action: 'oauth_client.created',
  target: 'oac_1',
  detail: {},
  createdAt: '2026-11-28T05:48:41Z',
  ...over,
});

describe('audit entry view', () => {
  it('reads a list (scopes, events) as words, not a JSON array', () => {
    const detail = auditDetail(entry({ detail: { name: 'Billing sync', scopes: ['domains:write', 'domains:read'] } }));
    expect(htmlText(detail)).toBe('scopes: domains:write, domains:read');
  });

  it('reads a change as before → after, leaving out what did not change', () => {
    const detail = auditDetail(
      entry({
        action: 'domain.updated',
        detail: { before: { mode: 'proxy', x: 1 }, after: { mode: 'redirect', x: 1 } },
      }),
    );
    expect(htmlText(detail)).toBe('mode: proxy → redirect');
  });

  it('keeps an object value whole, and an empty list as a dash', () => {
    expect(htmlText(auditDetail(entry({ detail: { limits: { a: 1 }, events: [] } })))).toBe(
      'limits: {&quot;a&quot;:1} events: —',
    );
  });

  it('names the target, its id below, and links a domain to its page', () => {
    const target = auditTarget(
      entry({ action: 'domain.created', target: 'dom_1', detail: { hostname: 'shop.example.com' } }),
    ).toString();
    expect(target).toContain('href="/console/w/ws_1/domains/dom_1"');
    expect(htmlText(target)).toBe('shop.example.com dom_1');
  });
});
