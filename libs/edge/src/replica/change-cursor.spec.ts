import { ChangeCursor } from './change-cursor';

describe('ChangeCursor', () => {
  it.each([
    // [start, batches read, holes after, last after]
    [0, [[1, 2, 3]], [], 3],
    [0, [[1, 3]], [2], 3],
    [0, [[1, 4], [2]], [3], 4],
    [5, [[3, 6]], [], 6],
    [0, [[3], [1, 2]], [], 3],
  ])('from %p reading %p leaves holes %p and last %p', (start, batches, holes, last) => {
    const cursor = new ChangeCursor(start);
    batches.forEach((seqs) => cursor.advance(seqs, 0));
    expect(cursor.openHoles(0)).toEqual(holes);
    expect(cursor.last).toBe(last);
  });

  it('stops asking for a hole once it is older than its time to live (a rolled-back transaction)', () => {
    const cursor = new ChangeCursor(0, 1_000);
    cursor.advance([2], 0);
    expect(cursor.openHoles(1_000)).toEqual([1]);
    expect(cursor.openHoles(1_001)).toEqual([]);
  });
});
