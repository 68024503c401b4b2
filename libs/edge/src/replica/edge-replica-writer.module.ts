import { Module } from '@nestjs/common';
import { edgeReplicaProviders } from './edge-replica.providers';

/** What a node runs for the edges: the writer that copies route and certificate changes into the replica. */
@Module({ providers: edgeReplicaProviders('onNats') })
export class EdgeReplicaWriterModule {}
