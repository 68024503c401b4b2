import { APP_CONFIG, AppConfig } from '@app/config';
import { MikroSqlExecutor } from '@app/persistence';
import { Global, Module } from '@nestjs/common';
import { Registrar } from './registrar.port';
import { NamecheapRegistrar } from './namecheap/namecheap.registrar';
import { SandboxRegistrar } from './sandbox/sandbox.registrar';

function registrarFor(config: AppConfig, db: MikroSqlExecutor): Registrar {
  switch (config.registrar) {
    case 'sandbox':
      return new SandboxRegistrar(db);
    case 'namecheap':
      // loadConfig guarantees the credentials when REGISTRAR=namecheap.
      return new NamecheapRegistrar(config.namecheap!);
  }
}

/**
 * Provides `Registrar` as chosen by `REGISTRAR`. Global and static, so importing it from several feature
 * modules of one app yields a single instance.
 */
@Global()
@Module({
  providers: [{ provide: Registrar, inject: [APP_CONFIG, MikroSqlExecutor], useFactory: registrarFor }],
  exports: [Registrar],
})
export class RegistrarModule {}
