export const NOTEBOOK_TYPE = 'apiWorkbench.waterNotebook';
export const QUERY_LANGUAGE = 'water-query';
export const RENDERER_ID = 'apiWorkbench.waterRenderer';
export const CONTROLLER_PREFIX = 'apiWorkbench.water.';

export type WaterEnvironment = 'sandbox' | 'production' | 'qa';
export const ENVIRONMENTS: readonly WaterEnvironment[] = ['sandbox', 'production', 'qa'];
