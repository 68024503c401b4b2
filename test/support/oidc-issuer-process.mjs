// A real OpenID Connect provider (the `oidc-provider` package) for the console's single sign-on
// tests. oidc-provider is ESM-only, so the test runs this in a plain Node process
// (test/support/oidc-issuer.ts). Its own login and consent pages (devInteractions) take any
// password: the accounts below are the in-test identities.
// Environment: PORT, CLIENT_ID, CLIENT_SECRET. Prints `ready <issuer>` when listening. The client
// may use any loopback console callback (the console under test listens on a port of its own
// choosing, after this issuer is up: no port is reserved in advance).
import Provider from 'oidc-provider';

const ACCOUNTS = {
  ada: { email: 'ada@example.com', email_verified: true, name: 'Ada Lovelace' },
  mallory: { email: 'mallory@example.com', email_verified: true, name: 'Mallory' },
  grace: { email: 'grace@corp.example.com', email_verified: true, name: 'Grace Hopper' },
  unverified: { email: 'ops@example.com', email_verified: false, name: 'Not Verified' },
};

const issuer = `http://127.0.0.1:${process.env.PORT}`;
const provider = new Provider(issuer, {
  clients: [
    {
      client_id: process.env.CLIENT_ID,
      client_secret: process.env.CLIENT_SECRET,
      redirect_uris: ['http://127.0.0.1/console/sso/callback'],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    },
    {
      // A public client: no secret, PKCE alone protects the code.
      client_id: `${process.env.CLIENT_ID}-public`,
      redirect_uris: ['http://127.0.0.1/console/sso/callback'],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
  ],
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
  pkce: { required: () => true },
  cookies: { keys: ['oidc-issuer-test-cookie-key-0123456789'] },
  features: { devInteractions: { enabled: true } },
  async findAccount(_ctx, id) {
    const account = ACCOUNTS[id];
    if (!account) return undefined;
    return { accountId: id, claims: async () => ({ sub: id, ...account }) };
  },
});
// oidc-provider's documented hook for redirect URI patterns.
const LOOPBACK_CALLBACK = /^http:\/\/127\.0\.0\.1:\d+\/console\/sso\/callback$/;
provider.Client.prototype.redirectUriAllowed = (uri) => LOOPBACK_CALLBACK.test(uri);
provider.on('server_error', (_ctx, error) => process.stderr.write(`server_error ${error.stack}\n`));
provider.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write(`ready ${issuer}\n`));
