import { IsOmittable } from '@app/http';
import { IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';

export const PAYMENT_METHOD_PATTERN = /^pm_[A-Za-z0-9_]{1,250}$/;
export const PAYMENT_METHOD_MESSAGE = 'paymentMethod must be a Stripe payment method id such as pm_card_visa';

export class CreateWorkspaceDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name!: string;

  @IsOmittable()
  @IsString()
  @Matches(PAYMENT_METHOD_PATTERN, { message: PAYMENT_METHOD_MESSAGE })
  paymentMethod?: string;
}
