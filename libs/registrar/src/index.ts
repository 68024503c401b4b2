export {
  type DomainAvailability,
  type RegisterRequest,
  type Registrant,
  Registrar,
  type RegistrarDnsRecord,
  RegistrarRefusedError,
  RegistrarUnavailableError,
  type Registration,
  type WholesalePrice,
} from './registrar.port';
export { RegistrarModule } from './registrar.module';
export { SANDBOX_DEFAULT_DNS, SANDBOX_DEFAULT_NAMESERVERS, SandboxRegistrar } from './sandbox/sandbox.registrar';
export { NamecheapRegistrar } from './namecheap/namecheap.registrar';
