import { Module } from '@nestjs/common';
import { ClusterController } from './cluster.controller';

/** The admin view of the actor cluster, served by the API. */
@Module({ controllers: [ClusterController] })
export class ClusterAdminModule {}
