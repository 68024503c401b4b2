import { DOMAIN_STATUSES, DomainStatus } from '../../model/domain.types';
import { PageQueryDto } from '@app/http';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';

export class ListDomainsDto extends PageQueryDto {
  @IsOptional()
  @IsString()
  @MaxLength(253)
  hostname?: string;

  @IsOptional()
  @IsIn(DOMAIN_STATUSES)
  status?: DomainStatus;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  projectId?: string;
}
