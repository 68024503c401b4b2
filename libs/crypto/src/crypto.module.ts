import { APP_CONFIG, AppConfig } from '@app/config';
import { Global, Module } from '@nestjs/common';
import { SecretBox } from './secret-box';

/** The SecretBox under ENCRYPTION_KEY, for every module that stores secrets. */
@Global()
@Module({
  providers: [
    {
      provide: SecretBox,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => {
        if (!config.encryptionKey) throw new Error('ENCRYPTION_KEY is required to store secrets');
        return new SecretBox(config.encryptionKey);
      },
    },
  ],
  exports: [SecretBox],
})
export class CryptoModule {}
