import { EVENT_TYPES, isEventType, matchesFilter, normalizeFilter } from './event-types';

describe('event filters', () => {
  it.each([
    [[], 'domain.created', true],
    [[], 'domain_purchase.failed', true],
    [['domain.created'], 'domain.created', true],
    [['domain.created'], 'domain.deleted', false],
    [['domain.verified', 'domain.failed'], 'domain.failed', true],
    [['domain.verified', 'domain.failed'], 'domain.verified', true],
    [['domain.verified', 'domain.failed'], 'domain.created', false],
    [['domain_purchase.completed'], 'domain.completed', false],
  ])('filter %j matches %s: %s', (filter, type, expected) => {
    expect(matchesFilter(filter, type)).toBe(expected);
  });

  it('knows the eight types of SPEC section 6, domain.ready_to_switch, and nothing else', () => {
    expect(EVENT_TYPES).toHaveLength(9);
    expect(isEventType('domain.monitor_updated')).toBe(true);
    expect(isEventType('domain.ready_to_switch')).toBe(true);
    expect(isEventType('domain.*')).toBe(false);
    expect(isEventType('Domain.Created')).toBe(false);
    expect(isEventType(42)).toBe(false);
  });

  it('stores each type once, in catalogue order', () => {
    expect(normalizeFilter(['domain.deleted', 'domain.created', 'domain.deleted'])).toEqual([
      'domain.created',
      'domain.deleted',
    ]);
    expect(normalizeFilter([])).toEqual([]);
  });
});
