import type * as vscode from 'vscode';
import { allowOrigin, parseCredential, serializeCredential } from '../shared/http/credentialOrigin';
import type { ServiceId, WorkbenchServices } from './services';

/**
 * Credentials of the real endpoints, only ever in SecretStorage, each stored with the origins it may
 * be sent to (see src/shared/http/credentialOrigin.ts): a workspace setting cannot widen that list.
 */
export function createSecrets(storage: vscode.SecretStorage): WorkbenchServices['secrets'] {
  const key = (service: ServiceId) => `apiWorkbench.credential.${service}`;
  const get = async (service: ServiceId) => parseCredential(await storage.get(key(service)));
  return {
    get,
    set: (service, value, origin) =>
      Promise.resolve(storage.store(key(service), serializeCredential({ value, origins: [new URL(origin).origin] }))),
    allow: async (service, origin) => {
      const stored = await get(service);
      if (stored) await storage.store(key(service), serializeCredential(allowOrigin(stored, new URL(origin).origin)));
    },
    delete: (service) => Promise.resolve(storage.delete(key(service))),
  };
}

export function serviceOfSecretKey(secretKey: string): ServiceId | undefined {
  const m = /^apiWorkbench\.credential\.(storage|generation|waterData|directory)$/.exec(secretKey);
  return m ? (m[1] as ServiceId) : undefined;
}
