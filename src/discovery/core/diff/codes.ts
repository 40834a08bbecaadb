// The change codes of `api-workbench diff` and the editor's Compare With… report. Codes are stable:
// CI scripts match on them, and docs/diff-codes.md documents each one (a unit test checks both ways).

export type DiffSeverity = 'breaking' | 'warning' | 'info';

export interface DiffCodeInfo {
  readonly severity: DiffSeverity;
  /** One line for docs and tooltips: what the change is. */
  readonly summary: string;
}

export const DIFF_CODES = {
  // The service endpoint
  'root-url-changed': { severity: 'breaking', summary: '`rootUrl` changed: clients call another host.' },
  'service-path-changed': { severity: 'breaking', summary: '`servicePath` changed: every method URL moves.' },
  'batch-path-changed': { severity: 'breaking', summary: '`batchPath` changed: batch requests go elsewhere.' },
  'revision-changed': { severity: 'info', summary: 'The `revision` stamp changed.' },
  'description-changed': {
    severity: 'info',
    summary: 'Only a `description` (or `enumDescriptions`) text changed.',
  },
  // Methods (matched by `id`)
  'method-removed': { severity: 'breaking', summary: 'A method is gone.' },
  'method-added': { severity: 'info', summary: 'A new method.' },
  'method-path-changed': { severity: 'breaking', summary: "A method's `path` changed." },
  'method-flat-path-changed': { severity: 'breaking', summary: "A method's `flatPath` changed." },
  'method-http-method-changed': { severity: 'breaking', summary: "A method's `httpMethod` changed." },
  'method-deprecated': { severity: 'warning', summary: 'A method is now `deprecated`.' },
  'parameter-order-changed': {
    severity: 'warning',
    summary: "A method's `parameterOrder` changed: positional arguments of generated clients shift.",
  },
  'request-added': { severity: 'warning', summary: 'A method now takes a request body.' },
  'request-removed': { severity: 'breaking', summary: 'A method no longer takes a request body.' },
  'response-added': { severity: 'info', summary: 'A method now returns a response body.' },
  'response-removed': { severity: 'breaking', summary: 'A method no longer returns a response body.' },
  // Parameters (of a method, or the document's global parameters)
  'parameter-removed': { severity: 'breaking', summary: 'A parameter is gone.' },
  'parameter-renamed': {
    severity: 'breaking',
    summary: 'A parameter was renamed (one removed and one added with the same location, type and format).',
  },
  'parameter-required-added': { severity: 'breaking', summary: 'A new required parameter.' },
  'parameter-added': { severity: 'info', summary: 'A new optional parameter.' },
  'parameter-made-required': { severity: 'breaking', summary: 'An optional parameter became required.' },
  'parameter-made-optional': { severity: 'info', summary: 'A required parameter became optional.' },
  'parameter-location-changed': {
    severity: 'breaking',
    summary: 'A parameter moved between `path` and `query`.',
  },
  'parameter-type-changed': { severity: 'breaking', summary: "A parameter's `type` changed." },
  'parameter-format-changed': { severity: 'breaking', summary: "A parameter's `format` changed." },
  'parameter-repeated-changed': { severity: 'breaking', summary: "A parameter's `repeated` changed." },
  'parameter-pattern-changed': {
    severity: 'warning',
    summary: "A parameter's `pattern` changed: values accepted before may be refused.",
  },
  'parameter-deprecated': { severity: 'warning', summary: 'A parameter is now `deprecated`.' },
  'parameter-enum-value-removed': { severity: 'breaking', summary: 'A value left the enum of a parameter.' },
  'parameter-enum-value-added': { severity: 'info', summary: 'A new value in the enum of a parameter.' },
  // Schemas (matched by `id`, following `$ref`)
  'schema-removed': { severity: 'warning', summary: 'A top-level schema is gone (no method refers to it any more).' },
  'schema-added': { severity: 'info', summary: 'A new top-level schema.' },
  'schema-renamed': {
    severity: 'info',
    summary: 'A schema was renamed: every `$ref` now names a schema of the same shape.',
  },
  'property-removed': { severity: 'breaking', summary: 'A property of a schema is gone.' },
  'property-added': { severity: 'info', summary: 'A new property in a schema.' },
  'property-type-changed': {
    severity: 'breaking',
    summary: 'The `type` of a schema, property, array item or map value changed.',
  },
  'property-format-changed': {
    severity: 'breaking',
    summary: 'The `format` of a schema, property, array item or map value changed.',
  },
  'property-made-required': {
    severity: 'breaking',
    summary: 'A request property became required for a method (`annotations.required`).',
  },
  'property-made-optional': {
    severity: 'info',
    summary: 'A property is no longer required for a method (`annotations.required`).',
  },
  'property-deprecated': { severity: 'warning', summary: 'A property is now `deprecated`.' },
  'ref-retargeted': {
    severity: 'breaking',
    summary: 'A `$ref` now names another schema whose shape is incompatible.',
  },
  'ref-retargeted-compatible': {
    severity: 'info',
    summary: 'A `$ref` now names another schema with a compatible shape.',
  },
  'request-enum-value-removed': {
    severity: 'breaking',
    summary: 'A value left an enum of a schema sent in requests (or used nowhere).',
  },
  'request-enum-value-added': { severity: 'info', summary: 'A new enum value in a schema only sent in requests.' },
  'response-enum-value-removed': {
    severity: 'info',
    summary: 'A value left an enum of a schema only returned in responses.',
  },
  'response-enum-value-added': {
    severity: 'warning',
    summary: 'A new enum value in a schema returned in responses: exhaustive switches in clients break.',
  },
  'enum-value-deprecated': { severity: 'warning', summary: 'An enum value is now deprecated (`enumDeprecated`).' },
  // Authorization and media
  'scope-removed': {
    severity: 'breaking',
    summary: "A scope left a method's `scopes` and no remaining scope is granted by it.",
  },
  'scope-removed-covered': {
    severity: 'info',
    summary: "A scope left a method's `scopes`, but a remaining one is granted by the same token.",
  },
  'scope-added': { severity: 'info', summary: "A new scope in a method's `scopes`." },
  'media-upload-removed': { severity: 'breaking', summary: 'A method no longer accepts media uploads.' },
  'media-upload-added': { severity: 'info', summary: 'A method now accepts media uploads.' },
  'media-upload-max-size-lowered': { severity: 'breaking', summary: '`mediaUpload.maxSize` was lowered.' },
  'media-upload-max-size-raised': {
    severity: 'info',
    summary: '`mediaUpload.maxSize` was raised or removed.',
  },
  'media-upload-accept-removed': {
    severity: 'breaking',
    summary: 'An accepted MIME range left `mediaUpload.accept` and no remaining range covers it.',
  },
  'media-upload-accept-added': { severity: 'info', summary: 'A new accepted MIME range in `mediaUpload.accept`.' },
  'media-download-removed': {
    severity: 'breaking',
    summary: 'A method no longer supports media download (`supportsMediaDownload`).',
  },
} as const satisfies Record<string, DiffCodeInfo>;

export type DiffCode = keyof typeof DIFF_CODES;
