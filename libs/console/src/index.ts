export { ConsoleModule } from './console.module';
export { ConsoleUsers } from './console-users.store';
