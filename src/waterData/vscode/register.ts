import type { FeatureRegistration } from '../../platform/services';
import { NOTEBOOK_TYPE } from './constants';
import { WaterKernel } from './controller';
import { registerWaterCommands } from './commands';
import { registerQueryCompletion } from './completion';
import { registerQueryDiagnostics } from './diagnostics';
import { registerQueryHover } from './hover';
import { WaterNotebookSerializer } from './serializer';

export const register: FeatureRegistration = (services, shell) => {
  const kernel = new WaterKernel(services);
  // The entry registered the serializer for NOTEBOOK_TYPE (outputs are saved) and forwards to this one.
  shell.notebookSerializer(NOTEBOOK_TYPE, new WaterNotebookSerializer());
  return [
    kernel,
    ...registerQueryDiagnostics(),
    registerQueryCompletion(kernel.attributions),
    registerQueryHover(),
    ...registerWaterCommands(services, kernel),
  ];
};
