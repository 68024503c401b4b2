import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { AdminClient } from './admin-client';

const USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  create-workspace --name NAME [--card pm_card_visa]   a workspace and its first API key
  get-workspace    --workspace ID                       the workspace and its keys
  create-key       --workspace ID                       another API key (shown once)
  revoke-key       --key KEY_ID                         revoke an API key at once
  set-card         --workspace ID --card PM_ID          save a payment method
  remove-card      --workspace ID                       remove the saved payment method
  cluster-status                                        which node owns which shards
  create-user --email EMAIL (--operator | --workspace ID [--role member|viewer]) [--name NAME]
                                                        a web-console user; the password comes from
                                                        --password or $CONSOLE_USER_PASSWORD (10+ chars)
  create-oauth-client --workspace ID --name NAME --scopes domains:read,domains:write
                                                        an OAuth client (client_secret shown once)
  list-oauth-clients  --workspace ID                    the workspace's OAuth clients
  revoke-oauth-client --workspace ID --client CLIENT_ID revoke a client and all its tokens

Environment: API_URL (default http://127.0.0.1:$PORT or :3000), ADMIN_TOKEN
(default: the token standalone generated in $DATA_DIR/admin-token).`;

function adminToken(): string {
  if (process.env.ADMIN_TOKEN) return process.env.ADMIN_TOKEN;
  try {
    return readFileSync(join(process.env.DATA_DIR ?? './data', 'admin-token'), 'utf8').trim();
  } catch {
    throw new Error('ADMIN_TOKEN is not set and no generated token was found in DATA_DIR');
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
      email: { type: 'string' },
      password: { type: 'string' },
      operator: { type: 'boolean' },
      role: { type: 'string' },
    },
  });
  const command = positionals[0];
  const client = new AdminClient(process.env.API_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`, adminToken());
  const ws = () => encodeURIComponent(need(values.workspace, 'workspace'));
  let result: unknown;
  switch (command) {
    case 'create-workspace':
      result = await client.call('POST', '/admin/workspaces', {
        name: need(values.name, 'name'),
        paymentMethod: values.card,
      });
      break;
    case 'get-workspace':
      result = await client.call('GET', `/admin/workspaces/${ws()}`);
      break;
    case 'create-key':
      result = await client.call('POST', `/admin/workspaces/${ws()}/api-keys`);
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
