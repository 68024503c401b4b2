/** Wholesale prices per year in cents, and WHOIS privacy support, per TLD (the sandbox registrar's catalogue). */
export interface SandboxTld {
  registerCents: number;
  renewCents: number;
  whoisPrivacy: boolean;
}

/** Roughly a retail registrar's wholesale list; TLDs not here are not offered. */
export const SANDBOX_TLDS: Readonly<Record<string, SandboxTld>> = {
  com: { registerCents: 1098, renewCents: 1498, whoisPrivacy: true },
  net: { registerCents: 1298, renewCents: 1598, whoisPrivacy: true },
  org: { registerCents: 1098, renewCents: 1498, whoisPrivacy: true },
  io: { registerCents: 3498, renewCents: 5298, whoisPrivacy: true },
  dev: { registerCents: 1298, renewCents: 1598, whoisPrivacy: true },
  app: { registerCents: 1498, renewCents: 1798, whoisPrivacy: true },
  co: { registerCents: 1198, renewCents: 2898, whoisPrivacy: true },
  xyz: { registerCents: 198, renewCents: 1398, whoisPrivacy: true },
  info: { registerCents: 398, renewCents: 2098, whoisPrivacy: true },
  me: { registerCents: 598, renewCents: 1998, whoisPrivacy: true },
  // Registries of these TLDs forbid proxy contacts (WHOIS privacy).
  us: { registerCents: 898, renewCents: 1098, whoisPrivacy: false },
  ca: { registerCents: 1098, renewCents: 1298, whoisPrivacy: false },
  'co.uk': { registerCents: 798, renewCents: 998, whoisPrivacy: false },
};

/** Registries refuse registrations and renewals that push the expiry further out than this. */
export const MAX_REGISTRATION_YEARS = 10;
