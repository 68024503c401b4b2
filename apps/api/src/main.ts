import 'reflect-metadata';
import { runMain } from '@app/runtime';
import { ApiModule } from './api.module';

runMain({ role: 'api', rootModule: (config, database) => ApiModule.forRoot(config, database) }, ({ url }) =>
  process.stdout.write(`api listening on ${url}\n`),
);
