import { planApply, zoneCandidates } from './dns-apply.plan';

const cname = { type: 'CNAME' as const, name: 'shop.example.com', value: 'edge.example.net', ttl: 3600 };

describe('planApply', () => {
  it('removes competing routing records, keeps a matching one, never lists other types', () => {
    const plan = planApply(
      [
        { id: '1', type: 'A', value: '198.51.100.1' },
        { id: '2', type: 'AAAA', value: '2001:db8::1' },
        { id: '3', type: 'MX', value: 'mx.example.com' },
        { id: '4', type: 'TXT', value: 'v=spf1 -all' },
        { id: '5', type: 'ALIAS', value: 'old.example.net' },
      ],
      [cname],
    );
    expect(plan.remove.map((r) => r.id)).toEqual(['1', '2', '5']);
    expect(plan.create).toEqual([cname]);
    expect(plan.keep).toEqual([]);
  });

  it('keeps what is already right (case and trailing dot ignored) unless marked not reusable', () => {
    expect(planApply([{ id: '1', type: 'cname', value: 'EDGE.example.net.' }], [cname])).toEqual({
      remove: [],
      keep: [{ desired: cname, existing: { id: '1', type: 'cname', value: 'EDGE.example.net.' } }],
      create: [],
    });
    const proxied = planApply([{ id: '1', type: 'CNAME', value: 'edge.example.net', reusable: false }], [cname]);
    expect(proxied.remove.map((r) => r.id)).toEqual(['1']);
    expect(proxied.create).toEqual([cname]);
  });

  it('matches several A records one to one', () => {
    const a = (value: string) => ({ type: 'A' as const, name: 'example.com', value, ttl: 3600 });
    const plan = planApply(
      [
        { id: '1', type: 'A', value: '192.0.2.1' },
        { id: '2', type: 'A', value: '192.0.2.1' },
      ],
      [a('192.0.2.1'), a('192.0.2.2')],
    );
    expect(plan.keep.map((k) => k.existing.id)).toEqual(['1']);
    expect(plan.remove.map((r) => r.id)).toEqual(['2']);
    expect(plan.create).toEqual([a('192.0.2.2')]);
  });
});

describe('zoneCandidates', () => {
  it('walks up from the hostname to the registrable domain', () => {
    expect(zoneCandidates('a.b.example.co.uk', 'example.co.uk')).toEqual([
      'a.b.example.co.uk',
      'b.example.co.uk',
      'example.co.uk',
    ]);
    expect(zoneCandidates('example.com', 'example.com')).toEqual(['example.com']);
    expect(zoneCandidates('Shop.Example.com.', null)).toEqual(['shop.example.com', 'example.com']);
  });
});
