// Forwarding shells for what VS Code needs registered from activation on. Each shell loads its feature
// (synchronously: the chunks are CommonJS) on the first call VS Code makes, and from then on forwards
// every call to the implementation the feature handed over.
import * as vscode from 'vscode';

/** Loads the feature that fills this shell; afterwards `real` is set (or loading threw). */
type Ensure = () => void;

function missing(what: string): Error {
  return new Error(`API Workbench: ${what} is not available (its feature failed to load)`);
}

export class TreeShell implements vscode.TreeDataProvider<unknown> {
  private real: vscode.TreeDataProvider<unknown> | undefined;
  private realDnd: vscode.TreeDragAndDropController<unknown> | undefined;
  private readonly changed = new vscode.EventEmitter<unknown>();
  private forwarding: vscode.Disposable | undefined;
  readonly onDidChangeTreeData = this.changed.event;
  readonly view: vscode.TreeView<unknown>;

  constructor(
    viewId: string,
    private readonly ensure: Ensure,
    options: {
      showCollapseAll?: boolean;
      canSelectMany?: boolean;
      dragMimeTypes?: string[];
      dropMimeTypes?: string[];
      /** A parent's checkbox does not follow its children's (the feature decides what a click means). */
      manageCheckboxStateManually?: boolean;
    },
  ) {
    const { dragMimeTypes, dropMimeTypes, ...rest } = options;
    // Drag and drop mime types are fixed when the view is created, so the shell declares the feature's.
    const dnd: vscode.TreeDragAndDropController<unknown> | undefined =
      dragMimeTypes || dropMimeTypes
        ? {
            dragMimeTypes: dragMimeTypes ?? [],
            dropMimeTypes: dropMimeTypes ?? [],
            handleDrag: (source, data, token) => this.dnd().handleDrag?.(source, data, token),
            handleDrop: (target, data, token) => this.dnd().handleDrop?.(target, data, token),
          }
        : undefined;
    this.view = vscode.window.createTreeView(viewId, { ...rest, treeDataProvider: this, dragAndDropController: dnd });
  }

  attach<T>(provider: vscode.TreeDataProvider<T>, dnd?: vscode.TreeDragAndDropController<T>): vscode.TreeView<T> {
    this.real = provider;
    this.realDnd = dnd;
    this.forwarding?.dispose();
    this.forwarding = provider.onDidChangeTreeData?.((e) => this.changed.fire(e));
    this.changed.fire(undefined);
    // The shell only ever hands VS Code elements the real provider produced, so the view's are of type T.
    return this.view as vscode.TreeView<T>;
  }

  private provider(): vscode.TreeDataProvider<unknown> {
    if (!this.real) this.ensure();
    if (!this.real) throw missing(`view ${this.view.title ?? ''}`);
    return this.real;
  }

  private dnd(): vscode.TreeDragAndDropController<unknown> {
    this.provider();
    if (!this.realDnd) throw missing('drag and drop');
    return this.realDnd;
  }

  getChildren(element?: unknown): vscode.ProviderResult<unknown[]> {
    return this.provider().getChildren(element);
  }

  getTreeItem(element: unknown): vscode.TreeItem | Thenable<vscode.TreeItem> {
    return this.provider().getTreeItem(element);
  }

  getParent(element: unknown): vscode.ProviderResult<unknown> {
    return this.provider().getParent?.(element);
  }

  dispose(): void {
    this.forwarding?.dispose();
    this.changed.dispose();
    this.view.dispose();
  }
}

export class WebviewViewShell implements vscode.WebviewViewProvider {
  real: vscode.WebviewViewProvider | undefined;
  constructor(private readonly ensure: Ensure) {}

  resolveWebviewView(
    view: vscode.WebviewView,
    context: vscode.WebviewViewResolveContext,
    token: vscode.CancellationToken,
  ): void | Thenable<void> {
    if (!this.real) this.ensure();
    if (!this.real) throw missing('view');
    return this.real.resolveWebviewView(view, context, token);
  }
}

export class WebviewPanelSerializerShell implements vscode.WebviewPanelSerializer {
  real: vscode.WebviewPanelSerializer | undefined;
  constructor(private readonly ensure: Ensure) {}

  /** VS Code restores a panel of this type from the last session: the feature loads and takes it over. */
  deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Thenable<void> {
    if (!this.real) this.ensure();
    if (!this.real) throw missing('editor panel');
    return this.real.deserializeWebviewPanel(panel, state);
  }
}

export class ContentProviderShell implements vscode.TextDocumentContentProvider {
  private real: vscode.TextDocumentContentProvider | undefined;
  private forwarding: vscode.Disposable | undefined;
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  constructor(private readonly ensure: Ensure) {}

  attach(provider: vscode.TextDocumentContentProvider): void {
    this.real = provider;
    this.forwarding?.dispose();
    this.forwarding = provider.onDidChange?.((uri) => this.changed.fire(uri));
  }

  provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): vscode.ProviderResult<string> {
    if (!this.real) this.ensure();
    if (!this.real) throw missing(`documents of ${uri.scheme}:`);
    return this.real.provideTextDocumentContent(uri, token);
  }

  dispose(): void {
    this.forwarding?.dispose();
    this.changed.dispose();
  }
}

export class NotebookSerializerShell implements vscode.NotebookSerializer {
  real: vscode.NotebookSerializer | undefined;
  constructor(private readonly ensure: Ensure) {}

  private get(): vscode.NotebookSerializer {
    if (!this.real) this.ensure();
    if (!this.real) throw missing('notebook serializer');
    return this.real;
  }

  deserializeNotebook(
    content: Uint8Array,
    token: vscode.CancellationToken,
  ): vscode.NotebookData | Thenable<vscode.NotebookData> {
    return this.get().deserializeNotebook(content, token);
  }

  serializeNotebook(data: vscode.NotebookData, token: vscode.CancellationToken): Uint8Array | Thenable<Uint8Array> {
    return this.get().serializeNotebook(data, token);
  }
}

export class FileSystemShell implements vscode.FileSystemProvider {
  private real: vscode.FileSystemProvider | undefined;
  private forwarding: vscode.Disposable | undefined;
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  constructor(private readonly ensure: Ensure) {}

  attach(provider: vscode.FileSystemProvider): void {
    this.real = provider;
    this.forwarding?.dispose();
    this.forwarding = provider.onDidChangeFile((e) => this.changed.fire(e));
  }

  private get(): vscode.FileSystemProvider {
    if (!this.real) this.ensure();
    if (!this.real) throw missing('file system');
    return this.real;
  }

  watch(uri: vscode.Uri, options: { readonly recursive: boolean; readonly excludes: readonly string[] }) {
    return this.get().watch(uri, options);
  }
  stat(uri: vscode.Uri) {
    return this.get().stat(uri);
  }
  readDirectory(uri: vscode.Uri) {
    return this.get().readDirectory(uri);
  }
  createDirectory(uri: vscode.Uri) {
    return this.get().createDirectory(uri);
  }
  readFile(uri: vscode.Uri) {
    return this.get().readFile(uri);
  }
  writeFile(uri: vscode.Uri, content: Uint8Array, options: { readonly create: boolean; readonly overwrite: boolean }) {
    return this.get().writeFile(uri, content, options);
  }
  delete(uri: vscode.Uri, options: { readonly recursive: boolean }) {
    return this.get().delete(uri, options);
  }
  rename(oldUri: vscode.Uri, newUri: vscode.Uri, options: { readonly overwrite: boolean }) {
    return this.get().rename(oldUri, newUri, options);
  }
  copy(source: vscode.Uri, destination: vscode.Uri, options: { readonly overwrite: boolean }) {
    const real = this.get();
    if (!real.copy) throw vscode.FileSystemError.Unavailable(source);
    return real.copy(source, destination, options);
  }

  dispose(): void {
    this.forwarding?.dispose();
    this.changed.dispose();
  }
}

export class AuthenticationShell implements vscode.AuthenticationProvider {
  private real: vscode.AuthenticationProvider | undefined;
  private forwarding: vscode.Disposable | undefined;
  private readonly changed = new vscode.EventEmitter<vscode.AuthenticationProviderAuthenticationSessionsChangeEvent>();
  readonly onDidChangeSessions = this.changed.event;
  /**
   * VS Code asks every provider for its sessions as soon as it is registered (the Accounts menu): until the
   * feature is loaded the shell answers from whether a session is stored at all, so that question loads nothing.
   */
  constructor(
    private readonly ensure: Ensure,
    private readonly anyStored: () => Thenable<boolean>,
  ) {}

  attach(provider: vscode.AuthenticationProvider): void {
    this.real = provider;
    this.forwarding?.dispose();
    this.forwarding = provider.onDidChangeSessions((e) => this.changed.fire(e));
  }

  private get(): vscode.AuthenticationProvider {
    if (!this.real) this.ensure();
    if (!this.real) throw missing('authentication provider');
    return this.real;
  }

  async getSessions(
    scopes: readonly string[] | undefined,
    options: vscode.AuthenticationProviderSessionOptions,
  ): Promise<vscode.AuthenticationSession[]> {
    if (!this.real && !(await this.anyStored())) return [];
    return this.get().getSessions(scopes, options);
  }
  createSession(scopes: readonly string[], options: vscode.AuthenticationProviderSessionOptions) {
    return this.get().createSession(scopes, options);
  }
  removeSession(sessionId: string) {
    return this.get().removeSession(sessionId);
  }

  dispose(): void {
    this.forwarding?.dispose();
    this.changed.dispose();
  }
}
