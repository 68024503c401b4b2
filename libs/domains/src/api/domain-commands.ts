import { Injectable } from '@nestjs/common';
import { CheckDomain } from './check-domain.usecase';
import { CreateDomain } from './create-domain.usecase';
import { DeleteDomain } from './delete-domain.usecase';
import { CreateDomainDto } from './dto/create-domain.dto';
import { UpdateDomainDto } from './dto/update-domain.dto';
import { UpdateDomain } from './update-domain.usecase';

/**
 * The domain use cases under one name, for the libs that run them beside their own work (the
 * console, DNS apply, bulk create): each method is its use case, unchanged.
 */
@Injectable()
export class DomainCommands {
  constructor(
    private readonly creates: CreateDomain,
    private readonly updates: UpdateDomain,
    private readonly deletes: DeleteDomain,
    private readonly checks: CheckDomain,
  ) {}

  create(workspaceId: string, dto: CreateDomainDto) {
    return this.creates.execute(workspaceId, dto);
  }

  update(workspaceId: string, id: string, dto: UpdateDomainDto) {
    return this.updates.execute(workspaceId, id, dto);
  }

  remove(workspaceId: string, id: string) {
    return this.deletes.execute(workspaceId, id);
  }

  check(workspaceId: string, id: string) {
    return this.checks.execute(workspaceId, id);
  }
}
