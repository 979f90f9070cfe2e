/**
 * The system domain's public module: health, public config and the OpenAPI document.
 */
export { withCallsSection } from './api-docs';
export { buildOpenApi } from './openapi';
export { publicConfig } from './public-config';
