import { EndpointSecrets, overlapEnd, signingSecrets } from './secret-rotation';

const NOW = new Date('2026-11-25T04:00:00.000Z');
const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);
const rotated = (until: Date | null): EndpointSecrets => ({
  secretSealed: 'new',
  previousSecretSealed: until ? 'old' : null,
  previousSecretExpiresAt: until,
});

describe('secret rotation', () => {
  it.each<[string, EndpointSecrets, Date, string[]]>([
    ['never rotated', rotated(null), NOW, ['new']],
    ['during the overlap: both, the current first', rotated(at(60)), NOW, ['new', 'old']],
    ['the last millisecond of the overlap', rotated(at(60)), at(59.999), ['new', 'old']],
    ['at the overlap end: only the new one', rotated(at(60)), at(60), ['new']],
    ['after it', rotated(at(60)), at(86_400), ['new']],
    [
      'a previous secret without an end is never used',
      { secretSealed: 'new', previousSecretSealed: 'old', previousSecretExpiresAt: null },
      NOW,
      ['new'],
    ],
  ])('%s', (_name, endpoint, now, expected) => {
    expect(signingSecrets(endpoint, now)).toEqual(expected);
  });

  it('ends the overlap that many seconds after the rotation; 0 ends it at once', () => {
    expect(overlapEnd(NOW, 86_400)).toEqual(at(86_400));
    expect(overlapEnd(NOW, 1)).toEqual(at(1));
    expect(overlapEnd(NOW, 0)).toBeNull();
  });
});
