/**
 * What the hostname serves over TLS. `unreachable` judges nothing (no address, refused, timed out:
 * the network between this node and the edge may be at fault); the other outcomes saw a certificate.
 */
export interface ServedCertificate {
  outcome: 'valid' | 'wrong_name' | 'outside_validity' | 'unreachable';
  expiresAt?: string;
  reason?: string;
}
