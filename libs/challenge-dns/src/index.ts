/** The challenge zone's authoritative DNS listener: TXT values of live DNS-01 challenges, SOA and NS. */
export { ChallengeDnsModule } from './challenge-dns.module';
export { ChallengeDnsServer } from './challenge-dns.server';
export type { ChallengeDnsOptions } from './challenge-dns.options';
export { answerQuery, type LiveValue, type LiveValues } from './model/zone-answer';
export { encodeResponse, readQuery, udpLimit } from './model/wire-message';
