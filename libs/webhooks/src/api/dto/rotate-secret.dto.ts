import { IsOmittable } from '@app/http';
import { IsInt, Max, Min } from 'class-validator';
import { MAX_OVERLAP_SECONDS } from '../../model/secret-rotation';

/** POST /v1/webhook-endpoints/{id}/rotate-secret: an optional body. */
export class RotateSecretDto {
  /** How long the replaced secret still signs deliveries (beside the new one): 0-604800, default 86400. */
  @IsOmittable()
  @IsInt()
  @Min(0)
  @Max(MAX_OVERLAP_SECONDS)
  overlapSeconds?: number;
}
