import { ProbeSchedule, ScheduleTiming, backoffAtOrAfter, slotAtOrAfter } from './probe-schedule';

const S = 1000;
const timing: ScheduleTiming = { intervalMs: 300 * S, waitsMs: [10 * S, 20 * S, 30 * S], staleAfterMs: 330 * S };
const T0 = 1_800_000_000_000; // a multiple of the interval: slot of phase p is T0 + p * 300 s

const ids = (list: { id: string }[]) => list.map((d) => d.id);

describe('probe times', () => {
  it('puts a phase slot at phase * interval into each interval', () => {
    expect(slotAtOrAfter(0.5, 300 * S, T0)).toBe(T0 + 150 * S);
    expect(slotAtOrAfter(0.5, 300 * S, T0 + 150 * S)).toBe(T0 + 150 * S);
    expect(slotAtOrAfter(0.5, 300 * S, T0 + 150 * S + 1)).toBe(T0 + 450 * S);
  });

  it('adds the back-off waits one after the other, and ends after the last', () => {
    expect(backoffAtOrAfter(T0, timing.waitsMs, T0)).toBe(T0 + 10 * S);
    expect(backoffAtOrAfter(T0, timing.waitsMs, T0 + 10 * S + 1)).toBe(T0 + 30 * S);
    expect(backoffAtOrAfter(T0, timing.waitsMs, T0 + 31 * S)).toBe(T0 + 60 * S);
    expect(backoffAtOrAfter(T0, timing.waitsMs, T0 + 61 * S)).toBeUndefined();
  });
});

describe('ProbeSchedule', () => {
  it('probes a new domain at its back-off times, then on its slot', () => {
    const schedule = new ProbeSchedule(timing);
    schedule.add({ view: null, id: 'a', shard: 1, phase: 0.9, backoffFrom: T0 }, T0);
    expect(schedule.nextDueAt()).toBe(T0 + 10 * S);
    expect(schedule.take(T0 + 9 * S, 10).due).toEqual([]);
    const seen: number[] = [];
    for (let i = 0; i < 4; i++) {
      const at = schedule.nextDueAt()!;
      const [entry] = schedule.take(at, 10).due;
      seen.push((entry.dueAt - T0) / S);
      schedule.done(entry, at, false);
    }
    // 10, 30, 60 s after the creation, then the slot (0.9 * 300 s = 270 s).
    expect(seen).toEqual([10, 30, 60, 270]);
  });

  it('does not probe a new domain at a slot before its first back-off time', () => {
    const schedule = new ProbeSchedule(timing);
    // Its slot comes 1 s after the creation; the first probe 10 s after, then the slot half an
    // interval on (T0 + 300 s + 1 s, not T0 + 1 s).
    schedule.add({ view: null, id: 'a', shard: 1, phase: 1 / 300, backoffFrom: T0 }, T0);
    expect(schedule.nextDueAt()).toBe(T0 + 10 * S);
  });

  it('takes a verified domain off the back-off at its next probe', () => {
    const schedule = new ProbeSchedule(timing);
    schedule.add({ view: null, id: 'a', shard: 1, phase: 0.9, backoffFrom: T0 }, T0);
    const [entry] = schedule.take(T0 + 10 * S, 10).due;
    schedule.done(entry, T0 + 10 * S, true);
    expect(schedule.nextDueAt()).toBe(T0 + 270 * S);
  });

  it('does not let a slow probe cost the next slot', () => {
    const schedule = new ProbeSchedule(timing);
    schedule.load([{ view: null, id: 'a', shard: 1, phase: 0 }], T0, T0);
    // Taken on time, done 200 s later: still due at the next slot.
    const [entry] = schedule.take(T0, 10).due;
    schedule.done(entry, T0 + 200 * S, false);
    expect(schedule.nextDueAt()).toBe(T0 + 300 * S);
  });

  it('keeps half an interval between a late probe and the next slot', () => {
    const schedule = new ProbeSchedule(timing);
    schedule.load([{ view: null, id: 'a', shard: 1, phase: 0 }], T0, T0);
    // Due at T0, probed 200 s late: the slot at T0 + 300 s is skipped for the one after.
    const [entry] = schedule.take(T0 + 200 * S, 10).due;
    schedule.done(entry, T0 + 200 * S, false);
    expect(schedule.nextDueAt()).toBe(T0 + 600 * S);
  });

  it('takes in due order, at most `max`, and not twice', () => {
    const schedule = new ProbeSchedule(timing);
    schedule.load(
      [0.3, 0.1, 0.2, 0.5].map((phase, i) => ({ view: null, id: `d${i}`, shard: 1, phase })),
      T0,
      T0 + 100 * S,
    );
    const first = schedule.take(T0 + 100 * S, 2).due;
    expect(ids(first)).toEqual(['d1', 'd2']);
    expect(ids(schedule.take(T0 + 100 * S, 10).due)).toEqual(['d0']);
    expect(schedule.take(T0 + 100 * S, 10).due).toEqual([]);
    expect(schedule.nextDueAt()).toBe(T0 + 150 * S);
  });

  it('resumes a shard from its watermark: what came due since is due now', () => {
    const schedule = new ProbeSchedule(timing);
    const skipped = schedule.load(
      [
        { view: null, id: 'before', shard: 1, phase: 0.1 }, // slot T0 + 30 s: done before the watermark
        { view: null, id: 'since', shard: 1, phase: 0.3 }, // slot T0 + 90 s: due since
        { view: null, id: 'later', shard: 1, phase: 0.6 }, // slot T0 + 180 s: not yet
      ],
      T0 + 60 * S,
      T0 + 120 * S,
    );
    expect(skipped).toBe(0);
    expect(ids(schedule.take(T0 + 120 * S, 10).due)).toEqual(['since']);
    expect(schedule.nextDueAt()).toBe(T0 + 180 * S);
  });

  it('resumes a shard left unwatched too long (or never) from now, counting the probe times skipped', () => {
    const schedule = new ProbeSchedule(timing);
    const now = T0 + 1000 * S;
    const domains = [0.1, 0.5].map((phase, i) => ({ view: null, id: `d${i}`, shard: 1, phase }));
    expect(schedule.load(domains, now - 600 * S, now)).toBe(2);
    expect(schedule.take(now, 10).due).toEqual([]);
    const other = new ProbeSchedule(timing);
    expect(other.load(domains, undefined, now)).toBe(0);
    expect(other.nextDueAt()).toBe(slotAtOrAfter(0.5, timing.intervalMs, now));
  });

  it('skips a probe due longer ago than staleAfterMs to its next slot', () => {
    const schedule = new ProbeSchedule(timing);
    schedule.load([{ view: null, id: 'a', shard: 1, phase: 0 }], T0, T0);
    const now = T0 + 400 * S;
    expect(schedule.take(now, 10)).toEqual({ due: [], skipped: 1 });
    expect(schedule.nextDueAt()).toBe(T0 + 600 * S);
  });

  it('restarts the back-off of a check, at once or after the probe in progress', () => {
    const schedule = new ProbeSchedule(timing);
    schedule.load([{ view: null, id: 'a', shard: 1, phase: 0.9 }], T0, T0);
    schedule.restartBackoff('a', T0 + 5 * S);
    expect(schedule.nextDueAt()).toBe(T0 + 15 * S);
    const [entry] = schedule.take(T0 + 15 * S, 10).due;
    schedule.restartBackoff('a', T0 + 16 * S);
    schedule.done(entry, T0 + 17 * S, false);
    expect(schedule.nextDueAt()).toBe(T0 + 26 * S);
    expect(schedule.size).toBe(1);
  });

  it('forgets removed domains and shards no longer owned', () => {
    const schedule = new ProbeSchedule(timing);
    schedule.load(
      [
        { view: null, id: 'a', shard: 1, phase: 0.1 },
        { view: null, id: 'b', shard: 2, phase: 0.2 },
        { view: null, id: 'c', shard: 2, phase: 0.3 },
      ],
      T0,
      T0,
    );
    const [taken] = schedule.take(T0 + 30 * S, 1).due;
    schedule.keepShards((shard) => shard === 2);
    schedule.remove('c');
    schedule.done(taken, T0 + 31 * S, false);
    expect(schedule.size).toBe(1);
    expect(ids(schedule.take(T0 + 300 * S, 10).due)).toEqual(['b']);
  });

  it('reports per shard the earliest probe time not done (taken ones included, ahead when none is due)', () => {
    const schedule = new ProbeSchedule(timing);
    schedule.load(
      [
        { view: null, id: 'a', shard: 1, phase: 0.1 },
        { view: null, id: 'b', shard: 1, phase: 0.2 },
        { view: null, id: 'c', shard: 2, phase: 0.5 },
      ],
      T0,
      T0,
    );
    const now = T0 + 100 * S;
    const [a] = schedule.take(now, 1).due;
    expect(schedule.watermarks([1, 2, 3])).toEqual([T0 + 30 * S, T0 + 150 * S, undefined]);
    schedule.done(a, now, false);
    expect(schedule.watermarks([1])).toEqual([T0 + 60 * S]);
  });

  it("keeps a domain's view with it, updated in place and carried to its next probe", () => {
    const schedule = new ProbeSchedule<string>(timing);
    schedule.load([{ id: 'a', shard: 1, phase: 0.1, view: 'v1' }], T0, T0);
    schedule.setView('a', 'v2');
    const [entry] = schedule.take(T0 + 30 * S, 1).due;
    expect(entry.view).toBe('v2');
    schedule.setView('a', 'v3');
    schedule.done(entry, T0 + 31 * S, false);
    expect(schedule.take(T0 + 330 * S, 1).due[0].view).toBe('v3');
  });

  it('does not let a domain created meanwhile be loaded twice', () => {
    const schedule = new ProbeSchedule(timing);
    schedule.add({ view: null, id: 'a', shard: 1, phase: 0.5, backoffFrom: T0 }, T0);
    schedule.load([{ view: null, id: 'a', shard: 1, phase: 0.5 }], T0, T0);
    expect(schedule.size).toBe(1);
    expect(schedule.nextDueAt()).toBe(T0 + 10 * S);
  });
});
