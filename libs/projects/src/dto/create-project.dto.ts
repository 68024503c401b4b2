import { IsMetadata, IsOmittable } from '@app/http';
import { IsString, Length, Matches, MaxLength } from 'class-validator';

export class CreateProjectDto {
  @IsString()
  @Length(1, 200)
  @Matches(/\S/, { message: 'name must not be blank' })
  name!: string;

  @IsOmittable()
  @IsString()
  @MaxLength(2000)
  description?: string;

  @IsOmittable()
  @IsMetadata()
  metadata?: Record<string, unknown>;
}
