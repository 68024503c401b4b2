export * from './provider-module';
export * from './http-fake';
export * from './namecheap-server';
export { FakeNamecheapAccount } from './namecheap-commands';
export * from './namecheap-state';
