import { ClusterStatus, askClusterStatus } from '@app/actors';
import { AdminOnly } from '@app/auth';
import { Bus } from '@app/bus';
import { Controller, Get } from '@nestjs/common';

/** Which node owns which shards (`npm run admin -- cluster-status`). */
@AdminOnly()
@Controller('admin/cluster')
export class ClusterController {
  constructor(private readonly bus: Bus) {}

  @Get()
  status(): Promise<ClusterStatus> {
    return askClusterStatus(this.bus);
  }
}
