export { OpenApiModule } from './openapi.module';
export { OpenApiService } from './openapi.service';
export { OPERATIONS } from './operations';
export { isApiPath, routeHandlers } from './route-scanner';
export { checkExchangesAgainstOpenApi, describeViolation } from './exchange-check';
export { logOpenApiViolations } from './exchange-log';
