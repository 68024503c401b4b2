import { membershipDelta } from './membership-delta';

describe('membershipDelta', () => {
  it.each([
    [[], ['n1'], ['n1'], []],
    [['n1', 'n2'], ['n1'], [], ['n2']],
    [['n1', 'n2'], ['n1', 'n3'], ['n3'], ['n2']],
    [['n1'], ['n1'], [], []],
    [['n1', 'n2'], [], [], ['n1', 'n2']],
  ])('%j -> %j: joined %j, left %j', (before, after, joined, left) => {
    expect(membershipDelta(before, after)).toEqual({ joined, left });
  });
});
