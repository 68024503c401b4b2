/** The challenge zone's authoritative DNS listener: TXT values of live DNS-01 challenges, SOA and NS. */
export { ChallengeDnsModule } from './challenge-dns.module';
