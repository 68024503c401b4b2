import { IsOmittable } from '@app/http';
import { IsInt, Max, Min } from 'class-validator';

export const DEFAULT_SESSION_TTL_SECONDS = 3600;

export class CreateConnectSessionDto {
  /** SPEC 8: 60-86400 seconds, default 3600. */
  @IsOmittable()
  @IsInt()
  @Min(60)
  @Max(86_400)
  ttlSeconds?: number;
}
