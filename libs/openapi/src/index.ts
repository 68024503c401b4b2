export { OpenApiModule } from './openapi.module';
export { OpenApiService } from './openapi.service';
export { OPERATIONS } from './operations';
export { isApiPath } from './route-scanner';
