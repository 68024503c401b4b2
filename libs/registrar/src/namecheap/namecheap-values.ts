/**
 * Namecheap's decimal dollar strings ("10.2800", "0.18") to integer cents without floating point. Sub-cent
 * remainders round up: we never charge the customer less than the registrar charges us.
 */
export function dollarsToCents(value: string): number {
  const match = /^\s*(\d+)(?:\.(\d*))?\s*$/.exec(value);
  if (!match) throw new Error(`Not a dollar amount: ${JSON.stringify(value)}`);
  const fraction = (match[2] ?? '').padEnd(2, '0');
  const cents = Number(match[1]) * 100 + Number(fraction.slice(0, 2));
  return /[1-9]/.test(fraction.slice(2)) ? cents + 1 : cents;
}

/**
 * Namecheap's dates: `09/05/2016` (getInfo) or `4/30/2021 11:31:13 AM` (renew), month first. They carry no
 * zone; we read them as UTC, which is at worst a few hours off a registry expiry that is only day-precise.
 */
export function parseNamecheapDate(value: string): Date | undefined {
  const match = /^\s*(\d{1,2})\/(\d{1,2})\/(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(AM|PM)?)?\s*$/i.exec(value);
  if (!match) return undefined;
  const [, month, day, year, hour = '0', minute = '0', second = '0', meridiem] = match;
  let hours = Number(hour) % (meridiem ? 12 : 24);
  if (meridiem?.toUpperCase() === 'PM') hours += 12;
  return new Date(Date.UTC(Number(year), Number(month) - 1, Number(day), hours, Number(minute), Number(second)));
}

export const yesNo = (value: boolean): string => (value ? 'yes' : 'no');
