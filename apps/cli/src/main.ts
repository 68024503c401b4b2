import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { AdminClient } from './admin-client';

const USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  create-workspace --name NAME [--card pm_card_visa]   a workspace and its first API key
  list-workspaces                                       every workspace, newest first
  get-workspace    --workspace ID                       the workspace and its keys
  create-key       --workspace ID [--name NAME]         another API key (shown once), named
  revoke-key       --key KEY_ID                         revoke an API key at once
  set-card         --workspace ID --card PM_ID          save a payment method
  remove-card      --workspace ID                       remove the saved payment method
  cluster-status                                        which node owns which shards
  create-user --email EMAIL (--operator | --workspace ID [--role member|viewer]) [--name NAME]
                                                        a web-console user; the password comes from
                                                        --password or $CONSOLE_USER_PASSWORD (10+ chars)
  set-password   --email EMAIL                          a console user's new password (from --password or
                                                        $CONSOLE_USER_PASSWORD); their sessions end
  reset-password --email EMAIL                          a one-time password, printed once; their sessions end
  create-oauth-client --workspace ID --name NAME --scopes domains:read,domains:write
                                                        an OAuth client (client_secret shown once)
  list-oauth-clients  --workspace ID                    the workspace's OAuth clients
  revoke-oauth-client --workspace ID --client CLIENT_ID revoke a client and all its tokens

Options: --url URL   the service (default: API_URL, else the address the running standalone
                     wrote to $DATA_DIR/api-url, else http://127.0.0.1:$PORT, PORT default 3000)
Environment: API_URL, PORT, DATA_DIR (default ./data), ADMIN_TOKEN (default: the token
standalone generated in $DATA_DIR/admin-token).`;

const dataDir = () => process.env.DATA_DIR ?? './data';

/** Where the service is: --url, API_URL, the running standalone's own note, then PORT. */
function serviceUrl(flag: string | undefined): string {
  if (flag) return flag;
  if (process.env.API_URL) return process.env.API_URL;
  try {
    const written = readFileSync(join(dataDir(), 'api-url'), 'utf8').trim();
    if (written && !process.env.PORT) return written;
  } catch {
    // No standalone has run with this DATA_DIR: fall back to PORT.
  }
  return `http://127.0.0.1:${process.env.PORT ?? 3000}`;
}

function adminToken(): string {
  if (process.env.ADMIN_TOKEN) return process.env.ADMIN_TOKEN;
  try {
    return readFileSync(join(dataDir(), 'admin-token'), 'utf8').trim();
  } catch {
    throw new Error(
      `ADMIN_TOKEN is not set and no generated token was found in ${join(dataDir(), 'admin-token')} (set DATA_DIR to the standalone's)`,
    );
  }
}

function need(value: string | undefined, flag: string): string {
  if (!value) throw new Error(`--${flag} is required\n\n${USAGE}`);
  return value;
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      card: { type: 'string' },
      workspace: { type: 'string' },
      key: { type: 'string' },
      scopes: { type: 'string' },
      client: { type: 'string' },
      url: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      operator: { type: 'boolean' },
      role: { type: 'string' },
    },
  });
  const command = positionals[0];
  if (!command || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    process.exit(command ? 0 : 2);
  }
  const client = new AdminClient(serviceUrl(values.url), adminToken());
  const ws = () => encodeURIComponent(need(values.workspace, 'workspace'));
  let result: unknown;
  switch (command) {
    case 'create-workspace':
      result = await client.call('POST', '/admin/workspaces', {
        name: need(values.name, 'name'),
        paymentMethod: values.card,
      });
      break;
    case 'list-workspaces':
      result = await client.call('GET', '/admin/workspaces');
      break;
    case 'get-workspace':
      result = await client.call('GET', `/admin/workspaces/${ws()}`);
      break;
    case 'create-key':
      result = await client.call('POST', `/admin/workspaces/${ws()}/api-keys`, { name: values.name });
      break;
    case 'revoke-key':
      result = await client.call('DELETE', `/admin/api-keys/${encodeURIComponent(need(values.key, 'key'))}`);
      break;
    case 'set-card':
      result = await client.call('PUT', `/admin/workspaces/${ws()}/payment-method`, {
        paymentMethod: need(values.card, 'card'),
      });
      break;
    case 'remove-card':
      result = await client.call('DELETE', `/admin/workspaces/${ws()}/payment-method`);
      break;
    case 'create-oauth-client':
      result = await client.call('POST', `/admin/workspaces/${ws()}/oauth-clients`, {
        name: need(values.name, 'name'),
        scopes: need(values.scopes, 'scopes')
          .split(/[\s,]+/)
          .filter(Boolean),
      });
      break;
    case 'list-oauth-clients':
      result = await client.call('GET', `/admin/workspaces/${ws()}/oauth-clients`);
      break;
    case 'revoke-oauth-client':
      result = await client.call(
        'DELETE',
        `/admin/workspaces/${ws()}/oauth-clients/${encodeURIComponent(need(values.client, 'client'))}`,
      );
      break;
    case 'create-user':
      result = await client.call('POST', '/admin/console-users', {
        email: need(values.email, 'email'),
        password: need(values.password ?? process.env.CONSOLE_USER_PASSWORD, 'password'),
        name: values.name,
        operator: values.operator,
        workspaceId: values.workspace,
        role: values.role,
      });
      break;
    case 'set-password':
      result = await client.call('POST', '/admin/console-users/password', {
        email: need(values.email, 'email'),
        password: need(values.password ?? process.env.CONSOLE_USER_PASSWORD, 'password'),
      });
      break;
    case 'reset-password':
      result = await client.call('POST', '/admin/console-users/password', { email: need(values.email, 'email') });
      break;
    case 'cluster-status':
      result = await client.call('GET', '/admin/cluster');
      break;
    default:
      process.stderr.write(`${command ? `Unknown command: ${command}\n\n` : ''}${USAGE}\n`);
      process.exit(2);
  }
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
