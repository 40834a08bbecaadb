// Loads each feature's bundle the first time the feature is used. At activation only stubs and shells
// exist: a stub for every contributed command (and, under test, every test command), the tree and
// webview views, the notebook serializer and the `store:` file system. The first call into any of them
// loads the feature, which hands the stubs its command handlers (commandTable.ts) and the shells their
// implementations.
import * as vscode from 'vscode';
import type { FeatureRegistration, FeatureShell, WorkbenchServices } from '../services';
import { FEATURES, featureChunk, loadChunk, type Feature } from './chunks';
import { registerStub } from './commandTable';
import {
  AuthenticationShell,
  ContentProviderShell,
  FileSystemShell,
  NotebookSerializerShell,
  TreeShell,
  WebviewPanelSerializerShell,
  WebviewViewShell,
} from './shells';
import { TEST_COMMANDS } from './testCommands';

/** Command id prefixes of each feature (`apiWorkbench.<prefix>.…`); platform commands have none of these. */
const COMMAND_PREFIXES: Record<Feature, readonly string[]> = {
  discovery: ['discovery', 'directory', 'diffReport'],
  storage: ['storage'],
  generation: ['generation'],
  waterData: ['waterData'],
};

function featureOfCommand(id: string): Feature | undefined {
  const prefix = /^apiWorkbench\.([A-Za-z]+)\./.exec(id)?.[1];
  return prefix === undefined ? undefined : FEATURES.find((f) => COMMAND_PREFIXES[f].includes(prefix));
}

/** What the entry registers for each feature, keyed by the id VS Code knows it by. */
export interface ShellLayout {
  trees: { viewId: string; feature: Feature; options: ConstructorParameters<typeof TreeShell>[2] }[];
  webviewViews: { viewId: string; feature: Feature; options?: { retainContextWhenHidden?: boolean } }[];
  webviewPanels: { viewType: string; feature: Feature }[];
  contentProviders: { scheme: string; feature: Feature }[];
  notebooks: { notebookType: string; feature: Feature; options?: vscode.NotebookDocumentContentOptions }[];
  fileSystems: { scheme: string; feature: Feature; options?: { isCaseSensitive?: boolean } }[];
  authentication: {
    id: string;
    label: string;
    feature: Feature;
    /** The SecretStorage key the feature keeps its session under. */
    secretKey: string;
    options?: vscode.AuthenticationProviderOptions;
  }[];
}

export class LazyFeatures implements vscode.Disposable {
  private readonly loaded = new Map<Feature, vscode.Disposable[]>();
  private readonly stubs = new Map<Feature, vscode.Disposable[]>();
  private readonly trees = new Map<string, TreeShell>();
  private readonly webviews = new Map<string, WebviewViewShell>();
  private readonly panels = new Map<string, WebviewPanelSerializerShell>();
  private readonly contents = new Map<string, ContentProviderShell>();
  private readonly notebooks = new Map<string, NotebookSerializerShell>();
  private readonly fileSystems = new Map<string, FileSystemShell>();
  private readonly authentication = new Map<string, AuthenticationShell>();
  private readonly registrations: vscode.Disposable[] = [];
  /** How long each feature's bundle took to load and to register (the activation bench reports them). */
  private readonly loadTimes = new Map<Feature, { requireMs: number; registerMs: number }>();

  constructor(
    private readonly services: WorkbenchServices,
    layout: ShellLayout,
    commandIds: readonly string[],
  ) {
    for (const id of commandIds) {
      const feature = featureOfCommand(id);
      if (feature) this.stub(feature, id);
    }
    if (__TEST_SEAMS__ && services.context.extensionMode === vscode.ExtensionMode.Test) {
      for (const feature of FEATURES) for (const id of TEST_COMMANDS[feature]) this.stub(feature, id);
      // The activation bench loads every feature the way first use does, and times it.
      this.registrations.push(
        vscode.commands.registerCommand('apiWorkbench._testLoadFeatures', () => {
          const times: Partial<Record<Feature, { requireMs: number; registerMs: number }>> = {};
          for (const feature of FEATURES) {
            this.ensure(feature);
            times[feature] = this.loadTimes.get(feature);
          }
          return times;
        }),
      );
    }

    for (const t of layout.trees) {
      const shell = new TreeShell(t.viewId, () => this.ensure(t.feature), t.options);
      this.trees.set(t.viewId, shell);
      this.registrations.push(shell);
    }
    for (const w of layout.webviewViews) {
      const shell = new WebviewViewShell(() => this.ensure(w.feature));
      this.webviews.set(w.viewId, shell);
      this.registrations.push(
        vscode.window.registerWebviewViewProvider(w.viewId, shell, { webviewOptions: w.options }),
      );
    }
    for (const p of layout.webviewPanels) {
      const shell = new WebviewPanelSerializerShell(() => this.ensure(p.feature));
      this.panels.set(p.viewType, shell);
      this.registrations.push(vscode.window.registerWebviewPanelSerializer(p.viewType, shell));
    }
    for (const c of layout.contentProviders) {
      const shell = new ContentProviderShell(() => this.ensure(c.feature));
      this.contents.set(c.scheme, shell);
      this.registrations.push(shell, vscode.workspace.registerTextDocumentContentProvider(c.scheme, shell));
    }
    for (const n of layout.notebooks) {
      const shell = new NotebookSerializerShell(() => this.ensure(n.feature));
      this.notebooks.set(n.notebookType, shell);
      this.registrations.push(vscode.workspace.registerNotebookSerializer(n.notebookType, shell, n.options));
    }
    for (const f of layout.fileSystems) {
      const shell = new FileSystemShell(() => this.ensure(f.feature));
      this.fileSystems.set(f.scheme, shell);
      this.registrations.push(shell, vscode.workspace.registerFileSystemProvider(f.scheme, shell, f.options));
    }
    for (const a of layout.authentication) {
      const shell = new AuthenticationShell(
        () => this.ensure(a.feature),
        async () => (await services.context.secrets.get(a.secretKey)) !== undefined,
      );
      this.authentication.set(a.id, shell);
      this.registrations.push(
        shell,
        vscode.authentication.registerAuthenticationProvider(a.id, a.label, shell, a.options),
      );
    }
  }

  isLoaded(feature: Feature): boolean {
    return this.loaded.has(feature);
  }

  /** Loads the feature unless it already is; a bundle that cannot be loaded throws and leaves the stubs in place. */
  ensure(feature: Feature): void {
    if (this.loaded.has(feature)) return;
    const required = performance.now();
    const chunk = loadChunk<{ register: FeatureRegistration }>(
      this.services.context.extensionPath,
      featureChunk(feature),
    );
    // The stubs stay: the feature's handlers of their ids go to them (commandTable.ts).
    const started = performance.now();
    this.loaded.set(feature, []);
    try {
      this.loaded.set(feature, chunk.register(this.services, this.shell()));
    } catch (err) {
      this.services.log.error(`${feature}: failed to start: ${(err as Error)?.message ?? String(err)}`);
      throw err;
    }
    const registerMs = performance.now() - started;
    this.loadTimes.set(feature, { requireMs: started - required, registerMs });
    this.services.log.info(
      `${feature} loaded in ${Math.round(started - required)} ms and registered in ${Math.round(registerMs)} ms`,
    );
  }

  private stub(feature: Feature, id: string): void {
    const list = this.stubs.get(feature) ?? [];
    this.stubs.set(feature, list);
    list.push(registerStub(id, () => this.ensure(feature)));
  }

  private shell(): FeatureShell {
    const need = <T>(map: Map<string, T>, id: string): T => {
      const shell = map.get(id);
      if (!shell) throw new Error(`no shell registered for ${id}`);
      return shell;
    };
    return {
      treeView: (viewId, provider, dnd) => need(this.trees, viewId).attach(provider, dnd),
      webviewView: (viewId, provider) => void (need(this.webviews, viewId).real = provider),
      webviewPanelSerializer: (type, serializer) => void (need(this.panels, type).real = serializer),
      textDocumentContent: (scheme, provider) => need(this.contents, scheme).attach(provider),
      notebookSerializer: (type, serializer) => void (need(this.notebooks, type).real = serializer),
      fileSystem: (scheme, provider) => need(this.fileSystems, scheme).attach(provider),
      authenticationProvider: (id, provider) => need(this.authentication, id).attach(provider),
    };
  }

  dispose(): void {
    for (const list of [...this.stubs.values(), ...this.loaded.values()]) for (const d of list) d.dispose();
    for (const d of this.registrations) d.dispose();
    this.stubs.clear();
    this.loaded.clear();
  }
}
