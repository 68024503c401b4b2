import { ALL_SCOPES } from '@app/auth';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsNotEmpty, IsString, MaxLength } from 'class-validator';

export class CreateOAuthClientDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name!: string;

  /** The most a token of this client may carry, e.g. `["domains:read"]`. */
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(ALL_SCOPES.length)
  @IsIn(ALL_SCOPES, { each: true })
  scopes!: string[];
}
