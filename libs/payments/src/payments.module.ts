import { APP_CONFIG, AppConfig } from '@app/config';
import { MikroSqlExecutor } from '@app/persistence';
import { Global, Module } from '@nestjs/common';
import { Payments } from './payments.port';
import { SandboxPayments } from './sandbox/sandbox.payments';
import { StripePayments } from './stripe/stripe.payments';

function paymentsFor(config: AppConfig, db: MikroSqlExecutor): Payments {
  switch (config.payments) {
    case 'sandbox':
      return new SandboxPayments(db);
    case 'stripe':
      // loadConfig guarantees the key when PAYMENTS=stripe.
      return new StripePayments(config.stripe!);
  }
}

/**
 * Provides `Payments` as chosen by `PAYMENTS`. Global and static, so importing it from several feature
 * modules of one app yields a single instance.
 */
@Global()
@Module({
  providers: [{ provide: Payments, inject: [APP_CONFIG, MikroSqlExecutor], useFactory: paymentsFor }],
  exports: [Payments],
})
export class PaymentsModule {}
