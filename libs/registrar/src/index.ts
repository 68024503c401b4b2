/** Domain registration: the Registrar port, its Nest module and the sandbox and Namecheap adapters. */
export { RegistrarModule } from './registrar.module';
// The port and its types
export {
  type DomainAvailability,
  type RegisterRequest,
  type Registrant,
  Registrar,
  type RegistrarDnsRecord,
  registrarDnsRecordSchema,
  REGISTRAR_DNS_RECORD_TYPES,
  type RegistrarDnsRecordType,
  RegistrarRefusedError,
  RegistrarUnavailableError,
  type Registration,
  type WholesalePrice,
} from './registrar.port';
// Adapters
export { SANDBOX_DEFAULT_DNS, SANDBOX_DEFAULT_NAMESERVERS, SandboxRegistrar } from './sandbox/sandbox.registrar';
export { NamecheapRegistrar } from './namecheap/namecheap.registrar';
