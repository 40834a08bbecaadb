// The operation table the client is driven by: HTTP verb, path template, parameter locations and
// upload paths read from a description document (schemas/store.v2.json unless told otherwise).
import storeDescription from '../../../schemas/store.v2.json';
import type { QueryValue } from './transport';

export interface ParamSpec {
  type?: string;
  location?: string;
  required?: boolean;
  repeated?: boolean;
}

export interface OperationSpec {
  /** Short id: `files.list`. */
  id: string;
  httpMethod: string;
  path: string;
  parameters: Record<string, ParamSpec>;
  parameterOrder: string[];
  requestSchema?: string;
  responseSchema?: string;
  supportsMediaUpload: boolean;
  supportsMediaDownload: boolean;
  deprecated: boolean;
}

interface DescriptionLike {
  rootUrl?: string;
  servicePath?: string;
  resources?: Record<string, ResourceLike>;
}
interface ResourceLike {
  methods?: Record<string, MethodLike>;
  resources?: Record<string, ResourceLike>;
}
interface MethodLike {
  id?: string;
  httpMethod?: string;
  path?: string;
  parameters?: Record<string, ParamSpec>;
  parameterOrder?: string[];
  request?: { $ref?: string };
  response?: { $ref?: string };
  supportsMediaUpload?: boolean;
  supportsMediaDownload?: boolean;
  deprecated?: boolean;
  mediaUpload?: { protocols?: { simple?: { path?: string } } };
}

export class MissingParameterError extends Error {}

export class OperationTable {
  readonly servicePath: string;
  readonly uploadPath: string;
  readonly rootUrl: string;
  private readonly byId = new Map<string, OperationSpec>();

  constructor(doc: DescriptionLike) {
    this.rootUrl = doc.rootUrl ?? '';
    this.servicePath = doc.servicePath ?? '';
    let uploadPath: string | undefined;
    const visit = (resName: string, res: ResourceLike) => {
      for (const [name, m] of Object.entries(res.methods ?? {})) {
        const id = `${resName}.${name}`;
        this.byId.set(id, {
          id,
          httpMethod: m.httpMethod ?? 'GET',
          path: m.path ?? '',
          parameters: m.parameters ?? {},
          parameterOrder: m.parameterOrder ?? [],
          requestSchema: m.request?.$ref,
          responseSchema: m.response?.$ref,
          supportsMediaUpload: !!m.supportsMediaUpload,
          supportsMediaDownload: !!m.supportsMediaDownload,
          deprecated: !!m.deprecated,
        });
        // The simple-upload path is `/upload/<servicePath><method path>`; keep the prefix part.
        const simple = m.mediaUpload?.protocols?.simple?.path;
        if (!uploadPath && simple && m.path && simple.endsWith(m.path))
          uploadPath = simple.slice(0, simple.length - m.path.length);
      }
      for (const [sub, child] of Object.entries(res.resources ?? {})) visit(`${resName}.${sub}`, child);
    };
    for (const [name, res] of Object.entries(doc.resources ?? {})) visit(name, res);
    this.uploadPath = (uploadPath ?? `/upload/${this.servicePath}`).replace(/^\/+/, '');
  }

  ids(): string[] {
    return [...this.byId.keys()];
  }

  /** Accepts `files.list` or a full method id such as `store.files.list` / `drive.files.list`. */
  get(methodId: string): OperationSpec {
    const direct = this.byId.get(methodId) ?? this.byId.get(methodId.split('.').slice(1).join('.'));
    if (!direct) throw new Error(`Unknown storage operation ${methodId}`);
    return direct;
  }

  /** Fills the path template and puts every other non-empty parameter in the query. */
  resolve(op: OperationSpec, params: Record<string, QueryValue>): { path: string; query: Record<string, QueryValue> } {
    const query: Record<string, QueryValue> = {};
    const used = new Set<string>();
    const path = op.path.replace(/\{\+?([^}]+)\}/g, (_m, name: string) => {
      const v = params[name];
      if (v === undefined || v === null || v === '') throw new MissingParameterError(`${op.id} needs ${name}`);
      used.add(name);
      return encodeURIComponent(String(v));
    });
    for (const name of op.parameterOrder) {
      if (!used.has(name) && (params[name] === undefined || params[name] === null))
        throw new MissingParameterError(`${op.id} needs ${name}`);
    }
    for (const [k, v] of Object.entries(params)) if (!used.has(k) && v !== undefined && v !== null) query[k] = v;
    return { path, query };
  }
}

let cached: OperationTable | undefined;

export function defaultOperations(): OperationTable {
  return (cached ??= new OperationTable(storeDescription));
}
