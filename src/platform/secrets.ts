import type * as vscode from 'vscode';
import type { ServiceId, WorkbenchServices } from './services';

/** Credentials of the real endpoints, only ever in SecretStorage. */
export function createSecrets(storage: vscode.SecretStorage): WorkbenchServices['secrets'] {
  const key = (service: ServiceId) => `apiWorkbench.credential.${service}`;
  return {
    get: (service) => Promise.resolve(storage.get(key(service))),
    set: (service, value) => Promise.resolve(storage.store(key(service), value)),
    delete: (service) => Promise.resolve(storage.delete(key(service))),
  };
}

export function serviceOfSecretKey(secretKey: string): ServiceId | undefined {
  const m = /^apiWorkbench\.credential\.(storage|generation|waterData|directory)$/.exec(secretKey);
  return m ? (m[1] as ServiceId) : undefined;
}
