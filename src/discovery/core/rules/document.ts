import type { Rule } from './types';
import { str } from './util';

export const baseUrlMismatch: Rule = {
  code: 'base-url-mismatch',
  defaultSeverity: 'info',
  summary: 'The deprecated `baseUrl`/`basePath` agree with `rootUrl` + `servicePath`.',
  check(model, report) {
    const root = str(model.root.rootUrl);
    const service = str(model.root.servicePath);
    if (root === undefined || service === undefined) return;
    const expected = root + service;
    const baseUrl = str(model.root.baseUrl);
    if (baseUrl !== undefined && baseUrl !== expected) {
      report({
        path: ['baseUrl'],
        message: `baseUrl "${baseUrl}" differs from rootUrl + servicePath ("${expected}"); clients use rootUrl + servicePath, baseUrl is deprecated.`,
        data: { expected },
      });
    }
    const basePath = str(model.root.basePath);
    let expectedPath: string | undefined;
    try {
      expectedPath = new URL(expected).pathname;
    } catch {
      expectedPath = undefined;
    }
    if (basePath !== undefined && basePath !== '' && expectedPath !== undefined && basePath !== expectedPath) {
      report({
        path: ['basePath'],
        message: `basePath "${basePath}" differs from the path of rootUrl + servicePath ("${expectedPath}"); basePath is deprecated.`,
        data: { expected: expectedPath },
      });
    }
  },
};

export const documentIdMismatch: Rule = {
  code: 'document-id-mismatch',
  defaultSeverity: 'warning',
  summary: 'The document `id` is `name:version`.',
  check(model, report) {
    const { id, name, version } = model.root;
    if (typeof name !== 'string' || typeof version !== 'string' || id === undefined) return;
    if (id !== `${name}:${version}`)
      report({
        path: ['id'],
        message: `id ${JSON.stringify(id)} should be "${name}:${version}" (name:version).`,
        data: { expected: `${name}:${version}` },
      });
  },
};

export const revisionFormat: Rule = {
  code: 'revision-format',
  defaultSeverity: 'info',
  summary: '`revision` is a date `YYYYMMDD` (tools compare revisions to refuse going backwards).',
  check(model, report) {
    const r = model.root.revision;
    if (r !== undefined && (typeof r !== 'string' || !/^\d{8}$/.test(r))) {
      report({ path: ['revision'], message: `revision ${JSON.stringify(r)} is not a YYYYMMDD date.` });
    }
  },
};
