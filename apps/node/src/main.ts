import 'reflect-metadata';
import { runMain } from '@app/runtime';
import { NodeModule } from './node.module';

runMain({ role: 'node', rootModule: (config, database) => NodeModule.forRoot(config, database) }, ({ url, config }) =>
  process.stdout.write(`node ${config.nodeId} up; health and metrics on ${url}\n`),
);
