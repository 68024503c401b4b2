import { OriginUrlError, parseOriginUrl } from '@app/hostname-rules';
import { ValidationArguments, ValidationOptions, registerDecorator } from 'class-validator';

/** Why `value` cannot be a webhook URL (named `property` in the message), or undefined when it can. */
function webhookUrlProblem(value: unknown, property = 'url'): string | undefined {
  if (typeof value !== 'string') return undefined; // @IsString says so
  try {
    parseOriginUrl(value);
  } catch (error) {
    // An address the SSRF rules refuse (a private range, an internal name) is judged at each delivery,
    // where OUTBOUND_ALLOW_CIDRS and DNS apply and the refusal is recorded; only what can never be sent to is refused here.
    if (error instanceof OriginUrlError && error.code === 'invalid_url') return `${property} ${error.message}`;
  }
  return undefined;
}

/**
 * An absolute http(s) URL the delivery worker can POST to, by the same parser deliveries use
 * (`parseOriginUrl`): no relative URL, other scheme or credentials, each with a message that says the fix.
 */
export function IsWebhookUrl(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isWebhookUrl',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: (args: ValidationArguments) => webhookUrlProblem(args.value, args.property) ?? '',
        ...options,
      },
      validator: { validate: (value: unknown) => webhookUrlProblem(value) === undefined },
    });
}
