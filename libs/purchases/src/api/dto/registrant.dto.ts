import { IsOmittable } from '@app/http';
import { IsEmail, IsString, Length, Matches, MaxLength, Validate } from 'class-validator';
import { IsIsoCountry } from './purchase.validators';

const NOT_BLANK = [/\S/, { message: '$property must not be blank' }] as const;

/** SPEC 2.6: forwarded to the registrar verbatim, so nothing is rewritten here, only checked. */
export class RegistrantDto {
  @IsString()
  @Length(1, 64)
  @Matches(...NOT_BLANK)
  firstName!: string;

  @IsString()
  @Length(1, 64)
  @Matches(...NOT_BLANK)
  lastName!: string;

  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(254)
  email!: string;

  @IsString()
  @Matches(/^\+[1-9]\d{0,2}\.\d{4,14}$/, { message: 'phone must be +CC.NUMBER, e.g. +1.5555555555' })
  phone!: string;

  @IsString()
  @Length(1, 255)
  @Matches(...NOT_BLANK)
  address1!: string;

  @IsOmittable()
  @IsString()
  @MaxLength(255)
  address2?: string;

  @IsString()
  @Length(1, 128)
  @Matches(...NOT_BLANK)
  city!: string;

  @IsString()
  @Length(1, 128)
  @Matches(...NOT_BLANK)
  stateOrProvince!: string;

  @IsString()
  @Length(1, 32)
  @Matches(...NOT_BLANK)
  postalCode!: string;

  @IsString()
  @Validate(IsIsoCountry)
  country!: string;

  @IsOmittable()
  @IsString()
  @MaxLength(255)
  organization?: string;
}
