import { IsString, Matches } from 'class-validator';
import { PAYMENT_METHOD_MESSAGE, PAYMENT_METHOD_PATTERN } from './create-workspace.dto';

export class SetPaymentMethodDto {
  @IsString()
  @Matches(PAYMENT_METHOD_PATTERN, { message: PAYMENT_METHOD_MESSAGE })
  paymentMethod!: string;
}
