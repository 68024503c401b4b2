/**
 * What the hostname serves over TLS. `unreachable` judges nothing (no address, refused, timed out:
 * the network between this node and the edge may be at fault); the other outcomes saw a certificate.
 */
export interface ServedCertificate {
  outcome: 'valid' | 'wrong_name' | 'outside_validity' | 'unreachable';
  expiresAt?: string;
  reason?: string;
}

/** What a probe concluded about the domain's certificate, as the domain's state machine takes it. */
export type CertificateObservation = 'none' | 'valid' | 'expired' | 'failed';
