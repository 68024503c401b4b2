import { IsString, Length } from 'class-validator';

/** Caddy's on-demand TLS asks `?domain=<hostname>`. */
export class AskQueryDto {
  @IsString()
  @Length(1, 253)
  domain!: string;
}
