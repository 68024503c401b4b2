import { Transform } from 'class-transformer';
import { IsEmail, IsOptional, IsString, Length, Matches, MaxLength, Validate } from 'class-validator';
import { IsIsoCountry } from './purchase.validators';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** SPEC 2.6: forwarded to the registrar verbatim (after trimming surrounding spaces). */
export class RegistrantDto {
  @Transform(trim)
  @IsString()
  @Length(1, 64)
  firstName!: string;

  @Transform(trim)
  @IsString()
  @Length(1, 64)
  lastName!: string;

  @Transform(trim)
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(254)
  email!: string;

  @Transform(trim)
  @IsString()
  @Matches(/^\+[1-9]\d{0,2}\.\d{4,14}$/, { message: 'phone must be +CC.NUMBER, e.g. +1.5555555555' })
  phone!: string;

  @Transform(trim)
  @IsString()
  @Length(1, 255)
  address1!: string;

  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxLength(255)
  address2?: string;

  @Transform(trim)
  @IsString()
  @Length(1, 128)
  city!: string;

  @Transform(trim)
  @IsString()
  @Length(1, 128)
  stateOrProvince!: string;

  @Transform(trim)
  @IsString()
  @Length(1, 32)
  postalCode!: string;

  @Transform(trim)
  @IsString()
  @Validate(IsIsoCountry)
  country!: string;

  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxLength(255)
  organization?: string;
}
