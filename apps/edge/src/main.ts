import 'reflect-metadata';
import { runMain } from '@app/runtime';
import { EdgeModule } from './edge.module';

runMain({ role: 'edge', rootModule: (config, database) => EdgeModule.forRoot(config, database) }, ({ url }) =>
  process.stdout.write(`edge up; health and metrics on ${url}\n`),
);
