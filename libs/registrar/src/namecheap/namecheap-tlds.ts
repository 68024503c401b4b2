/**
 * TLDs whose registries forbid proxy contacts, so Namecheap cannot add WHOIS privacy (WithheldForPrivacy):
 * its API does not report this per TLD, so the list is kept here.
 */
export const NAMECHEAP_NO_PRIVACY_TLDS = new Set([
  'us',
  'ca',
  'uk',
  'co.uk',
  'org.uk',
  'me.uk',
  'eu',
  'de',
  'nl',
  'fr',
  'it',
  'es',
  'in',
  'com.au',
  'net.au',
  'org.au',
]);
