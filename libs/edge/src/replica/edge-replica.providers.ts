import { Bus, NatsBus } from '@app/bus';
import { APP_CONFIG, AppConfig } from '@app/config';
import { Provider } from '@nestjs/common';
import { EdgeReplica } from './edge-replica';
import { EdgeReplicaQueries } from './edge-replica.queries';
import { EdgeReplicaWriter } from './edge-replica-writer.service';
import { InMemoryReplica } from './in-memory.replica';
import { NatsKvReplica, replicaBucket } from './nats-kv.replica';
import { EDGE_REPLICA, REPLICA_WRITER_MODE, ReplicaWriterMode } from './replica.tokens';

/**
 * The replica and its writer. On NATS the writer runs in the nodes (`onNats`); on the in-process
 * bus (standalone, one process) it runs beside the edge that reads it.
 */
export function edgeReplicaProviders(writer: 'onNats' | 'inProcess'): Provider[] {
  return [
    {
      provide: EDGE_REPLICA,
      inject: [Bus, APP_CONFIG],
      useFactory: (bus: Bus, config: AppConfig): Promise<EdgeReplica> | EdgeReplica =>
        bus instanceof NatsBus
          ? NatsKvReplica.open(bus, replicaBucket(bus.prefix), config.natsReplicas)
          : InMemoryReplica.of(bus),
    },
    {
      provide: REPLICA_WRITER_MODE,
      inject: [Bus],
      useFactory: (bus: Bus): ReplicaWriterMode => {
        if (bus instanceof NatsBus !== (writer === 'onNats')) return 'off';
        return writer === 'onNats' ? 'inBackground' : 'beforeStart';
      },
    },
    EdgeReplicaQueries,
    EdgeReplicaWriter,
  ];
}
