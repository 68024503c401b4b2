export * from './registrar.port';
export * from './registrar.module';
export * from './domain-name';
export * from './sandbox-price-table';
export { SandboxRegistrar, SANDBOX_DEFAULT_DNS, SANDBOX_DEFAULT_NAMESERVERS } from './sandbox/sandbox.registrar';
export { NamecheapRegistrar } from './namecheap/namecheap.registrar';
