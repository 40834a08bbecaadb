import { isObj } from '../model';
import { methodRule, schemaNodeRule, type Rule } from './types';
import { describeMethod, str } from './util';

export const methodIdDuplicate: Rule = {
  code: 'method-id-duplicate',
  defaultSeverity: 'error',
  summary: 'Method ids are unique within a document (they identify methods across versions).',
  check(model, report) {
    // forEach: no [key, value] pair per entry (the rule runs once per document, mostly unoptimised).
    model.methodsById.forEach((list, id) => {
      if (list.length < 2) return;
      for (let i = 1; i < list.length; i++) {
        const m = list[i];
        report({
          path: [...m.path, 'id'],
          message: `Method id "${id}" is also used by ${[...list[0].resource, list[0].name].join('.')}; give each method its own id.`,
          data: { id },
        });
      }
    });
  },
};

const HTTP_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);

export const httpMethodUnknown = methodRule(
  {
    code: 'http-method-unknown',
    defaultSeverity: 'error',
    summary: '`httpMethod` is one of GET, POST, PUT, PATCH, DELETE (HEAD, OPTIONS).',
  },
  (m, model, report) => {
    const verb = m.value.httpMethod;
    if (verb === undefined) {
      report({
        path: m.path,
        at: 'key',
        message: `Method ${describeMethod(m)} has no "httpMethod"; add one such as "GET".`,
      });
    } else if (typeof verb !== 'string' || !HTTP_METHODS.has(verb)) {
      const upper = typeof verb === 'string' && HTTP_METHODS.has(verb.toUpperCase()) ? verb.toUpperCase() : undefined;
      report({
        path: [...m.path, 'httpMethod'],
        message: `httpMethod ${JSON.stringify(verb)} is not an HTTP method${upper ? `; write "${upper}"` : '; use GET, POST, PUT, PATCH or DELETE'}.`,
        data: { replacement: upper },
      });
    }
  },
);

export const scopeUnknown: Rule = {
  code: 'scope-unknown',
  defaultSeverity: 'error',
  summary: 'Every scope a method lists is declared in `auth.oauth2.scopes`.',
  check(model, report) {
    for (let ui = 0; ui < model.scopeUses.length; ui++) {
      const use = model.scopeUses[ui];
      if (model.scopes.has(use.scope)) continue;
      report({
        path: use.path,
        message: `Scope "${use.scope}" of ${describeMethod(use.method)} is not declared in auth.oauth2.scopes; declare it there with a description.`,
        data: { scope: use.scope },
      });
    }
  },
};

export const annotationRequiredUnknownMethod = schemaNodeRule(
  {
    code: 'annotation-required-unknown-method',
    nodeKey: 'annotations',
    defaultSeverity: 'warning',
    summary: '`annotations.required` lists ids of methods in this document.',
  },
  (n, model, report) => {
    const ann = n.value.annotations;
    if (!isObj(ann) || !Array.isArray(ann.required)) return;
    const required: unknown[] = ann.required;
    for (let i = 0; i < required.length; i++) {
      const id = required[i];
      if (typeof id === 'string' && !model.methodsById.has(id)) {
        report({
          path: [...n.path, 'annotations', 'required', i],
          message: `annotations.required names "${id}", which is not a method id in this document.`,
        });
      }
    }
  },
);

export const mediaUploadInconsistent = methodRule(
  {
    code: 'media-upload-inconsistent',
    defaultSeverity: 'warning',
    summary: '`mediaUpload` is present exactly when `supportsMediaUpload` is true.',
  },
  (m, model, report) => {
    const has = m.value.mediaUpload !== undefined;
    const supports = m.value.supportsMediaUpload === true;
    if (has && !supports) {
      report({
        path: [...m.path, 'mediaUpload'],
        at: 'key',
        message: `${describeMethod(m)} describes mediaUpload but does not set "supportsMediaUpload": true.`,
        data: { add: 'supportsMediaUpload' },
      });
    } else if (supports && !has) {
      report({
        path: [...m.path, 'supportsMediaUpload'],
        at: 'key',
        message: `${describeMethod(m)} sets supportsMediaUpload but has no "mediaUpload" (accept, maxSize, protocols).`,
      });
    }
  },
);

const MAX_SIZE = /^\d+(?:\.\d+)?\s*(?:B|KB|MB|GB|TB|PB)?$/i;

export const mediaUploadMaxSize = methodRule(
  {
    code: 'media-upload-max-size',
    defaultSeverity: 'warning',
    summary: '`mediaUpload.maxSize` is a byte count or a size such as `1MB`, `2GB`, `3TB`.',
  },
  (m, model, report) => {
    const mu = m.value.mediaUpload;
    if (!isObj(mu) || mu.maxSize === undefined) return;
    if (typeof mu.maxSize !== 'string' || !MAX_SIZE.test(mu.maxSize.trim())) {
      report({
        path: [...m.path, 'mediaUpload', 'maxSize'],
        message: `maxSize ${JSON.stringify(mu.maxSize)} is not a size; write a string such as "10MB", "2GB" or a byte count like "10737418240".`,
      });
    }
  },
);

export const requestBodyOnGet = methodRule(
  {
    code: 'request-body-on-get',
    defaultSeverity: 'warning',
    summary: 'A GET method has no `request` body (many HTTP stacks drop it).',
  },
  (m, model, report) => {
    if (m.value.httpMethod === 'GET' && m.value.request !== undefined) {
      report({
        path: [...m.path, 'request'],
        at: 'key',
        message: `GET method ${describeMethod(m)} declares a request body; proxies and clients may drop it. Use POST or move the fields to query parameters.`,
      });
    }
  },
);

export const requestParameterNameDeprecated = methodRule(
  {
    code: 'request-parameter-name-deprecated',
    defaultSeverity: 'hint',
    summary: '`request.parameterName` is deprecated and ignored by clients.',
  },
  (m, model, report) => {
    const req = m.value.request;
    if (isObj(req) && str(req.parameterName) !== undefined) {
      report({
        path: [...m.path, 'request', 'parameterName'],
        at: 'key',
        message: '"parameterName" is deprecated; clients ignore it.',
        data: { deprecatedHint: true },
      });
    }
  },
);
