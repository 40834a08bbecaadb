import * as vscode from 'vscode';
import type { FeatureRegistration } from '../../platform/services';
import { NOTEBOOK_TYPE } from './constants';
import { WaterKernel } from './controller';
import { registerWaterCommands } from './commands';
import { registerQueryCompletion } from './completion';
import { registerQueryDiagnostics } from './diagnostics';
import { WaterNotebookSerializer } from './serializer';

export const register: FeatureRegistration = (services) => {
  const kernel = new WaterKernel(services);
  return [
    vscode.workspace.registerNotebookSerializer(NOTEBOOK_TYPE, new WaterNotebookSerializer(), {
      transientOutputs: false,
    }),
    kernel,
    ...registerQueryDiagnostics(),
    registerQueryCompletion(kernel.attributions),
    ...registerWaterCommands(services, kernel),
  ];
};
