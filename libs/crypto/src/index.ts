export { SecretBox } from './secret-box';
export { CryptoModule } from './crypto.module';
