export * from './provider-module';
export * from './http-fake';
export * from './namecheap-server';
export { FakeNamecheapAccount } from './namecheap-commands';
export * from './namecheap-state';
export * from './stripe-server';
export { FakeStripeAccount } from './stripe-account';
export * from './stripe-objects';
export * from './stripe-form';
