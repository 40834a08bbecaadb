import { WATER_PRODUCTION_BASE_URL, WATER_QA_BASE_URL } from '../../shared/wire/waterData';
import type { WorkbenchServices } from '../../platform/services';
import type { WaterEnvironment } from './constants';

export interface WaterEndpoint {
  baseUrl: string;
  apiKey: string | undefined;
  /** Shown to the user: "sandbox", "production", "QA" or the configured URL. */
  label: string;
}

/** The sandbox environment follows the base-URL setting (empty = the built-in emulator). */
export async function resolveWaterEndpoint(services: WorkbenchServices, env: WaterEnvironment): Promise<WaterEndpoint> {
  if (env === 'production')
    return {
      baseUrl: WATER_PRODUCTION_BASE_URL,
      apiKey: await services.endpoints.credentialFor('waterData', WATER_PRODUCTION_BASE_URL),
      label: 'production',
    };
  if (env === 'qa')
    return {
      baseUrl: WATER_QA_BASE_URL,
      apiKey: await services.endpoints.credentialFor('waterData', WATER_QA_BASE_URL),
      label: 'QA',
    };
  const r = await services.endpoints.resolve('waterData');
  return { baseUrl: r.baseUrl, apiKey: r.credential, label: r.sandbox ? 'sandbox' : new URL(r.baseUrl).host };
}
