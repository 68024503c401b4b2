/** Response codes of RFC 1035 and RFC 6891 this listener answers with. */
export const RCODE = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NOTIMP: 4, REFUSED: 5, BADVERS: 16 } as const;

/** What became of one query, the label of the queries metric. */
export type QueryOutcome =
  'answered' | 'nodata' | 'refused' | 'notimp' | 'formerr' | 'badvers' | 'truncated' | 'rate_limited' | 'dropped';

export const QUERY_OUTCOMES: readonly QueryOutcome[] = [
  'answered',
  'nodata',
  'refused',
  'notimp',
  'formerr',
  'badvers',
  'truncated',
  'rate_limited',
  'dropped',
];
