/** A decoded Stripe form body: `metadata[purchaseId]=x` becomes `{metadata: {purchaseId: 'x'}}`. */
export type StripeForm = { [key: string]: string | StripeForm };

/** Decodes `application/x-www-form-urlencoded` with Stripe's bracketed nesting (`a[b][c]=v`). */
export function parseStripeForm(body: string): StripeForm {
  const form: StripeForm = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.split(/\[|\]\[|\]/).filter((part) => part !== '');
    let node = form;
    path.slice(0, -1).forEach((part) => {
      const next = node[part];
      node = typeof next === 'object' ? next : (node[part] = {});
    });
    node[path[path.length - 1]] = value;
  }
  return form;
}

/** A stable fingerprint of the parameters, for idempotency comparisons independent of key order. */
export function fingerprint(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${fingerprint(v)}`).join(',')}}`;
}

export const text = (form: StripeForm, key: string): string | undefined =>
  typeof form[key] === 'string' ? form[key] : undefined;
