import { IsMetadata } from '@app/http';
import { IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';

export class CreateProjectDto {
  @IsString()
  @Length(1, 200)
  @Matches(/\S/, { message: 'name must not be blank' })
  name!: string;

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  description?: string;

  @IsOptional()
  @IsMetadata()
  metadata?: Record<string, unknown>;
}
