import 'reflect-metadata';
import { runMain } from '@app/runtime';
import { withLocalSecrets, writeApiUrl } from './local-secrets';
import { StandaloneModule } from './standalone.module';

runMain(
  {
    role: 'standalone',
    rootModule: (config, database) => StandaloneModule.forRoot(config, database),
    prepare: withLocalSecrets,
  },
  ({ url, config }) => {
    // `npm run admin` finds this standalone (any PORT) through the note it leaves beside the admin token.
    writeApiUrl(config.dataDir, url);
    const generated = (config as { adminTokenGenerated?: boolean }).adminTokenGenerated;
    const database = config.databaseUrl ? 'PostgreSQL at DATABASE_URL' : `embedded PostgreSQL in ${config.dataDir}`;
    process.stdout.write(
      [
        '',
        `  Custom domains service (standalone) is up at ${url}`,
        `  Database:    ${database}`,
        `  Bus:         ${config.natsUrls ? 'NATS' : 'in-process'}`,
        `  Admin token: ${config.adminToken}${generated ? `  (generated, kept in ${config.dataDir}/admin-token)` : ''}`,
        `  Console:     ${url}/console  (first visit: create the operator account with the admin token above;`,
        `               or: npm run admin -- create-user --operator --email you@example.com --password '...')`,
        `  Try:         curl -s -X POST ${url}/admin/workspaces -H 'authorization: Bearer ${config.adminToken}' \\`,
        `                 -H 'content-type: application/json' -d '{"name":"Acme","paymentMethod":"pm_card_visa"}'`,
        '',
      ].join('\n') + '\n',
    );
  },
);
