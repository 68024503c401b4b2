/** The registrant of record, forwarded to the registrar verbatim (SPEC 2.6). */
export interface Registrant {
  firstName: string;
  lastName: string;
  email: string;
  /** `+CC.NUMBER`, e.g. `+1.5555555555`. */
  phone: string;
  address1: string;
  address2?: string;
  city: string;
  stateOrProvince: string;
  postalCode: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  organization?: string;
}
