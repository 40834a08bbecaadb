// Discovery → OpenAPI conversion (editor-free).
export { NotDiscoveryDocumentError, toOpenApi, type OpenApiResult, type OpenApiVersion } from './convert';
