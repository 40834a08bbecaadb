// Try it in the reference preview: the host side. The page asks for a method's form, sends values; this
// resolves the credential (SecretStorage or the sandbox, only to its origin), builds the request in the
// core, makes the HTTP call through src/shared/http (the page's CSP allows no network), and posts the result.
import * as vscode from 'vscode';
import { originOf, redactText } from '../../shared/http';
import type { Endpoints, ServiceId } from '../../platform/services';
import { isObj, type DiscoveryModel, type Obj } from '../core/model';
import {
  buildTryRequest,
  checkBody,
  completeBody,
  sendTryRequest,
  toCurl,
  tryItForm,
  tryValuesOf,
  mediaTypeOf,
  type TryCredential,
} from '../core/tryIt';
import type { PreviewHostToWebview, PreviewPath, PreviewWebviewToHost } from '../protocol';

type TryMessage = Extract<PreviewWebviewToHost, { type: `tryIt${string}` }>;

export function isTryItMessage(m: PreviewWebviewToHost): m is TryMessage {
  return typeof m?.type === 'string' && m.type.startsWith('tryIt') && Array.isArray((m as { path?: unknown }).path);
}

/** Which of our services a document describes, by its API name: its credential is the one that may go. */
function serviceOf(doc: Obj): { service: ServiceId; kind: TryCredential['kind'] } | undefined {
  if (doc.name === 'store' || doc.name === 'drive') return { service: 'storage', kind: 'bearer' };
  if (doc.name === 'generativelanguage') return { service: 'generation', kind: 'apiKey' };
  return undefined;
}

function methodAt(root: Obj, path: PreviewPath): Obj | undefined {
  let v: unknown = root;
  for (const p of path) v = isObj(v) ? v[String(p)] : undefined;
  return isObj(v) && typeof v.httpMethod === 'string' ? v : undefined;
}

/** Where the method `id` is now; a method without an id is known by its path. */
function findMethod(model: DiscoveryModel, id: string, oldPath: PreviewPath): PreviewPath | undefined {
  const byId = model.methodsById.get(id)?.[0];
  if (byId) return [...byId.path];
  const old = methodAt(model.root, oldPath);
  return old && typeof old.id !== 'string' && oldPath.join('.') === id ? oldPath : undefined;
}

export class TryItHost {
  /** Per method id: the chosen media file and the last response body (a method keeps its id across edits). */
  private readonly media = new Map<string, vscode.Uri>();
  private readonly lastBody = new Map<string, { text: string; json: boolean }>();
  /** The open panels, method id → its path when last seen: followed across edits of the document. */
  private readonly open = new Map<string, PreviewPath>();

  constructor(private readonly endpoints: Endpoints | undefined) {}

  private async credential(doc: Obj, url: string): Promise<TryCredential | undefined> {
    const target = serviceOf(doc);
    if (!target || !this.endpoints) return undefined;
    const endpoint = await this.endpoints.resolve(target.service);
    // The endpoint in effect (sandbox or settings) carries its own credential; any other origin gets the
    // stored one only under the binding rule (asked first when not bound to it).
    const value =
      originOf(endpoint.baseUrl) === originOf(url)
        ? endpoint.credential
        : endpoint.sandbox
          ? undefined
          : await this.endpoints.credentialFor(target.service, url);
    return value ? { kind: target.kind, value } : undefined;
  }

  private credentialLabel(doc: Obj): string | undefined {
    const target = serviceOf(doc);
    if (!target) return undefined;
    return target.kind === 'bearer'
      ? vscode.l10n.t('access token of the {0} endpoint', target.service)
      : vscode.l10n.t('API key of the {0} endpoint', target.service);
  }

  /** Forgets every open panel (the preview closed, or shows another document). */
  closeAll(): void {
    this.open.clear();
  }

  /**
   * After an edit: each open panel's method found again by id (a renamed resource moves its path) and its form
   * sent again, or the panel told that its method is gone; it stays open either way.
   */
  refresh(model: DiscoveryModel, post: (m: PreviewHostToWebview) => void): void {
    const root = model.root;
    for (const [id, oldPath] of this.open) {
      const path = findMethod(model, id, oldPath);
      const method = path && methodAt(root, path);
      if (!path || !method) {
        post({ type: 'tryItGone', methodId: id });
        continue;
      }
      this.open.set(id, path);
      post({
        type: 'tryItForm',
        path,
        form: tryItForm(root, method, path.join('.')),
        credential: this.credentialLabel(root),
      });
    }
  }

  async handle(m: TryMessage, root: Obj, post: (m: PreviewHostToWebview) => void): Promise<void> {
    // A closed panel may be one whose method is gone: forgotten by id, before any lookup by path.
    if (m.type === 'tryItClose') {
      this.open.delete(String(m.methodId));
      return;
    }
    const method = methodAt(root, m.path);
    if (!method) return;
    const form = tryItForm(root, method, m.path.join('.'));
    const key = form.methodId;
    switch (m.type) {
      case 'tryIt':
        this.open.set(form.methodId, m.path);
        post({ type: 'tryItForm', path: m.path, form, credential: this.credentialLabel(root) });
        return;
      case 'tryItCompleteBody':
        post({
          type: 'tryItBodyCompletions',
          path: m.path,
          seq: Number(m.seq),
          completions: completeBody(root, method.request, form.methodId, String(m.body), Number(m.offset) || 0),
        });
        return;
      case 'tryItCheckBody':
        post({
          type: 'tryItBodyProblems',
          path: m.path,
          problems: checkBody(root, method.request, form.methodId, String(m.body)),
        });
        return;
      case 'tryItPickMedia': {
        const picked = await vscode.window.showOpenDialog({
          canSelectMany: false,
          title: vscode.l10n.t('Media to upload'),
        });
        if (picked?.[0]) this.media.set(key, picked[0]);
        post({ type: 'tryItMedia', path: m.path, name: picked?.[0]?.path.split('/').pop() });
        return;
      }
      case 'tryItOpenResponse': {
        const last = this.lastBody.get(key);
        if (!last) return;
        const doc = await vscode.workspace.openTextDocument({
          content: last.text,
          language: last.json ? 'json' : 'plaintext',
        });
        await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: false });
        return;
      }
      case 'tryItCopyCurl':
      case 'tryItSend':
        return this.send(m, root, method, form, key, post);
    }
  }

  private async send(
    m: Extract<TryMessage, { type: 'tryItSend' | 'tryItCopyCurl' }>,
    root: Obj,
    method: Obj,
    form: ReturnType<typeof tryItForm>,
    key: string,
    post: (m: PreviewHostToWebview) => void,
  ): Promise<void> {
    const values = tryValuesOf(m.values);
    const mediaUri = this.media.get(key);
    try {
      if (mediaUri && form.upload) {
        values.media = {
          bytes: await vscode.workspace.fs.readFile(mediaUri),
          contentType: mediaTypeOf(mediaUri.path),
        };
      }
      // The URL decides which credential may go: build once without, then with it.
      const bare = buildTryRequest(root, method, form, values);
      if (m.type === 'tryItCopyCurl') {
        const target = serviceOf(root);
        const credential = m.reveal
          ? await this.credential(root, bare.url)
          : target && { kind: target.kind, value: 'REDACTED' };
        await vscode.env.clipboard.writeText(toCurl(buildTryRequest(root, method, form, values, credential), m.reveal));
        void vscode.window.setStatusBarMessage(vscode.l10n.t('curl command copied'), 3000);
        return;
      }
      post({ type: 'tryItSending', path: m.path });
      const request = buildTryRequest(root, method, form, values, await this.credential(root, bare.url));
      const outcome = await sendTryRequest(request);
      if (outcome.fullBody !== undefined)
        this.lastBody.set(key, { text: outcome.fullBody, json: /json/i.test(outcome.response?.contentType ?? '') });
      post({
        type: 'tryItResult',
        path: m.path,
        ...(outcome.response ? { response: outcome.response } : { failure: outcome.failure }),
      });
    } catch (err) {
      // Bad input (TryItInputError), a declined credential, an unreadable media file: shown, never thrown.
      if (!(err instanceof Error)) throw err;
      post({ type: 'tryItResult', path: m.path, failure: redactText(err.message) });
    }
  }
}
