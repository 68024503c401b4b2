import { subjectMatches } from './bus';
import { InProcessBus } from './in-process.bus';

describe('subjectMatches', () => {
  it.each([
    ['a.b.c', 'a.b.c', true],
    ['a.*.c', 'a.b.c', true],
    ['a.*', 'a.b.c', false],
    ['a.>', 'a.b.c', true],
    ['a.>', 'a', false],
    ['>', 'a', true],
    ['a.b', 'a.b.c', false],
    ['a.b.c', 'a.b', false],
  ])('%s matches %s: %s', (pattern, subject, expected) => {
    expect(subjectMatches(pattern, subject)).toBe(expected);
  });
});

describe('InProcessBus', () => {
  it('delivers asynchronously, to matching subscribers only, as copies', async () => {
    const bus = new InProcessBus();
    const got: unknown[] = [];
    const off = bus.subscribe('events.*.created', (payload, subject) => void got.push([subject, payload]));
    bus.subscribe('other', () => void got.push('wrong'));
    const payload = { n: 1 };
    bus.publish('events.ws1.created', payload);
    expect(got).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(got).toEqual([['events.ws1.created', { n: 1 }]]);
    expect((got[0] as unknown[])[1]).not.toBe(payload);
    off();
    bus.publish('events.ws1.created', payload);
    await new Promise((r) => setImmediate(r));
    expect(got).toHaveLength(1);
  });
});
