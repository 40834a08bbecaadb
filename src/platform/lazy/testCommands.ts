// Test seams: the internal commands host tests call before they have used a feature. They are stubs like
// the contributed ones (the first call loads the feature), and exist only under ExtensionMode.Test.
// test/unit/platform/lazyTestCommands.test.ts checks that every `_test` command a feature registers is here.
import type { Feature } from './chunks';

export const TEST_COMMANDS: Record<Feature, readonly string[]> = {
  discovery: [
    'apiWorkbench._testDiscoveryAnswerTimes',
    'apiWorkbench._testDiscoveryPreviewGoto',
    'apiWorkbench._testDiscoveryPreviewMessage',
    'apiWorkbench._testDiscoveryPreviewPosted',
    'apiWorkbench.directory._testChildren',
  ],
  storage: [
    'apiWorkbench.storage._testAddComment',
    'apiWorkbench.storage._testChildren',
    'apiWorkbench.storage._testClient',
    'apiWorkbench.storage._testComments',
    'apiWorkbench.storage._testConflictChoice',
    'apiWorkbench.storage._testConflictPrompts',
    'apiWorkbench.storage._testConnectError',
    'apiWorkbench.storage._testFaults',
    'apiWorkbench.storage._testLoadMore',
    'apiWorkbench.storage._testResolve',
    'apiWorkbench.storage._testRun',
    'apiWorkbench.storage._testRunMany',
    'apiWorkbench.storage._testSignedInContext',
    'apiWorkbench.storage._testUri',
    'apiWorkbench.storage._testViewDescription',
    'apiWorkbench.storage._testWatchNotifications',
  ],
  generation: [
    'apiWorkbench.generation._testDecide',
    'apiWorkbench.generation._testEditorChat',
    'apiWorkbench.generation._testGridDiff',
    'apiWorkbench.generation._testGridExport',
    'apiWorkbench.generation._testGridOpenInChat',
    'apiWorkbench.generation._testGridStop',
    'apiWorkbench.generation._testGridWait',
    'apiWorkbench.generation._testLastRendered',
    'apiWorkbench.generation._testNewChat',
    'apiWorkbench.generation._testReload',
    'apiWorkbench.generation._testSend',
    'apiWorkbench.generation._testSettings',
    'apiWorkbench.generation._testStop',
    'apiWorkbench.generation._testWaitFinal',
    'apiWorkbench.generation._testWaitNextFinal',
    'apiWorkbench.generation._testWaitRendered',
  ],
  waterData: [],
};
