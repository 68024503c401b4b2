import { IsMetadata } from '@app/http';
import { IsOptional, IsString, Length, Matches, MaxLength, ValidateIf } from 'class-validator';

/** Only sent fields change; `description: null` clears it. */
export class UpdateProjectDto {
  @IsOptional()
  @IsString()
  @Length(1, 200)
  @Matches(/\S/, { message: 'name must not be blank' })
  name?: string;

  @ValidateIf((_, value) => value !== undefined && value !== null)
  @IsString()
  @MaxLength(2000)
  description?: string | null;

  @IsOptional()
  @IsMetadata()
  metadata?: Record<string, unknown>;
}
