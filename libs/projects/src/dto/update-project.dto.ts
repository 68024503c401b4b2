import { IsMetadata, IsNullable, IsOmittable } from '@app/http';
import { IsString, Length, Matches, MaxLength } from 'class-validator';

/** Only sent fields change; `description: null` clears it. */
export class UpdateProjectDto {
  @IsOmittable()
  @IsString()
  @Length(1, 200)
  @Matches(/\S/, { message: 'name must not be blank' })
  name?: string;

  @IsNullable()
  @IsString()
  @MaxLength(2000)
  description?: string | null;

  @IsOmittable()
  @IsMetadata()
  metadata?: Record<string, unknown>;
}
