import { resolve } from 'node:path';
import { LineIndex, type Diagnostic } from '../../../src/discovery/core';
import { sharedDataFiles } from '../../support/sharedData';

/** The shared real discovery documents; throws (so the test fails) when the shared data is missing. */
export function realDocumentFiles(): string[] {
  return sharedDataFiles('discovery', (f) => f.endsWith('.json') && f !== 'directory-list.json');
}

export const REPO_ROOT = resolve(__dirname, '../../..');

/** 1-based line of a diagnostic. */
export function lineOf(text: string, d: Diagnostic): number {
  return new LineIndex(text).positionAt(d.offset).line;
}

/** 1-based line of the first occurrence of a marker in the text. */
export function lineOfText(text: string, marker: string, from = 0): number {
  const at = text.indexOf(marker, from);
  if (at < 0) throw new Error(`marker not found: ${marker}`);
  return new LineIndex(text).positionAt(at).line;
}

// The shape of `minimalDocument()` as the tests edit it. Seeds write wrong JSON types on purpose (a
// `required: "true"`, an unknown `type`), so fields are typed as the JSON they may hold, not as the schema allows.
interface SeedRef {
  $ref: string;
  parameterName?: string;
}
export interface SeedProperty {
  $ref?: string;
  type?: string;
  format?: string;
  description?: string;
  items?: SeedProperty;
  properties?: Record<string, SeedProperty>;
  additionalProperties?: SeedProperty;
  enum?: string[];
  enumDescriptions?: string[];
  enumDeprecated?: boolean[];
  annotations?: { required?: string[] };
}
export interface SeedSchema extends SeedProperty {
  id: string;
  properties: Record<string, SeedProperty>;
  variant?: { discriminant: string; map: { type_value: string; $ref: string }[] };
}
export interface SeedParameter {
  type: string;
  location: string;
  required?: boolean | string;
  pattern?: string;
  description?: string;
}
export interface SeedMethod {
  id: string;
  path?: string;
  flatPath?: string;
  httpMethod: string;
  httpVerb?: string;
  description?: string;
  parameters?: Record<string, SeedParameter>;
  parameterOrder?: string[];
  request?: SeedRef;
  response?: SeedRef;
  scopes?: string[];
  supportsMediaUpload?: boolean;
  mediaUpload?: { accept: string[]; maxSize: string };
}
type SeedMethodWithParameters = SeedMethod & { parameters: Record<string, SeedParameter> };
export interface SeedDocument {
  kind: string;
  discoveryVersion: string;
  id: string;
  name: string;
  version: string;
  revision: string;
  title: string;
  description: string;
  protocol: string;
  rootUrl: string;
  servicePath: string;
  baseUrl: string;
  basePath: string;
  batchPath: string;
  auth: { oauth2: { scopes: Record<string, { description: string }> } };
  parameters: Record<string, SeedParameter>;
  schemas: Record<string, SeedSchema> & {
    Item: SeedSchema & { properties: Record<'name' | 'size' | 'tags' | 'kind', SeedProperty> };
  };
  resources: {
    items: {
      methods: {
        get: SeedMethodWithParameters;
        list: SeedMethodWithParameters;
        insert: SeedMethod & { request: SeedRef };
      };
    };
  };
}

/** A small valid description document to seed defects into. */
export function minimalDocument(): SeedDocument {
  return {
    kind: 'discovery#restDescription',
    discoveryVersion: 'v1',
    id: 'demo:v1',
    name: 'demo',
    version: 'v1',
    revision: '20260101',
    title: 'Demo API',
    description: 'A document for tests.',
    protocol: 'rest',
    rootUrl: 'https://demo.example.com/',
    servicePath: '',
    baseUrl: 'https://demo.example.com/',
    basePath: '/',
    batchPath: 'batch',
    auth: { oauth2: { scopes: { 'https://demo.example.com/auth': { description: 'Everything' } } } },
    parameters: { key: { type: 'string', location: 'query', description: 'API key.' } },
    schemas: {
      Item: {
        id: 'Item',
        type: 'object',
        properties: {
          name: { type: 'string' },
          size: { type: 'string', format: 'int64' },
          tags: { type: 'array', items: { type: 'string' } },
          kind: { type: 'string', enum: ['A', 'B'], enumDescriptions: ['a', 'b'] },
        },
      },
      ListItemsResponse: {
        id: 'ListItemsResponse',
        type: 'object',
        properties: { items: { type: 'array', items: { $ref: 'Item' } } },
      },
    },
    resources: {
      items: {
        methods: {
          get: {
            id: 'demo.items.get',
            path: 'v1/{+name}',
            httpMethod: 'GET',
            parameters: { name: { type: 'string', location: 'path', required: true } },
            parameterOrder: ['name'],
            response: { $ref: 'Item' },
            scopes: ['https://demo.example.com/auth'],
          },
          list: {
            id: 'demo.items.list',
            path: 'v1/items',
            httpMethod: 'GET',
            parameters: { pageToken: { type: 'string', location: 'query' } },
            response: { $ref: 'ListItemsResponse' },
            scopes: ['https://demo.example.com/auth'],
          },
          insert: {
            id: 'demo.items.insert',
            path: 'v1/items',
            httpMethod: 'POST',
            request: { $ref: 'Item' },
            response: { $ref: 'Item' },
            scopes: ['https://demo.example.com/auth'],
          },
        },
      },
    },
  };
}
