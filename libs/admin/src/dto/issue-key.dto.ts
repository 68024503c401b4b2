import { IsOmittable } from '@app/http';
import { IsString, MaxLength } from 'class-validator';

/** POST /admin/workspaces/{id}/api-keys: an optional name ("production") to tell the key apart. */
export class IssueKeyDto {
  @IsOmittable()
  @IsString()
  @MaxLength(100)
  name?: string;
}
