import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { FeatureRegistration } from '../../platform/services';
import { AnalysisWorker } from '../core';
import { Answers } from './answers';
import { AnswerTimes } from './answerTimes';
import { DiscoveryDiagnostics, RuleDocs } from './diagnostics';
import { registerCompare } from './compareWith';
import { registerDirectory } from './directoryView';
import { DiscoveryDocuments } from './documents';
import { registerPreview } from './preview';
import { registerExportOpenApi } from './exportOpenApi';
import { LanguageAssigner } from './language';
import { registerProviders } from './providers';
import { DocumentTexts } from './texts';

/** The worker bundle (esbuild entry src/discovery/worker/main.ts → dist/discoveryWorker.js). */
const WORKER_BUNDLE = join('dist', 'discoveryWorker.js');

export const register: FeatureRegistration = (services, shell) => {
  // First: the documents it claims while their language switches are already ours to analyse.
  const texts = new DocumentTexts();
  const assigner = new LanguageAssigner(texts);
  const documents = new DiscoveryDocuments((doc) => assigner.claims(doc), texts);
  const workerFile = join(services.context.extensionPath, WORKER_BUNDLE);
  // Without the bundle (e.g. a build that predates it) validation simply stays on this thread.
  const worker = existsSync(workerFile) ? new AnalysisWorker(workerFile) : undefined;
  const diagnostics = new DiscoveryDiagnostics(documents, worker, new RuleDocs(services.context.extensionUri));
  const times =
    __TEST_SEAMS__ && services.context.extensionMode === vscode.ExtensionMode.Test ? new AnswerTimes() : undefined;
  return [
    texts,
    assigner,
    documents,
    diagnostics,
    { dispose: () => void worker?.dispose() },
    ...registerProviders(
      documents,
      diagnostics,
      new Answers(documents, worker, (doc) => diagnostics.analysing(doc)),
      times,
    ),
    ...(times ? [times.register()] : []),
    ...registerPreview(documents, services.context, shell, services.log, services.endpoints),
    ...registerDirectory(services, shell),
    ...registerCompare(services, shell),
    ...registerExportOpenApi(),
  ];
};
