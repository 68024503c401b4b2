import { escapeHtml } from '@app/kernel';

/** Markup that is already safe to send; everything else interpolated into `html` is escaped. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

function render(value: unknown): string {
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  if (typeof value === 'string') return escapeHtml(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return escapeHtml(`${value}`);
  return escapeHtml(JSON.stringify(value));
}

/** A template tag that escapes every value except `Html` (and arrays of it): pages cannot be injected into. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0];
  values.forEach((value, i) => (out += render(value) + strings[i + 1]));
  return new Html(out);
}
