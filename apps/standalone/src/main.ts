import 'reflect-metadata';
import { logsArePretty } from '@app/http';
import { runMain } from '@app/runtime';
import { withLocalSecrets, writeApiUrl } from './local-secrets';
import { StandaloneModule } from './standalone.module';
import { startBanner } from './start-banner';

runMain(
  {
    role: 'standalone',
    rootModule: (config, database) => StandaloneModule.forRoot(config, database),
    prepare: withLocalSecrets,
  },
  ({ url, config }) => {
    // `npm run admin` finds this standalone (any PORT) through the note it leaves beside the admin token.
    writeApiUrl(config.dataDir, url);
    process.stdout.write(
      startBanner({
        url,
        dataDir: config.dataDir,
        adminToken: config.adminToken,
        adminTokenGenerated: (config as { adminTokenGenerated?: boolean }).adminTokenGenerated === true,
        database: config.databaseUrl ? 'PostgreSQL at DATABASE_URL' : `embedded PostgreSQL in ${config.dataDir}`,
        bus: config.natsUrls ? 'NATS' : 'in-process',
        // The token only where a person reads it: a terminal with pretty logs, never a collected stream.
        onTerminal: logsArePretty(),
      }),
    );
  },
);
