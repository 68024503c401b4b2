import 'reflect-metadata';
import type { AppConfig } from '@app/config';
import { ConsoleUsers } from '@app/console';
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
  ({ app, url, config }) => {
    // `npm run admin` finds this standalone (any PORT) through the note it leaves beside the admin token.
    writeApiUrl(config.dataDir, url);
    // Whether the console still waits for its first operator decides what the banner tells to do.
    void app
      .get(ConsoleUsers)
      .count()
      .catch(() => 0)
      .then((users) => process.stdout.write(banner(url, config, users > 0)));
  },
);

function banner(url: string, config: AppConfig, consoleSetUp: boolean): string {
  return startBanner({
    url,
    dataDir: config.dataDir,
    adminToken: config.adminToken,
    adminTokenGenerated: (config as { adminTokenGenerated?: boolean }).adminTokenGenerated === true,
    database: config.databaseUrl ? 'PostgreSQL at DATABASE_URL' : `embedded PostgreSQL in ${config.dataDir}`,
    bus: config.natsUrls ? 'NATS' : 'in-process',
    // The token only where a person reads it: a terminal with pretty logs, never a collected stream.
    onTerminal: logsArePretty(),
    consoleSetUp,
  });
}
