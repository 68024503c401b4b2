export { OAuthModule } from './oauth.module';
