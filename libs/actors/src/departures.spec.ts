import { DEPARTURES_KEPT, DEPARTURES_KEPT_MS, Departures, mergeDepartures } from './departures';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();

describe('departures', () => {
  it('says why a node left: what was heard of it, else silent', () => {
    const d = new Departures();
    d.heardOf('n1', 'left');
    d.heardOf('n2', 'killed');
    d.departed('n1', T0);
    d.departed('n2', T0 + 1);
    d.departed('n3', T0 + 2);
    expect(d.recent(T0 + 3)).toEqual([
      { nodeId: 'n3', at: at(2), reason: 'silent' },
      { nodeId: 'n2', at: at(1), reason: 'killed' },
      { nodeId: 'n1', at: at(0), reason: 'left' },
    ]);
  });

  it('forgets what was heard once the node is back, and each reason is used once', () => {
    const d = new Departures();
    d.heardOf('n1', 'left');
    d.rejoined('n1');
    d.departed('n1', T0);
    d.departed('n1', T0 + 1);
    expect(d.recent(T0 + 2).map((x) => x.reason)).toEqual(['silent', 'silent']);
  });

  it('keeps an hour and at most twenty', () => {
    const d = new Departures();
    for (let i = 0; i < DEPARTURES_KEPT + 5; i++) d.departed(`n${i}`, T0 + i);
    expect(d.recent(T0 + 100)).toHaveLength(DEPARTURES_KEPT);
    expect(d.recent(T0 + DEPARTURES_KEPT_MS + DEPARTURES_KEPT + 5)).toEqual([]);
  });

  it('merges every node’s list: one row per node, its newest, none for a member again', () => {
    const merged = mergeDepartures(
      [
        [{ nodeId: 'n1', at: at(10), reason: 'killed' }],
        [
          { nodeId: 'n1', at: at(5), reason: 'silent' },
          { nodeId: 'n2', at: at(20), reason: 'left' },
          { nodeId: 'n3', at: at(30), reason: 'left' },
        ],
      ],
      new Set(['n3']),
    );
    expect(merged).toEqual([
      { nodeId: 'n2', at: at(20), reason: 'left' },
      { nodeId: 'n1', at: at(10), reason: 'killed' },
    ]);
  });
});
