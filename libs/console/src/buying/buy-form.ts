import { DomainError } from '@app/kernel';

/** The registrant's fields (SPEC 2.6) in the order the form asks them, with their labels. */
export const REGISTRANT_FIELDS = [
  ['firstName', 'First name', true],
  ['lastName', 'Last name', true],
  ['organization', 'Organization', false],
  ['email', 'Email', true],
  ['phone', 'Phone (+CC.NUMBER)', true],
  ['address1', 'Address', true],
  ['address2', 'Address, line 2', false],
  ['city', 'City', true],
  ['stateOrProvince', 'State or province', true],
  ['postalCode', 'Postal code', true],
  ['country', 'Country (two letters, e.g. GB)', true],
] as const;

type RegistrantField = (typeof REGISTRANT_FIELDS)[number][0];

/** The buy form as typed: every value kept as a string, so a refused form comes back as it was sent. */
export interface BuyForm {
  hostname: string;
  years: string;
  whoisPrivacy: boolean;
  autoRenew: boolean;
  registrant: Record<RegistrantField, string>;
}

/** A refused form's problems: each under its field (`hostname`, `years`, `registrant.email`, ...), the rest above. */
export interface BuyProblems {
  fields: Record<string, string>;
  form: string[];
}

type Body = Record<string, string | string[] | undefined>;
const text = (body: Body, name: string) => {
  const value = body[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
};

/** Reads the posted form (no I/O): text as typed, checkboxes as booleans. */
export function readBuyForm(body: Body): BuyForm {
  const registrant = Object.fromEntries(
    REGISTRANT_FIELDS.map(([name]) => [name, text(body, name)]),
  ) as BuyForm['registrant'];
  return {
    hostname: text(body, 'hostname').trim(),
    years: text(body, 'years') || '1',
    whoisPrivacy: ['on', 'true'].includes(text(body, 'whoisPrivacy')),
    autoRenew: ['on', 'true'].includes(text(body, 'autoRenew')),
    registrant,
  };
}

/**
 * The body of POST /v1/domain-purchases the form stands for: the same DTO checks it. Optional fields
 * left empty are left out; the years as a number when they are one (else as typed, so the DTO names it).
 */
export function purchaseInput(form: BuyForm): Record<string, unknown> {
  const registrant: Record<string, string> = {};
  for (const [name, , required] of REGISTRANT_FIELDS) {
    const value = form.registrant[name];
    if (required || value.trim()) registrant[name] = name === 'country' ? value.trim().toUpperCase() : value;
  }
  const years = Number(form.years);
  return {
    hostname: form.hostname,
    years: Number.isInteger(years) ? years : form.years,
    registrant,
    enableWhoisPrivacy: form.whoisPrivacy,
    autoRenew: form.autoRenew,
  };
}

const FIELD_ALIASES: Record<string, string> = { enableWhoisPrivacy: 'whoisPrivacy' };

/**
 * Where each problem goes (no I/O): the validation pipe's `details.fields` under their fields
 * (`registrant.email must be ...` reads `email must be ...`), a use case's `details.field` under
 * that field, an unavailable hostname under the hostname, anything else above the form.
 */
export function buyProblems(error: DomainError): BuyProblems {
  const result: BuyProblems = { fields: {}, form: [] };
  const listed = (error.details?.fields as { field: string; problems: string[] }[] | undefined) ?? [];
  for (const { field, problems } of listed) {
    const name = FIELD_ALIASES[field] ?? field;
    const message = problems.join('; ').replace(/^registrant\./, '');
    result.fields[name] = result.fields[name] ? `${result.fields[name]}; ${message}` : message;
  }
  const named = typeof error.details?.field === 'string' ? error.details.field : undefined;
  if (named) result.fields[FIELD_ALIASES[named] ?? named] ??= error.message;
  else if (error.code === 'unavailable') result.fields.hostname = error.message;
  else if (!listed.length) result.form.push(error.message);
  return result;
}
